// The window's own settings file (imgui.ini keeps window geometry beside it): one `key = value`
// per line under $XDG_CONFIG_HOME/tilescope/ (~/.config/tilescope/), written atomically.
// Unknown keys are ignored and bad values fall back to the defaults with a warning, so a damaged
// or older file never stops the window from starting.
#pragma once

#include <string>

#include "app/ui/shell/app_state.h"

namespace tilescope {

// $XDG_CONFIG_HOME/tilescope, else $HOME/.config/tilescope, else "" (then nothing persists).
std::string config_dir();

// The values of settings, as the file and scripts (`set KEY VALUE`) write them. False on
// anything else; *out is then untouched.
bool parse_int(const std::string& v, int lo, int hi, int* out);       // decimal, within [lo, hi]
bool parse_bool(const std::string& v, bool* out);                     // on/off, true/false, 1/0
bool parse_y_quantity(const std::string& value, YAxisQuantity* out);  // gflops | ms
bool parse_theme(const std::string& value, Theme* out);               // dark | light | high_contrast

std::string settings_to_text(const AppState& s);
// Applies what `text` says on top of `base`; *warnings gets one line per ignored entry.
AppState settings_from_text(const std::string& text, const AppState& base, std::string* warnings);

bool save_settings(const std::string& path, const AppState& s, std::string* error);
// A missing file is not an error (first start): returns `base` unchanged.
AppState load_settings(const std::string& path, const AppState& base, std::string* warnings);

}  // namespace tilescope
