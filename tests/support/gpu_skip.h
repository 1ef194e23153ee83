// The GPU suites' rule for a device whose architecture runs none of the builds a test checks (a
// build of sm_90a code on any GPU but a 9.0 one): the test skips, visibly, with the reason, rather
// than fail for having checked nothing. Having checked nothing on a device whose architecture some
// build accepts (every build refused for its threads or shared memory, say) stays a failure, so
// nothing that runs on a device is ever skipped there.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"

namespace tilescope::testing {

// Which builds (variant, configuration, problem, input type) a test runs on a device, and the
// reason to skip when it ran none of them.
class DeviceBuilds {
 public:
  explicit DeviceBuilds(const DeviceLimits& limits) : limits_(limits), any_architecture_(limits) {
    // The same device with its architecture unknown (0: not checked).
    any_architecture_.compute_capability = 0;
  }

  // Whether the build runs on the device (unsupported_reason). One refused on the device but not
  // on the same device of unknown architecture is refused for the architecture alone: its reason
  // is kept for skip_reason.
  bool runs(const VariantDescriptor& v, int config_index, Problem problem, Precision precision) {
    if (!unsupported_reason(v, config_index, problem, precision, any_architecture_).empty()) return false;
    std::string why = unsupported_reason(v, config_index, problem, precision, limits_);
    if (why.empty()) return true;
    architecture_refusal_ = std::move(why);
    return false;
  }

  // Why a test that checked `checked` builds skips: the last refusal for the architecture when it
  // checked none; "" (no skip) when it checked some or the architecture refused none.
  std::string skip_reason(int checked) const { return checked == 0 ? architecture_refusal_ : std::string(); }

 private:
  DeviceLimits limits_;
  DeviceLimits any_architecture_;
  std::string architecture_refusal_;
};

}  // namespace tilescope::testing

// The end of a test over builds: skips, with the reason, where it checked nothing because the
// device's architecture refused its builds (DeviceBuilds::skip_reason); otherwise it must have
// checked something (`what`: what each checked build was).
#define EXPECT_CHECKED_UNLESS_THE_ARCHITECTURE_RUNS_NONE(builds, checked, what)                                     \
  do {                                                                                                              \
    if (const std::string skip_why_ = (builds).skip_reason(checked); !skip_why_.empty()) GTEST_SKIP() << skip_why_; \
    EXPECT_GT(checked, 0) << "no " << (what) << " ran on this device";                                              \
  } while (0)
