#include "app/ui/source/kernel_editor.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/export/atomic_file.h"
#include "app/runner/timing_history.h"
#include "app/ui/shell/widgets.h"
#include "kernels/jit/edited_texts.h"
#include "kernels/jit/kernel_source.h"

namespace tilescope {

bool KernelEditor::open(const VariantDescriptor& v, std::string* why) {
  if (variant_ == &v) return true;
  std::string shipped;
  if (!read_kernel_text(v, &shipped, why)) return false;
  // The edit of the variant left is kept; the one of the variant opened comes back.
  if (variant_) {
    bool kept = false;
    for (Kept& k : kept_)
      if (k.variant == variant_) k.text = text_, kept = true;
    if (!kept) kept_.push_back({variant_, shipped_, text_});
  }
  variant_ = &v;
  shipped_ = shipped;
  text_ = shipped;
  for (const Kept& k : kept_)
    if (k.variant == &v) text_ = k.text;
  return true;
}

bool KernelEditor::edit_of(const VariantDescriptor& v, std::string* text) const {
  if (variant_ == &v) {
    if (!edited()) return false;
    *text = text_;
    return true;
  }
  for (const Kept& k : kept_)
    if (k.variant == &v && k.text != k.shipped) {
      *text = k.text;
      return true;
    }
  return false;
}

void KernelEditor::set_text(const std::string& text) {
  text_ = text;
}

bool KernelEditor::replace(const std::string& old_text, int occurrence, const std::string& new_text, std::string* why) {
  std::size_t at = std::string::npos, from = 0;
  for (int n = 0; n < occurrence && !old_text.empty(); ++n) {
    at = text_.find(old_text, from);
    if (at == std::string::npos) break;
    from = at + old_text.size();
  }
  if (at == std::string::npos || occurrence < 1) {
    *why = "the text holds no appearance " + std::to_string(occurrence) + " of '" + old_text + "'";
    return false;
  }
  text_.replace(at, old_text.size(), new_text);
  return true;
}

bool KernelEditor::load_file(const std::string& path, std::string* why) {
  std::string text;
  if (!read_kernel_text_file(path, &text, why)) return false;
  set_text(text);
  return true;
}

bool KernelEditor::save_file(const std::string& path, std::string* why) const {
  return write_file_atomically(path, text_, why);
}

bool KernelEditor::start(EditAction action, const EditRunSettings& s, std::string* why) {
  if (!variant_) {
    *why = "no kernel text is open";
    return false;
  }
  EditRequest r;
  r.action = action;
  r.variant = variant_;
  r.config_name = s.config_name;
  r.text = text_;
  r.edited = edited();
  r.architecture = s.architecture;
  r.problem = s.problem;
  r.precision = s.precision;
  r.shape = s.shape;
  r.repetitions = s.repetitions;
  r.time_limit_s = time_limit_s_;
  return job_.start(r, why);
}

bool KernelEditor::check(const EditRunSettings& s, std::string* why) {
  return start(EditAction::Check, s, why);
}

bool KernelEditor::run(const EditRunSettings& s, std::string* why) {
  if (!s.gpu) {
    *why = "Run needs a usable GPU; Check compiles the edit without one";
    return false;
  }
  return start(EditAction::Run, s, why);
}

bool KernelEditor::poll(TimingHistory& history) {
  EditOutcome o;
  if (!job_.take_outcome(&o)) return false;
  // A run's rows join the plot and the table like any other result (% of cuBLAS is the history's).
  if (!o.rows.empty()) history.append_all(o.rows);
  if (!o.diagnostics.empty()) scroll_to_ = o.diagnostics.front().line;
  last_ = std::move(o);
  return true;
}

void KernelEditor::draw(const EditRunSettings& settings) {
  colours_ = source_colours();
  draw_toolbar(settings);
  draw_outcome();
  draw_text();
}

void KernelEditor::draw_toolbar(const EditRunSettings& settings) {
  const bool working = busy();
  ImGui::BeginDisabled(working);
  if (ImGui::Button("Check")) {
    if (!check(settings, &start_error_)) last_ = EditOutcome{}, last_.summary = start_error_;
  }
  help_tooltip(("Compiles the edited text for " + settings.architecture +
                " in a worker process: registers, spills, shared memory and occupancy, or the compiler's errors at "
                "their lines.")
                   .c_str());
  same_line_if_fits(button_width("Run"));
  ImGui::BeginDisabled(!settings.gpu);
  if (ImGui::Button("Run")) {
    if (!run(settings, &start_error_)) last_ = EditOutcome{}, last_.summary = start_error_;
  }
  ImGui::EndDisabled();
  help_tooltip(settings.gpu ? "Compiles the edited text, checks it against the FP64 reference and times it at the "
                              "size and type chosen, in a worker process; the result joins the plot as \"(edited "
                              "...)\". A kernel that faults or runs too long stops the worker, not the window."
                            : "Needs a usable GPU. Check compiles the edit without one.");
  same_line_if_fits(button_width("Revert"));
  ImGui::BeginDisabled(!edited());
  if (ImGui::Button("Revert")) revert();
  ImGui::EndDisabled();
  help_tooltip("Brings back the shipped text.");
  ImGui::EndDisabled();
  const char* kLimit = "stop after";
  same_line_if_fits(::tilescope::text_width(kLimit) + ImGui::GetFontSize() * 6);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  float limit = static_cast<float>(time_limit_s_);
  if (ImGui::DragFloat("stop after##limit", &limit, 1.0f, 2.0f, 600.0f, "%.0f s")) time_limit_s_ = limit;
  help_tooltip("The worker is stopped after this long: a kernel that never ends, or a compile that hangs.");
  if (working) {
    char label[96];
    std::snprintf(label, sizeof label, "%s %.1f s of %.0f s",
                  job_.action() == EditAction::Check ? "compiling" : "compiling and running", job_.seconds(),
                  time_limit_s_);
    same_line_if_fits(ImGui::GetFontSize() * 14);
    ImGui::ProgressBar(static_cast<float>(std::min(1.0, job_.seconds() / time_limit_s_)),
                       ImVec2(ImGui::GetFontSize() * 10, 0), label);
    same_line_if_fits(button_width("Cancel"));
    if (ImGui::Button("Cancel")) cancel();
  }
}

void KernelEditor::draw_outcome() {
  ImGui::TextDisabled("%s", edited() ? ("edited (" + edit_tag(text_) + ")").c_str() : "the shipped text");
  if (last_.summary.empty()) return;
  ImGui::PushTextWrapPos(0);
  const bool ok = last_.ok && !last_.timed_out && !last_.cancelled;
  ImGui::PushStyleColor(ImGuiCol_Text, ok ? ImGui::GetColorU32(ImGuiCol_Text) : colours_.removed_bar);
  ImGui::TextWrapped("%s: %s", last_.tag.empty() ? "the shipped text" : ("edit " + last_.tag).c_str(),
                     last_.summary.c_str());
  ImGui::PopStyleColor();
  for (const EditDiagnostic& d : last_.diagnostics) {
    char line[64];
    std::snprintf(line, sizeof line, "line %d: %s", d.line + 1, d.severity.c_str());
    if (ImGui::SmallButton((std::string(line) + "##" + d.message).c_str())) scroll_to_ = d.line;
    ImGui::SameLine();
    ImGui::TextWrapped("%s", d.message.c_str());
  }
  // The compiler's report of a Check that compiled: registers, spills, shared memory, occupancy.
  if (last_.action == EditAction::Check && last_.ok && !last_.output.empty()) {
    ImGui::TextUnformatted(last_.output.c_str());
  }
  ImGui::PopTextWrapPos();
}

// The text in an editable box, its line numbers in a gutter beside it that follows its scrolling,
// the lines the compiler complained about marked there.
void KernelEditor::draw_text() {
  const float em = ImGui::GetFontSize();
  char digits[16];
  const int lines = static_cast<int>(std::count(text_.begin(), text_.end(), '\n')) + 1;
  std::snprintf(digits, sizeof digits, "%d", lines);
  const float gutter = ImGui::CalcTextSize(digits).x + em * 0.8f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter, origin.y));
  const char* kLabel = "##edited_text";
  ImGui::InputTextMultiline(kLabel, &text_, ImVec2(-1, -1), ImGuiInputTextFlags_AllowTabInput);
  const ImVec2 box_min = ImGui::GetItemRectMin(), box_max = ImGui::GetItemRectMax();
  // The box's child window holds its scroll (imgui_internal: named after the parent and the id).
  ImGuiWindow* parent = ImGui::GetCurrentWindow();
  char name[512];
  std::snprintf(name, sizeof name, "%s/%s_%08X", parent->Name, kLabel, ImGui::GetID(kLabel));
  ImGuiWindow* box = ImGui::FindWindowByName(name);
  const float line_h = ImGui::GetTextLineHeight();
  const float pad_y = ImGui::GetStyle().FramePadding.y;
  if (box && scroll_to_ >= 0) {
    ImGui::SetScrollY(box, std::max(0.0f, (static_cast<float>(scroll_to_) - 3) * line_h));
    scroll_to_ = -1;
  }
  const float scroll = box ? box->Scroll.y : 0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(origin.x, box_min.y), ImVec2(box_min.x, box_max.y), true);
  const int first = std::max(0, static_cast<int>(scroll / line_h));
  for (int line = first; line < lines; ++line) {
    const float y = box_min.y + pad_y + line * line_h - scroll;
    if (y > box_max.y) break;
    bool marked = false;
    for (const EditDiagnostic& d : last_.diagnostics) marked = marked || d.line == line;
    if (marked) dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(box_min.x - em * 0.2f, y + line_h), colours_.error_bg);
    std::snprintf(digits, sizeof digits, "%d", line + 1);
    const float w = ImGui::CalcTextSize(digits).x;
    dl->AddText(ImVec2(box_min.x - em * 0.4f - w, y), colours_.line_number, digits);
  }
  dl->PopClipRect();
}

}  // namespace tilescope
