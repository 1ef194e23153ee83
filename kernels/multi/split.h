// A product split across the GPUs of one machine, as the rest of the program sees it: one
// descriptor per way of splitting, defined in its own launch file (kernels/multi/splits/) and
// listed once in the split registry (split_registry.h). A split decides where the pieces of A, B
// and C lie (its layout), what travels between the GPUs and when; each GPU multiplies its pieces
// with a single-GPU variant the learner picks (the "kernel" of the run: ours or cuBLAS), through
// that variant's own launch. Nothing outside a split's file decides by its id or configuration names.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/cuda/nccl_api.h"
#include "kernels/multi/split_layout.h"
#include "kernels/multi/split_model.h"

struct CUstream_st;
struct cublasContext;

namespace tilescope {

struct VariantDescriptor;  // variant.h
class SpanRecorder;        // span_recorder.h

// One GPU's place in a split run: its device, its two streams (products on one, transfers on the
// other, so that they can overlap), its library handles and the buffers of its layout.
struct GpuShare {
  int device = 0;
  CUstream_st* compute = nullptr;
  CUstream_st* transfer = nullptr;
  cublasContext* cublas = nullptr;
  NcclComm comm = nullptr;  // its rank in the group's communicator (null when the split needs none)
  // A split over a grid of GPUs (SplitDescriptor::grid): its rank among the GPUs of its grid row
  // (rank = its column) and of its grid column (rank = its row), for broadcasts along them.
  NcclComm row_comm = nullptr;
  NcclComm col_comm = nullptr;
  void* a = nullptr;  // A's, B's and C's buffers as GpuLayout sizes them
  void* b = nullptr;
  void* c = nullptr;
  void* scratch = nullptr;
};

// Everything a split's launch needs. The kernel is what each GPU multiplies with.
struct SplitArgs {
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  const VariantDescriptor* kernel = nullptr;
  int kernel_config = 0;
  OutputType c_type = OutputType::F32;  // the type the kernel stores C in
  std::vector<GpuShare> gpus;           // rank order: gpus[0] is the root (where C is gathered)
  SplitLayout layout;
  SpanRecorder* spans = nullptr;  // marks each piece (a product, a transfer) on its GPU and stream
};

// What a split is asked to do, for its refusal and its layout.
struct SplitQuery {
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int gpus = 1;
  const VariantDescriptor* kernel = nullptr;
  int kernel_config = 0;
};

struct SplitConfig {
  std::string name;
  std::string description;
  // AᵀA: the split delivers C's upper triangle alone (the seed's problem), whatever the kernel
  // writes of the lower one on a GPU's own blocks; the check compares that triangle.
  bool upper_triangle_only = false;
};

struct SplitDescriptor {
  const char* id = "";       // command line, CSV
  const char* label = "";    // tables and legends
  const char* summary = "";  // a paragraph: what travels, when, and what to look for
  std::vector<SplitConfig> configs;
  std::vector<Problem> problems = {Problem::Gemm};
  bool needs_nccl = true;
  // The library multiplies the pieces itself (cuBLASXt): the run's kernel is the library's, whatever
  // the learner picked; kernel_of gives it (the baseline and its configuration for the problem).
  bool own_kernel = false;
  // Timed by the host's clock around the call (a library that synchronises on its own), not by
  // CUDA events on the streams.
  bool host_timed = false;

  // A split over a grid of GPUs: true, and the grid's rows and columns for `gpus` GPUs (rank = row *
  // columns + column), whose rows and columns get communicators of their own; false (or nullptr):
  // the configuration has no grid.
  bool (*grid)(int gpus, int config, int* rows, int* cols) = nullptr;
  // Why this split cannot run the query ("" = it can), beyond the problems and NCCL.
  std::string (*refuses)(const SplitQuery&, int config) = nullptr;
  // Where the pieces lie (one GpuLayout per GPU, rank order).
  SplitLayout (*layout)(const SplitQuery&, int config) = nullptr;
  // Enqueues one product on the GPUs' streams (or runs it, host_timed). Throws GpuError.
  void (*launch)(const SplitArgs&, int config) = nullptr;
  // Its time on q.gpus GPUs from the machine's figures (split_model.h), following its own schedule;
  // nullptr where the schedule is not ours to know (a library's).
  SplitPrediction (*predict)(const SplitQuery&, int config, const MachineFigures&) = nullptr;
};

// "" when config_index names a configuration of s, else why not.
std::string split_config_error(const SplitDescriptor& s, int config_index);
bool supports(const SplitDescriptor& s, Problem p);

}  // namespace tilescope
