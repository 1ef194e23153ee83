// The Source view's text: line numbers, marks, coloured code, hover. Only the lines on screen are
// drawn (ImGuiListClipper), so a long text costs what a short one does.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "app/ui/source/probe_hooks.h"
#include "app/ui/source/source_panel.h"

namespace tilescope {

namespace {

// Leading blanks, in columns (a tab to the next multiple of 4) and bytes: a proportional font's
// space is narrow, so the view indents by columns of a digit's width instead, and the nesting of
// the code shows as it does in an editor.
int leading_columns(const std::string& line, std::size_t* bytes) {
  int columns = 0;
  std::size_t i = 0;
  for (; i < line.size() && (line[i] == ' ' || line[i] == '\t'); ++i)
    columns = line[i] == '\t' ? columns / 4 * 4 + 4 : columns + 1;
  *bytes = i;
  return columns;
}

// The gutter's instruction counts, this much smaller than the code: a quiet aside.
constexpr float kCountScale = 0.8f;

// The old lines of a tooltip, at most this many (a long removal ends with how many more).
constexpr std::size_t kTooltipLines = 16;

void old_lines_tooltip(const std::vector<std::string>& lines) {
  for (std::size_t k = 0; k < lines.size() && k < kTooltipLines; ++k) ImGui::TextUnformatted(lines[k].c_str());
  if (lines.size() > kTooltipLines) ImGui::TextDisabled("... and %zu more lines", lines.size() - kTooltipLines);
}

}  // namespace

// Sizes that follow the font: measured again when it changes (presenter mode, Ctrl+=).
void SourcePanel::measure() {
  const float em = ImGui::GetFontSize();
  if (em == measured_font_) return;
  measured_font_ = em;
  // A little air between lines: code set solid is hard to follow on a projector.
  line_height_ = std::round(ImGui::GetTextLineHeight() * 1.2f);
  indent_unit_ = ImGui::CalcTextSize("0").x;
  char digits[16];
  std::snprintf(digits, sizeof digits, "%zu", doc_.lines.size());
  digits_width_ = ImGui::CalcTextSize(digits).x;
  // The instruction counts (with the compiled code: up to four digits, small), the numbers, then
  // room for the change bar, then a gap before the code.
  counts_width_ = show_compiled_ ? ImGui::CalcTextSize("0000").x * kCountScale + em * 0.5f : 0;
  gutter_width_ = counts_width_ + digits_width_ + em * 1.1f;
  widest_ = 0;
  for (const std::string& line : doc_.lines) {
    std::size_t lead = 0;
    const int columns = leading_columns(line, &lead);
    widest_ = std::max(widest_, columns * indent_unit_ + ImGui::CalcTextSize(line.c_str() + lead).x);
  }
}

void SourcePanel::draw_text() {
  measure();
  const ImVec2 size(ImGui::GetContentRegionAvail().x - compiled_code_width(), 0);
  ImGui::BeginChild("source_text", size, true, ImGuiWindowFlags_HorizontalScrollbar);
  if (scroll_to_line_ >= 0) {
    // The change gone to a quarter down the view: the lines before it give it context.
    ImGui::SetScrollY(std::max(0.0f, scroll_to_line_ * line_height_ - ImGui::GetWindowHeight() * 0.25f));
    scroll_to_line_ = -1;
  }
  if (text_scroll_to_ >= 0) {
    // A line linked from the PTX: scrolled to only when it is out of view.
    const float y = text_scroll_to_ * line_height_, top = ImGui::GetScrollY();
    if (y < top || y + line_height_ > top + ImGui::GetWindowHeight() - line_height_ * 2)
      ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() * 0.25f));
    text_scroll_to_ = -1;
  }
  lit_source_ = show_compiled_ ? linked_source_line() : -1;
  gutter_left_ = ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x;
  view_right_ = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = gutter_width_ + widest_ + ImGui::GetFontSize();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(doc_.lines.size()), line_height_);
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::Dummy(ImVec2(width, line_height_));
      draw_line(i, at);
    }
  clipper.End();
  ImGui::PopStyleVar();
  if (show_changes_ && compared_) draw_change_marks(origin);
  hover(origin);
  // The line under the mouse links to its PTX (in this frame's compiled code); a click keeps it.
  hover_source_ = -1;
  if (show_compiled_ && ImGui::IsWindowHovered() && line_height_ > 0) {
    const int line = static_cast<int>(std::floor((ImGui::GetMousePos().y - origin.y) / line_height_));
    if (line >= 0 && line < static_cast<int>(doc_.lines.size())) {
      hover_source_ = line;
      if (ImGui::IsMouseClicked(0)) select_source_line(line);
      if (const SourceDiagnostic* d = diagnostic_at(line)) {
        ImGui::BeginTooltip();
        ImGui::Text("%s: %s", d->severity.c_str(), d->message.c_str());
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndChild();
}

void SourcePanel::draw_line(int line, ImVec2 at) const {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float em = ImGui::GetFontSize();
  const float text_y = at.y + (line_height_ - ImGui::GetTextLineHeight()) * 0.5f;
  const LineMark mark = show_changes_ && compared_ ? diff_.marks[static_cast<std::size_t>(line)] : LineMark::Same;
  const float numbers_left = gutter_left_ + counts_width_;
  if (mark != LineMark::Same) {
    const bool changed = mark == LineMark::Changed;
    dl->AddRectFilled(ImVec2(gutter_left_, at.y), ImVec2(view_right_, at.y + line_height_),
                      changed ? colours_.changed_bg : colours_.added_bg);
    const float bar = numbers_left + digits_width_ + em * 0.3f;
    dl->AddRectFilled(ImVec2(bar, at.y), ImVec2(bar + em * 0.3f, at.y + line_height_),
                      changed ? colours_.changed_bar : colours_.added_bar);
  }
  if (line == lit_source_)
    dl->AddRectFilled(ImVec2(gutter_left_, at.y), ImVec2(view_right_, at.y + line_height_), colours_.linked_bg);
  if (show_compiled_) {
    if (diagnostic_at(line))
      dl->AddRectFilled(ImVec2(gutter_left_, at.y), ImVec2(view_right_, at.y + line_height_), colours_.error_bg);
    draw_count(line, at);
  }
  char number[16];
  std::snprintf(number, sizeof number, "%d", line + 1);
  dl->AddText(ImVec2(numbers_left + digits_width_ - ImGui::CalcTextSize(number).x, text_y), colours_.line_number,
              number);
  // The code scrolls sideways under the numbers: clipped past the change bar, in the gap before
  // the code's first column (the window clips top and bottom).
  dl->PushClipRect(ImVec2(numbers_left + digits_width_ + em * 0.7f, -FLT_MAX), ImVec2(view_right_, FLT_MAX), true);
  const std::string& s = doc_.lines[static_cast<std::size_t>(line)];
  std::size_t lead = 0;
  float x = at.x + gutter_width_ + leading_columns(s, &lead) * indent_unit_;
  for (const Token& t : doc_.tokens[static_cast<std::size_t>(line)]) {
    const std::size_t b = std::max(static_cast<std::size_t>(t.begin), lead), e = static_cast<std::size_t>(t.end);
    if (b >= e) continue;
    dl->AddText(ImVec2(x, text_y), colours_.of(t.kind), s.data() + b, s.data() + e);
    x += ImGui::CalcTextSize(s.data() + b, s.data() + e).x;
  }
  dl->PopClipRect();
}

// The line's instruction count, small and right-aligned in the gutter's first column; none for 0.
void SourcePanel::draw_count(int line, ImVec2 at) const {
  const KernelLineMap& m = compiled_.line_map();
  if (!shown_compile() || line >= static_cast<int>(m.count.size()) || m.count[static_cast<std::size_t>(line)] == 0)
    return;
  char count[16];
  std::snprintf(count, sizeof count, "%d", m.count[static_cast<std::size_t>(line)]);
  const float size = ImGui::GetFontSize() * kCountScale;
  const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, count);
  const float right = gutter_left_ + counts_width_ - ImGui::GetFontSize() * 0.4f;
  ImGui::GetWindowDrawList()->AddText(
      ImGui::GetFont(), size, ImVec2(right - extent.x, at.y + (line_height_ - extent.y) * 0.5f), colours_.count, count);
}

// The removed-lines markers (a red line between two lines) and an outline around the change gone to.
void SourcePanel::draw_change_marks(ImVec2 origin) const {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float em = ImGui::GetFontSize();
  const float thick = std::max(2.0f, std::round(em * 0.12f));
  for (const RemovedLines& r : diff_.removed) {
    const float y = origin.y + r.before * line_height_;
    dl->AddRectFilled(ImVec2(gutter_left_, y - thick * 0.5f), ImVec2(view_right_, y + thick * 0.5f),
                      colours_.removed_bar);
  }
  if (current_change_ < 0) return;
  const Hunk& h = diff_.hunks[static_cast<std::size_t>(current_change_)];
  const float y0 = origin.y + h.new_begin * line_height_, y1 = origin.y + h.new_end * line_height_;
  dl->AddRect(ImVec2(gutter_left_, std::min(y0, y1 - thick) - thick), ImVec2(view_right_ - thick, y1 + thick),
              colours_.current_change, 0, 0, thick);
}

void SourcePanel::hover(ImVec2 origin) const {
  if (!ImGui::IsWindowHovered() || line_height_ <= 0) return;
  const ImVec2 mouse = ImGui::GetMousePos();
  // A removed-lines marker takes the hover near it: a quarter of a line either side.
  if (show_changes_ && compared_)
    for (const RemovedLines& r : diff_.removed)
      if (std::fabs(mouse.y - (origin.y + r.before * line_height_)) < line_height_ * 0.25f) {
        ImGui::BeginTooltip();
        ImGui::Text("%zu line%s of %s removed here:", r.text.size(), r.text.size() == 1 ? "" : "s", compared_->label);
        old_lines_tooltip(r.text);
        ImGui::EndTooltip();
        return;
      }
  const int line = static_cast<int>(std::floor((mouse.y - origin.y) / line_height_));
  if (line < 0 || line >= static_cast<int>(doc_.lines.size())) return;
  // A line with a probe call lights up under the mouse: it has something to say.
  if (!probe_hook(doc_.lines[static_cast<std::size_t>(line)]).call.empty()) {
    const float y = origin.y + line * line_height_;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(text_left(), y), ImVec2(view_right_, y + line_height_),
                                              colours_.hook_bg);
  }
  line_tooltip(line);
}

// What a hovered line tells: the picture its probe call drives, and what it was before.
void SourcePanel::line_tooltip(int line) const {
  const ProbeHook hook = probe_hook(doc_.lines[static_cast<std::size_t>(line)]);
  const LineMark mark = show_changes_ && compared_ ? diff_.marks[static_cast<std::size_t>(line)] : LineMark::Same;
  if (hook.call.empty() && mark == LineMark::Same) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  if (!hook.call.empty()) {
    ImGui::Text("%s(...) drives a picture:", hook.call.c_str());
    ImGui::TextWrapped("%s", hook.picture.c_str());
  }
  ImGui::PopTextWrapPos();
  if (mark != LineMark::Same) {
    if (!hook.call.empty()) ImGui::Separator();
    const int k = diff_.hunk_at(line);
    if (mark == LineMark::Added || k < 0) {
      ImGui::Text("New: %s has no line here.", compared_->label);
    } else {
      ImGui::Text("Changed: it takes the place of these lines of %s:", compared_->label);
      old_lines_tooltip(diff_.hunks[static_cast<std::size_t>(k)].removed);
    }
  }
  ImGui::EndTooltip();
}

}  // namespace tilescope
