// The GPU suites' skip rule (gpu_skip.h), decided here without a device: made-up devices and a
// made-up variant of one architecture, as a build of sm_90a code is. A device of that
// architecture never skips, even where nothing ran; another skips with the architecture's reason,
// and only when the architecture, not the variant or the device's limits, kept every build out.
#include "tests/support/gpu_skip.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/core/variant.h"

using namespace tilescope;
using tilescope::testing::DeviceBuilds;

namespace {

// Configuration 0 fits every device below; configuration 1 needs more shared memory than any allows.
constexpr int kFits = 0, kTooLarge = 1;

VariantDescriptor one_architecture_variant() {
  VariantDescriptor v;
  v.id = "made_up_for_the_skip_rule";
  v.min_compute_capability = 90;
  v.max_compute_capability = 90;
  TileConfig fits;
  fits.threads_x = 16;
  fits.threads_y = 16;
  fits.bk = 16;
  TileConfig too_large = fits;
  too_large.bk = 1024;
  v.configs = {fits, too_large};
  v.shared_bytes = [](const TileConfig& c, Precision) -> std::size_t { return static_cast<std::size_t>(c.bk) * 1024; };
  return v;
}

DeviceLimits device_of(int compute_capability) {
  DeviceLimits l;
  l.shared_per_block_optin = 227 * 1024;
  l.compute_capability = compute_capability;
  return l;
}

// A build tried on the device: configuration, input type, and whether it runs there.
struct Try {
  int config;
  Precision precision;
  bool runs;
};

// Why a test that tried `tries` on a device of `compute_capability` and checked nothing skips
// ("": it fails instead). A test that checked something never skips.
std::string skip_after(int compute_capability, const std::vector<Try>& tries) {
  const VariantDescriptor v = one_architecture_variant();
  DeviceBuilds builds(device_of(compute_capability));
  for (const Try& t : tries)
    EXPECT_EQ(builds.runs(v, t.config, Problem::Gemm, t.precision), t.runs)
        << "configuration " << t.config << " in " << to_string(t.precision) << " on " << compute_capability;
  EXPECT_EQ(builds.skip_reason(1), "");
  return builds.skip_reason(0);
}

TEST(GpuSkipRule, OnItsArchitectureNothingIsSkipped) {
  // Even where nothing was checked: the test's own expectation fails.
  EXPECT_EQ(skip_after(90, {{kFits, Precision::F32, true}, {kTooLarge, Precision::F32, false}}), "");
}

TEST(GpuSkipRule, ElsewhereTheTestSkipsWithTheArchitecturesReason) {
  const std::string why =
      unsupported_reason(one_architecture_variant(), kFits, Problem::Gemm, Precision::F32, device_of(80));
  ASSERT_NE(why.find("9.0"), std::string::npos) << why;
  EXPECT_EQ(skip_after(80, {{kFits, Precision::F32, false}}), why);
}

TEST(GpuSkipRule, WhatNoDeviceOfTheseLimitsRunsIsNoReasonToSkip) {
  // Refused for its shared memory, and for an input type the variant does not compute: on a 9.0
  // device of these limits too, so they say nothing about the architecture.
  const std::vector<Try> refused_anywhere = {{kTooLarge, Precision::F32, false}, {kFits, Precision::F16, false}};
  EXPECT_EQ(skip_after(80, refused_anywhere), "");
  // Once the architecture keeps out a build that would otherwise run, the test skips.
  std::vector<Try> and_one_it_keeps_out = refused_anywhere;
  and_one_it_keeps_out.push_back({kFits, Precision::F32, false});
  EXPECT_NE(skip_after(80, and_one_it_keeps_out), "");
}

TEST(GpuSkipRule, AnUnknownArchitectureRunsEveryBuildThatFits) {
  EXPECT_EQ(skip_after(0, {{kFits, Precision::F32, true}}), "");
}

}  // namespace
