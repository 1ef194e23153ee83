// Text that must keep to a width (a status line beside the frame time, a long path in a
// chooser): cut at a character boundary and ended with "...", so that what follows it stays
// on screen; the caller shows the whole text on hover.
#pragma once

#include <string>

namespace tilescope {

// `text` itself when it fits `max_width` pixels in the current font, else its longest start
// (whole UTF-8 characters) followed by "..." that does; "..." alone when nothing more fits.
std::string fit_text(const std::string& text, float max_width);

// TextUnformatted(fit_text(text, max_width)) in `color` (alpha 0: the style's text colour),
// with the whole text, wrapped, in a tooltip on hover when it was cut. True when it was cut.
bool fitted_text(const std::string& text, float max_width, unsigned int color = 0);

}  // namespace tilescope
