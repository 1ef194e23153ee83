// The lessons that ship with the program (assets/lessons/*.txt, found through the data folder
// the shaders come from: platform/data_dirs.h), with what each one's opening comment says, for
// Help > Lessons. No ImGui here.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

struct LessonFile {
  std::string path;     // to open or play it
  std::string name;     // "intro.txt"
  std::string summary;  // its opening comment, the '#' taken off, lines joined ("" without one)
  std::string text;     // the whole file
};

// The *.txt files of `folder`, by name; empty when there is none (or no such folder).
std::vector<LessonFile> lessons_in(const std::string& folder);

// The program's assets/lessons ("" when no data folder was found).
std::string shipped_lessons_folder();

}  // namespace tilescope
