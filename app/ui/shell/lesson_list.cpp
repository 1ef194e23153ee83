#include "app/ui/shell/lesson_list.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "app/gl_gemm/shader_gemm.h"

namespace tilescope {

namespace {

// The comment lines a lesson opens with, as one paragraph ("# expect:" promises are not prose).
std::string opening_comment(const std::string& text) {
  std::istringstream in(text);
  std::string summary;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '#') break;
    const std::size_t start = line.find_first_not_of("# ");
    if (start == std::string::npos) continue;
    const std::string words = line.substr(start);
    if (words.rfind("expect:", 0) == 0) continue;
    summary += (summary.empty() ? "" : " ") + words;
  }
  return summary;
}

}  // namespace

std::vector<LessonFile> lessons_in(const std::string& folder) {
  std::vector<LessonFile> out;
  std::error_code ec;
  if (folder.empty()) return out;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".txt") continue;
    std::ifstream in(it->path());
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    LessonFile lesson;
    lesson.path = it->path().string();
    lesson.name = it->path().filename().string();
    lesson.text = text.str();
    lesson.summary = opening_comment(lesson.text);
    out.push_back(std::move(lesson));
  }
  std::sort(out.begin(), out.end(), [](const LessonFile& a, const LessonFile& b) { return a.name < b.name; });
  return out;
}

std::string shipped_lessons_folder() {
  const std::string assets = ShaderLibrary::data_dirs().assets;
  return assets.empty() ? "" : assets + "/lessons";
}

}  // namespace tilescope
