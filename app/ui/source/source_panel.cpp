#include "app/ui/source/source_panel.h"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/runner/runner.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/widgets.h"
#include "app/ui/source/probe_hooks.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/kernel_source.h"

namespace tilescope {

namespace {

const VariantDescriptor* focused_variant(const AppState& s) {
  if (s.lesson.empty()) return nullptr;
  const int i = std::clamp(s.focused, 0, static_cast<int>(s.lesson.size()) - 1);
  return find_variant(s.lesson[static_cast<std::size_t>(i)].variant_id);
}

}  // namespace

void SourcePanel::draw(TabContext& ctx) {
  // What the compiled code is compiled for: this GPU (its driver is part of the cache's key, as for
  // the runner's compiles), else the architecture chosen.
  gpu_architecture_ =
      ctx.runner.gpu() ? "sm_" + std::to_string(ctx.device.cc_major) + std::to_string(ctx.device.cc_minor) : "";
  driver_ = ctx.device.ok() && ctx.device.driver_version > 0 ? std::to_string(ctx.device.driver_version) : "none";
  gpu_ = ctx.runner.gpu();
  draw(ctx.state);
  if (std::exchange(load_requested_, false)) ctx.app.choose_file(App::FileTarget::kLoadKernelText);
  if (std::exchange(save_requested_, false)) ctx.app.choose_file(App::FileTarget::kSaveKernelText);
}

void SourcePanel::draw(const AppState& state) {
  sync(state);
  colours_ = source_colours();
  draw_header();
  if (doc_.lines.empty()) return;
  handle_keys();
  draw_edit_toggle();
  if (editing_) {
    std::string why;
    if (editor_.open(*doc_.variant, &why)) {
      editor_.draw(edit_settings(state));
      return;
    }
    banner(why);
  }
  draw_changes_bar();
  draw_compiled_toggle();
  compiled_.poll();
  if (show_compiled_) request_compile(state);
  show_first_compiled_line();
  // Text and compiled code share the view: the PTX's lines are as long as the code's.
  compiled_width_ = show_compiled_ ? std::floor(ImGui::GetContentRegionAvail().x * 0.5f) : 0;
  draw_text();
  if (compiled_code_width() <= 0) return;
  ImGui::SameLine();
  ImGui::BeginChild("compiled_code", ImVec2(0, 0), true);
  draw_compiled_code();
  ImGui::EndChild();
}

void SourcePanel::sync(const AppState& state) {
  const VariantDescriptor* v = focused_variant(state);
  if (!v || v == doc_.variant) return;
  doc_ = load_source(*v);
  scroll_to_line_ = 0;  // a new text opens at its top
  selected_source_ = selected_ptx_ = hover_source_ = hover_ptx_ = -1;
  measured_font_ = 0;  // and is measured again
  compare_with(previous_step(*v));
}

EditRunSettings SourcePanel::edit_settings(const AppState& state) const {
  EditRunSettings s;
  if (!doc_.variant || state.lesson.empty()) return s;
  const VariantDescriptor& v = *doc_.variant;
  const int i = std::clamp(state.focused, 0, static_cast<int>(state.lesson.size()) - 1);
  s.config_name = config_at(v, state.lesson[static_cast<std::size_t>(i)].config_index).name;
  s.precision = supports(v, state.precision) ? state.precision : v.precisions.front();
  s.problem = supports(v, state.problem) ? state.problem : v.problems.front();
  s.shape = run_shape(state);
  s.repetitions = state.repetitions;
  s.architecture = architecture();
  s.gpu = gpu_;
  return s;
}

bool SourcePanel::open_editor(const AppState& state, std::string* why) {
  sync(state);
  if (!doc_.variant) {
    *why = "no variant is focused";
    return false;
  }
  return editor_.open(*doc_.variant, why);
}

// "Edit": the editor in place of the text, or the text again (the edit is kept).
void SourcePanel::draw_edit_toggle() {
  ImGui::Checkbox("Edit", &editing_);
  help_tooltip(
      "Edit the kernel text and run it in place: Check compiles it, Run compiles, checks and times it into the plot "
      "as \"(edited ...)\". Each runs in a worker process with a time limit, so a broken edit cannot take the "
      "window down. Revert brings back the shipped text; the edit is kept while you look at other things.");
  if (!editing_) return;
  same_line_if_fits(button_width("Load...") + button_width("Save..."));
  if (ImGui::Button("Load...")) load_requested_ = true;
  help_tooltip("Loads an edit kept in a file.");
  ImGui::SameLine();
  if (ImGui::Button("Save...")) save_requested_ = true;
  help_tooltip("Keeps the edit in a file (written to a temporary file, then renamed).");
}

void SourcePanel::compare_with(const VariantDescriptor* step) {
  compared_ = step;
  diff_ = LineDiff{};
  diff_.marks.assign(doc_.lines.size(), LineMark::Same);
  current_change_ = -1;
  if (!step) return;
  const SourceDocument old = load_source(*step);
  // An unreadable older text compares as empty: every line is new, and its header says why.
  compare_error_ = old.read_failed ? old.why_none : "";
  diff_ = diff_lines(old.lines, doc_.lines);
}

void SourcePanel::go_to_change(int index) {
  if (diff_.hunks.empty()) return;
  current_change_ = std::clamp(index, 0, static_cast<int>(diff_.hunks.size()) - 1);
  scroll_to_line_ = diff_.hunks[static_cast<std::size_t>(current_change_)].new_begin;
  show_changes_ = true;
}

void SourcePanel::handle_keys() {
  if (ImGui::GetIO().WantTextInput || !show_changes_ || diff_.hunks.empty()) return;
  const int n = static_cast<int>(diff_.hunks.size());
  if (key_tapped_or_repeated(GLFW_KEY_RIGHT)) go_to_change((current_change_ + 1) % n);
  if (key_tapped_or_repeated(GLFW_KEY_LEFT)) go_to_change(current_change_ <= 0 ? n - 1 : current_change_ - 1);
}

// The variant and its file; for a variant without a text, why, in its place.
void SourcePanel::draw_header() {
  ImGui::PushTextWrapPos(0);
  if (!doc_.variant) {
    ImGui::TextWrapped("Focus a variant in the Variants table (click its name) to see its kernel text.");
  } else if (doc_.lines.empty()) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFontSize() * 0.5f));
    ImGui::Text("%s: no kernel text to show", doc_.variant->label);
    if (doc_.read_failed)
      banner(doc_.why_none);
    else
      ImGui::TextWrapped("%s", doc_.why_none.c_str());
    ImGui::TextDisabled("Focus a kernel of ours in the Variants table (click its name) to see its text.");
  } else {
    ImGui::Text("%s", doc_.variant->label);
    same_line_if_fits(::tilescope::text_width(doc_.path.c_str()));
    ImGui::TextDisabled("%s, %zu lines", doc_.path.c_str(), doc_.lines.size());
    const std::string where = kernel_text_path(kernel_text_root().root, doc_.path);
    help_tooltip(("The very file the build compiled and NVRTC compiles: " + where).c_str());
  }
  ImGui::PopTextWrapPos();
}

// "What changed": the toggle, the step compared with, the change buttons and the marks' legend.
void SourcePanel::draw_changes_bar() {
  // The toggle reads on into the choice beside it: "What changed from [Shared-memory tiled]".
  ImGui::Checkbox("What changed from", &show_changes_);
  help_tooltip(
      "Marks the lines that differ from the step before this one on the staircase (or from the step chosen): "
      "amber a changed line, green a new one, a red line where lines were removed. Hover a mark for the old text; "
      "Previous and Next change (left and right arrows) go from change to change.");
  draw_compare_choice();
  if (!show_changes_) return;
  if (!compared_) {
    const char* kFirst = "the first step of the staircase: nothing before it to compare with";
    same_line_if_fits(::tilescope::text_width(kFirst));
    ImGui::TextDisabled("%s", kFirst);
    return;
  }
  if (!compare_error_.empty()) banner(compare_error_);
  draw_change_buttons();
  draw_legend();
}

void SourcePanel::draw_compare_choice() {
  const char* kNothing = "nothing";
  const char* preview = compared_ ? compared_->label : kNothing;
  float widest = ::tilescope::text_width(kNothing);
  const std::vector<const VariantDescriptor*> steps = kernel_staircase();
  for (const VariantDescriptor* s : steps) widest = std::max(widest, ::tilescope::text_width(s->label));
  same_line_if_fits(combo_width(widest));
  ImGui::SetNextItemWidth(combo_width(widest));
  if (!ImGui::BeginCombo("##compared", preview)) return;
  for (const VariantDescriptor* s : steps) {
    if (s == doc_.variant) continue;
    if (ImGui::Selectable(s->label, s == compared_)) compare_with(s);
  }
  ImGui::EndCombo();
}

void SourcePanel::draw_change_buttons() {
  const int n = static_cast<int>(diff_.hunks.size());
  char count[96];
  if (n == 0)
    std::snprintf(count, sizeof count, "no line differs");
  else if (current_change_ < 0)
    std::snprintf(count, sizeof count, "%d change%s, %d lines marked", n, n == 1 ? "" : "s", diff_.changed_lines());
  else
    std::snprintf(count, sizeof count, "change %d of %d", current_change_ + 1, n);
  if (n > 0) {
    same_line_if_fits(button_width("< Previous change"));
    if (ImGui::Button("< Previous change")) go_to_change(current_change_ <= 0 ? n - 1 : current_change_ - 1);
    help_tooltip("The change before this one (left arrow).");
    same_line_if_fits(button_width("Next change >"));
    if (ImGui::Button("Next change >")) go_to_change((current_change_ + 1) % n);
    help_tooltip("The change after this one (right arrow).");
  }
  same_line_if_fits(::tilescope::text_width(count));
  ImGui::TextUnformatted(count);
}

// A swatch and a word for each mark, on a line that wraps where the panel is narrow.
void SourcePanel::draw_legend() const {
  const float em = ImGui::GetFontSize();
  const struct {
    ImU32 colour;
    const char* word;
  } marks[] = {{colours_.changed_bar, "changed"}, {colours_.added_bar, "new"}, {colours_.removed_bar, "removed"}};
  for (const auto& m : marks) {
    same_line_if_fits(em + ::tilescope::text_width(m.word));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + em * 0.6f, p.y + h * 0.8f),
                                              m.colour);
    ImGui::Dummy(ImVec2(em * 0.9f, h));
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(m.word);
  }
}

}  // namespace tilescope
