// One piece of a run split across GPUs, as it ran: a product or a transfer on one GPU's stream.
#pragma once

#include <string>

#include "kernels/core/enum_names.h"

namespace tilescope {

enum class SpanStream { Compute, Transfer };
inline constexpr EnumName<SpanStream> kSpanStreamNames[] = {{SpanStream::Compute, "compute"},
                                                            {SpanStream::Transfer, "transfer"}};
inline const char* to_string(SpanStream s) {
  return enum_name(s, kSpanStreamNames, "?");
}
inline bool parse_span_stream(const std::string& text, SpanStream* out) {
  return enum_from_name(text, kSpanStreamNames, out);
}

struct RunSpan {
  int gpu = 0;  // rank in the run (the device of that number)
  SpanStream stream = SpanStream::Compute;
  std::string what;                 // "C rows 0-8191, columns 0-2047" / "B columns 2048-4095 from GPU 0"
  double start_ms = 0, end_ms = 0;  // from the run's start on its GPU
};

}  // namespace tilescope
