#include "app/ui/shell/settings.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "app/ui/shell/app_state.h"
#include "app/ui/shell/recent_files.h"
#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

TEST(Settings, EveryInputTypePersists) {
  for (Precision p : all_precisions()) {
    AppState s = default_app_state();
    s.precision = p;
    std::string warnings;
    const AppState back = settings_from_text(settings_to_text(s), default_app_state(), &warnings);
    EXPECT_EQ(warnings, "") << to_string(p);
    EXPECT_EQ(back.precision, p) << to_string(p);
  }
  std::string warnings;
  const AppState bad = settings_from_text("precision = fp8\n", default_app_state(), &warnings);
  EXPECT_EQ(bad.precision, default_app_state().precision);
  EXPECT_NE(warnings.find("precision"), std::string::npos) << warnings;
}

TEST(Settings, RoundTripKeepsEveryChoice) {
  AppState s = default_app_state();
  s.problem = Problem::Ata;
  s.precision = Precision::F64;
  s.n = 777;
  s.k = 333;
  s.square = false;
  s.repetitions = 7;
  s.verify = false;
  s.sweep_from = 128;
  s.sweep_to = 2048;
  s.y_quantity = YAxisQuantity::Milliseconds;
  s.y_log = true;
  s.presenter = true;
  s.theme = Theme::Light;
  s.font_scale = 1.3f;
  s.lesson[1].enabled = false;
  s.lesson[2].config_index = 2;
  s.focused = 1;
  std::string warnings;
  const AppState back = settings_from_text(settings_to_text(s), default_app_state(), &warnings);
  EXPECT_EQ(warnings, "");
  EXPECT_EQ(back.problem, Problem::Ata);
  EXPECT_EQ(back.precision, Precision::F64);
  EXPECT_EQ(back.n, 777);
  EXPECT_EQ(back.k, 333);
  EXPECT_FALSE(back.square);
  EXPECT_EQ(back.repetitions, 7);
  EXPECT_FALSE(back.verify);
  EXPECT_EQ(back.sweep_from, 128);
  EXPECT_EQ(back.sweep_to, 2048);
  EXPECT_EQ(back.y_quantity, YAxisQuantity::Milliseconds);
  EXPECT_TRUE(back.y_log);
  EXPECT_TRUE(back.presenter);
  EXPECT_EQ(back.theme, Theme::Light);
  EXPECT_NEAR(back.font_scale, 1.3f, 1e-6);
  EXPECT_FALSE(back.lesson[1].enabled);
  EXPECT_EQ(back.lesson[2].config_index, 2);
  EXPECT_EQ(back.focused, 1);
}

TEST(Settings, DamagedFileFallsBackToDefaultsWithWarnings) {
  const AppState base = default_app_state();
  std::string warnings;
  const AppState s = settings_from_text(
      "n = banana\nrepetitions = -4\nthis line is nonsense\nfuture_key = 3\n"
      "variant.nope = on 16\nprecision = f64\n",
      base, &warnings);
  EXPECT_EQ(s.n, base.n);
  EXPECT_EQ(s.repetitions, base.repetitions);
  EXPECT_EQ(s.precision, Precision::F64) << "good lines still apply";
  EXPECT_NE(warnings.find("line 1"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("line 3"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("future_key"), std::string::npos) << warnings;
}

TEST(Settings, SavedAtomicallyIntoAFreshConfigFolder) {
  char dir_template[] = "/tmp/tilescope-settings-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/tilescope/settings.ini";
  AppState s = default_app_state();
  s.n = 2048;
  std::string error;
  ASSERT_TRUE(save_settings(path, s, &error)) << error;
  std::string warnings;
  EXPECT_EQ(load_settings(path, default_app_state(), &warnings).n, 2048);
  // A missing file is a first start, not an error.
  EXPECT_EQ(load_settings(path + ".missing", s, &warnings).n, 2048);
  EXPECT_FALSE(save_settings("/proc/nope/tilescope/settings.ini", s, &error));
  EXPECT_NE(error.find("/proc/nope"), std::string::npos) << error;
}

TEST(AppState, DefaultLessonAndSweepSizes) {
  const AppState s = default_app_state();
  ASSERT_EQ(s.lesson.size(), variant_registry().size());
  // The baseline and our kernels take part in the first Run; the texture shaders (a piece of
  // history) wait for the History tab, extras for a ticked box. Each starts in its default.
  const VariantDescriptor& gl = tilescope::testing::shader_variant_desc();
  int enabled = 0;
  bool saw_gl = false;
  for (std::size_t i = 0; i < s.lesson.size(); ++i) {
    const LessonEntry& e = s.lesson[i];
    const VariantDescriptor& v = *variant_registry()[i];
    ASSERT_EQ(e.variant_id, v.id) << "registry order";
    EXPECT_EQ(e.enabled, v.role == Role::Baseline || v.role == Role::Kernel) << e.variant_id;
    EXPECT_EQ(e.config_index, v.default_config) << e.variant_id;
    enabled += e.enabled;
    if (&v == &gl) {
      saw_gl = true;
      EXPECT_FALSE(e.enabled) << "the texture shaders are the History tab's lesson";
      // The fastest of the texture shaders, the figure the History tab compares with today's.
      EXPECT_EQ(e.config_index, tilescope::testing::shader_config_of(ShaderMode::kMrt8));
    }
  }
  EXPECT_TRUE(saw_gl);
  EXPECT_GE(enabled, 2) << "the baseline and at least one kernel of ours";
  // The lesson focuses on the top of the float staircase: the last kernel of ours with a mapping
  // model that computes f32, which prefetches (not the first, one-phase kernel).
  const auto kernels = tilescope::testing::variants_where([](const VariantDescriptor& v) {
    return tilescope::testing::is_product_kernel(v) && v.model && supports(v, Precision::F32);
  });
  ASSERT_FALSE(kernels.empty());
  EXPECT_EQ(s.lesson[s.focused].variant_id, kernels.back()->id);
  EXPECT_TRUE(kernels.back()->model_caps.prefetch);
  EXPECT_NE(s.lesson[s.focused].variant_id, tilescope::testing::one_phase_kernel().id);
  EXPECT_EQ(s.n, 1024);
  EXPECT_EQ(s.precision, Precision::F32);
  AppState t = s;
  t.sweep_from = 256;
  t.sweep_to = 3000;
  EXPECT_EQ(sweep_sizes(t), (std::vector<int>{256, 512, 1024, 2048}));
  t.problem = Problem::Ata;
  t.n = 100;
  t.k = 50;
  t.square = false;
  const Shape shape = run_shape(t);
  EXPECT_EQ(shape.M, 100);
  EXPECT_EQ(shape.N, 100);
  EXPECT_EQ(shape.K, 50);
}

TEST(Settings, RecentFilesRoundTripNewestFirst) {
  AppState s = default_app_state();
  remember_recent_file(&s.recent_files, "/data/old.csv");
  remember_recent_file(&s.recent_files, "/data/plot.png");
  remember_recent_file(&s.recent_files, "/data/old.csv");  // again: to the front, not twice
  EXPECT_EQ(s.recent_files, (std::vector<std::string>{"/data/old.csv", "/data/plot.png"}));
  std::string warnings;
  const AppState back = settings_from_text(settings_to_text(s), default_app_state(), &warnings);
  EXPECT_EQ(warnings, "");
  EXPECT_EQ(back.recent_files, s.recent_files);
}

TEST(Settings, RecentFilesKeepTheNewestFew) {
  AppState s = default_app_state();
  for (std::size_t i = 0; i < kRecentFilesKept + 3; ++i)
    remember_recent_file(&s.recent_files, "/r/" + std::to_string(i) + ".csv");
  ASSERT_EQ(s.recent_files.size(), kRecentFilesKept);
  EXPECT_EQ(s.recent_files.front(), "/r/" + std::to_string(kRecentFilesKept + 2) + ".csv");
  // A file that lists more is cut to the same number, and a relative path is refused.
  std::string text;
  for (std::size_t i = 0; i < kRecentFilesKept + 3; ++i) text += "recent_file = /f/" + std::to_string(i) + ".csv\n";
  std::string warnings;
  AppState back = settings_from_text(text + "recent_file = relative.csv\n", default_app_state(), &warnings);
  EXPECT_EQ(back.recent_files.size(), kRecentFilesKept);
  EXPECT_EQ(back.recent_files.front(), "/f/0.csv");
  EXPECT_NE(warnings.find("relative.csv"), std::string::npos) << warnings;
}

TEST(Settings, PathsALineCannotHoldAreNotRemembered) {
  std::vector<std::string> recent;
  remember_recent_file(&recent, "/tmp/two\nlines.csv");
  remember_recent_file(&recent, "/tmp/trailing space.csv ");
  EXPECT_TRUE(recent.empty());
  remember_recent_file(&recent, "/tmp/inner space.csv");
  EXPECT_EQ(recent.size(), 1u);
  EXPECT_EQ(recent_files_with_extension({"/a.csv", "/b.PNG", "/c.CSV"}, "csv"),
            (std::vector<std::string>{"/a.csv", "/c.CSV"}));
}

TEST(Settings, WarningsShowTheFilesBytesPrintably) {
  std::string warnings;
  settings_from_text("theme = \x1b[2J\xff\n", default_app_state(), &warnings);
  EXPECT_NE(warnings.find("\\x1B[2J\\xFF"), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find('\x1b'), std::string::npos) << warnings;
}
