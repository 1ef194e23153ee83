// Multiple render targets (the mid-2000s step: four targets on a GeForce 6, GL 2.0 draw buffers).
// Idea: each fragment computes a whole 4 x 4 block of C and writes its four rows to four
// RGBA32F targets, so every texel fetched feeds many multiply-adds: per 4-k step 8 fetches
// (four texels of A, four of B) feed 64 FMAs. M, N, K are padded to multiples of 4.
// Layout: A is (K/4) x M RGBA32F, texel (kq, i) = A[i][4kq .. 4kq+3] (four consecutive k of a
// row); B is (N/4) x K, texel (jq, k) = B[k][4jq .. 4jq+3] (four consecutive columns of a row);
// target r (r = 0..3) is (N/4) x (M/4), texel (jq, iq) = C[4iq + r][4jq .. 4jq+3].
// Each fragment: for kq in its pass's range, C_row_r += sum_s A[4iq+r][4kq+s] * B_row(4kq+s).
// k-chunked passes accumulate by additive blending (GL_ONE, GL_ONE) into the cleared targets.
// What bounds it: texture fetches, 0.125 per FMA (on the H100 about 4 RGBA32F fetches per clock
// per SM, on the 4 SMs fragment shaders get).
#version 330 core

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_k0;    // first kq (= k / 4) of this pass
uniform int u_klen;  // kq values in this pass

layout(location = 0) out vec4 o_c0;
layout(location = 1) out vec4 o_c1;
layout(location = 2) out vec4 o_c2;
layout(location = 3) out vec4 o_c3;

void main() {
  ivec2 q = ivec2(gl_FragCoord.xy);  // (jq, iq)
  int i0 = 4 * q.y;
  vec4 c0 = vec4(0.0), c1 = vec4(0.0), c2 = vec4(0.0), c3 = vec4(0.0);
  for (int kq = u_k0; kq < u_k0 + u_klen; ++kq) {
    vec4 a0 = texelFetch(u_a, ivec2(kq, i0 + 0), 0);
    vec4 a1 = texelFetch(u_a, ivec2(kq, i0 + 1), 0);
    vec4 a2 = texelFetch(u_a, ivec2(kq, i0 + 2), 0);
    vec4 a3 = texelFetch(u_a, ivec2(kq, i0 + 3), 0);
    int k = 4 * kq;
    vec4 b0 = texelFetch(u_b, ivec2(q.x, k + 0), 0);
    vec4 b1 = texelFetch(u_b, ivec2(q.x, k + 1), 0);
    vec4 b2 = texelFetch(u_b, ivec2(q.x, k + 2), 0);
    vec4 b3 = texelFetch(u_b, ivec2(q.x, k + 3), 0);
    c0 += a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
    c1 += a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
    c2 += a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
    c3 += a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
  }
  o_c0 = c0;
  o_c1 = c1;
  o_c2 = c2;
  o_c3 = c3;
}
