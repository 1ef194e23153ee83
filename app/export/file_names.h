// The names the program makes up for files it writes (a screenshot's, the export choosers'
// suggestions). Local time, so that the name matches the clock on the wall, and no colons:
// a colon is not allowed in Windows and FAT/exFAT names (a USB stick taken to the classroom),
// and scp and rsync read "a:b" as a host.
#pragma once

#include <ctime>
#include <string>

namespace tilescope {

// "<stem>-2026-11-26-143005.<extension>" for `when` in local time, e.g.
// timestamped_file_name("tilescope-screenshot", "png", std::time(nullptr)).
std::string timestamped_file_name(const std::string& stem, const std::string& extension, std::time_t when);

}  // namespace tilescope
