// The input-type choice in the window: a script sets bf16, the lesson rows of variants that do not
// compute it are greyed with the reason, the baseline's is not, every tab draws (the Mapping tab
// says why there is no picture instead of failing), and the plot's title names the type.
#include <gtest/gtest.h>

#include <string>

#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/controls_panel.h"
#include "kernels/core/registry.h"
#include "tests/gui/gui_test_support.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

TEST(PrecisionChoice, ScriptSetsBf16AndTheRowsThatCannotComputeItAreGreyed) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ScriptPlayer script;
  std::string error;
  ASSERT_TRUE(script.load_text("set precision bf16\nframes 2\n", "bf16.txt", &error)) << error;
  std::vector<std::string> failures;
  for (int i = 0; i < 20 && script.step(app, &failures); ++i) frame(*host, app);
  ASSERT_TRUE(failures.empty()) << failures.front();
  ASSERT_EQ(app.state().precision, Precision::BF16);

  int greyed = 0, runnable = 0;
  for (const LessonEntry& e : app.state().lesson) {
    const VariantDescriptor& v = *find_variant(e.variant_id);
    const std::string why = lesson_row_refusal(app.state(), e);
    SCOPED_TRACE(e.variant_id + ": " + why);
    EXPECT_EQ(why.empty(), supports(v, Precision::BF16));
    if (v.role == Role::Baseline) {
      EXPECT_EQ(why, "") << "the library computes every input type";
    }
    if (!why.empty()) {
      EXPECT_NE(why.find("bf16"), std::string::npos) << "the reason names the type";
    }
    (why.empty() ? runnable : greyed) += 1;
  }
  EXPECT_GT(greyed, 0) << "the kernels of float and double are greyed";
  EXPECT_GT(runnable, 0);

  // Every tab draws with a type the focused kernel does not compute.
  app.show_mapping();
  frame(*host, app);
  frame(*host, app);
  app.show_history();
  frame(*host, app);
  app.show_timing();
  frame(*host, app);
  EXPECT_NE(app.plot_data().style.title.find(precision_facts(Precision::BF16).label), std::string::npos)
      << app.plot_data().style.title;

  // Back in f32, nothing is greyed for the input type.
  app.state().precision = Precision::F32;
  for (const LessonEntry& e : app.state().lesson) {
    if (supports(*find_variant(e.variant_id), Precision::F32)) {
      EXPECT_EQ(lesson_row_refusal(app.state(), e), "");
    }
  }
}

TEST(PrecisionChoice, Tf32IsLabelledApartFromFloatInThePlot) {
  auto host = make_host(640, 360);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().precision = Precision::TF32;
  frame(*host, app);
  const std::string tf32 = app.plot_data().style.title;
  app.state().precision = Precision::F32;
  frame(*host, app);
  const std::string f32 = app.plot_data().style.title;
  EXPECT_NE(tf32, f32);
  EXPECT_NE(tf32.find("TF32"), std::string::npos) << tf32;
}

}  // namespace
