// The Source view: the focused variant's kernel text as a teacher shows it to a class, in colour,
// with line numbers, scrolling, in the presenter font in presenter mode. "What changed" marks the
// lines that differ from the step before it on the staircase (kernel_staircase(): the kernels of
// ours in registry order), or from another step chosen; Previous / Next change (and the left and
// right arrows) scroll from change to change. Hovering a line with a probe call names the Mapping
// tab's picture that call drives (probe_hooks.h); hovering a changed line or a removed-lines
// marker shows the old text. A variant without a kernel text (the library, the texture shaders)
// gets a sentence saying why.
#pragma once

#include <string>

#include "app/ui/shell/app_state.h"
#include "app/ui/shell/tab.h"
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

 private:
  // Reads the focused variant's text when the focus moves to another variant.
  void sync(const AppState& state);
  void draw_header();
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
  // The compiled code (the PTX and SASS of this text) will stand beside the text, in a child region
  // of this width drawn by draw_compiled_code(); until that is built the width is 0 and nothing is
  // drawn, so the text takes the whole view.
  float compiled_code_width() const { return 0; }
  void draw_compiled_code() {}

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
};

}  // namespace tilescope
