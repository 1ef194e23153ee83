// What an instrumentation hook in a kernel text drives. Every kernel takes a probe
// (kernels/instrument/no_probe.cuh): the timed build's does nothing but the plain access, the
// instrumented build's counts the elements read and records who wrote each element of C, and those
// records are the Mapping tab's pictures. The Source view names the picture when a line with a
// `probe.` call is hovered. Plain C++: no ImGui.
#pragma once

#include <string>

namespace tilescope {

struct ProbeHook {
  std::string call;     // "probe.load", "" when the line calls no probe
  std::string picture;  // what the call drives, in a sentence or two
};

// The first probe call on a line of kernel text (a call in a comment counts too: the comments
// of these texts name the hooks they explain).
ProbeHook probe_hook(const std::string& line);

}  // namespace tilescope
