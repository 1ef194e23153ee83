// One warp's recorded addresses as a file: what `tilescope memory --record BLOCK,WARP --recording
// FILE` writes for each configuration it records, and what the window reads back from the worker
// it starts for the Memory view's "Record on the GPU" (the window never runs the instrumented kernel
// in its own process). Plain text, so that a learner can read it and a test can write one:
//
//   tilescope recorded warps, format 1
//   # comment lines start with '#' and are skipped anywhere
//   record
//   device NVIDIA H100 80GB HBM3      the GPU it was recorded on (the rest of the line)
//   variant regtile_prefetch
//   config 128x128x32_8x8             the configuration as shipped or typed (an edit: the one it edits)
//   edit -                            the edit's tag (8 hex digits, edited_texts.h), - for the shipped text
//   problem gemm                      gemm | ata
//   precision f32
//   shape 1024 1024 1024              M N K (AᵀA: M = N)
//   block 5                           blockIdx.y * gridDim.x + blockIdx.x
//   warp 1
//   steps 96                          executions recorded per stream
//   stream 0                          a stream (recorded_streams.h: 0 A loaded, 1 B loaded, 2 C
//   <steps lines>                     stored, 3 on a kernel's shared accesses), then a line per step:
//   stream 3                          the 32 lanes' byte addresses, -1 where a lane made no access,
//   <steps lines>                     or "-" where none did; streams left out made no access at all
//   end
//   record ...                        the next configuration's, if any
//
// The keys come in this order; a file that ends before a record's "end", or holds anything else,
// is refused with its line and what was expected there.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/instrument/recorded_warp.h"

namespace tilescope {

// One configuration's recorded warp and what it was recorded for.
struct WarpRecord {
  std::string device;   // the GPU's name
  std::string variant;  // the variant's id
  std::string config;   // the configuration's name (shipped or typed); an edit's: the one it edits
  std::string edit;     // the edit's tag; "" when the shipped kernel text ran
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int block = 0;  // linear: blockIdx.y * gridDim.x + blockIdx.x
  int warp = 0;
  RecordedWarp recorded;  // steps, and the addresses [stream][step][lane] (kRecordedStreamCount streams)
};

// The largest recording a file may hold (steps x streams x 32 lanes): a garbled count must not
// make the reader allocate without bound.
constexpr long long kMaxRecordedAddresses = 1LL << 27;

std::string recorded_warps_text(const std::vector<WarpRecord>& records);
// False with *error ("NAME:LINE: why") on text that is not such a file; *out is then unchanged.
bool read_recorded_warps_text(const std::string& text, const std::string& name, std::vector<WarpRecord>* out,
                              std::string* error);

// Written through a temporary file renamed into place (atomic_file.h): never half a file.
bool write_recorded_warps_file(const std::string& path, const std::vector<WarpRecord>& records, std::string* error);
bool read_recorded_warps_file(const std::string& path, std::vector<WarpRecord>* out, std::string* error);

}  // namespace tilescope
