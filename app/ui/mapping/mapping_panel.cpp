#include "app/ui/mapping/mapping_panel.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <vector>

#include "app/runner/runner.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/fragment_images.h"
#include "app/viz/stage_handshake.h"
#include "app/viz/warpgroup_images.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/measure/random_inputs.h"

namespace tilescope {

namespace {

constexpr int kMaxImageSide = 1024;  // larger matrices are sampled; block lines are drawn on top
constexpr std::uint64_t kSeed = 1;   // the seed Run uses: the values shown are the ones multiplied
constexpr double kMaxTraceWork = 2048.0 * 2048.0 * 2048.0;  // M * N * K of the largest traced run

// Where a stored-matrix element appears on screen. `transposed`: AᵀA's left matrix shows Aᵀ.
struct Placement {
  ImVec2 origin;
  float scale = 1;  // pixels per element
  bool transposed = false;
  ImVec2 at(double row, double col) const {
    if (transposed) std::swap(row, col);
    return ImVec2(origin.x + static_cast<float>(col) * scale, origin.y + static_cast<float>(row) * scale);
  }
};

void tile_rect(ImDrawList* dl, const Placement& p, const TileRect& t, ImU32 col, float thickness, bool filled) {
  if (t.empty()) return;
  ImVec2 a = p.at(static_cast<double>(t.row0), static_cast<double>(t.col0));
  ImVec2 b = p.at(static_cast<double>(t.row1), static_cast<double>(t.col1));
  const ImVec2 mn(std::min(a.x, b.x), std::min(a.y, b.y)), mx(std::max(a.x, b.x), std::max(a.y, b.y));
  if (filled) dl->AddRectFilled(mn, mx, (col & 0x00FFFFFF) | 0x50000000);
  dl->AddRect(mn, mx, col, 0, 0, thickness);
}

double stored_value(Problem problem, bool of_a, std::int64_t row, std::int64_t col, const Shape& s) {
  // Gemm: A is M x K (stream 0), B is K x N (stream 1). AᵀA: A is K x N (stream 0).
  const std::int64_t cols = of_a ? (problem == Problem::Gemm ? s.K : s.N) : s.N;
  return input_value(kSeed, of_a ? 0 : 1, static_cast<std::uint64_t>(row * cols + col));
}

// C(i, j) summed over k < k_end, from the same inputs the kernels get.
double partial_c(Problem problem, const Shape& s, std::int64_t i, std::int64_t j, std::int64_t k_end) {
  double sum = 0;
  for (std::int64_t k = 0; k < k_end; ++k) {
    const double a =
        problem == Problem::Gemm ? stored_value(problem, true, i, k, s) : stored_value(problem, true, k, i, s);
    const double b =
        problem == Problem::Gemm ? stored_value(problem, false, k, j, s) : stored_value(problem, true, k, j, s);
    sum += a * b;
  }
  return sum;
}

// A sentence in the disabled colour, wrapped at the panel's edge.
void disabled_wrapped(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

// One entry of the overlay's legend: the colour's name in its colour, then what it marks.
void legend(const ImVec4& colour, const char* name, const char* what) {
  ImGui::TextColored(colour, "%s", name);
  ImGui::SameLine(0, 4);
  disabled_wrapped(what);
}

}  // namespace

void MappingPanel::rebuild(const AppState& state) {
  const LessonEntry& e = state.lesson[std::clamp(state.focused, 0, static_cast<int>(state.lesson.size()) - 1)];
  const Shape shape = run_shape(state);
  char key[256];
  std::snprintf(key, sizeof key, "%s:%d:%d:%d:%lld:%lld:%lld", e.variant_id.c_str(), e.config_index,
                static_cast<int>(state.problem), static_cast<int>(state.precision), static_cast<long long>(shape.M),
                static_cast<long long>(shape.N), static_cast<long long>(shape.K));
  if (key == key_) return;
  key_ = key;
  variant_id_ = e.variant_id;
  config_index_ = e.config_index;
  problem_ = state.problem;
  precision_ = state.precision;
  shape_ = shape;
  // The precision matters: 16-byte vectors hold 4 floats but 2 doubles, which changes which
  // rows a thread of regtile_prefetch owns.
  model_ = make_mapping_model(variant_id_, config_index_, problem_, state.precision, shape_, &no_model_reason_);
  // Keep the block and phase the user (or a script) chose where the new grid still has them.
  if (model_) {
    selected_x_ = std::clamp(selected_x_, 0, model_->grid().x - 1);
    selected_y_ = std::clamp(selected_y_, 0, model_->grid().y - 1);
    phase_ = std::clamp(phase_, 0, model_->phases());
  }
  playing_ = false;
  images_dirty_ = true;
  trace_current_ = false;
  trace_failed_ = false;
  // A run still in flight uses trace_: let it finish before the next one starts (its result is
  // for the old configuration and is dropped).
  if (trace_job_.valid()) trace_job_.get();
  awaiting_trace_ = false;
}

bool MappingPanel::refresh_gpu(const AppState& state) {
  std::string error;
  if (!trace_current_) {
    // The instrumented run counts every global load with an atomic: at big sizes it takes
    // seconds (naive at 4096^3: 137 billion atomics), so it is bounded, and it runs on its own
    // thread while the model's pictures stand in — the UI never waits for it.
    const double work = static_cast<double>(shape_.M) * static_cast<double>(shape_.N) * static_cast<double>(shape_.K);
    if (work > kMaxTraceWork) {
      source_ =
          "the mapping model, uploaded from the host (sizes beyond 2048^3 are not traced: the counting run "
          "would take too long)";
      return false;
    }
    if (!trace_job_.valid()) {
      const std::string variant = variant_id_;
      const int config = config_index_;
      const Problem problem = problem_;
      const Precision precision = state.precision;
      const Shape shape = shape_;
      trace_job_ = std::async(std::launch::async, [this, variant, config, problem, precision, shape] {
        std::string why;
        const bool ok = trace_.run(variant, config, problem, precision, shape, -1, kSeed, &why);
        return ok ? std::string() : (why.empty() ? std::string("failed") : why);
      });
    }
    if (trace_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      source_ = "the mapping model, uploaded from the host, while the instrumented run is on the GPU ...";
      awaiting_trace_ = true;
      return false;
    }
    awaiting_trace_ = false;
    const std::string why = trace_job_.get();
    if (!why.empty()) {
      source_ = "the mapping model, uploaded from the host (the instrumented run failed: " + why + ")";
      trace_current_ = true;  // do not retry every frame
      trace_failed_ = true;
      return false;
    }
    trace_current_ = true;
    trace_failed_ = false;
    reads_coloured_ = false;
  }
  if (trace_failed_) return false;
  // The textures have the sizes the host path would give, so the two paths compare pixel for pixel.
  const bool gemm = problem_ == Problem::Gemm;
  auto side = [](std::int64_t n) { return static_cast<int>(std::min<std::int64_t>(n, kMaxImageSide)); };
  auto ensure = [&](GlTexture& tex, CudaGlTexture& reg, std::int64_t rows, std::int64_t cols) {
    const bool fresh = tex.allocate(side(cols), side(rows));
    if (fresh || !reg.registered() || reg.gl_texture() != tex.id()) {
      reads_coloured_ = false;
      return reg.register_texture(tex.id(), tex.width(), tex.height(), &error);
    }
    return true;
  };
  const bool ok = ensure(c_tex_, c_reg_, shape_.M, shape_.N) &&
                  ensure(a_tex_, a_reg_, gemm ? shape_.M : shape_.K, gemm ? shape_.K : shape_.N) &&
                  (!gemm || ensure(b_tex_, b_reg_, shape_.K, shape_.N));
  const auto t0 = std::chrono::steady_clock::now();
  unsigned top = 0;
  if (!ok ||
      !colour_trace(trace_, selected_x_, selected_y_, problem_ == Problem::Ata && caps().mirrored_ata, c_reg_, a_reg_,
                    gemm ? &b_reg_ : nullptr, &error, true, &top, !reads_coloured_, thread_colouring())) {
    source_ = "the mapping model, uploaded from the host (CUDA–GL interop failed: " + error + ")";
    return false;
  }
  refresh_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!reads_coloured_) images_.max_reads = top;  // otherwise unchanged since the last trace
  reads_coloured_ = true;
  char buf[160];
  std::snprintf(buf, sizeof buf, "an instrumented run on the GPU, coloured there (CUDA–GL interop, %.2f ms)",
                refresh_ms_);
  source_ = buf;
  return true;
}

void MappingPanel::handle_keys() {
  if (ImGui::GetIO().WantTextInput || !model_) return;
  if (key_tapped(GLFW_KEY_SPACE)) playing_ = !playing_;
  if (key_tapped_or_repeated(GLFW_KEY_RIGHT)) phase_ = std::min(phase_ + 1, model_->phases()), playing_ = false;
  if (key_tapped_or_repeated(GLFW_KEY_LEFT)) phase_ = std::max(phase_ - 1, 0), playing_ = false;
}

void MappingPanel::draw(TabContext& ctx) {
  runner_busy_ = ctx.runner.progress().busy;
  draw(ctx.state, ctx.runner.gpu());
}

void MappingPanel::draw(const AppState& state, bool gpu) {
  gpu_ = gpu;
  rebuild(state);
  if (!model_) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFontSize()));
    ImGui::TextWrapped("No mapping picture for %s: %s", variant_id_.c_str(), no_model_reason_.c_str());
    ImGui::TextDisabled("Focus another variant in the Variants table (click its name).");
    return;
  }
  handle_keys();
  // A script may ask for more phases than this block has: show its last.
  phase_ = std::clamp(phase_, 0, model_->phases());
  if (playing_) {
    play_clock_ += ImGui::GetIO().DeltaTime * speed_;
    if (play_clock_ >= 1.0) {
      play_clock_ = 0;
      if (phase_ < model_->phases())
        ++phase_;
      else
        playing_ = false;
    }
  }
  // While the instrumented run is in flight the model's pictures stay up; each frame only asks
  // whether the run is done (and then colours its result).
  if (awaiting_trace_ && !images_dirty_) refresh_gpu(state);
  if (images_dirty_) {
    if (!gpu || !refresh_gpu(state)) {
      reads_coloured_ = false;  // the host path owns the textures' contents now
      images_ =
          render_mapping_images(*model_, problem_, shape_, selected_x_, selected_y_, kMaxImageSide, thread_colouring());
      // The host path owns the textures now: any CUDA registration refers to storage it replaces.
      c_tex_.upload(images_.c);
      a_tex_.upload(images_.a);
      if (!images_.b.rgba.empty()) b_tex_.upload(images_.b);
      if (!gpu) source_ = "the mapping model, uploaded from the host (no GPU)";
    }
    images_dirty_ = false;
  }

  draw_views(state);
}

// One view in a panel of its own, and beside it the tile animation; the timeline, which is about
// time rather than the selected block's tiles, and the Memory view (32 banks across) take the
// whole width. The animation keeps a width its controls and words fit in; it and the pictures
// scroll down where they are taller than their panel (the matrices zoom instead).
void MappingPanel::draw_view(const AppState& state, View v) {
  const bool wide = v == View::Timeline || v == View::Memory;
  const float em = ImGui::GetFontSize();
  const float anim_width = wide ? 0 : std::clamp(ImGui::GetContentRegionAvail().x * 0.38f, 17 * em, 24 * em);
  const ImVec2 size(ImGui::GetContentRegionAvail().x - anim_width, 0);
  switch (v) {
    case View::Matrices:
      // The wheel zooms the matrices: the panel scrolls by its bar.
      ImGui::BeginChild("matrices", size, false, ImGuiWindowFlags_NoScrollWithMouse);
      draw_matrices(state);
      break;
    case View::Fragments:
      ImGui::BeginChild("fragments", size);
      fragment_view_.draw_fragments(*model_->fragments());
      break;
    case View::Banks:
      ImGui::BeginChild("banks", size);
      fragment_view_.draw_banks(*model_->fragments());
      break;
    case View::Timeline:
      // The wheel zooms the timeline: the panel scrolls by its bar.
      ImGui::BeginChild("timeline", size, false, ImGuiWindowFlags_NoScrollWithMouse);
      draw_timeline(state);
      break;
    case View::Memory:
      // The bank picture wants the width: 32 columns. The block follows the one picked in C; a
      // block typed here is the selected one everywhere.
      ImGui::BeginChild("memory", size);
      if (warp_access_view_.draw(*model_, &selected_x_, &selected_y_, memory_context()))
        phase_ = 0, images_dirty_ = true;
      break;
  }
  ImGui::EndChild();
  if (wide) return;
  ImGui::SameLine();
  ImGui::BeginChild("animation", ImVec2(0, 0), true);
  draw_animation(state);
  ImGui::EndChild();
}

void MappingPanel::set_memory_recording(const std::string& program, const std::string& unavailable,
                                        const KernelEditor* editor) {
  warp_access_view_.recorder().set_program(program);
  memory_unavailable_ = unavailable;
  editor_ = editor;
}

MemoryViewContext MappingPanel::memory_context() {
  MemoryViewContext c;
  c.variant = find_variant(variant_id_);
  if (!c.variant) return c;
  c.shown.variant = variant_id_;
  c.shown.config = config_at(*c.variant, config_index_).name;
  c.shown.problem = problem_;
  c.shown.precision = precision_;
  c.shown.shape = shape_;
  c.inputs.unavailable = !memory_unavailable_.empty() ? memory_unavailable_
                         : runner_busy_               ? "The GPU is timing kernels: record when the run has ended."
                                                      : "";
  if (editor_) editor_->edit_of(*c.variant, &c.inputs.edit_text);
  return c;
}

bool MappingPanel::record_memory(const AppState& state, bool edited, std::string* why) {
  rebuild(state);
  if (!model_) return *why = "no mapping model: " + no_model_reason_, false;
  if (model_->access_sites().empty()) return *why = variant_id_ + "'s model does not list its memory accesses", false;
  MemoryViewContext c = memory_context();
  const Dim2 grid = model_->grid();
  c.shown.block = std::clamp(selected_y_, 0, grid.y - 1) * grid.x + std::clamp(selected_x_, 0, grid.x - 1);
  const Dim2 threads = model_->block();
  c.shown.warp =
      std::clamp(warp_access_view_.warp(), 0, std::max(1, (threads.x * threads.y + kWarpLanes - 1) / kWarpLanes) - 1);
  return warp_access_view_.recorder().record(c.shown, *c.variant, c.inputs, edited, why);
}

bool MappingPanel::load_memory_recording(const AppState& state, const std::string& path, std::string* why) {
  rebuild(state);
  if (!model_) return *why = "no mapping model: " + no_model_reason_, false;
  const MemoryViewContext c = memory_context();
  int block = 0, warp = 0;
  if (!warp_access_view_.recorder().load(path, c.shown, &block, &warp, why)) return false;
  const Dim2 grid = model_->grid();
  if (block >= grid.x * grid.y)
    return *why = path + ": block " + std::to_string(block) + " is not in the launch", false;
  select_block(block % grid.x, block / grid.x);
  warp_access_view_.set_warp(warp);
  return true;
}

bool MappingPanel::has_timeline() const {
  const VariantDescriptor* v = find_variant(variant_id_);
  return v && v->launch_timeline;
}

// The pictures, a tab each: the matrices; a tensor-core model's (blocks, warps, lanes), one mma's
// fragments and the shared-memory banks of one k step; a pipelined variant's timeline; memory
// one warp at a time, for every model.
void MappingPanel::draw_views(const AppState& state) {
  const FragmentPicture* pic = model_->fragments();
  const bool timeline = has_timeline();
  // A view this variant does not have (a script asked for it) would be asked for forever.
  const bool missing = view_ == View::Timeline                            ? !timeline
                       : view_ == View::Fragments || view_ == View::Banks ? !pic
                                                                          : false;
  if (view_requested_ && missing) view_requested_ = false;
  // The tabs say what they show (a warpgroup's instruction keeps its operands in shared memory;
  // warps and lanes colour the selected block only where the owners are warps and lanes), in
  // short where the long names do not fit across; the ids after ### stay, so the tab stays
  // selected. Tabs that still do not fit scroll rather than shrink.
  struct Tab {
    View view;
    const char* full;
    const char* brief;
  };
  const bool group = pic && is_warpgroup_picture(*pic);
  std::vector<Tab> tabs = {{View::Matrices,
                            pic && caps().warp_level ? "Blocks, warps and lanes###matrices" : "Matrices###matrices",
                            "Matrices###matrices"}};
  if (pic) {
    tabs.push_back({View::Fragments,
                    group ? "One warpgroup instruction###fragments" : "Fragments of one mma###fragments",
                    group ? "One wgmma###fragments" : "One mma###fragments"});
    tabs.push_back({View::Banks,
                    has_lane_reads(*pic) ? "Shared-memory banks###banks" : "Shared memory: TMA boxes###banks",
                    has_lane_reads(*pic) ? "Banks###banks" : "TMA boxes###banks"});
  }
  if (timeline) tabs.push_back({View::Timeline, "Pipeline timeline###timeline", "Timeline###timeline"});
  tabs.push_back({View::Memory, "Memory (one warp)###memory", "Memory###memory"});
  const ImGuiStyle& st = ImGui::GetStyle();
  float full_width = 0;
  for (const Tab& t : tabs) full_width += button_width(t.full) + st.ItemInnerSpacing.x;
  const bool brief = full_width > ImGui::GetContentRegionAvail().x;
  if (!ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyScroll)) return;
  for (const Tab& t : tabs) {
    // A requested tab is asked for until it shows (ImGui selects it a frame later).
    const bool asked = view_requested_ && view_ == t.view;
    if (!ImGui::BeginTabItem(brief ? t.brief : t.full, nullptr, asked ? ImGuiTabItemFlags_SetSelected : 0)) continue;
    if (asked) view_requested_ = false;
    if (!view_requested_) view_ = t.view;
    draw_view(state, t.view);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

// Where the three matrices are on screen for the current zoom and pan, in the textbook layout.
struct MappingPanel::MatrixView {
  Placement left, top, cpl;  // A (or Aᵀ), B (or A), C
  float s = 1;               // pixels per element
  float ks = 0;              // K elements, in pixels
  double M = 0, N = 0, K = 0;
};

void MappingPanel::draw_matrices(const AppState& state) {
  (void)state;
  const VariantDescriptor* v = find_variant(variant_id_);
  const TileConfig& cfg = config_at(*v, config_index_);
  draw_matrices_header(*v, cfg);
  if (caps().warp_level) draw_colouring_choice();

  const ImVec2 region_min = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The canvas takes what the legend under it leaves (one line, or two where it wraps), and at
  // least ten lines' height: a shorter panel scrolls down to the legend.
  const float legend_lines = avail.x >= reads_legend_width() ? 1.0f : 2.0f;
  const float legend_h = legend_lines * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::InvisibleButton("canvas",
                         ImVec2(std::max(avail.x, 50.0f), std::max(avail.y - legend_h, 10 * ImGui::GetFontSize())),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 region_max = ImGui::GetItemRectMax();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  zoom_and_pan(hovered, region_min);
  const MatrixView view = place_matrices(region_min, region_max);
  dl->PushClipRect(region_min, region_max, true);
  draw_matrix_images(dl, view);
  draw_block_overlay(dl, view, cfg);
  dl->PopClipRect();
  if (hovered) hover_matrices(view);
  draw_reads_legend(dl);
}

void MappingPanel::draw_matrices_header(const VariantDescriptor& v, const TileConfig& cfg) const {
  ImGui::PushTextWrapPos(0);
  ImGui::Text("%s %s, %s, M = %lld, N = %lld, K = %lld", v.label, cfg.name.c_str(),
              transpose_spelling(problem_ == Problem::Gemm ? "C = A·B" : "C = AᵀA").c_str(),
              static_cast<long long>(shape_.M), static_cast<long long>(shape_.N), static_cast<long long>(shape_.K));
  const std::string source = "source: " + source_;
  const std::string reads = transpose_spelling(model_->reads_summary()) +
                            ". Click C to pick a block; the wheel zooms, right-drag pans, double-click resets.";
  const char* why_source =
      "With a GPU the pictures come from an instrumented run of the very kernel that is timed (who "
      "wrote each element of C, how often each element of A and B was read), coloured on the GPU. "
      "Without one they come from the variant's mapping model; a GPU test checks the two agree exactly.";
  // A short panel (a projector, big text) keeps its height for the matrices: the source and the
  // reads fold into one line, read on hover.
  if (ImGui::GetContentRegionAvail().y < 24 * ImGui::GetFontSize()) {
    ImGui::TextDisabled("where the pictures come from, how often A and B are read: hover");
    help_tooltip((source + "\n\n" + reads + "\n\n" + why_source).c_str());
  } else {
    ImGui::TextDisabled("%s", source.c_str());
    help_tooltip(why_source);
    ImGui::TextDisabled("%s", reads.c_str());
  }
  ImGui::PopTextWrapPos();
}

// Tensor-core variants: warp, lane or register for the selected block, and what the colours are.
void MappingPanel::draw_colouring_choice() {
  const ThreadColouring before = colouring_;
  // On a line that wraps where the panel is narrow.
  ImGui::TextUnformatted("colour the selected block by:");
  same_line_if_fits(check_width("warp"));
  if (ImGui::RadioButton("warp", colouring_ == ThreadColouring::Warp)) colouring_ = ThreadColouring::Warp;
  same_line_if_fits(check_width("lane"));
  if (ImGui::RadioButton("lane", colouring_ == ThreadColouring::Lane)) colouring_ = ThreadColouring::Lane;
  same_line_if_fits(check_width("register"));
  if (ImGui::RadioButton("register", colouring_ == ThreadColouring::Register)) colouring_ = ThreadColouring::Register;
  help_tooltip(
      "A tensor-core kernel computes C by warps: each warp owns a tile of the block, and inside it each of the 32 "
      "lanes holds a fixed pattern of elements in its accumulator registers. Colour the selected block by warp, "
      "by lane (the 8 groups of 4 lanes get 8 hues) or by the lane's accumulator register; hover C for all three.");
  if (colouring_ != before) images_dirty_ = true;
  float sw = ImGui::GetFontSize() * 0.7f;
  const int swatches = colouring_ == ThreadColouring::Warp   ? model_->block().y
                       : colouring_ == ThreadColouring::Lane ? 32
                                                             : 0;
  if (swatches == 0) {
    const char* what = model_->fragments() ? "hue: the mma tile of the warp; shade: its register c0 ... c3"
                                           : "a colour per accumulator register of the lane";
    same_line_if_fits(text_width(what));
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", what);
    ImGui::PopTextWrapPos();
    return;
  }
  const char* name = colouring_ == ThreadColouring::Warp ? "warps 0" : "lanes 0";
  char last[16];
  std::snprintf(last, sizeof last, "%d", swatches - 1);
  // The swatches narrow where the panel is (a line of their own, 32 lanes across).
  const float words_w = text_width(name) + text_width(last) + 8;
  sw = std::clamp((ImGui::GetContentRegionAvail().x - words_w) / swatches, 1.0f, sw);
  same_line_if_fits(words_w + swatches * sw);
  ImGui::TextDisabled("%s", name);
  ImGui::SameLine(0, 4);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float y = p.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int i = 0; i < swatches; ++i)
    dl->AddRectFilled(ImVec2(p.x + i * sw, y), ImVec2(p.x + (i + 1) * sw - 1, y + sw),
                      colouring_ == ThreadColouring::Warp ? warp_color(i) : lane_color(i));
  ImGui::Dummy(ImVec2(swatches * sw, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, 4);
  ImGui::TextDisabled("%s", last);
}

// Zoom around the mouse; drag to pan; double-click to reset. The canvas is the last item.
void MappingPanel::zoom_and_pan(bool hovered, ImVec2 region_min) {
  ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0) {
    const float old = zoom_;
    zoom_ = std::clamp(zoom_ * std::pow(1.2f, io.MouseWheel), 0.25f, 400.0f);
    const ImVec2 m(io.MousePos.x - region_min.x - pan_.x, io.MousePos.y - region_min.y - pan_.y);
    pan_.x -= m.x * (zoom_ / old - 1);
    pan_.y -= m.y * (zoom_ / old - 1);
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Right)) {
    pan_.x += io.MouseDelta.x;
    pan_.y += io.MouseDelta.y;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) zoom_ = 1, pan_ = ImVec2(0, 0);
}

MappingPanel::MatrixView MappingPanel::place_matrices(ImVec2 region_min, ImVec2 region_max) const {
  MatrixView v;
  v.M = static_cast<double>(shape_.M), v.N = static_cast<double>(shape_.N), v.K = static_cast<double>(shape_.K);
  const float w = region_max.x - region_min.x, h = region_max.y - region_min.y;
  auto fit_with = [&](float gap) {
    return static_cast<float>(std::min((w - gap) / (v.K + v.N), (h - gap) / (v.K + v.M)));
  };
  // The gaps hold the matrices' names (drawn in the corner above A and left of B): wider where
  // K is thin on screen.
  float gap = ImGui::GetFontSize() * 0.6f;
  if (static_cast<float>(v.K) * fit_with(gap) * zoom_ + gap < ImGui::GetFontSize() * 1.3f)
    gap = ImGui::GetFontSize() * 1.3f;
  const float s = fit_with(gap) * zoom_;
  const ImVec2 o(region_min.x + pan_.x, region_min.y + pan_.y);
  const float ks = static_cast<float>(v.K) * s;
  // The textbook layout: B (or A for AᵀA) on top, A (or Aᵀ) on the left, C below right.
  v.left = Placement{ImVec2(o.x, o.y + ks + gap), s, problem_ == Problem::Ata};
  v.top = Placement{ImVec2(o.x + ks + gap, o.y), s, false};
  v.cpl = Placement{ImVec2(o.x + ks + gap, o.y + ks + gap), s, false};
  v.s = s, v.ks = ks;
  return v;
}

// The three heatmaps, their frames and their names.
void MappingPanel::draw_matrix_images(ImDrawList* dl, const MatrixView& v) const {
  const Placement &left = v.left, &top = v.top, &cpl = v.cpl;
  const float s = v.s, ks = v.ks;
  const double M = v.M, N = v.N;
  const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
  // A (or Aᵀ): the stored A's heatmap, drawn transposed for AᵀA.
  if (a_tex_.valid()) {
    if (problem_ == Problem::Ata) {
      // Screen (row n, col k) shows stored A(k, n): swap the texture axes.
      dl->AddImageQuad(a_tex_.imgui_id(), left.origin, ImVec2(left.origin.x + ks, left.origin.y),
                       ImVec2(left.origin.x + ks, left.origin.y + static_cast<float>(N) * s),
                       ImVec2(left.origin.x, left.origin.y + static_cast<float>(N) * s), ImVec2(0, 0), ImVec2(0, 1),
                       ImVec2(1, 1), ImVec2(1, 0));
    } else {
      dl->AddImage(a_tex_.imgui_id(), left.origin,
                   ImVec2(left.origin.x + ks, left.origin.y + static_cast<float>(M) * s));
    }
  }
  const ImTextureID top_tex = problem_ == Problem::Ata ? a_tex_.imgui_id() : b_tex_.imgui_id();
  if (problem_ == Problem::Ata ? a_tex_.valid() : b_tex_.valid())
    dl->AddImage(top_tex, top.origin, ImVec2(top.origin.x + static_cast<float>(N) * s, top.origin.y + ks));
  if (c_tex_.valid())
    dl->AddImage(c_tex_.imgui_id(), cpl.origin,
                 ImVec2(cpl.origin.x + static_cast<float>(N) * s, cpl.origin.y + static_cast<float>(M) * s));
  dl->AddRect(left.origin, ImVec2(left.origin.x + ks, left.origin.y + static_cast<float>(M) * s), frame);
  dl->AddRect(top.origin, ImVec2(top.origin.x + static_cast<float>(N) * s, top.origin.y + ks), frame);
  dl->AddRect(cpl.origin, ImVec2(cpl.origin.x + static_cast<float>(N) * s, cpl.origin.y + static_cast<float>(M) * s),
              frame);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddText(ImVec2(left.origin.x, left.origin.y - ImGui::GetFontSize()), text,
              problem_ == Problem::Ata ? transpose_spelling("Aᵀ").c_str() : "A");
  dl->AddText(ImVec2(top.origin.x - ImGui::GetFontSize() * 1.2f, top.origin.y), text,
              problem_ == Problem::Ata ? "A" : "B");
  dl->AddText(ImVec2(cpl.origin.x - ImGui::GetFontSize() * 1.2f, cpl.origin.y), text, "C");
}

// Block boundaries over C, the selected block, and the tiles it loads in the current phase
// (and prefetches next).
void MappingPanel::draw_block_overlay(ImDrawList* dl, const MatrixView& v, const TileConfig& cfg) const {
  const double M = v.M, N = v.N;
  const float s = v.s;
  const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
  // Whenever a block is at least 4 pixels: they stay visible when the image itself is sampled.
  const int bm = std::max(1, cfg.bm), bn = std::max(1, cfg.bn);
  if (bn * s >= 4 && bm * s >= 4) {
    const ImU32 line = (frame & 0x00FFFFFF) | 0x90000000;
    for (double c = bn; c < N; c += bn) dl->AddLine(v.cpl.at(0, c), v.cpl.at(M, c), line);
    for (double r = bm; r < M; r += bm) dl->AddLine(v.cpl.at(r, 0), v.cpl.at(r, N), line);
  }
  const ImU32 sel = 0xFFFF30FF;  // magenta: stands out on every colour of the heatmap ramp
  tile_rect(dl, v.cpl, selected_block_rect(cfg), 0xFFFFFFFF, 2.5f, false);
  const ImU32 next = 0xFFFFFF40;  // cyan: in flight (prefetch registers, or cp.async stages)
  if (phase_ >= 1) {
    const int p = phase_ - 1;
    tile_rect(dl, v.left, model_->a_tile(selected_x_, selected_y_, p), sel, 2.5f, true);
    tile_rect(dl, v.top, model_->b_tile(selected_x_, selected_y_, p), sel, 2.5f, true);
    if (caps().prefetch && p + 1 < model_->phases()) {
      tile_rect(dl, v.left, model_->a_tile(selected_x_, selected_y_, p + 1), next, 1.5f, false);
      tile_rect(dl, v.top, model_->b_tile(selected_x_, selected_y_, p + 1), next, 1.5f, false);
    }
  }
  // A ring of cp.async stages: the tiles after the one multiplied are in flight (before the
  // loop, the prologue's). With per-stage barriers: the slabs the producer has copied ahead (its
  // prologue fills every stage; stage_handshake.h).
  if (const FragmentPicture* pic = model_->fragments()) {
    const int phases = model_->phases();
    const int end = pic->stage_barriers ? stage_handshake(phase_, pic->stages, pic->in_flight, phases).issued
                                        : std::min(phases, phase_ + pic->in_flight);
    for (int t = phase_; t < end; ++t) {
      tile_rect(dl, v.left, model_->a_tile(selected_x_, selected_y_, t), next, 1.5f, false);
      tile_rect(dl, v.top, model_->b_tile(selected_x_, selected_y_, t), next, 1.5f, false);
    }
  }
}

// The stored element of `p` under the mouse, if any, in *r, *c.
static bool element_under_mouse(const Placement& p, double rows, double cols, double* r, double* c) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  *c = (m.x - p.origin.x) / p.scale;
  *r = (m.y - p.origin.y) / p.scale;
  if (p.transposed) std::swap(*r, *c);
  return *r >= 0 && *c >= 0 && *r < rows && *c < cols;
}

// Hover: a tooltip for the element under the mouse; a click on C selects its block.
void MappingPanel::hover_matrices(const MatrixView& v) {
  double r = 0, c = 0;
  if (element_under_mouse(v.cpl, v.M, v.N, &r, &c)) {
    hover_c(static_cast<std::int64_t>(r), static_cast<std::int64_t>(c));
    return;
  }
  const bool ata = problem_ == Problem::Ata;
  const bool on_left = element_under_mouse(v.left, ata ? v.K : v.M, ata ? v.N : v.K, &r, &c);
  double r2 = 0, c2 = 0;
  const bool on_top = !on_left && element_under_mouse(v.top, v.K, v.N, &r2, &c2);
  if (!on_left && !on_top) return;
  const std::int64_t row = static_cast<std::int64_t>(on_left ? r : r2),
                     col = static_cast<std::int64_t>(on_left ? c : c2);
  const bool of_a = on_left || ata;
  const std::int64_t reads = of_a ? model_->a_reads(row, col) : model_->b_reads(row, col);
  ImGui::BeginTooltip();
  ImGui::Text("%s(%lld, %lld) = %.6g", of_a ? "A" : "B", static_cast<long long>(row), static_cast<long long>(col),
              stored_value(problem_, of_a, row, col, shape_));
  ImGui::Text("read %lld times from global memory", static_cast<long long>(reads));
  ImGui::EndTooltip();
}

// The tooltip of C(i, j): who computes it, and its value; a click selects its block.
void MappingPanel::hover_c(std::int64_t i, std::int64_t j) {
  const Owner ow = model_->owner(i, j);
  ImGui::BeginTooltip();
  ImGui::Text("C(%lld, %lld)", static_cast<long long>(i), static_cast<long long>(j));
  if (caps().warp_level)
    warp_owner_text(ow);
  else
    ImGui::Text("block (%d, %d), thread (%d, %d), register slot %d%s", ow.block_x, ow.block_y, ow.thread_x, ow.thread_y,
                ow.slot, ow.mirrored ? " (mirrored)" : "");
  ImGui::Text("value %.6g", partial_c(problem_, shape_, i, j, shape_.K));
  ImGui::EndTooltip();
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && ow.block_x >= 0) {
    selected_x_ = ow.block_x;
    selected_y_ = ow.block_y;
    phase_ = 0;
    images_dirty_ = true;
    // The Memory view follows the warp of the thread picked (warp-level owners: thread_y is it).
    warp_access_view_.set_warp(ow.thread_linear(model_->block()) / kWarpLanes);
  }
}

// A tensor-core owner: thread x is the lane, y the warp, the slot the lane's accumulator register.
void MappingPanel::warp_owner_text(const Owner& ow) const {
  ImGui::Text("block (%d, %d), warp %d, lane %d (group %d, thread %d)%s", ow.block_x, ow.block_y, ow.thread_y,
              ow.thread_x, ow.thread_x / 4, ow.thread_x % 4, ow.mirrored ? " (mirrored)" : "");
  const FragmentPicture* pic = model_->fragments();
  const AccumulatorPlace place = pic ? accumulator_place(*pic, ow.thread_x, ow.slot) : AccumulatorPlace{};
  if (place.known)
    ImGui::Text("accumulator register %d of the lane: c%d of mma tile (%d, %d) in the warp's %d x %d tile", ow.slot,
                place.reg, place.mi, place.ni, pic->warp_m, pic->warp_n);
  else
    ImGui::Text("accumulator register %d of the lane", ow.slot);
}

// The heatmap legend, under the canvas.
std::string MappingPanel::reads_legend_text() const {
  return "global reads per element: 0 ... " + std::to_string(images_.max_reads);
}

// The colour ramp, then its words: beside it, or under it where the panel is narrow.
float MappingPanel::reads_legend_width() const {
  return ImGui::GetFontSize() * 10 + ImGui::GetStyle().ItemSpacing.x + text_width(reads_legend_text().c_str());
}

void MappingPanel::draw_reads_legend(ImDrawList* dl) const {
  const ImVec2 lp = ImGui::GetCursorScreenPos();
  const float lw = ImGui::GetFontSize() * 10, lh = ImGui::GetFontSize() * 0.8f;
  for (int i = 0; i < 64; ++i)
    dl->AddRectFilled(ImVec2(lp.x + lw * i / 64, lp.y), ImVec2(lp.x + lw * (i + 1) / 64, lp.y + lh),
                      heat_color(i / 63.0));
  ImGui::Dummy(ImVec2(lw, lh));
  const std::string words = reads_legend_text();
  same_line_if_fits(text_width(words.c_str()));
  ImGui::TextUnformatted(words.c_str());
}

// A tile of a stored matrix as a grid of coloured cells (value: blue negative, yellow positive),
// the numbers written in when a cell is wide enough, a tooltip with the exact value.
void MappingPanel::value_grid(const char* title, const TileRect& t, bool of_a) {
  // The caption wraps: in a narrow column (presenter mode) three-digit indices outgrow one line.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (t.empty()) {
    ImGui::TextWrapped("%s: nothing (outside the matrix)", title);
    ImGui::PopStyleColor();
    return;
  }
  const std::int64_t rows = t.row1 - t.row0, cols = t.col1 - t.col0;
  ImGui::TextWrapped("%s: rows %lld..%lld, cols %lld..%lld of %s", title, static_cast<long long>(t.row0),
                     static_cast<long long>(t.row1 - 1), static_cast<long long>(t.col0),
                     static_cast<long long>(t.col1 - 1), of_a ? "A" : "B");
  ImGui::PopStyleColor();
  constexpr int kMaxCells = 12;
  const int gr = static_cast<int>(std::min<std::int64_t>(rows, kMaxCells)),
            gc = static_cast<int>(std::min<std::int64_t>(cols, kMaxCells));
  const float cell = std::min(ImGui::GetContentRegionAvail().x / gc, ImGui::GetFontSize() * 2.2f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool numbers = cell > ImGui::CalcTextSize("-0.00").x * 0.75f;
  const float small = ImGui::GetFontSize() * 0.62f;
  for (int y = 0; y < gr; ++y)
    for (int x = 0; x < gc; ++x) {
      const std::int64_t r = t.row0 + y * rows / gr, c = t.col0 + x * cols / gc;
      const double v = stored_value(problem_, of_a, r, c, shape_);
      const ImVec2 a(p0.x + x * cell, p0.y + y * cell), b(a.x + cell - 1, a.y + cell - 1);
      dl->AddRectFilled(a, b, heat_color(0.5 + 0.5 * v));
      if (numbers) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        // Dark text on the light (positive) end of the ramp, white on the dark end.
        dl->AddText(ImGui::GetFont(), small, ImVec2(a.x + 2, a.y + (cell - small) * 0.5f),
                    v > -0.2 ? 0xFF000000u : 0xFFFFFFFFu, buf);
      }
    }
  ImGui::InvisibleButton(title, ImVec2(gc * cell, gr * cell));
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int x = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, gc - 1),
              y = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, gr - 1);
    const std::int64_t r = t.row0 + y * rows / gr, c = t.col0 + x * cols / gc;
    ImGui::SetTooltip("%s(%lld, %lld) = %.7g", of_a ? "A" : "B", static_cast<long long>(r), static_cast<long long>(c),
                      stored_value(problem_, of_a, r, c, shape_));
  }
}

void MappingPanel::draw_animation(const AppState& state) {
  (void)state;
  const VariantDescriptor* v = find_variant(variant_id_);
  const TileConfig& cfg = config_at(*v, config_index_);
  const int phases = model_->phases();
  section("Tile animation");
  draw_phase_controls(phases);
  // Words and counters come from the block's account, made from the variant's model.
  const BlockAccount& account = current_account();
  draw_phase_text(account);
  // The block's extent (one block's rows and columns, cut at the matrix's edge).
  const std::int64_t rows = std::min<std::int64_t>(cfg.bm > 0 ? cfg.bm : 1, shape_.M);
  const std::int64_t cols = std::min<std::int64_t>(cfg.bn > 0 ? cfg.bn : 1, shape_.N);
  draw_block_counters(account);
  if (model_->fragments())
    draw_stage_ring(phases, std::max(1, cfg.bk), account);
  else
    draw_shared_tiles(phases, account);
  draw_partial_sums(cfg, rows, cols, account);
}

const BlockAccount& MappingPanel::current_account() {
  const std::string block = key_ + ":" + std::to_string(selected_x_) + ":" + std::to_string(selected_y_);
  if (block != loads_key_) block_loads_ = {}, loads_key_ = block;
  // Stepping or playing through the phases counts each phase's loads once.
  const std::string key = block + ":" + std::to_string(phase_);
  if (key != account_key_) {
    account_ = block_account(*model_, precision_, selected_x_, selected_y_, phase_, &block_loads_);
    account_key_ = key;
  }
  return account_;
}

// Which block, and the buttons and sliders that step through its phases.
void MappingPanel::draw_phase_controls(int phases) {
  ImGui::Text("block (%d, %d) of %d x %d", selected_x_, selected_y_, model_->grid().x, model_->grid().y);
  if (!model_->block_active(selected_x_, selected_y_))
    ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "this block exits at once: its mirror computes it");
  if (ImGui::Button("|<")) phase_ = 0, playing_ = false;
  ImGui::SameLine();
  if (ImGui::Button("<")) phase_ = std::max(0, phase_ - 1), playing_ = false;
  help_tooltip("One phase back (left arrow).");
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? "Pause" : "Play")) playing_ = !playing_;
  help_tooltip("Play or pause the phases (space).");
  ImGui::SameLine();
  if (ImGui::Button(">")) phase_ = std::min(phases, phase_ + 1), playing_ = false;
  help_tooltip("One phase forward (right arrow).");
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##phase", &phase_, 0, phases, "after phase %d");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderFloat("phases/s", &speed_, 0.5f, 20.0f, "%.1f");
}

// What the phase did, in the words of the block's account (the variant's model says them), and
// what the colours over the matrices mean.
void MappingPanel::draw_phase_text(const BlockAccount& account) const {
  for (const std::string& sentence : account.words) ImGui::TextWrapped("%s", sentence.c_str());
  const FragmentPicture* pic = model_->fragments();
  const int phases = model_->phases();
  // The overlay draws the tiles of the phase only where they go through shared memory.
  if (account.through_shared) legend(ImVec4(1, 0.19f, 1, 1), "magenta", "tiles in shared memory in this phase");
  if (pic && pic->in_flight > 0) {
    const int ahead = stage_handshake(phase_, pic->stages, pic->in_flight, phases).issued - phase_;
    char what[96];
    if (pic->stage_barriers && ahead > 0)
      std::snprintf(what, sizeof what, "the next %d tile(s), copied ahead by the TMA", ahead);
    else if (pic->stage_barriers)
      std::snprintf(what, sizeof what, "(none now: nothing of this block is left to copy)");
    else
      std::snprintf(what, sizeof what, "the next %d tile(s), in flight (cp.async)", pic->in_flight);
    legend(ImVec4(0.25f, 1, 1, 1), "cyan", what);
  }
  if (caps().prefetch && account.through_shared)
    legend(ImVec4(0.25f, 1, 1, 1), "cyan", "the next slab, in flight to the prefetch registers");
}

// The block's counters from its account: each count, how it follows, and what it means.
void MappingPanel::draw_block_counters(const BlockAccount& account) const {
  const PrecisionFacts& facts = precision_facts(precision_);
  char heading[64];
  std::snprintf(heading, sizeof heading, "Counters (this block, %s)",
                precision_ == Precision::F32 || precision_ == Precision::F64 ? facts.label : facts.name);
  section(heading);
  for (const CounterLine& line : account.counters) {
    ImGui::TextWrapped("%s", line.text.c_str());
    if (!line.help.empty()) help_tooltip(line.help.c_str());
    if (!line.formula.empty()) disabled_wrapped(line.formula.c_str());
  }
}

// What sits in shared memory during this phase: the A and B tiles as small grids of their
// values (sampled to 12 x 12 cells for big tiles; numbers where the cells are wide enough),
// and, for a variant that prefetches, the next slab on its way through the prefetch registers.
void MappingPanel::draw_shared_tiles(int phases, const BlockAccount& account) {
  if (phase_ < 1 || !account.through_shared) return;
  section("Shared memory in this phase");
  value_grid("A tile", model_->a_tile(selected_x_, selected_y_, phase_ - 1), true);
  value_grid("B tile", model_->b_tile(selected_x_, selected_y_, phase_ - 1), problem_ == Problem::Ata);
  if (caps().prefetch && phase_ < phases) {
    section("Prefetch registers (the next slab, in flight)");
    value_grid("A", model_->a_tile(selected_x_, selected_y_, phase_), true);
    value_grid("B", model_->b_tile(selected_x_, selected_y_, phase_), problem_ == Problem::Ata);
  }
}

// The block's partial sums after this phase, on a small grid (sampled for big tiles).
void MappingPanel::draw_partial_sums(const TileConfig& cfg, std::int64_t rows, std::int64_t cols,
                                     const BlockAccount& account) const {
  const std::int64_t k_done = account.k_done;
  section("Partial sums of C in this block");
  const int show = static_cast<int>(std::min<std::int64_t>({rows, cols, 16}));
  const float cell = std::min(ImGui::GetContentRegionAvail().x / std::max(show, 1), ImGui::GetFontSize() * 1.6f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const TileRect block = selected_block_rect(cfg);
  const std::int64_t i0 = block.row0, j0 = block.col0;
  double vmax = 1e-9;
  std::vector<double> vals(static_cast<std::size_t>(show) * show, 0);
  for (int y = 0; y < show; ++y)
    for (int x = 0; x < show; ++x) {
      const std::int64_t i = i0 + y * rows / std::max(show, 1), j = j0 + x * cols / std::max(show, 1);
      if (i >= shape_.M || j >= shape_.N) continue;
      vals[static_cast<std::size_t>(y) * show + x] = partial_c(problem_, shape_, i, j, k_done);
      vmax = std::max(vmax, std::fabs(vals[static_cast<std::size_t>(y) * show + x]));
    }
  for (int y = 0; y < show; ++y)
    for (int x = 0; x < show; ++x) {
      const double t = 0.5 + 0.5 * vals[static_cast<std::size_t>(y) * show + x] / vmax;
      dl->AddRectFilled(ImVec2(p0.x + x * cell, p0.y + y * cell),
                        ImVec2(p0.x + (x + 1) * cell - 1, p0.y + (y + 1) * cell - 1), heat_color(t));
    }
  ImGui::Dummy(ImVec2(show * cell, show * cell));
  char what[96];
  std::snprintf(what, sizeof what, "colour: the sum over k < %lld (blue negative, yellow positive)",
                static_cast<long long>(k_done));
  disabled_wrapped(k_done == 0 ? "all zero" : what);
}

// The ring of cp.async stages in this phase: which k tile each buffer holds.
void MappingPanel::draw_stage_ring(int phases, int bk, const BlockAccount& account) const {
  const FragmentPicture* pic = model_->fragments();
  if (!pic || !account.through_shared) return;
  section("Shared-memory stages in this phase");
  FragmentView::draw_stage_ring(*pic, phase_ - 1, phases, bk, shape_.K);
}

TileRect MappingPanel::selected_block_rect(const TileConfig& cfg) const {
  const int bm = std::max(1, cfg.bm), bn = std::max(1, cfg.bn);
  // The tensor-core kernels (warp tiles) run a 1-D grid in an order of their own
  // (kernels/core/block_order.h): their block's tile of C is where its A and B tiles say (Gemm: A's
  // rows; AᵀA: A's columns).
  if (cfg.warp_m > 0 && caps().staged_phases) {
    const TileRect a = model_->a_tile(selected_x_, selected_y_, 0), b = model_->b_tile(selected_x_, selected_y_, 0);
    if (!a.empty() && !b.empty())
      return problem_ == Problem::Gemm ? TileRect{a.row0, a.row1, b.col0, b.col1}
                                       : TileRect{a.col0, a.col1, b.col0, b.col1};
  }
  return TileRect{
      static_cast<std::int64_t>(selected_y_) * bm, std::min<std::int64_t>(shape_.M, (selected_y_ + 1LL) * bm),
      static_cast<std::int64_t>(selected_x_) * bn, std::min<std::int64_t>(shape_.N, (selected_x_ + 1LL) * bn)};
}

ThreadColouring MappingPanel::thread_colouring() const {
  return caps().warp_level ? colouring_ : ThreadColouring::Thread;
}

void MappingPanel::record_timeline(const AppState& state, bool gpu) {
  timeline_.start(timeline_request(state, kSeed), gpu);
}

std::string MappingPanel::timeline_error() const {
  const auto& r = timeline_.result();
  return r ? r->error : std::string("no timeline was recorded");
}

void MappingPanel::draw_timeline(const AppState& state) {
  const TimelineRequest request = timeline_request(state, kSeed);
  timeline_.busy();  // takes a finished recording's result
  const bool current = timeline_.result_key() == request.key() || timeline_.recording_key() == request.key();
  // Shown for a configuration, type or size it was not recorded at: record it (one launch, a few
  // milliseconds), but not while the runner times kernels, which it would disturb.
  if (!current && !runner_busy_) timeline_.start(request, gpu_);
  const bool recording = timeline_.busy();
  if (timeline_.result() != timeline_view_.shown()) timeline_view_.show(timeline_.result());

  const VariantDescriptor* v = find_variant(request.variant_id);
  const std::string config =
      v && config_index_error(*v, request.config_index).empty() ? config_at(*v, request.config_index).name : "";
  // The header's lines wrap where the panel is narrow.
  ImGui::PushTextWrapPos(0);
  ImGui::Text("%s %s, %s, %s, M = %lld, N = %lld, K = %lld", v ? v->label : request.variant_id.c_str(), config.c_str(),
              transpose_spelling(problem_ == Problem::Gemm ? "C = A·B" : "C = AᵀA").c_str(),
              to_string(request.precision), static_cast<long long>(request.shape.M),
              static_cast<long long>(request.shape.N), static_cast<long long>(request.shape.K));
  ImGui::PopTextWrapPos();
  if (request.clamped) {
    char at_most[64];
    std::snprintf(at_most, sizeof at_most, "(the sizes above, each at most %d)", kTimelineMaxSide);
    same_line_if_fits(text_width(at_most));
    ImGui::TextDisabled("%s", at_most);
    char why[200];
    std::snprintf(why, sizeof why,
                  "A timeline of a bigger product only repeats the same tiles, with more slabs per block than a row "
                  "can show: it is recorded at most %d in each size.",
                  kTimelineMaxSide);
    help_tooltip(why);
  }
  ImGui::BeginDisabled(recording || runner_busy_);
  if (ImGui::Button("Record timeline")) record_timeline(state, gpu_);
  ImGui::EndDisabled();
  help_tooltip(runner_busy_ ? "Waits for the runs in progress: on the GPU at the same time, each would disturb the "
                              "other's timings."
                            : "Runs the kernel once in its instrumented build, which stamps the SM clock when each "
                              "slab's copy is issued and lands and when each consumer begins and finishes "
                              "multiplying it. The stamps cost a little time; the order of events is the real one.");
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0);
  if (recording)
    ImGui::TextDisabled("recording…");
  else if (!current)
    ImGui::TextDisabled("recorded for another configuration or size: recorded again when the runs end");
  ImGui::PopTextWrapPos();

  // Without a timeline the words say what it would show (the ring's depth is the configuration's).
  const auto& result = timeline_.result();
  const int stages = config.empty() ? 0 : config_at(*v, request.config_index).stages;
  if (!result) {
    TimelineView::draw_explanation(stages, 0);
    return;
  }
  if (!result->ok()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.55f, 0.3f, 1), "No timeline: %s", result->error.c_str());
    ImGui::PopTextWrapPos();
    TimelineView::draw_explanation(stages, 0);
    return;
  }
  timeline_view_.draw();
}

MappingCaps MappingPanel::caps() const {
  const VariantDescriptor* v = find_variant(variant_id_);
  return v ? v->model_caps : MappingCaps{};
}

}  // namespace tilescope
