#include "app/ui/shell/file_chooser.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID: a field being edited shows a name set from outside

#include <algorithm>
#include <cstdio>

#include "app/export/atomic_file.h"
#include "app/export/printable_text.h"
#include "app/ui/shell/file_paths.h"
#include "app/ui/shell/key_presses.h"

namespace tilescope {
namespace {

constexpr int kPageRows = 10;  // Page Up / Page Down

// This frame's presses of `key`: each queued one, or one for ImGui's repeat while it is held
// (which answers the same all frame long, so it is asked once).
int presses(int key) {
  int n = 0;
  while (key_tapped(key)) ++n;
  if (n == 0 && key_tapped_or_repeated(key)) n = 1;
  return n;
}

void copy_to(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

const ImVec4 kErrorColour(1, 0.45f, 0.35f, 1);

}  // namespace

void FileChooser::open(const FileDialogRequest& request, const std::vector<std::string>& recent,
                       const std::string& started_in) {
  request_ = request;
  recent_ = recent;
  started_in_ = started_in;
  open_ = true;
  popup_shown_ = false;
  chosen_.clear();
  replace_path_.clear();
  message_.clear();
  keys_ = Keys();
  set_file_name(request.save ? request.file_name : "");
  focus_name_ = request.save;
  go_to(is_folder(request.folder) ? request.folder : started_in);
}

void FileChooser::go_to(const std::string& folder) {
  listing_ = list_folder(absolute_path(folder, listing_.folder.empty() ? started_in_ : listing_.folder),
                         request_.extension, show_hidden_);
  location_ = listing_.folder;
  copy_to(location_buffer_, sizeof location_buffer_, location_);
  selected_ = -1;
  message_.clear();
  replace_path_.clear();
}

void FileChooser::go_up() {
  if (listing_.folder != "/") go_to(folder_of(listing_.folder));
}

void FileChooser::select(int index) {
  if (index < 0 || index >= static_cast<int>(listing_.entries.size())) return;
  selected_ = index;
  scroll_to_selected_ = true;
  message_.clear();
  const FolderEntry& e = listing_.entries[index];
  if (request_.save && !e.folder) set_file_name(e.name);
}

void FileChooser::move_selection(int delta) {
  const int n = static_cast<int>(listing_.entries.size());
  if (n == 0) return;
  // From no selection, Down counts from above the first entry and Up from below the last.
  const int from = selected_ >= 0 ? selected_ : (delta > 0 ? -1 : n);
  select(std::clamp(from + delta, 0, n - 1));
}

void FileChooser::set_file_name(const std::string& name) {
  name_ = name;
  copy_to(name_buffer_, sizeof name_buffer_, name_);
  name_changed_ = true;
}

bool FileChooser::activate() {
  message_.clear();
  if (selected_ >= 0 && selected_ < static_cast<int>(listing_.entries.size())) {
    const FolderEntry& e = listing_.entries[selected_];
    if (e.folder) {
      go_to(join_path(listing_.folder, e.name));
      return false;
    }
    if (!request_.save) return choose(join_path(listing_.folder, e.name));
  }
  if (name_.empty()) {
    message_ = request_.save ? "type a name for the file" : "select a file, or type its name";
    return false;
  }
  const std::string typed = absolute_path(name_, listing_.folder);
  if (is_folder(typed)) {
    go_to(typed);
    if (!request_.save) set_file_name("");
    return false;
  }
  return choose(typed);
}

bool FileChooser::choose(const std::string& typed) {
  if (!request_.save) {
    if (!is_regular_file(typed)) {
      message_ = printable_text("no file " + typed);
      return false;
    }
    chosen_ = typed;
    open_ = false;
    return true;
  }
  const std::string path = with_extension(typed, request_.extension);
  std::string why;
  if (!check_writable_path(path, &why)) {
    message_ = printable_text(why);
    return false;
  }
  if (is_regular_file(path)) {
    replace_path_ = path;
    return false;
  }
  chosen_ = path;
  open_ = false;
  return true;
}

bool FileChooser::confirm_replace() {
  if (replace_path_.empty()) return false;
  chosen_ = replace_path_;
  replace_path_.clear();
  open_ = false;
  return true;
}

void FileChooser::decline_replace() {
  replace_path_.clear();
}

void FileChooser::take_keys() {
  if (!open_) return;
  while (key_tapped(GLFW_KEY_ENTER) || key_tapped(GLFW_KEY_KP_ENTER)) keys_.enter = true;
  keys_.move += presses(GLFW_KEY_DOWN) - presses(GLFW_KEY_UP) +
                kPageRows * (presses(GLFW_KEY_PAGE_DOWN) - presses(GLFW_KEY_PAGE_UP));
  // Backspace edits a text field being typed in; elsewhere it goes to the parent folder.
  if (!ImGui::GetIO().WantTextInput)
    while (key_tapped(GLFW_KEY_BACKSPACE)) keys_.up = true;
}

void FileChooser::apply_keys() {
  const Keys keys = keys_;
  keys_ = Keys();
  if (!replace_path_.empty()) {  // the question is on screen: Enter answers it
    if (keys.enter) confirm_replace();
    return;
  }
  if (keys.up) go_up();
  if (keys.move != 0) move_selection(keys.move);
  if (!keys.enter) return;
  if (location_active_) {
    // A file's path typed there: its folder, with the file selected.
    const std::string typed = absolute_path(location_, listing_.folder);
    const bool file = is_regular_file(typed);
    go_to(file ? folder_of(typed) : typed);
    for (std::size_t e = 0; file && e < listing_.entries.size(); ++e)
      if (listing_.entries[e].name == file_name_of(typed)) select(static_cast<int>(e));
    return;
  }
  activate();
}

void FileChooser::draw_places() {
  auto place = [&](const char* label, const std::string& folder) {
    if (ImGui::Selectable(label, listing_.folder == folder)) go_to(folder);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", printable_text(folder).c_str());
  };
  ImGui::TextDisabled("Places");
  place("Home", home_folder());
  place("Started in", started_in_);
  if (is_folder(request_.folder) && request_.folder != started_in_) place("Last used", request_.folder);
  if (recent_.empty()) return;
  ImGui::Spacing();
  ImGui::TextDisabled("Recent");
  for (std::size_t i = 0; i < recent_.size(); ++i) {
    const std::string& path = recent_[i];
    ImGui::PushID(static_cast<int>(i));
    const bool exists = is_regular_file(path);
    if (ImGui::Selectable(printable_text(file_name_of(path)).c_str(), false,
                          exists ? 0 : ImGuiSelectableFlags_Disabled)) {
      go_to(folder_of(path));
      for (std::size_t e = 0; e < listing_.entries.size(); ++e)
        if (listing_.entries[e].name == file_name_of(path)) select(static_cast<int>(e));
    }
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s%s", printable_text(path).c_str(), exists ? "" : "\n(no longer there)");
    ImGui::PopID();
  }
}

void FileChooser::draw_listing(float height) {
  if (!listing_.error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(kErrorColour, "%s", printable_text(listing_.error).c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  if (listing_.entries.empty()) {
    ImGui::TextDisabled("No folders here, and no %s.", request_.filter_label.c_str());
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("entries", 3, flags, ImVec2(0, height))) return;
  const float em = ImGui::GetFontSize();
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed, em * 5);
  ImGui::TableSetupColumn("Modified", ImGuiTableColumnFlags_WidthFixed, em * 8);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  const int count = static_cast<int>(listing_.entries.size());
  clipper.Begin(count);
  if (scroll_to_selected_ && selected_ >= 0) clipper.ForceDisplayRangeByIndices(selected_, selected_ + 1);
  int activated = -1;
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const FolderEntry& e = listing_.entries[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      // A folder reads as one with its slash (as `ls -F` shows it).
      const std::string label = printable_text(e.name) + (e.folder ? "/" : "");
      if (ImGui::Selectable(label.c_str(), i == selected_,
                            ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
        select(i);
        if (ImGui::IsMouseDoubleClicked(0)) activated = i;
      }
      if (i == selected_ && scroll_to_selected_) {
        ImGui::SetScrollHereY(0.5f);
        scroll_to_selected_ = false;
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      if (e.folder)
        ImGui::TextDisabled("folder");
      else
        ImGui::TextUnformatted(format_file_size(e.bytes).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_file_time(e.modified).c_str());
    }
  }
  ImGui::EndTable();
  scroll_to_selected_ = false;
  if (activated >= 0) activate();
}

void FileChooser::draw_footer() {
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("File name");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-em * 14);
  // A name set from outside (a file selected, a recent file) replaces what the field shows
  // even while it is being edited.
  if (name_changed_ && ImGui::GetActiveID() == ImGui::GetID("##name")) {
    ImGui::ClearActiveID();
    focus_name_ = true;
  }
  name_changed_ = false;
  if (focus_name_) {
    ImGui::SetKeyboardFocusHere();
    focus_name_ = false;
  }
  if (ImGui::InputText("##name", name_buffer_, sizeof name_buffer_)) {
    name_ = name_buffer_;
    selected_ = -1;  // Enter now takes the typed name
    message_.clear();
  }
  ImGui::SameLine();
  if (ImGui::Checkbox("hidden files", &show_hidden_)) go_to(listing_.folder);
  ImGui::TextDisabled("Showing folders and %s (*.%s)", request_.filter_label.c_str(), request_.extension.c_str());
  if (!message_.empty()) ImGui::TextColored(kErrorColour, "%s", message_.c_str());
  if (!replace_path_.empty()) {
    ImGui::TextColored(kErrorColour, "%s exists already. Replace it?", printable_text(replace_path_).c_str());
    if (ImGui::Button("Replace", ImVec2(em * 6, 0))) confirm_replace();
    ImGui::SameLine();
    if (ImGui::Button("Keep it", ImVec2(em * 6, 0))) decline_replace();
    return;
  }
  const float buttons = em * 6 * 2 + ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - buttons));
  if (ImGui::Button(request_.save ? "Save" : "Open", ImVec2(em * 6, 0))) activate();
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(em * 6, 0))) open_ = false;
}

bool FileChooser::draw() {
  if (!open_) return false;
  // One id whatever the title, so that reopening with another title is the same window.
  const std::string title = request_.title + "###file_chooser";
  if (!popup_shown_) {
    ImGui::OpenPopup(title.c_str());
    popup_shown_ = true;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x * 0.9f, em * 56), std::min(vp->WorkSize.y * 0.85f, em * 30)),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) {
    open_ = false;  // closed from outside: Esc
    return false;
  }
  apply_keys();

  // The folder: up, and its absolute path, which can be typed into (Enter goes there).
  if (ImGui::Button("Up")) go_up();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The folder above (Backspace)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##location", location_buffer_, sizeof location_buffer_)) location_ = location_buffer_;
  location_active_ = ImGui::IsItemActive();

  // Below the listing: the name field and the buttons, the filter line and one for a message.
  const float footer = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetTextLineHeightWithSpacing() * 2;
  const float body = std::max(em * 6, ImGui::GetContentRegionAvail().y - footer);
  ImGui::BeginChild("places", ImVec2(em * 11, body), true);
  draw_places();
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  draw_listing(body);
  ImGui::EndGroup();
  draw_footer();

  if (!open_) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return !open_ && !chosen_.empty();
}

}  // namespace tilescope
