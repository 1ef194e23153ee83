// The window as a class sees it on a projector, checked view by view: every tab of an App's
// state drawn — Timing with the timing plot and the Roofline view, Mapping with each of its views
// for a plain, a warp-level and a warpgroup variant and the state's own focused one, History —
// and each view's text read back from ImGui's draw data (text_clip_check.h): no label, tab,
// counter or table header may be cut, and Run must stay on screen without scrolling the controls.
// The lessons' test (lesson_play_test.cpp) checks each lesson's final state with it, the bigger
// text test (presenter_fit_test.cpp) each Ctrl+= step.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/ui/shell/app.h"
#include "app/viz/warpgroup_images.h"
#include "kernels/core/registry.h"
#include "kernels/models/mapping_model.h"
#include "tests/gui/text_clip_check.h"

namespace tilescope::testing {

struct ProjectorSize {
  int width, height;
};
constexpr ProjectorSize kProjectors[] = {{1920, 1080}, {1280, 720}};

inline std::string size_name(ProjectorSize s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

// What frames showed that they should not have, each with where: the text, the window, the view.
class Findings {
 public:
  void add(const std::string& where, const std::vector<CutText>& cuts) {
    for (const CutText& c : cuts) add(where, describe(c));
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
// the font atlas the draw data refers to); unchecked without `findings`.
inline void checked_frame(Host& host, App& app, Findings* findings, const std::string& where) {
  prepare_fonts();
  host.begin_frame();
  app.frame();
  host.end_frame();
  if (findings) {
    const std::vector<DrawnText> text = drawn_text();
    findings->add(where, find_cut_text(text));
    // Run stays on screen without scrolling: whole and inside the controls' visible area.
    bool run_visible = false;
    for (const DrawnText& t : text)
      run_visible |= t.text == "Run" && t.visible && t.window.find("controls") != std::string::npos;
    if (!run_visible) findings->add(where, "the Run button is not on screen in the controls column");
  }
  app.after_frame();
}

inline void unchecked_frames(Host& host, App& app, int n) {
  for (int i = 0; i < n; ++i) checked_frame(host, app, nullptr, "");
}

namespace views_detail {

// A tab or view asked for shows a frame later; its panels' scrollbars a frame after that (ImGui
// measures their content a frame late); then the layout has settled.
constexpr int kFramesPerView = 4;

inline int lesson_index(const AppState& state, const std::string& variant) {
  for (std::size_t i = 0; i < state.lesson.size(); ++i)
    if (state.lesson[i].variant_id == variant) return static_cast<int>(i);
  return -1;
}

// The input type the Mapping tab draws v's pictures in: the state's, or, where v does not take
// it, one it does (the tensor-core kernels take no float): the pictures, not why there are none.
inline Precision picture_type(const VariantDescriptor& v, Precision wanted) {
  for (Precision p : {wanted, Precision::BF16, Precision::F16, Precision::F32})
    if (supports(v, p)) return p;
  return wanted;
}

// The three kinds of picture the Mapping tab draws, each by the first variant of the registry
// whose model draws it: threads and tiles; one warp's mma (fragments, banks); a warpgroup's.
enum class Picture { Plain, OneWarp, Warpgroup };

inline std::string mapping_variant(Picture kind) {
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

}  // namespace views_detail

// A view of the window: a name for the report, how to bring it up, and whether it draws the
// history's rows (the Timing plot, table and legend, the Roofline, History; the Mapping views
// and the controls draw the state's choices only).
struct View {
  std::string name;
  std::function<void(App&)> show;
  bool shows_rows = false;
};

// Every tab: the two plots of Timing, the Mapping views of a plain, a warp-level and a warpgroup
// variant and of the state's focused one, History.
inline std::vector<View> every_view(const AppState& state) {
  using namespace views_detail;
  std::vector<View> views;
  const Precision state_type = state.precision;
  for (auto kind : {TimingPlotKind::Timing, TimingPlotKind::Roofline})
    views.push_back({kind == TimingPlotKind::Timing ? "Timing" : "Timing/Roofline",
                     [kind, state_type](App& app) {
                       app.state().precision = state_type;
                       app.show_timing();
                       app.timing().set_plot_kind(kind);
                     },
                     true});
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
  views.push_back({"History",
                   [state_type](App& app) {
                     app.state().precision = state_type;
                     app.show_history();
                   },
                   true});
  return views;
}

enum class Views { All, ThoseShowingRows };

// Each view (or those that draw rows) drawn and checked; `where` names the lesson, size and mode.
// The focus and type are put back after.
inline void check_every_view(Host& host, App& app, const std::string& where, Findings* findings,
                             Views which = Views::All) {
  const AppState saved = app.state();
  for (const View& view : every_view(saved)) {
    if (which == Views::ThoseShowingRows && !view.shows_rows) continue;
    view.show(app);
    unchecked_frames(host, app, views_detail::kFramesPerView - 1);
    checked_frame(host, app, findings, where + ", " + view.name);
  }
  app.state().focused = saved.focused;
  app.state().precision = saved.precision;
}

// The H100 benchmarks of docs/benchmarks/, loaded into the App's history: every variant and
// configuration in the table, plot and legend (their long names), as after a lesson on a GPU.
inline void load_h100_benchmarks(App& app) {
  const std::string dir = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/";
  for (const char* csv : {"h100-2026-11-21/bench-gemm.csv", "h100-2026-11-21/bench-ata.csv",
                          "gl_shader-2026-11-22/bench-gl_shader-h100.csv"})
    EXPECT_TRUE(app.load_csv(dir + csv)) << app.status();
}

}  // namespace tilescope::testing
