// Blocked passes (Govindaraju, Larsen, Gray & Manocha, "A Memory Model for Scientific
// Algorithms on Graphics Processors", SC 2006).
// Idea: cache blocking by drawing. C is cut into T x T tiles; the engine draws one quad per
// tile and per D-long k-block (viewport and scissor set to the tile), all k-blocks of a tile
// before the next tile, so a pass touches only a T x D strip of A and a D x T strip of B —
// small enough to stay in the texture cache. Partial sums are added by blending
// (GL_ONE, GL_ONE) into a cleared GL_R32F target.
// Layout: as multipass (A: K x M, B: N x K, target N x M, one float per texel).
// Each fragment: a D-long partial dot product, sum over k in [u_k0, u_k0 + u_klen) of
// A[i][k] * B[k][j]. What bounds it: texture fetches (2 per FMA) and, on old hardware, the
// texture cache the blocking is there for; many small draws add per-pass overhead.
#version 330 core

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_k0;    // first k of this k-block
uniform int u_klen;  // D, or less for the last block

out vec4 o_c;

void main() {
  ivec2 ji = ivec2(gl_FragCoord.xy);  // window coordinates: (j, i) whatever the tile
  float sum = 0.0;
  for (int k = u_k0; k < u_k0 + u_klen; ++k) {
    sum += texelFetch(u_a, ivec2(k, ji.y), 0).r * texelFetch(u_b, ivec2(ji.x, k), 0).r;
  }
  o_c = vec4(sum, 0.0, 0.0, 0.0);
}
