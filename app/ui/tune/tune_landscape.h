// A tuning sweep's table (app/cli/tune_points.h) as the landscape model's input
// (app/plot/landscape_model.h): the two layers do not see each other, the window sees both.
#pragma once

#include <string>

#include "app/cli/tune_points.h"
#include "app/plot/landscape_model.h"

namespace tilescope {

// The points with their outcome, the shipped configurations of the table's variant (when this
// program has it), a title naming the variant, problem, input type, size and device.
LandscapeInput landscape_input(const TuneTable& t, const std::string& x_key, const std::string& y_key);

}  // namespace tilescope
