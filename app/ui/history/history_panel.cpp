#include "app/ui/history/history_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gl_gemm/gl_shader_runner.h"
#include "app/runner/timing_history.h"
#include "app/ui/history/history_panel_internal.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "kernels/core/registry.h"

namespace tilescope {

using namespace history_ui;

int HistoryPanel::selected_config() const {
  const VariantDescriptor* v = shader_variant();
  if (!v || v->configs.empty()) return -1;
  return std::clamp(mode_ < 0 ? v->default_config : mode_, 0, static_cast<int>(v->configs.size()) - 1);
}

ShaderMode HistoryPanel::mode() const {
  const int i = selected_config();
  return i < 0 ? ShaderMode::kMultipass : shader_mode_of(shader_variant()->configs[i]);
}

void HistoryPanel::update_plans(int M, int N, int K) {
  if (M == plans_M_ && N == plans_N_ && K == plans_K_ && !plans_.empty()) return;
  plans_M_ = M, plans_N_ = N, plans_K_ = K;
  plans_.clear();
  const VariantDescriptor* v = shader_variant();
  for (std::size_t i = 0; v && i < v->configs.size(); ++i) {
    const ShaderMode mode = shader_mode_of(v->configs[i]);
    ModePlan p;
    p.mode = mode;
    p.name = v->configs[i].name;
    p.run_M = M, p.run_N = N, p.K = K;
    int md = M, nd = N;
    const int t = default_tile();
    auto tiles = [&](int m, int n) { return static_cast<long long>(ceil_div(m, t)) * ceil_div(n, t); };
    if (mode == ShaderMode::kBlocked)
      while (tiles(md, nd) > kMaxQuads) md = (md + 1) / 2, nd = (nd + 1) / 2;
    p.M = md, p.N = nd;
    p.smaller_example = md != M || nd != N;
    p.layout = describe_shader_layout(mode, md, nd, K);
    p.run_layout = p.smaller_example ? describe_shader_layout(mode, M, N, K) : p.layout;
    plans_.push_back(std::move(p));
  }
}

void HistoryPanel::draw(TabContext& ctx) {
  draw(ctx.state, *ctx.history.rows(), ctx.device);  // shared, not copied every frame
}

void HistoryPanel::draw(const AppState& state, const std::vector<RunResult>& rows, const DeviceInfo& device) {
  ImGui::BeginChild("history_scroll", ImVec2(0, 0), false);
  const float em = ImGui::GetFontSize();

  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      "Before CUDA (2001-2006) a GPU could only draw. A and B became float textures, C a float render target, and "
      "drawing a rectangle (a quad) over C ran a fragment shader once per texel, computing its element (or block) of C "
      "from texel fetches. Passes added partial sums by blending. This is that method, run on this machine.");
  ImGui::PopTextWrapPos();
  if (state.precision != Precision::F32)
    banner(
        "Float only: the texture shaders run in float whatever the input type chosen (the variant refuses the "
        "others: the fragment pipeline has no double, half or bfloat16 textures and blending). Switch the input "
        "type to float to time them.");

  draw_mode_picker(state);

  const Shape shape = run_shape(state);
  auto clamp_size = [](std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, 1, 65536)); };
  update_plans(clamp_size(shape.M), clamp_size(shape.N), clamp_size(shape.K));
  if (plans_.empty()) {
    ImGui::TextDisabled("This program has no texture-shader variant.");
    ImGui::EndChild();
    return;
  }
  const ShaderMode m = mode();
  const ModePlan& plan = plans_[static_cast<std::size_t>(selected_config())];

  const float avail = ImGui::GetContentRegionAvail().x;
  const bool wide = avail > 44 * em;
  const float max_height = std::max(10 * em, ImGui::GetIO().DisplaySize.y * 0.42f);
  if (wide && ImGui::BeginTable("history_top", 2, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("passes", ImGuiTableColumnFlags_WidthStretch, 1.35f);
    ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    draw_passes(plan, ImGui::GetContentRegionAvail().x, max_height);
    ImGui::TableSetColumnIndex(1);
    draw_texture_layout(m, ImGui::GetContentRegionAvail().x);
    ImGui::EndTable();
  } else {
    draw_passes(plan, avail, max_height);
    draw_texture_layout(m, avail);
  }

  draw_history_table(rows);
  draw_bound_table(rows, device);
  draw_reload();
  ImGui::Dummy(ImVec2(0, em));
  ImGui::EndChild();
}

void HistoryPanel::draw_mode_picker(const AppState& state) {
  (void)state;
  section("Mode: which way of drawing C");
  const VariantDescriptor* v = shader_variant();
  const int count = v ? static_cast<int>(v->configs.size()) : 0;
  if (count == 0) return;
  mode_ = selected_config();
  for (int i = 0; i < count; ++i) {
    const std::string name = v->configs[i].name;
    char label[96];
    std::snprintf(label, sizeof label, "%d %s", i + 1, name.c_str());
    if (i > 0) {
      // Wrap when the next button would not fit (presenter mode, narrow windows).
      const float gap = ImGui::GetFontSize() * 1.2f;
      const float w = ImGui::CalcTextSize(label).x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      if (ImGui::GetItemRectMax().x + gap + w < right) ImGui::SameLine(0, gap);
    }
    if (ImGui::RadioButton(label, mode_ == i)) select_mode(i);
    const ModeStory story = mode_story(shader_mode_of(v->configs[i]));
    help_tooltip((std::string(story.year) + ": " + story.description).c_str());
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", mode_story(mode()).description.c_str());
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_reload() {
  section("Edit a shader, then reload");
  if (ImGui::Button("Reload shaders")) reload_shaders();
  help_tooltip(
      "Recompiles every shader in the folder below, here (errors show at once), and tells the timing thread "
      "to reload before its next run, so the next Run times your edited shader.");
  ImGui::SameLine();
  ImGui::TextDisabled("edit a .frag there and press Reload");
  const std::string dir = ShaderLibrary::default_directory();
  ImGui::TextUnformatted("Shader folder:");
  ImGui::SameLine();
  {
    std::string buf = dir;
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##shader_dir", buf.data(), buf.size() + 1, ImGuiInputTextFlags_ReadOnly);
  }
  if (reloaded_) {
    if (reload_log_.empty()) {
      ImGui::TextColored(kGreen, "all %d shaders compiled (in %s)", kShaderModeCount, reload_dir_.c_str());
    } else {
      ImGui::TextColored(kRed, "some shaders failed to compile (the log can be selected and copied):");
      int lines = 1;
      for (char ch : reload_log_) lines += ch == '\n';
      copyable_text("##reload_log", reload_log_, static_cast<float>(std::clamp(lines, 3, 14)),
                    IM_COL32(255, 110, 100, 255));
    }
  }
  const GlShaderThreadInfo info = gl_shader_thread_info();
  if (info.loads > 0) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Timing context: %s; shaders loaded %d time%s from %s%s", info.renderer.c_str(), info.loads,
                        info.loads == 1 ? "" : "s", info.shader_dir.c_str(),
                        info.load_log.empty() ? " (all compiled)." : ".");
    ImGui::PopTextWrapPos();
    if (!info.load_log.empty()) {
      ImGui::TextColored(kRed, "the timing thread's last load failed:");
      copyable_text("##thread_log", info.load_log, 4, IM_COL32(255, 110, 100, 255));
    }
  }
}

std::string HistoryPanel::reload_shaders() {
  request_shader_reload();
  std::string log;
  reload_dir_ = ShaderLibrary::default_directory();
  {
    // Compiled in the current (window's) context and destroyed before returning, while it is current.
    ShaderLibrary library(reload_dir_);
    if (!library.reload(&log) && log.empty()) log = "the shaders in " + reload_dir_ + " failed to load";
  }
  reload_log_ = log;
  reloaded_ = true;
  return log;
}

}  // namespace tilescope
