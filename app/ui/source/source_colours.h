// The Source view's colours, taken from the current ImGui style so that the text reads on the
// dark, the light and the presenter (high-contrast) themes: a syntax palette for a dark or a light
// background, chosen by the background's brightness, and the change marks over it.
#pragma once

#include <imgui.h>

#include "app/ui/source/cuda_syntax.h"

namespace tilescope {

struct SourceColours {
  ImU32 token[8] = {};  // by TokenKind
  ImU32 line_number = 0;
  ImU32 changed_bar = 0, added_bar = 0, removed_bar = 0;  // the marks in the gutter
  ImU32 changed_bg = 0, added_bg = 0;                     // the lines behind the text
  ImU32 hook_bg = 0;                                      // a line with a probe call, hovered
  ImU32 current_change = 0;                               // the outline of the change gone to
  // The compiled code: a source line and its PTX instructions lit together, the instruction counts
  // and the PTX's directives (quiet), a line the compiler complained about.
  ImU32 linked_bg = 0, count = 0, directive = 0, error_bg = 0;
  ImU32 of(TokenKind k) const { return token[static_cast<int>(k)]; }
};

SourceColours source_colours();

}  // namespace tilescope
