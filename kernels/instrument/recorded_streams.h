// The streams an instrumented kernel records one warp's addresses into (TraceBuffers::addresses):
// the probe's own global accesses, then a kernel's shared-memory accesses, which its text numbers
// from kRecordShared (probe.shared(stream, pointer)). Plain, device-safe: kernel texts (through
// no_probe.cuh) and host code read the same numbers.
#pragma once

namespace tilescope {

enum RecordedStream { kRecordLoadA = 0, kRecordLoadB = 1, kRecordStoreC = 2, kRecordShared = 3 };
constexpr int kRecordedStreamCount = 12;

}  // namespace tilescope
