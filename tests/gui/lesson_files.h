// The shipped lessons (assets/lessons/*.txt), and a lesson's text made quick to play in a test:
// its pauses shortened and its runs cut to one repetition. Lines keep their numbers, so a
// failure still names the shipped file's line.
#pragma once

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace tilescope::testing {

inline std::vector<std::filesystem::path> shipped_lessons() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons"))
    if (e.path().extension() == ".txt") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct Shortening {
  int most_frames = 60;     // `frames N` becomes at most this many
  bool drop_files = false;  // screenshots and exports become comments (they change no state)
  bool drop_runs = false;   // run, sweep and live become comments, and `wait` waits a second at most
};

inline std::string shortened_lesson(const std::string& text, const Shortening& how = {}) {
  const std::regex frames(R"(^(\s*frames\s+)(\d+))"), reps(R"(^(\s*set\s+reps\s+)(\d+))"),
      files(R"(^\s*(screenshot|export-plot|export-csv)\b)"), runs(R"(^\s*(run|sweep|live)\s*$)"),
      wait(R"(^(\s*wait)\b.*)");
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, frames))
      line = m[1].str() + std::to_string(std::min(std::stoi(m[2].str()), how.most_frames)) + m.suffix().str();
    else if (std::regex_search(line, m, reps))
      line = m[1].str() + "1" + m.suffix().str();
    else if ((how.drop_files && std::regex_search(line, files)) || (how.drop_runs && std::regex_search(line, runs)))
      line = "# " + line;
    else if (how.drop_runs && std::regex_search(line, m, wait))
      line = m[1].str() + " 1";
    out += line + "\n";
  }
  return out;
}

}  // namespace tilescope::testing
