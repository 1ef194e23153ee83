// The window in front of a class: at a 1920 x 1080 and a 1280 x 720 projector, in presenter mode
// and at each step of Ctrl+= (and in the normal mode), no label, tab, counter or table header may
// be cut. Every shipped lesson is played to its end (headless, without a GPU), then every tab is
// drawn — Timing with the timing plot and the Roofline view, Mapping with each of its views for a
// plain, a warp-level and a warpgroup variant and the lesson's own, History — and the text of
// each frame is read back from ImGui's draw data (text_clip_check.h). Run must stay on screen
// without scrolling the controls.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gui_test_support.h"
#include "lesson_files.h"
#include "mapping_model.h"
#include "registry.h"
#include "text_clip_check.h"
#include "ui/app.h"
#include "ui/script.h"
#include "viz/warpgroup_images.h"

using namespace tilescope;
namespace ts = tilescope::testing;
using tilescope::testing::CutText;
using tilescope::testing::make_host;

namespace {

struct Size {
  int width, height;
};
constexpr Size kProjectors[] = {{1920, 1080}, {1280, 720}};
// A tab or view asked for shows a frame later; its panels' scrollbars a frame after that (ImGui
// measures their content a frame late); then the layout has settled.
constexpr int kFramesPerView = 4;

const std::string kBenchmarks = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/";

// What a frame showed that it should not have, with where: the text, the window, the view.
class Findings {
 public:
  void add(const std::string& where, const std::vector<CutText>& cuts) {
    for (const CutText& c : cuts) {
      const std::string what = ts::describe(c);
      if (!seen_.count(what)) order_.push_back(what);
      seen_[what].insert(where);
    }
  }
  void add(const std::string& where, const std::string& what) {
    if (!seen_.count(what)) order_.push_back(what);
    seen_[what].insert(where);
  }
  bool empty() const { return order_.empty(); }
  std::string report() const {
    std::string out;
    for (const std::string& what : order_) {
      const std::set<std::string>& where = seen_.at(what);
      out += "\n  " + what + "\n      in " + *where.begin();
      if (where.size() > 1) out += " (and " + std::to_string(where.size() - 1) + " more views)";
    }
    return out;
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, std::set<std::string>> seen_;
};

// One frame of the App, its text checked between drawing and after_frame() (which may rebuild
// the font atlas the draw data refers to).
void checked_frame(Host& host, App& app, Findings* findings, const std::string& where) {
  ts::prepare_fonts();
  host.begin_frame();
  app.frame();
  host.end_frame();
  if (findings) {
    const std::vector<ts::DrawnText> text = ts::drawn_text();
    findings->add(where, ts::find_cut_text(text));
    // Run stays on screen without scrolling: whole and inside the controls' visible area.
    bool run_visible = false;
    for (const ts::DrawnText& t : text)
      run_visible |= t.text == "Run" && t.visible && t.window.find("controls") != std::string::npos;
    if (!run_visible) findings->add(where, "the Run button is not on screen in the controls column");
  }
  app.after_frame();
}

void frames(Host& host, App& app, int n) {
  for (int i = 0; i < n; ++i) checked_frame(host, app, nullptr, "");
}

int lesson_index(const AppState& state, const std::string& variant) {
  for (std::size_t i = 0; i < state.lesson.size(); ++i)
    if (state.lesson[i].variant_id == variant) return static_cast<int>(i);
  return -1;
}

// The input type the Mapping tab draws v's pictures in: the lesson's, or, where v does not take
// it, one it does (the tensor-core kernels take no float): the pictures, not why there are none.
Precision picture_type(const VariantDescriptor& v, Precision lesson) {
  for (Precision p : {lesson, Precision::BF16, Precision::F16, Precision::F32})
    if (supports(v, p)) return p;
  return lesson;
}

// The three kinds of picture the Mapping tab draws, each by the first variant of the registry
// whose model draws it: threads and tiles; one warp's mma (fragments, banks); a warpgroup's.
enum class Picture { Plain, OneWarp, Warpgroup };

std::string mapping_variant(Picture kind) {
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    std::string why;
    const auto model = make_mapping_model(v->id, v->default_config, Problem::Gemm, picture_type(*v, Precision::F32),
                                          Shape{256, 256, 256}, &why);
    if (!model) continue;
    const FragmentPicture* pic = model->fragments();
    const Picture is = !pic ? Picture::Plain : is_warpgroup_picture(*pic) ? Picture::Warpgroup : Picture::OneWarp;
    // The plain picture of the kernel that prefetches: the richest tile animation.
    if (is == kind && (kind != Picture::Plain || v->model_caps.prefetch)) return v->id;
  }
  ADD_FAILURE() << "no variant draws this kind of mapping picture";
  return "";
}

// A view of the window: a name for the report and how to bring it up.
struct View {
  std::string name;
  std::function<void(App&)> show;
};

// Every tab: the two plots of Timing, the Mapping views of a plain, a warp-level and a warpgroup
// variant and of the lesson's focused one, History.
std::vector<View> every_view(const AppState& state) {
  std::vector<View> views;
  const Precision lesson_type = state.precision;
  for (auto kind : {TimingPlotKind::Timing, TimingPlotKind::Roofline})
    views.push_back({kind == TimingPlotKind::Timing ? "Timing" : "Timing/Roofline", [kind, lesson_type](App& app) {
                       app.state().precision = lesson_type;
                       app.show_timing();
                       app.timing().set_plot_kind(kind);
                     }});
  std::vector<std::string> variants = {mapping_variant(Picture::Plain), mapping_variant(Picture::OneWarp),
                                       mapping_variant(Picture::Warpgroup)};
  const std::string focused = state.lesson[static_cast<std::size_t>(state.focused)].variant_id;
  if (std::find(variants.begin(), variants.end(), focused) == variants.end())
    variants.insert(variants.begin(), focused);
  using V = MappingPanel::View;
  const std::pair<V, const char*> kViews[] = {
      {V::Matrices, "matrices"}, {V::Fragments, "fragments"}, {V::Banks, "banks"}, {V::Timeline, "timeline"}};
  for (const std::string& id : variants) {
    const VariantDescriptor* v = find_variant(id);
    const int index = lesson_index(state, id);
    if (!v || index < 0) continue;
    const bool tensor_cores = v->model_caps.warp_level || v->launch_timeline;
    const Precision type = picture_type(*v, state.precision);
    for (const auto& [view, name] : kViews) {
      if (view != V::Matrices && !tensor_cores) break;
      views.push_back({"Mapping/" + id + "/" + name, [index, type, view = view](App& app) {
                         app.state().focused = index;
                         app.state().precision = type;
                         app.show_mapping();
                         app.mapping().show_view(view);
                       }});
    }
  }
  views.push_back({"History", [lesson_type](App& app) {
                     app.state().precision = lesson_type;
                     app.show_history();
                   }});
  return views;
}

// Each view drawn and checked; `where` names the lesson, size and mode.
void check_every_view(Host& host, App& app, const std::string& where, Findings* findings) {
  const AppState saved = app.state();
  for (const View& view : every_view(saved)) {
    view.show(app);
    frames(host, app, kFramesPerView - 1);
    checked_frame(host, app, findings, where + ", " + view.name);
  }
  app.state().focused = saved.focused;
  app.state().precision = saved.precision;
}

// An App in the state a lesson leaves it in: its views, variants, problem, type, sizes, blocks
// and phases. Its runs are left out (lesson_play_test.cpp plays them): the rows come from the
// H100 benchmarks instead, loaded first (every variant and configuration in the table, plot and
// legend, as after a lesson on a GPU), which the CPU reference's runs would only add to, and
// take minutes to.
void play_lesson(Host& host, App& app, const std::string& path) {
  for (const char* csv : {"h100-2026-11-21/bench-gemm.csv", "h100-2026-11-21/bench-ata.csv",
                          "gl_shader-2026-11-22/bench-gl_shader-h100.csv"})
    EXPECT_TRUE(app.load_csv(kBenchmarks + csv)) << app.status();
  ScriptPlayer script;
  std::string error;
  ts::Shortening quick;
  quick.most_frames = 1;
  quick.drop_files = true;
  quick.drop_runs = true;
  ASSERT_TRUE(script.load_text(ts::shortened_lesson(ts::read_file(path), quick), path, &error)) << error;
  std::vector<std::string> failures;  // the lesson's own test (lesson_play_test.cpp) judges these
  for (int i = 0; i < 20000 && script.step(app, &failures); ++i) frames(host, app, 1);
}

class PresenterFit : public ::testing::Test {
 protected:
  static AppOptions options() {
    AppOptions o;
    o.use_gpu = false;
    o.measure_ceilings = false;
    return o;
  }
};

std::string size_name(Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

TEST_F(PresenterFit, EveryLessonsEveryTabFitsBothProjectors) {
  Findings findings;
  const auto lessons = ts::shipped_lessons();
  ASSERT_FALSE(lessons.empty());
  for (Size size : kProjectors) {
    auto host = make_host(size.width, size.height);
    ASSERT_TRUE(host);
    for (const auto& lesson : lessons) {
      App app(*host, options());
      play_lesson(*host, app, lesson.string());
      app.set_presenter(true);
      frames(*host, app, 2);
      check_every_view(*host, app, lesson.filename().string() + ", " + size_name(size) + ", presenter", &findings);
    }
  }
  EXPECT_TRUE(findings.empty()) << "text cut or hidden:" << findings.report();
}

// Ctrl+= step by step until the text stops growing (the window caps it to what fits), in
// presenter mode, and the normal mode's own size, at both projectors' sizes.
TEST_F(PresenterFit, EachBiggerTextStepFitsBothProjectors) {
  Findings findings;
  for (Size size : kProjectors) {
    auto host = make_host(size.width, size.height);
    ASSERT_TRUE(host);
    App app(*host, options());
    play_lesson(*host, app, std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/hopper.txt");
    app.set_presenter(false);
    frames(*host, app, 2);
    check_every_view(*host, app, "hopper.txt, " + size_name(size) + ", normal mode", &findings);
    app.set_presenter(true);
    frames(*host, app, 2);
    float shown = 0;
    for (int step = 0; step < 30 && ImGui::GetFontSize() > shown; ++step) {
      shown = ImGui::GetFontSize();
      const std::string where = "hopper.txt, " + size_name(size) + ", presenter, Ctrl+= " + std::to_string(step) +
                                "x (" + std::to_string(static_cast<int>(shown)) + " px)";
      check_every_view(*host, app, where, &findings);
      host->queue_key_press(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL);
      frames(*host, app, 2);
    }
    EXPECT_LE(ImGui::GetFontSize(), largest_font_px(ImVec2(size.width, size.height)))
        << "the text stops growing where the window's layout can no longer hold it";
  }
  EXPECT_TRUE(findings.empty()) << "text cut or hidden:" << findings.report();
}

}  // namespace
