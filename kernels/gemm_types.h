// The vocabulary every part of tilescope shares: which product, which precision, which sizes,
// which tile configuration. Plain C++ (no CUDA), so the CLI, the tests and later the UI can
// use it on a machine without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {

// The two problems of the product card.
//   Gemm: C (M x N) = A (M x K) * B (K x N), all row-major.
//   Ata:  C (N x N) = A^T * A with A (K x N) row-major (the seed project's problem);
//         C is symmetric, M == N.
enum class Problem { Gemm, Ata };
enum class Precision { F32, F64 };

const char* to_string(Problem p);    // "gemm" | "ata"
const char* to_string(Precision p);  // "f32" | "f64"
bool parse_problem(const std::string& text, Problem* out);
bool parse_precision(const std::string& text, Precision* out);
inline std::size_t element_bytes(Precision p) {
  return p == Precision::F32 ? 4 : 8;
}

struct Shape {
  std::int64_t M = 0, N = 0, K = 0;
};
// "1024x512x256": M x N x K, as tables and progress lines write a shape.
std::string shape_text(const Shape& s);

// How many pieces of length b (> 0) cover a: tiles, blocks, chunks. Usable in device code too
// (nvcc --expt-relaxed-constexpr).
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// The median of a run's times (the mean of the two middle ones for an even count); values
// must not be empty.
double median_of(std::vector<double> values);

// Sizes of the operands as stored, in elements.
std::int64_t a_elements(Problem p, const Shape& s);  // Gemm: M*K, Ata: K*N
std::int64_t b_elements(Problem p, const Shape& s);  // Gemm: K*N, Ata: 0 (B is A)
std::int64_t c_elements(Problem p, const Shape& s);  // M*N
// Work counted the same way for every variant of a problem: 2*M*N*K (Ata: 2*N*N*K), so a
// variant that skips the lower triangle (syrk, regtile_prefetch) is credited with the full product.
double flop_count(Problem p, const Shape& s);
// Ata has one free output size: M is forced to N. Returns the normalised shape.
Shape normalised(Problem p, Shape s);

// Which part of C a configuration writes. A variant that writes only the upper triangle of
// a symmetric C (cublas syrk) is verified on that triangle only.
enum class OutputPart { Full, UpperTriangle };

// One compiled configuration of a variant. Tile names follow the literature:
// BM x BN block tile of C, BK-deep slabs of A and B, TM x TN outputs per thread.
struct TileConfig {
  std::string name;  // stable id used on the command line and in CSV: "16", "128x128x8_8x8"
  int bm = 0, bn = 0, bk = 0;
  int tm = 1, tn = 1;
  int threads_x = 0, threads_y = 0;  // block shape (0 for cuBLAS)
  const char* math = "";             // what arithmetic it uses, stated for the user
  bool opt_in = false;               // run only when named explicitly (TF32 tensor cores)
  int engine_mode = 0;               // variants drawn by an external engine: which of its modes
  bool tf32 = false;                 // float inputs rounded to TF32 (10-bit mantissa) by the tensor cores
  OutputPart output = OutputPart::Full;
  int threads() const { return threads_x * threads_y; }
};

// What the device allows; filled from cudaGetDeviceProperties on a GPU, or by hand in tests.
struct DeviceLimits {
  int max_threads_per_block = 1024;
  std::size_t shared_per_block_default = 48 * 1024;  // without opt-in
  std::size_t shared_per_block_optin = 48 * 1024;    // with cudaFuncAttributeMaxDynamicSharedMemorySize
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int compute_capability = 0;  // major * 10 + minor (90 for Hopper); 0 = unknown (not checked)
};

}  // namespace tilescope
