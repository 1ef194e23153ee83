// The Source view's compiled code: the toggle, the compile of the focused row's configuration (off
// the UI thread, with progress and Cancel), the header (architecture, kernel, registers and
// spills, the instruction count, SASS) and the PTX of one kernel, linked with the text both ways.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "app/ui/shell/widgets.h"
#include "app/ui/source/source_panel.h"
#include "kernels/core/kernel_names.h"

namespace tilescope {

namespace {

const ImVec4 kErrorColour(1, 0.45f, 0.35f, 1);
const ImVec4 kWarnColour(1, 0.6f, 0.3f, 1);

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A name expression without the program's namespace: "tilescope::k<float, 64>" -> "k<float, 64>".
std::string short_name(std::string name) {
  const std::string ns = "tilescope::";
  for (std::size_t at; (at = name.find(ns)) != std::string::npos;) name.erase(at, ns.size());
  return name;
}

}  // namespace

void SourcePanel::set_compiled_code(bool on) {
  if (on == show_compiled_) return;
  show_compiled_ = on;
  measured_font_ = 0;  // the gutter gains or loses its count column
}

void SourcePanel::draw_compiled_toggle() {
  const char* label = "Compiled code";
  same_line_if_fits(check_width(label));
  bool on = show_compiled_;
  if (ImGui::Checkbox(label, &on)) set_compiled_code(on);
  help_tooltip(
      "The PTX NVRTC makes of this text, beside it: each line's instruction count in the gutter; hover or click a "
      "line on either side to light its partners on the other.");
}

std::string SourcePanel::architecture() const {
  // Code of one architecture only is compiled for it, as the program compiles it to run.
  if (doc_.variant && doc_.variant->max_compute_capability > 0)
    return "sm_" + std::to_string(doc_.variant->max_compute_capability) + "a";
  if (!gpu_architecture_.empty()) return gpu_architecture_;
  const std::vector<std::string>& archs = selectable_architectures();
  return archs[static_cast<std::size_t>(std::clamp(arch_choice_, 0, static_cast<int>(archs.size()) - 1))];
}

void SourcePanel::request_compile(const AppState& state) {
  if (!doc_.variant || state.lesson.empty()) return;
  const int i = std::clamp(state.focused, 0, static_cast<int>(state.lesson.size()) - 1);
  const VariantDescriptor& v = *doc_.variant;
  CompiledCodeRequest r;
  r.variant = &v;
  r.config_index = state.lesson[static_cast<std::size_t>(i)].config_index;
  // The type and problem the learner chose, where the variant computes them.
  r.precision = supports(v, state.precision) ? state.precision : v.precisions.front();
  r.problem = supports(v, state.problem) ? state.problem : v.problems.front();
  r.architecture = architecture();
  r.driver = driver_;
  compiled_.request(r, static_cast<int>(doc_.lines.size()));
}

const CompiledCodeResult* SourcePanel::shown_compile() const {
  // While another compile runs the last one's counts and links are stale: none is shown.
  const CompiledCodeResult* r = compiled_.result();
  return r && !compiled_.compiling() && r->request.variant == doc_.variant ? r : nullptr;
}

// A new compile's kernel scrolls into view (the text opens on its comments): the line of its first
// instruction (its signature), as the PTX opens at its `.entry`. A line selected stays put.
void SourcePanel::show_first_compiled_line() {
  if (compiled_.generation() == seen_generation_) return;
  seen_generation_ = compiled_.generation();
  if (!shown_compile() || selected_source_ >= 0) return;
  for (const auto& [ptx, where] : compiled_.line_map().by_ptx_line)
    if (where.text_line >= 0) {
      scroll_to_line_ = where.text_line;
      return;
    }
}

int SourcePanel::linked_source_line() const {
  if (hover_source_ >= 0) return hover_source_;
  if (hover_ptx_ >= 0 && shown_compile()) {
    const auto& by = compiled_.line_map().by_ptx_line;
    const auto it = by.find(hover_ptx_);
    return it == by.end() ? -1 : it->second.text_line;
  }
  return selected_source_;
}

void SourcePanel::select_source_line(int line) {
  selected_source_ = line;
  selected_ptx_ = -1;
  const KernelLineMap& m = compiled_.line_map();
  if (shown_compile() && line >= 0 && line < static_cast<int>(m.ptx_lines.size()) &&
      !m.ptx_lines[static_cast<std::size_t>(line)].empty())
    ptx_scroll_to_ = m.ptx_lines[static_cast<std::size_t>(line)].front();
}

void SourcePanel::select_ptx_line(int ptx_line) {
  selected_ptx_ = ptx_line;
  const auto& by = compiled_.line_map().by_ptx_line;
  const auto it = by.find(ptx_line);
  selected_source_ = it == by.end() || !shown_compile() ? -1 : it->second.text_line;
  if (selected_source_ >= 0) text_scroll_to_ = selected_source_;
}

const SourceDiagnostic* SourcePanel::diagnostic_at(int line) const {
  const CompiledCodeResult* r = shown_compile();
  if (!r || r->program.compiled) return nullptr;
  for (const SourceDiagnostic& d : r->program.diagnostics)
    if (d.line == line + 1 && ends_with(d.file, doc_.path)) return &d;
  return nullptr;
}

void SourcePanel::draw_compiled_code() {
  draw_compiled_header();
  if (!shown_compile() || compiled_.compiling()) return;
  draw_ptx();
}

void SourcePanel::draw_architecture_choice() {
  const std::string arch = architecture();
  if (!gpu_architecture_.empty() || (doc_.variant && doc_.variant->max_compute_capability > 0)) {
    const std::string words = "for " + arch + (gpu_architecture_.empty() ? " (its architecture)" : " (this GPU)");
    same_line_if_fits(text_width(words.c_str()));
    ImGui::TextDisabled("%s", words.c_str());
    return;
  }
  const std::vector<std::string>& archs = selectable_architectures();
  float widest = 0;
  for (const std::string& a : archs) widest = std::max(widest, text_width(a.c_str()));
  same_line_if_fits(text_width("for") + combo_width(widest));
  ImGui::TextUnformatted("for");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(combo_width(widest));
  if (ImGui::BeginCombo("##ptx architecture", arch.c_str())) {
    for (std::size_t i = 0; i < archs.size(); ++i)
      if (ImGui::Selectable(archs[i].c_str(), static_cast<int>(i) == arch_choice_)) arch_choice_ = static_cast<int>(i);
    ImGui::EndCombo();
  }
  help_tooltip("No GPU here: the GPU to compile for (sm_90: H100, sm_80: A100, sm_86: RTX 30, sm_89: RTX 40 / L4).");
}

void SourcePanel::draw_kernel_choice() {
  const CompiledCodeResult* r = shown_compile();
  if (!r || r->names.size() < 2) return;
  // The name expressions are too long for the combo: its entries show them, its face the count.
  char preview[48];
  std::snprintf(preview, sizeof preview, "kernel %d of %zu", compiled_.kernel() + 1, r->names.size());
  const std::string apart = kernel_difference(r->names, static_cast<std::size_t>(compiled_.kernel()));
  same_line_if_fits(combo_width(text_width(preview)));
  ImGui::SetNextItemWidth(combo_width(text_width(preview)));
  if (ImGui::BeginCombo("##ptx kernel", preview)) {
    for (std::size_t i = 0; i < r->names.size(); ++i)
      if (ImGui::Selectable(short_name(r->names[i]).c_str(), static_cast<int>(i) == compiled_.kernel())) {
        compiled_.set_kernel(static_cast<int>(i));
        selected_ptx_ = -1;
      }
    ImGui::EndCombo();
  }
  help_tooltip((short_name(r->names[static_cast<std::size_t>(compiled_.kernel())]) + apart).c_str());
}

void SourcePanel::draw_compiled_header() {
  ImGui::TextUnformatted(compiled_.sass_shown() ? "SASS" : "PTX");
  draw_architecture_choice();
  draw_kernel_choice();
  ImGui::PushTextWrapPos(0);
  if (compiled_.compiling()) {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "compiling, %.1f s", compiled_.seconds_compiling());
    const float t = static_cast<float>(ImGui::GetTime());
    const float cancel_w = button_width("Cancel");
    ImGui::ProgressBar(t * 0.7f - std::floor(t * 0.7f), ImVec2(-cancel_w - ImGui::GetStyle().ItemSpacing.x, 0),
                       overlay);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) compiled_.cancel();
    help_tooltip("Stop waiting. NVRTC cannot be interrupted: it finishes in the background and its result is dropped.");
    ImGui::PopTextWrapPos();
    return;
  }
  const CompiledCodeResult* r = shown_compile();
  if (compiled_.cancelled()) {
    ImGui::TextDisabled("Compile cancelled.");
    ImGui::SameLine();
    if (ImGui::Button("Compile")) compiled_.compile_again();
  }
  if (!r) {
    if (doc_.variant && !doc_.variant->kernel_names)
      ImGui::TextWrapped("%s names no kernels to compile.", doc_.variant->label);
    ImGui::PopTextWrapPos();
    return;
  }
  const CompiledProgram& p = r->program;
  if (!r->error.empty()) {
    ImGui::TextColored(kErrorColour, "%s", r->error.c_str());
  } else if (!p.compiled) {
    ImGui::TextColored(kErrorColour, "Did not compile: %s", p.error.c_str());
    // Each message at its line: the text marks the line, a click here goes there.
    for (const SourceDiagnostic& d : p.diagnostics) {
      char where[64];
      std::snprintf(where, sizeof where, "line %d##diag%p", d.line, static_cast<const void*>(&d));
      if (ends_with(d.file, doc_.path) && ImGui::SmallButton(where)) text_scroll_to_ = d.line - 1;
      if (ends_with(d.file, doc_.path)) ImGui::SameLine();
      ImGui::TextColored(
          d.severity == "error" ? kErrorColour : kWarnColour, "%s%s: %s",
          ends_with(d.file, doc_.path) ? "" : (d.file + " line " + std::to_string(d.line) + ": ").c_str(),
          d.severity.c_str(), d.message.c_str());
    }
  } else {
    // Registers, spills and the instruction count flow on as few lines as the pane's width allows:
    // on a projector the PTX below needs the height.
    if (const KernelResources* k = compiled_.resources()) {
      const bool spills = k->spill_store_bytes > 0 || k->spill_load_bytes > 0;
      const ImVec4 colour = spills ? kWarnColour : ImGui::GetStyleColorVec4(ImGuiCol_Text);
      const std::string regs = std::to_string(k->registers) + " registers per thread,";
      const std::string spilled = std::to_string(k->spill_store_bytes) + " B spill stores, " +
                                  std::to_string(k->spill_load_bytes) + " B spill loads";
      ImGui::TextColored(colour, "%s", regs.c_str());
      same_line_if_fits(text_width(spilled.c_str()));
      ImGui::TextColored(colour, "%s", spilled.c_str());
      help_tooltip(
          "What ptxas reports for this kernel. Spills are values that did not fit in the registers, kept in slow "
          "local memory.");
    }
    const KernelLineMap& m = compiled_.line_map();
    const std::string count = std::to_string(m.instructions) + " instructions";
    ImGui::TextUnformatted(count.c_str());
    std::string apart;
    if (m.call_unknown + m.no_line > 0) {
      apart = "(" + std::to_string(m.call_unknown + m.no_line) + " at no line)";
      same_line_if_fits(text_width(apart.c_str()));
      ImGui::TextDisabled("%s", apart.c_str());
    }
    const std::string how = p.from_cache ? "Loaded from the compile cache (compiled in " +
                                               format_ms(p.compile_seconds * 1000) + " the first time)."
                                         : "Compiled in " + format_ms(p.compile_seconds * 1000) + ".";
    help_tooltip(("The numbers in the text's gutter count the instructions of each line (an inlined helper's at "
                  "the line that calls it). Counted apart rather than guessed: " +
                  std::to_string(m.call_unknown) +
                  " of helpers in headers, inlined through another helper where the PTX no longer says which line of "
                  "this text called them, and " +
                  std::to_string(m.no_line) +
                  " the compiler's own (no source line, e.g. addresses moved out of a loop). " + how)
                     .c_str());
  }
  draw_code_choice();
  ImGui::PopTextWrapPos();
}

// PTX or SASS: the machine code where nvdisasm disassembled it, else why there is none.
void SourcePanel::draw_code_choice() {
  const CompiledCodeResult* r = shown_compile();
  if (!r || !r->program.compiled) return;
  if (!r->sass_note.empty() || r->sass.kernels.empty()) {
    ImGui::TextDisabled("%s", r->sass_note.empty() ? "SASS: the disassembly holds no kernel" : r->sass_note.c_str());
    return;
  }
  bool sass = compiled_.sass_shown();
  if (ImGui::RadioButton("PTX", !sass)) compiled_.set_sass(false);
  ImGui::SameLine();
  if (ImGui::RadioButton("SASS", sass)) compiled_.set_sass(true);
  help_tooltip(
      "PTX is the virtual instruction set NVRTC writes; SASS is the machine code ptxas made of it for this "
      "architecture (disassembled by nvdisasm), what the GPU runs. Both are linked to the text line by line.");
}

void SourcePanel::draw_ptx() {
  const CompiledCodeResult* r = shown_compile();
  const PtxKernel* k = compiled_.ptx_kernel();
  if (!r || !r->program.compiled) return;
  if (!k) {
    ImGui::TextDisabled("The %s has no kernel named %s.", compiled_.sass_shown() ? "SASS" : "PTX",
                        r->program.lowered.empty() ? "?" : r->program.lowered[0].c_str());
    return;
  }
  const KernelLineMap& m = compiled_.line_map();
  const int lit = linked_source_line();
  lit_ptx_ = lit >= 0 && lit < static_cast<int>(m.ptx_lines.size()) ? m.ptx_lines[static_cast<std::size_t>(lit)]
                                                                    : std::vector<int>{};
  ptx_line_height_ = line_height_;
  ImGui::BeginChild("ptx", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const int first = k->first_line, count = k->last_line - k->first_line + 1;
  if (ptx_scroll_to_ >= 0) {
    // The first instruction of the line chosen, a quarter down the view when it is out of view.
    const float y = (ptx_scroll_to_ - first) * ptx_line_height_, top = ImGui::GetScrollY();
    if (y < top || y + ptx_line_height_ > top + ImGui::GetWindowHeight() - ptx_line_height_ * 2)
      ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() * 0.25f));
    ptx_scroll_to_ = -1;
  }
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetFontSize() * 40;
  ImGuiListClipper clipper;
  clipper.Begin(count, ptx_line_height_);
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::Dummy(ImVec2(width, ptx_line_height_));
      draw_ptx_line(first + i, at, width);
    }
  clipper.End();
  ImGui::PopStyleVar();
  hover_ptx_ = -1;
  if (ImGui::IsWindowHovered()) {
    const int line = first + static_cast<int>(std::floor((ImGui::GetMousePos().y - origin.y) / ptx_line_height_));
    if (m.by_ptx_line.count(line)) {
      hover_ptx_ = line;
      ptx_tooltip(line);
      if (ImGui::IsMouseClicked(0)) select_ptx_line(line);
    }
  }
  ImGui::EndChild();
}

void SourcePanel::draw_ptx_line(int ptx_line, ImVec2 at, float /*width*/) {
  const KernelLineMap& m = compiled_.line_map();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = ImGui::GetWindowPos().x, right = left + ImGui::GetWindowWidth();
  const float text_y = at.y + (ptx_line_height_ - ImGui::GetTextLineHeight()) * 0.5f;
  if (std::binary_search(lit_ptx_.begin(), lit_ptx_.end(), ptx_line) || ptx_line == hover_ptx_)
    dl->AddRectFilled(ImVec2(left, at.y), ImVec2(right, at.y + ptx_line_height_), colours_.linked_bg);
  if (ptx_line == selected_ptx_)
    dl->AddRect(ImVec2(left + 1, at.y), ImVec2(right - 1, at.y + ptx_line_height_), colours_.current_change);
  // The PTX's own line number (as ptxas and cuobjdump name lines), then the line, tabs as columns.
  char number[16];
  std::snprintf(number, sizeof number, "%d", ptx_line + 1);
  const float digits = ImGui::CalcTextSize("00000").x;
  dl->AddText(ImVec2(at.x + digits - ImGui::CalcTextSize(number).x, text_y), colours_.line_number, number);
  const std::string& raw = compiled_.shown_listing()->lines[static_cast<std::size_t>(ptx_line)];
  std::size_t lead = 0;
  while (lead < raw.size() && (raw[lead] == '\t' || raw[lead] == ' ')) ++lead;
  std::string shown = raw.substr(lead);
  std::replace(shown.begin(), shown.end(), '\t', ' ');
  float x = at.x + digits + ImGui::GetFontSize() * 0.8f + (lead > 0 ? indent_unit_ * 2 : 0);
  const auto src = m.by_ptx_line.find(ptx_line);
  if (src == m.by_ptx_line.end()) {
    // Directives, labels, braces: quieter than the instructions.
    const bool label = !shown.empty() && shown.back() == ':';
    dl->AddText(ImVec2(x, text_y), label ? colours_.of(TokenKind::Type) : colours_.directive, shown.c_str());
    return;
  }
  // The opcode (after a predicate "@%p1") in the keywords' colour, its operands plain.
  std::size_t op_begin = 0;
  if (!shown.empty() && shown[0] == '@') op_begin = shown.find(' ') == std::string::npos ? 0 : shown.find(' ') + 1;
  std::size_t op_end = shown.find(' ', op_begin);
  if (op_end == std::string::npos) op_end = shown.size();
  const char* s = shown.c_str();
  dl->AddText(ImVec2(x, text_y), colours_.of(TokenKind::Plain), s, s + op_begin);
  x += ImGui::CalcTextSize(s, s + op_begin).x;
  dl->AddText(ImVec2(x, text_y), colours_.of(TokenKind::Keyword), s + op_begin, s + op_end);
  x += ImGui::CalcTextSize(s + op_begin, s + op_end).x;
  dl->AddText(ImVec2(x, text_y), colours_.of(TokenKind::Plain), s + op_end, s + shown.size());
  x += ImGui::CalcTextSize(s + op_end, s + shown.size()).x;
  // An instruction of a header says which, at the end of its line.
  const PtxLineSource& where = src->second;
  if (where.at.file >= 0 && where.at.file != compiled_.shown_text_file()) {
    const std::string note = "  // from " + ptx_file_base(*compiled_.shown_listing(), where.at.file) + ":" +
                             std::to_string(where.at.line) + (where.call_unknown ? ", call site not known" : "");
    dl->AddText(ImVec2(x, text_y), colours_.directive, note.c_str());
  }
}

void SourcePanel::ptx_tooltip(int ptx_line) const {
  const CompiledCodeResult* r = shown_compile();
  const auto it = compiled_.line_map().by_ptx_line.find(ptx_line);
  if (!r || it == compiled_.line_map().by_ptx_line.end()) return;
  const PtxLineSource& s = it->second;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  const bool own = s.at.file == compiled_.shown_text_file();
  const char* code = compiled_.sass_shown() ? "SASS" : "PTX";
  if (s.at.file < 0 || (s.text_line < 0 && !s.call_unknown)) {
    ImGui::TextWrapped(
        "%s line %d: no line of the text. The compiler made it on its own (no source line), e.g. address "
        "arithmetic moved out of a loop.",
        code, ptx_line + 1);
  } else if (own) {
    ImGui::TextWrapped("%s line %d: from line %d of the text.", code, ptx_line + 1, s.at.line);
  } else {
    const std::string from = ptx_file_base(*compiled_.shown_listing(), s.at.file) + ":" + std::to_string(s.at.line);
    if (s.text_line >= 0)
      ImGui::TextWrapped("%s line %d: from %s, inlined at line %d of the text.", code, ptx_line + 1, from.c_str(),
                         s.text_line + 1);
    else
      ImGui::TextWrapped(
          "%s line %d: from %s. It was inlined through another helper, and the code does not say which line of the "
          "text called it.",
          code, ptx_line + 1, from.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace tilescope
