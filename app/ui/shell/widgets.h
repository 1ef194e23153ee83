// Small UI pieces every panel uses, so tooltips, banners and headings look the same everywhere.
#pragma once

#include <imgui.h>

#include <string>

namespace tilescope {

// After an item: a tooltip in a sentence a student understands, shown on hover (also when the
// item is disabled, so a greyed-out control can say why).
void help_tooltip(const char* text);
// A full-width coloured box for what the user must know first (no GPU, a failed run).
void banner(const std::string& text);
// A heading with a separator.
void section(const char* title);
// "12.3 ms", "450 us", "1.20 s"
std::string format_ms(double ms);
// "48,297" GFLOP/s style thousands separators.
std::string format_thousands(double v);
// A speed with at least three significant digits, whatever its size: "48,297", "812", "12.3",
// "0.0412" (a texture shader on a software renderer is slower than 1 GFLOP/s).
std::string format_gflops(double v);

// Text in the one spelling of "A transposed" the font drawing it has: "Aᵀ" (U+1D40), written
// so everywhere in the UI and put for "A^T" in sentences from elsewhere (a model's); "A^T"
// where the font lacks the glyph (load_ui_font makes one, so only an atlas built otherwise).
std::string transpose_spelling(const std::string& text);

// Layout that adapts to the window. The next item on this line, `gap` pixels after the last
// (-1: the style's spacing), when its `width` still fits there, else on the next line: toolbars
// and rows of buttons wrap instead of cutting their labels.
void same_line_if_fits(float width, float gap = -1);
// What an item takes across with this label (text after "##" hidden), for same_line_if_fits.
float button_width(const char* label);
float check_width(const char* label);  // a checkbox or a radio button
float text_width(const char* text);
// A combo box whose longest choice is `text_w` pixels wide, its arrow included.
float combo_width(float text_w);
// Text centred in the cell from a to b, in black or white against its background, at the font size
// or smaller to fit `fill` of the cell's height; nothing where that would be under min_size pixels
// or the text would not fit across.
void cell_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 background, const char* text, float fill = 0.8f,
               float min_size = 7);

}  // namespace tilescope
