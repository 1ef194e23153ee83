// The vocabulary every part of tilescope shares: which product, which precision, which sizes,
// which tile configuration. Plain C++ (no CUDA), so the CLI, the tests and later the UI can
// use it on a machine without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/enum_names.h"   // how the vocabulary's enums are named, in both directions
#include "kernels/core/gemm_basics.h"  // Problem, Precision, ceil_div: device code uses them too

namespace tilescope {

const char* to_string(Problem p);    // "gemm" | "ata"
const char* to_string(Precision p);  // "f32" | "f64" | "tf32" | "f16" | "bf16"
bool parse_problem(const std::string& text, Problem* out);
bool parse_precision(const std::string& text, Precision* out);

// The facts of one input type, written once (gemm_types.cpp's table); everything that differs
// between precisions asks here.
struct PrecisionFacts {
  Precision precision;
  const char* name;         // to_string's word: command line, CSV, settings
  const char* label;        // for the user: "float", "TF32 (float storage, 10-bit mantissa)"
  const char* description;  // one sentence for a tooltip
  std::size_t input_bytes;  // bytes of one stored element of A and B
  bool double_output;       // C and the accumulation in double (f64) rather than float
  int significand_bits;     // precision p of the input type (with the implicit bit): u = 2^-p
  int min_tensor_core_cc;   // oldest compute capability (x10) whose tensor cores take it; 0: none needed
  bool has_fma_peak;        // the plain FMA peak of device_info.h applies (f32, f64)
};
const PrecisionFacts& precision_facts(Precision p);
// All input types, in the order menus and help texts list them.
const std::vector<Precision>& all_precisions();
// "f32, f64, tf32, f16, bf16" (with `separator` between the names).
std::string precision_names(const char* separator);

// Bytes of one element of A and B as stored.
inline std::size_t element_bytes(Precision p) {
  return precision_facts(p).input_bytes;
}
// The type C is stored in: the accumulator's (float, or double for f64), or, where a configuration
// says so (TileConfig::c_in_input_type), the 16-bit input type itself, each element rounded once
// from its FP32 accumulator, as libraries write C for the tensor cores' types.
enum class OutputType { F32, F64, F16, BF16 };
const char* to_string(OutputType t);  // "f32" | "f64" | "f16" | "bf16": the CSV's c_type
bool parse_output_type(const std::string& text, OutputType* out);
// C's type for input type p: the accumulator's, or with c_in_input_type (f16, bf16 only) p's own.
OutputType output_type(Precision p, bool c_in_input_type);
// Whether an input type may store C in its own type: the 16-bit ones (tf32 is stored as float already).
bool has_narrow_output(Precision p);
std::size_t output_bytes(OutputType t);
// Bytes of one element of C as the accumulator stores it (float, or double for f64).
inline std::size_t output_bytes(Precision p) {
  return output_bytes(output_type(p, false));
}
// The unit roundoff of C's own rounding on the way out: 0 where C keeps the accumulator's type, 2^-11
// (f16) or 2^-8 (bf16) where it is narrower.
double output_unit_roundoff(Precision p, OutputType t);
// The value of one stored element of C of type t (its bytes at `element`), exactly, as a double.
double stored_output_value(const void* element, OutputType t);
// The unit roundoff of the input type: 2^-24 (f32), 2^-53 (f64), 2^-11 (tf32, f16), 2^-8 (bf16).
double input_unit_roundoff(Precision p);
// The unit roundoff of the accumulation: 2^-53 for f64, 2^-24 (FP32) for every other type.
double accumulation_unit_roundoff(Precision p);

struct Shape {
  std::int64_t M = 0, N = 0, K = 0;
};
// "1024x512x256": M x N x K, as tables and progress lines write a shape.
std::string shape_text(const Shape& s);

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
// A kernel template's parameters by name, in the variant's order: {{"bm", 96}, {"bn", 80}}
// (kernels/core/typed_configs.h).
using TileValues = std::vector<std::pair<std::string, int>>;

struct TileConfig {
  std::string name = {};  // stable id used on the command line and in CSV: "16", "128x128x8_8x8"
  // One line on what this configuration is or changes, where a learner meets its name (the
  // configuration combo's tooltip, `bench --list`): "per-stage mbarriers instead of one barrier".
  std::string description = {};
  int bm = 0, bn = 0, bk = 0;
  int tm = 1, tn = 1;
  int threads_x = 0, threads_y = 0;  // block shape (0 for cuBLAS)
  int warp_m = 0, warp_n = 0;        // tensor-core kernels: the warp tile of C (0: not warp-tiled)
  int stages = 0;                    // buffers of a cp.async ring (0: none)
  // Blocks launched as one thread-block cluster, one tile above the other in a block column, each
  // copying 1 / cluster_m of their common B slab into all their shared memories (TMA multicast).
  int cluster_m = 1;
  // Warps that hold one warp tile together (a warpgroup's wgmma: 4; mma.sync and wmma: 1).
  int group_warps = 1;
  // A 2-D grid whose blocks take their tiles in block_order.h's bands (AᵀA: a 1-D grid of the
  // upper triangle); the warp-tiled kernels' 1-D grids always do.
  bool banded = false;
  // Block rows per band of that order (block_order.h's kGroupRows unless a configuration says so).
  int band_rows = 8;
  // What a block does where it is not one tile of C per block, in words that follow "blocks of N
  // warps, " (persistent kernels: "one per multiprocessor, each walking 128 x 256 tiles of C one after
  // another"); empty: each block computes one bm x bn tile.
  std::string block_work = {};
  const char* math = "";  // what arithmetic it uses, stated for the user
  bool opt_in = false;    // run only when named explicitly (TF32 tensor cores)
  int engine_mode = 0;    // variants drawn by an external engine: which of its modes
  bool tf32 = false;      // float inputs rounded to TF32 (10-bit mantissa) by the tensor cores
  OutputPart output = OutputPart::Full;
  // C stored in the 16-bit input type (gemm_types.h: OutputType), rounded from the FP32 accumulators:
  // half C's bytes, and the bar of "% of cuBLAS" is cuBLAS writing C so too.
  bool c_in_input_type = false;
  // How many times such a C is rounded to its type: once, from the accumulators (the kernels here),
  // or twice where partial sums over K are stored in the type first (a library's split K: cuBLAS's
  // GemmEx writing bf16 or f16 C measured 1.3 of the type's unit roundoff at 517 and 1023).
  int c_roundings = 1;
  // A tile a learner typed (compiled at run time): every parameter of the kernel text; empty for
  // the compiled set.
  TileValues typed = {};
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
