// The Source view: the focused variant's kernel text as a teacher shows it to a class, in colour,
// with line numbers, scrolling, in the presenter font in presenter mode. "What changed" marks the
// lines that differ from the step before it on the staircase (kernel_staircase(): the kernels of
// ours in registry order), or from another step chosen; Previous / Next change (and the left and
// right arrows) scroll from change to change. Hovering a line with a probe call names the Mapping
// tab's picture that call drives (probe_hooks.h); hovering a changed line or a removed-lines
// marker shows the old text. A variant without a kernel text (the library, the texture shaders)
// gets a sentence saying why. "Compiled code" puts the PTX of the focused row's configuration beside
// the text (compiled_code.h), each text line's instruction count in its gutter, the two linked both
// ways: a line hovered or clicked on either side lights its partners on the other. "Edit" turns the
// text into an editor (kernel_editor.h): the learner changes it and checks, runs and times it in
// place.
#pragma once

#include <string>

#include "app/ui/shell/app_state.h"
#include "app/ui/shell/tab.h"
#include "app/ui/source/compiled_code.h"
#include "app/ui/source/kernel_editor.h"
#include "app/ui/source/line_diff.h"
#include "app/ui/source/source_colours.h"
#include "app/ui/source/source_document.h"

namespace tilescope {

class SourcePanel : public Tab {
 public:
  const char* title() const override { return "Source"; }
  void draw(TabContext& ctx) override;
  // Draws the text of the focused variant of `state`.
  void draw(const AppState& state);

  // What is shown: the text (or why there is none), the step compared with (nullptr: none, the
  // first step) and the diff against it (empty without one).
  const SourceDocument& document() const { return doc_; }
  const VariantDescriptor* compared() const { return compared_; }
  const LineDiff& diff() const { return diff_; }
  // Compares with another step than the one before (the "changed from" choice); its text is read
  // now. Focusing another variant compares with its previous step again.
  void compare_with(const VariantDescriptor* step);
  void set_show_changes(bool on) { show_changes_ = on; }
  bool show_changes() const { return show_changes_; }
  // The change gone to (-1: none yet), and going to one: its first line scrolls into view.
  int current_change() const { return current_change_; }
  void go_to_change(int index);

  // The editor in place of the text ("Edit").
  void set_editing(bool on) { editing_ = on; }
  bool editing() const { return editing_; }
  KernelEditor& editor() { return editor_; }
  bool editor_working() const { return editor_.working(); }
  // Opens the focused variant's text in the editor (scripts); false with *why without one.
  bool open_editor(const AppState& state, std::string* why);
  // What Check and Run of an edit use now: the focused row's tile, the type, the product and the
  // sizes chosen, the architecture of the compiled code.
  EditRunSettings edit_settings(const AppState& state) const;

  // The compiled code beside the text.
  void set_compiled_code(bool on);
  // SASS instead of PTX beside the text, where nvdisasm is there.
  void set_sass(bool on) { compiled_.set_sass(on); }
  bool compiled_code_shown() const { return show_compiled_; }
  const CompiledCode& compiled() const { return compiled_; }
  // A click on a line of the text (0-based): its PTX instructions lit, the first scrolled to.
  void select_source_line(int line);
  // A click on a PTX line (0-based, of the whole PTX): its line of the text lit and scrolled to.
  void select_ptx_line(int ptx_line);
  int selected_source_line() const { return selected_source_; }
  // The PTX lines lit in the last frame drawn (those of the text line hovered or selected).
  const std::vector<int>& lit_ptx_lines() const { return lit_ptx_; }

 private:
  // Reads the focused variant's text when the focus moves to another variant.
  void sync(const AppState& state);
  void draw_header();
  void draw_edit_toggle();
  void draw_changes_bar();
  void draw_compare_choice();
  void draw_change_buttons();
  void draw_legend() const;
  void handle_keys();
  // The text, line numbers and marks, in a child region that scrolls both ways.
  // (source_panel_text.cpp)
  void draw_text();
  void measure();
  void draw_line(int line, ImVec2 at) const;
  void draw_change_marks(ImVec2 origin) const;
  void hover(ImVec2 origin) const;
  void line_tooltip(int line) const;
  // The text column's left edge on screen: past the line numbers, which stay put as it scrolls.
  float text_left() const { return gutter_left_ + gutter_width_; }
  // The compiled code stands beside the text, in a child region of this width (0 when hidden: the
  // text takes the whole view). (source_panel_compiled.cpp)
  float compiled_code_width() const { return compiled_width_; }
  void draw_compiled_toggle();
  void request_compile(const AppState& state);
  void show_first_compiled_line();
  std::string architecture() const;
  void draw_compiled_code();
  void draw_compiled_header();
  void draw_architecture_choice();
  void draw_kernel_choice();
  void draw_code_choice();
  void draw_ptx();
  void draw_ptx_line(int ptx_line, ImVec2 at, float width);
  void ptx_tooltip(int ptx_line) const;
  // The text line lit: the one hovered, else the hovered PTX line's, else the one selected.
  int linked_source_line() const;
  // The compile of the text shown (nullptr while none, or while the last one is another text's).
  const CompiledCodeResult* shown_compile() const;
  // The gutter's instruction count of a text line, and what the compiler said at it.
  void draw_count(int line, ImVec2 at) const;
  const SourceDiagnostic* diagnostic_at(int line) const;

  KernelEditor editor_{this_program_path()};
  bool editing_ = false;
  bool gpu_ = false;
  bool load_requested_ = false, save_requested_ = false;  // taken by draw(TabContext&): the App's choosers

  SourceDocument doc_;
  const VariantDescriptor* compared_ = nullptr;
  LineDiff diff_;
  std::string compare_error_;  // why the step compared with could not be read
  bool show_changes_ = true;
  int current_change_ = -1;
  int scroll_to_line_ = -1;  // set by go_to_change, taken by the next draw_text
  // Layout of the text for the current font (remeasured when the font size changes).
  SourceColours colours_;
  float line_height_ = 0, gutter_width_ = 0, digits_width_ = 0, indent_unit_ = 0;
  float measured_font_ = 0, widest_ = 0;
  float gutter_left_ = 0, view_right_ = 0;  // this frame's edges of the text region on screen

  // The compiled code.
  CompiledCode compiled_;
  bool show_compiled_ = false;
  float compiled_width_ = 0;                        // this frame's
  float counts_width_ = 0;                          // the gutter's count column (0 when hidden)
  std::string gpu_architecture_, driver_ = "none";  // this device's ("" without a GPU)
  int arch_choice_ = 0;                             // into selectable_architectures(), without a GPU
  int hover_source_ = -1, hover_ptx_ = -1;          // hovered in the last frame drawn
  int selected_source_ = -1, selected_ptx_ = -1;
  int ptx_scroll_to_ = -1, text_scroll_to_ = -1;  // brought into view by the next draw
  int seen_generation_ = 0;                       // the compiled code's last result looked at
  int lit_source_ = -1;                           // this frame's linked_source_line()
  std::vector<int> lit_ptx_;
  float ptx_line_height_ = 0;
};

}  // namespace tilescope
