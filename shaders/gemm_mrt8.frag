// Eight render targets, a 4 x 8 block of C per fragment (GL 3.3 core guarantees 8 draw buffers).
// Idea: the mrt mode's 4 x 4 block widened to 4 x 8, so each fetched texel feeds more
// multiply-adds: per 4-k step 12 fetches (four texels of A, eight of B) feed 128 FMAs
// (0.09375 fetches per FMA, against mrt's 0.125). M and K are padded to multiples of 4, N to 8.
// Source: the multiple-render-target GEMMs of the GeForce 8 era (GL 2.0 draw buffers, 8 targets),
// and this project's H100 probe (docs/gpu-machine.md, "What bounds a fragment-shader GEMM").
// Layout (as mrt): A is (K/4) x M RGBA32F, texel (kq, i) = A[i][4kq .. 4kq+3] (four consecutive
// k of a row); B is (N/4) x K, texel (jq, k) = B[k][4jq .. 4jq+3] (four consecutive columns of a
// row); target t = 2r + h (r = 0..3, h = 0..1) is (N/8) x (M/4), texel (jo, iq) =
// C[4iq + r][8jo + 4h .. 8jo + 4h + 3].
// Each fragment (jo, iq): for kq in its pass's range,
//   C[4iq + r][8jo + 4h ..] += sum_s A[4iq + r][4kq + s] * B[4kq + s][8jo + 4h ..].
// Its block's columns are contiguous, so within a 2 x 2 pixel quad the x-neighbours fetch B
// texels 2 apart on the same row (and the same A texels), the y-neighbours A rows 4 apart (and
// the same B texels): every fetch of the quad stays within a few texels (a block whose halves
// lie far apart, e.g. columns jo and jo + N/8, stalls the texture unit even from cache).
// k-chunked passes accumulate by additive blending (GL_ONE, GL_ONE) into the cleared targets.
// What bounds it: texture fetches, 0.09375 per FMA: on the H100 about 4 RGBA32F fetches per
// clock per SM on the 4 SMs fragment shaders get, so 4 x (256 / 12) x 4 x clock flop/s, about
// 680 GFLOP/s at 2 GHz; the probe reached 640-670.
#version 330 core

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_k0;    // first kq (= k / 4) of this pass
uniform int u_klen;  // kq values in this pass

layout(location = 0) out vec4 o_c0;  // row 0, columns 0-3 of the block
layout(location = 1) out vec4 o_c1;  // row 0, columns 4-7
layout(location = 2) out vec4 o_c2;  // row 1, columns 0-3
layout(location = 3) out vec4 o_c3;
layout(location = 4) out vec4 o_c4;  // row 2
layout(location = 5) out vec4 o_c5;
layout(location = 6) out vec4 o_c6;  // row 3
layout(location = 7) out vec4 o_c7;

void main() {
  ivec2 q = ivec2(gl_FragCoord.xy);  // (jo, iq)
  int i0 = 4 * q.y;
  int j0 = 2 * q.x;  // first of the two B texels (jq) of this block
  vec4 c0 = vec4(0.0), c1 = vec4(0.0), c2 = vec4(0.0), c3 = vec4(0.0);
  vec4 c4 = vec4(0.0), c5 = vec4(0.0), c6 = vec4(0.0), c7 = vec4(0.0);
  for (int kq = u_k0; kq < u_k0 + u_klen; ++kq) {
    vec4 a0 = texelFetch(u_a, ivec2(kq, i0 + 0), 0);
    vec4 a1 = texelFetch(u_a, ivec2(kq, i0 + 1), 0);
    vec4 a2 = texelFetch(u_a, ivec2(kq, i0 + 2), 0);
    vec4 a3 = texelFetch(u_a, ivec2(kq, i0 + 3), 0);
    int k = 4 * kq;
    vec4 b0 = texelFetch(u_b, ivec2(j0, k + 0), 0);
    vec4 e0 = texelFetch(u_b, ivec2(j0 + 1, k + 0), 0);
    vec4 b1 = texelFetch(u_b, ivec2(j0, k + 1), 0);
    vec4 e1 = texelFetch(u_b, ivec2(j0 + 1, k + 1), 0);
    vec4 b2 = texelFetch(u_b, ivec2(j0, k + 2), 0);
    vec4 e2 = texelFetch(u_b, ivec2(j0 + 1, k + 2), 0);
    vec4 b3 = texelFetch(u_b, ivec2(j0, k + 3), 0);
    vec4 e3 = texelFetch(u_b, ivec2(j0 + 1, k + 3), 0);
    c0 += a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
    c1 += a0.x * e0 + a0.y * e1 + a0.z * e2 + a0.w * e3;
    c2 += a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
    c3 += a1.x * e0 + a1.y * e1 + a1.z * e2 + a1.w * e3;
    c4 += a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
    c5 += a2.x * e0 + a2.y * e1 + a2.z * e2 + a2.w * e3;
    c6 += a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
    c7 += a3.x * e0 + a3.y * e1 + a3.z * e2 + a3.w * e3;
  }
  o_c0 = c0;
  o_c1 = c1;
  o_c2 = c2;
  o_c3 = c3;
  o_c4 = c4;
  o_c5 = c5;
  o_c6 = c6;
  o_c7 = c7;
}
