#include "app/ui/shell/help_menu.h"

#include <imgui.h>

#include <algorithm>

#include "app/ui/shell/app.h"
#include "app/ui/shell/shortcut_list.h"
#include "app/ui/shell/widgets.h"

namespace tilescope {

namespace {

// A window of its own, centred the first time it appears; false when it is collapsed.
bool begin_help_window(const char* title, bool* open, float width_em, float height_em) {
  const float em = ImGui::GetFontSize();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(
      ImVec2(std::min(width_em * em, vp->WorkSize.x * 0.9f), std::min(height_em * em, vp->WorkSize.y * 0.85f)),
      ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(1.0f);  // text over text is unreadable
  return ImGui::Begin(title, open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
}

}  // namespace

const std::vector<LessonFile>& HelpMenu::lessons() {
  if (!loaded_) {
    folder_ = shipped_lessons_folder();
    lessons_ = lessons_in(folder_);
    loaded_ = true;
  }
  return lessons_;
}

void HelpMenu::open_lessons(int selected) {
  show_lessons_ = true;
  if (selected >= 0) selected_ = selected;
}

void HelpMenu::draw_items(App& app) {
  if (ImGui::BeginMenu("Lessons")) {
    const std::vector<LessonFile>& list = lessons();
    if (list.empty()) ImGui::MenuItem("(none found)", nullptr, false, false);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (ImGui::MenuItem(list[i].name.c_str())) open_lessons(static_cast<int>(i));
      if (!list[i].summary.empty()) help_tooltip(list[i].summary.c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem("All lessons ...")) open_lessons(-1);
    ImGui::EndMenu();
  }
  if (!app.lesson_playing().empty() && ImGui::MenuItem("Stop the lesson")) app.stop_lesson();
  if (ImGui::MenuItem("Keyboard shortcuts")) open_shortcuts();
}

void HelpMenu::draw_windows(App& app) {
  if (show_lessons_) draw_lessons_window(app);
  if (show_shortcuts_) draw_shortcuts_window();
}

// The lessons by name on the left; on the right what the chosen one is about, Play, and its text.
void HelpMenu::draw_lessons_window(App& app) {
  const bool shown = begin_help_window("Lessons", &show_lessons_, 60, 36);
  if (!shown) {
    ImGui::End();
    return;
  }
  const std::vector<LessonFile>& list = lessons();
  if (list.empty()) {
    ImGui::TextWrapped("No lessons found%s%s.", folder_.empty() ? " (no data folder)" : " in ", folder_.c_str());
    ImGui::End();
    return;
  }
  selected_ = std::clamp(selected_, 0, static_cast<int>(list.size()) - 1);
  const float em = ImGui::GetFontSize();
  ImGui::BeginChild("lesson names", ImVec2(12 * em, 0), true);
  for (std::size_t i = 0; i < list.size(); ++i)
    if (ImGui::Selectable(list[i].name.c_str(), static_cast<int>(i) == selected_)) selected_ = static_cast<int>(i);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("lesson");
  const LessonFile& lesson = list[static_cast<std::size_t>(selected_)];
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(lesson.summary.empty() ? lesson.name.c_str() : lesson.summary.c_str());
  ImGui::PopTextWrapPos();
  const bool playing = !app.lesson_playing().empty();
  if (playing) {
    if (ImGui::Button("Stop", ImVec2(6 * em, 0))) app.stop_lesson();
    ImGui::SameLine();
    ImGui::TextDisabled("playing %s", app.lesson_playing().c_str());
  } else if (ImGui::Button("Play", ImVec2(6 * em, 0))) {
    app.play_lesson(lesson.path);
  }
  help_tooltip(
      "Plays the lesson in this window, a line at a time, as `tilescope --script` would: it sets the "
      "controls, runs, and shows the tabs it names. The status line says how it went.");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", lesson.path.c_str());
  ImGui::Separator();
  ImGui::BeginChild("lesson text", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(lesson.text.c_str());
  ImGui::EndChild();
  ImGui::EndChild();
  ImGui::End();
}

void HelpMenu::draw_shortcuts_window() {
  const bool shown = begin_help_window("Keyboard shortcuts", &show_shortcuts_, 52, 30);
  if (shown && ImGui::BeginTable("shortcuts", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Ctrl+keypad +").x);
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("where", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const Shortcut& s : shortcut_list()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(s.keys);
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", s.what);
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", s.where);
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace tilescope
