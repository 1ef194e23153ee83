// Multipass accumulation (Larsen & McAllister, "Fast Matrix Multiplies using Graphics
// Hardware", SC 2001).
// Idea: one output element of C per fragment; the k-sum is split into chunks and each
// rendering pass adds one chunk's partial dot product into the float target. Larsen and
// McAllister had 8-bit framebuffers and one multiply per pass; the engine uses additive
// blending (GL_ONE, GL_ONE) into a cleared GL_R32F target, so no ping-pong between two
// targets is needed: the blender reads the old value for us.
// Layout: A is a K x M GL_R32F texture (texel (k, i) = A[i][k]); B is N x K (texel (j, k) =
// B[k][j]); the target is N x M (texel (j, i) = C[i][j]).
// Each fragment: sum over k in [u_k0, u_k0 + u_klen) of A[i][k] * B[k][j], two scalar fetches
// per multiply-add. What bounds it: texture fetches (2 per FMA, one float each).
#version 330 core

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_k0;    // first k of this pass
uniform int u_klen;  // k values in this pass

out vec4 o_c;

void main() {
  ivec2 ji = ivec2(gl_FragCoord.xy);  // (column j, row i) of C
  float sum = 0.0;
  for (int k = u_k0; k < u_k0 + u_klen; ++k) {
    sum += texelFetch(u_a, ivec2(k, ji.y), 0).r * texelFetch(u_b, ivec2(ji.x, k), 0).r;
  }
  o_c = vec4(sum, 0.0, 0.0, 0.0);
}
