// RGBA packing (Hall, Carr & Hart, "Cache and Bandwidth Aware Matrix Multiplication on the
// GPU", 2003; Fatahalian, Sugerman & Hanrahan, "Understanding the Efficiency of GPU Algorithms
// for Matrix-Matrix Multiplication", Graphics Hardware 2004).
// Idea: a 2 x 2 block of a matrix in one RGBA32F texel, (r, g, b, a) = (x00, x01, x10, x11);
// a fragment computes a 2 x 2 block of C, so each pair of fetched texels feeds 8 multiply-adds
// (4 x fewer fetches per FMA than one scalar output per fragment). M, N, K are padded to even
// sizes with zeros.
// Layout: A is (K/2) x (M/2) (texel (kb, ib) = A's block at rows 2ib.., columns 2kb..); B is
// (N/2) x (K/2); the target is (N/2) x (M/2), one 2 x 2 block of C per texel.
// Each fragment: for kb in its pass's range, C_blk += A_blk(ib, kb) * B_blk(kb, jb), written
// with swizzles as Fatahalian et al. did. What bounds it: texture fetches (0.25 per FMA).
#version 330 core

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_k0;    // first block column of A (= k / 2) of this pass
uniform int u_klen;  // blocks in this pass

out vec4 o_c;

void main() {
  ivec2 blk = ivec2(gl_FragCoord.xy);  // (jb, ib)
  vec4 c = vec4(0.0);
  for (int kb = u_k0; kb < u_k0 + u_klen; ++kb) {
    vec4 a = texelFetch(u_a, ivec2(kb, blk.y), 0);
    vec4 b = texelFetch(u_b, ivec2(blk.x, kb), 0);
    // c00 += a00 b00 + a01 b10, c01 += a00 b01 + a01 b11, c10 += a10 b00 + a11 b10, ...
    c += a.xxzz * b.xyxy + a.yyww * b.zwzw;
  }
  o_c = c;
}
