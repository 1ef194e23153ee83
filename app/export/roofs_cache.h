// The measured roofs on disk: one JSON file per device and driver in the XDG cache
// ($XDG_CACHE_HOME/tilescope, else ~/.cache/tilescope), so the window measures them once per
// machine and `tilescope plot --roofline` finds them for a CSV's device. The same JSON is what
// `tilescope bench --roofs --json FILE` writes and `plot --roofs FILE` reads.
#pragma once

#include <string>

#include "kernels/roofs/roofs.h"

namespace tilescope {

// The file's format version ("tilescope_roofs": 1).
constexpr int kRoofsFormat = 1;

std::string roofs_to_json(const RoofTable& table);
// False with *error (one sentence) on text that is not such a file.
bool roofs_from_json(const std::string& text, RoofTable* table, std::string* error);

bool load_roofs_file(const std::string& path, RoofTable* table, std::string* error);
// Creates the file's folder when missing; writes through a temporary file and a rename.
bool save_roofs_file(const std::string& path, const RoofTable& table, std::string* error);

// $XDG_CACHE_HOME/tilescope, else $HOME/.cache/tilescope, else "" (nothing is cached then).
std::string roofs_cache_dir();
// The cache file of a device and driver inside `dir`: "roofs-<device>-driver-<version>.json",
// characters other than letters, digits, '.' and '-' turned into '_'.
std::string roofs_cache_path(const std::string& dir, const std::string& device_name, const std::string& driver_version);

// The cached table of this device and driver (exact), else of the same device under another
// driver (*exact false). False when none is cached.
bool find_cached_roofs(const std::string& dir, const std::string& device_name, const std::string& driver_version,
                       RoofTable* table, bool* exact);
// Writes the table under its own device and driver; *path says where.
bool cache_roofs(const std::string& dir, const RoofTable& table, std::string* path, std::string* error);

}  // namespace tilescope
