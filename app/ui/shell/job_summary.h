// What a job of the runner runs, in words, for the status line and for a script's failure
// messages: "the CPU reference at 512", "cuBLAS and naive at 1024", "4 variants at 3 sizes from
// 256 to 1024". Plain data in, words out: no ImGui.
#pragma once

#include <string>
#include <vector>

#include "kernels/measure/measure.h"

namespace tilescope {

// Who runs and at which sizes (`requests` in the order the runner takes them; not empty).
std::string job_subject(const std::vector<RunRequest>& requests);

// "512" for a cube, "512 x 256 x 128" (M x N x K) otherwise.
std::string shape_words(const Shape& shape);

}  // namespace tilescope
