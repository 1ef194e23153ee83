// The mapping model of a variant: plain C++ that says, for a problem and a tile configuration,
// which block and thread compute each element of C, which tiles of A and B each block brings
// into shared memory in each phase of the K loop, and how many times each element of A and B is
// read from global memory. The mapping view draws it; the instrumented kernels (a trace build of
// the very kernels that are timed) must agree with it exactly — a GPU test checks that, so what
// a class sees is what the kernel did.
//
// Conventions: matrices as stored, row-major. Gemm: A is M x K, B is K x N. AᵀA: A is K x N and
// B is A (b_reads() is then 0 everywhere; a_reads() counts both operand roles). C is M x N.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/models/fragment_model.h"
#include "kernels/models/warp_access.h"

namespace tilescope {

struct Dim2 {
  int x = 1, y = 1;
};

// Who writes one element of C.
struct Owner {
  int block_x = -1, block_y = -1;  // -1: nobody (a model bug; never for a correct model)
  int thread_x = -1, thread_y = -1;
  int slot = 0;           // register slot in the thread's TM x TN tile: i * TN + j (0 for one output)
  bool mirrored = false;  // AᵀA: written as the mirror of C(j, i), computed by the same thread
  int block_linear(const Dim2& grid) const { return block_y * grid.x + block_x; }
  int thread_linear(const Dim2& block) const { return thread_y * block.x + thread_x; }
};

// A rectangle of a stored matrix: rows [row0, row1), cols [col0, col1) (clipped to the matrix;
// empty when row0 == row1 or col0 == col1).
struct TileRect {
  std::int64_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
  bool empty() const { return row0 >= row1 || col0 >= col1; }
  std::int64_t elements() const { return empty() ? 0 : (row1 - row0) * (col1 - col0); }
};

// One element of a stored matrix.
struct ElementRef {
  std::int64_t row = 0, col = 0;
};

// A count per k written out for the Mapping tab's formula lines: symbols "BM + BN", numbers
// "128 + 128", value 256. A value of 0 means there is no such count (and no formula).
struct PerK {
  std::int64_t value = 0;
  std::string symbols, numbers;
};

// What one block does in one phase of its K loop besides its global loads (thread_loads() says
// those): the facts and words of the Mapping tab's account of a block (block_account.h).
struct PhaseWork {
  // The k this phase multiplies, [k0, k1) clipped to K, and the k steps its loop runs (a last
  // slab that reaches past K runs on the zeros staged there).
  std::int64_t k0 = 0, k1 = 0;
  std::int64_t steps = 0;
  // Elements of C the block accumulates: its tile inside C, less the tiles of warps that idle.
  std::int64_t outputs = 0;
  // Elements of A and B the block reads from shared memory per k step, by its threads or by the
  // tensor cores (0 where nothing goes through shared memory).
  PerK shared;
  // The block's global loads per k where its tiles lie wholly inside the matrices: the closed
  // form of its threads' thread_loads(), cut short at the matrices' edges.
  PerK global;
  // What the phase did and where its data went, one sentence each.
  std::vector<std::string> words;
};

class MappingModel {
 public:
  virtual ~MappingModel() = default;

  virtual Dim2 grid() const = 0;
  virtual Dim2 block() const = 0;
  // Phases of the K loop (slabs of BK, tiles of TILE; 1 for naive, which has no phases but
  // reads all of K at once).
  virtual int phases() const = 0;
  // False for blocks that exit at once (AᵀA's lower-triangle blocks in regtile_prefetch).
  virtual bool block_active(int block_x, int block_y) const = 0;
  // Who writes C(i, j).
  virtual Owner owner(std::int64_t i, std::int64_t j) const = 0;
  // The tiles of the stored A and B that block (bx, by) loads into shared memory in `phase`
  // (empty for naive). For AᵀA both are tiles of A: the A-operand tile and the B-operand tile.
  virtual TileRect a_tile(int block_x, int block_y, int phase) const = 0;
  virtual TileRect b_tile(int block_x, int block_y, int phase) const = 0;
  // The global loads of one thread, element by element (vector loads split into their
  // elements; loads guarded off outside the matrix are not loads). Phases are fetched in
  // pieces(): regtile_prefetch issues piece q of phase s + 1 into its prefetch registers at
  // step q * BK / pieces() of phase s (phase 0 before the loop), and parks it in shared memory
  // one piece later. So, while block (bx, by) computes steps [q, q + 1) * BK / pieces() of
  // phase s, a thread's prefetch registers hold thread_loads(..., s + 1, q, ...). Naive: phase 0
  // is the whole K loop (nothing goes through shared memory). For AᵀA, `a` gets the A-operand
  // loads and `b` the B-operand loads, both elements of A. Both vectors are cleared first.
  virtual int pieces() const { return 1; }
  // The accumulator slots per thread that the trace's writer ids leave room for (trace.h): more
  // than TM x TN for a warp's tensor-core fragments.
  virtual int writer_slots() const { return kTraceSlots; }
  // Tensor-core kernels (MappingCaps::warp_level): the fragment picture (fragment_model.h);
  // nullptr for the others. Owners are then thread_x = lane, thread_y = warp, slot = the lane's
  // accumulator register (see the variant's model for the numbering).
  virtual const FragmentPicture* fragments() const { return nullptr; }
  virtual void thread_loads(int block_x, int block_y, int thread_x, int thread_y, int phase, int piece,
                            std::vector<ElementRef>* a, std::vector<ElementRef>* b) const = 0;
  // What block (bx, by) does in `phase` (0 .. phases() - 1) besides its global loads: the k it
  // multiplies, its outputs, its shared-memory reads, the closed form of its loads, the words.
  // Only for blocks that are block_active().
  virtual PhaseWork phase_work(int block_x, int block_y, int phase) const = 0;
  // Global-memory reads of one element of the stored A and B over the whole kernel, in closed
  // form.
  virtual std::int64_t a_reads(std::int64_t row, std::int64_t col) const = 0;
  virtual std::int64_t b_reads(std::int64_t row, std::int64_t col) const = 0;
  // One sentence for the view: "each element of A is read N = 1000 times".
  virtual std::string reads_summary() const = 0;
  // The sums of a_reads() and b_reads() over a stored matrix of rows x cols elements: the
  // global loads of the whole kernel (the Roofline view's traffic). By default the per-element
  // closed form summed element by element, which is O(rows x cols); a model whose counts have
  // a closed-form total overrides these (a test requires both to agree, and to equal the loads
  // of thread_loads() over every thread, phase and piece).
  virtual std::int64_t a_reads_total(std::int64_t rows, std::int64_t cols) const;
  virtual std::int64_t b_reads_total(std::int64_t rows, std::int64_t cols) const;

  // Memory one warp at a time (warp_access.h): the kernel's memory instructions (empty where the
  // model does not list them), how many times each thread of block (bx, by) executes site `site`
  // (its steps: a loop's iterations, unrolled copies included), and the 32 lanes' addresses of warp
  // `warp` (threads 32 * warp ...) at step `step`, written into *out (lanes that take no part stay
  // -1). The instrumented build records the same addresses from the kernel (a GPU test compares).
  virtual std::vector<AccessSite> access_sites() const { return {}; }
  virtual int site_steps(int /*site*/, int /*block_x*/, int /*block_y*/) const { return 0; }
  virtual void warp_access(int /*site*/, int /*block_x*/, int /*block_y*/, int /*warp*/, int /*step*/,
                           WarpAccess* /*out*/) const {}
  // The order in which each lane of block (bx, by) records the steps of the sites that share
  // recording stream `stream` (AccessSite::recorded), as the kernel executes them. By default the
  // sites' steps are taken step by step, in the order the sites are listed (step 0 of each, then
  // step 1 of each, ...); a kernel that runs one site's steps in bursts between another's says so.
  virtual std::vector<SiteStep> recorded_order(int stream, int block_x, int block_y) const;
  // What the access sites leave out and why, in a sentence or two for the memory view ("" when
  // they list every memory instruction of the kernel): copies made by the TMA or read by the
  // tensor cores themselves have no lane addresses, and the profiler counts them apart.
  virtual std::string memory_note() const { return ""; }
};

// nullptr when the variant has no model (cuBLAS: opaque), the configuration is refused for
// this problem, or a size is below 1, with *why set. `shape` is normalised (AᵀA: M = N). The
// precision matters: regtile_prefetch groups rows and columns by the 16-byte vector (4 floats,
// 2 doubles), so a thread's outputs differ between float and double.
std::unique_ptr<MappingModel> make_mapping_model(const std::string& variant_id, int config_index, Problem problem,
                                                 Precision precision, const Shape& shape, std::string* why);
// The same for float, the precision the view shows by default.
std::unique_ptr<MappingModel> make_mapping_model(const std::string& variant_id, int config_index, Problem problem,
                                                 const Shape& shape, std::string* why);

}  // namespace tilescope
