#include "app/ui/source/probe_hooks.h"

#include <cctype>

namespace tilescope {

namespace {

// The pictures, named as the Mapping tab names them (app/ui/mapping/mapping_panel.cpp).
const char* const kReads =
    "Mapping tab, Matrices view: the read counts of A and B (the heatmaps over A and B, \"global reads per "
    "element\") and the tile animation's \"global loads\" of the selected block. With a GPU, the instrumented run "
    "counts here every element this call reads; the timed run compiles it to the plain load.";
const char* const kOwners =
    "Mapping tab, Matrices view: the owner of each element of C (C coloured by the block, and in the selected "
    "block by thread, warp, lane or register; hover C to read it). With a GPU, the instrumented run records here "
    "who wrote each element; the timed run compiles it to the plain store.";
const char* const kTimeline =
    "Mapping tab, Pipeline timeline view: the copy and MMA bars of each stage of the ring. Only the timeline's "
    "recording stamps these times; the timed and the traced runs compile the call away.";
const char* const kPhases =
    "The end of the K loop: the timed run returns K; the instrumented run may stop after a number of phases "
    "(the GPU tests compare each phase with the mapping model). The Mapping tab's pictures take the whole loop.";
const char* const kOther = "An instrumentation hook (kernels/instrument/no_probe.cuh): the timed run compiles it away.";

struct HookPicture {
  const char* method;
  const char* picture;
};
const HookPicture kHooks[] = {
    {"load", kReads},        {"copy_async", kReads},     {"tma_box", kReads},      {"store", kOwners},
    {"store_from", kOwners}, {"staged", kOwners},        {"writer_id", kOwners},   {"at_block", kOwners},
    {"k_end", kPhases},      {"issued", kTimeline},      {"arrived", kTimeline},   {"started", kTimeline},
    {"done", kTimeline},     {"block_begin", kTimeline}, {"block_end", kTimeline},
};

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

ProbeHook probe_hook(const std::string& line) {
  const std::string kObject = "probe.";
  for (std::size_t at = line.find(kObject); at != std::string::npos; at = line.find(kObject, at + 1)) {
    if (at > 0 && (word_char(line[at - 1]) || line[at - 1] == '.')) continue;  // my_probe.x, a.probe.x
    std::size_t end = at + kObject.size();
    while (end < line.size() && word_char(line[end])) ++end;
    const std::string method = line.substr(at + kObject.size(), end - at - kObject.size());
    if (method.empty() || end >= line.size() || line[end] != '(') continue;  // a call, not a member read
    for (const HookPicture& h : kHooks)
      if (method == h.method) return {"probe." + method, h.picture};
    return {"probe." + method, kOther};
  }
  return {};
}

}  // namespace tilescope
