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
// Text centred in the cell from a to b, in black or white against its background, at the font size
// or smaller to fit `fill` of the cell's height; nothing where that would be under min_size pixels
// or the text would not fit across.
void cell_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 background, const char* text, float fill = 0.8f,
               float min_size = 7);

}  // namespace tilescope
