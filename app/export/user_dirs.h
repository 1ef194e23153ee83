// tilescope's folders in the user's home, by the XDG base-directory rule: $XDG_CONFIG_HOME (else
// ~/.config) for settings, $XDG_CACHE_HOME (else ~/.cache) for measurements worth keeping.
#pragma once

#include <string>

namespace tilescope {

// "<$xdg_variable>/tilescope", else "$HOME/<home_fallback>/tilescope"; "" without either.
std::string xdg_user_dir(const char* xdg_variable, const char* home_fallback);

}  // namespace tilescope
