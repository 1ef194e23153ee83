// The App's files: which chooser asks (the desktop's own dialog, else tilescope's), what a
// chosen file is for, the Export PNG dialog, the File menu's items and the recent files.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "app/export/atomic_file.h"
#include "app/export/file_names.h"
#include "app/export/plot_image.h"
#include "app/export/printable_text.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/recent_files.h"

namespace tilescope {
namespace {

const ImVec4 kErrorColour(1, 0.45f, 0.35f, 1);

void copy_to(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

// Screenshots, exports: "<stem>-<date>-<time>.<extension>" in `folder`, with "-2", "-3", ...
// added when two are made within one second, so that neither replaces the other.
std::string fresh_file_in(const std::string& folder, const char* stem, const char* extension) {
  const std::string name = timestamped_file_name(stem, extension, std::time(nullptr));
  std::string path = join_path(folder, name);
  const std::string base = path.substr(0, path.size() - std::string(extension).size() - 1);
  for (int n = 2; n < 100 && is_regular_file(path); ++n) path = base + "-" + std::to_string(n) + "." + extension;
  return path;
}

}  // namespace

std::string App::files_folder() const {
  const std::string folder = absolute_path(state_.export_dir, started_in_);
  return is_folder(folder) ? folder : started_in_;
}

void App::quick_screenshot() {
  request_screenshot(fresh_file_in(files_folder(), "tilescope-screenshot", "png"));
}

App::WorkTicket App::export_region_png(const char* stem, ImVec2 min, ImVec2 max) {
  const WorkTicket ticket = request_screenshot(fresh_file_in(files_folder(), stem, "png"));
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  crop_x_ = static_cast<int>(min.x * scale.x);
  crop_y_ = static_cast<int>(min.y * scale.y);
  crop_w_ = static_cast<int>((max.x - min.x) * scale.x);
  crop_h_ = static_cast<int>((max.y - min.y) * scale.y);
  return ticket;
}

void App::remember_file(const std::string& path) {
  remember_recent_file(&state_.recent_files, path);
}

FileDialogRequest App::file_request(FileTarget target) const {
  FileDialogRequest r;
  r.folder = files_folder();
  r.save = target != FileTarget::kLoadCsv && target != FileTarget::kLoadKernelText;
  const bool csv = target == FileTarget::kLoadCsv || target == FileTarget::kExportCsv;
  const bool text = target == FileTarget::kLoadKernelText || target == FileTarget::kSaveKernelText;
  r.filter_label = csv ? "CSV files" : text ? "kernel texts" : "PNG images";
  r.extension = csv ? "csv" : text ? "cuh" : "png";
  switch (target) {
    case FileTarget::kLoadKernelText:
      r.title = "Load an edited kernel text";
      break;
    case FileTarget::kSaveKernelText:
      r.title = "Save the edited kernel text";
      r.file_name = file_name_of(fresh_file_in(r.folder, "tilescope-edit", "cuh"));
      break;
    case FileTarget::kLoadCsv:
      r.title = "Load results CSV";
      break;
    case FileTarget::kExportCsv:
      r.title = "Export results CSV";
      r.file_name = file_name_of(fresh_file_in(r.folder, "tilescope-results", "csv"));
      break;
    case FileTarget::kExportPlot: {
      // Where the Export PNG dialog's file field points.
      const std::string typed = absolute_path(export_path_, files_folder());
      r.title = "Export plot PNG";
      if (is_folder(folder_of(typed))) r.folder = folder_of(typed);
      r.file_name = file_name_of(typed);
      break;
    }
    case FileTarget::kScreenshot:
      r.title = "Save a screenshot of the window";
      r.file_name = file_name_of(fresh_file_in(r.folder, "tilescope-screenshot", "png"));
      break;
    case FileTarget::kNone:
      break;
  }
  return r;
}

void App::choose_file(FileTarget target) {
  if (choosing_file() || target == FileTarget::kNone) return;
  const FileDialogRequest request = file_request(target);
  file_target_ = target;
  // The desktop's dialog is a window of its own, in the desktop's font: in presenter mode the
  // class reads tilescope's, drawn at the presenter's size.
  const DesktopDialogTool tool =
      host_.headless() || state_.presenter ? DesktopDialogTool::kNone : find_desktop_dialog_tool();
  if (tool != DesktopDialogTool::kNone) {
    std::string error;
    if (desktop_dialog_.start(tool, request, &error)) return;
    set_status(error + "; tilescope's own file chooser instead", false);
  }
  file_chooser_.open(request, recent_files_with_extension(state_.recent_files, request.extension), started_in_);
}

void App::finish_desktop_file_dialog() {
  FileDialogResult r;
  if (!desktop_dialog_.take_result(&r)) return;
  const FileTarget target = file_target_;
  if (r.outcome == FileDialogResult::Outcome::kFailed) {
    set_status(r.error + "; tilescope's own file chooser instead", false);
    const FileDialogRequest request = file_request(target);
    file_chooser_.open(request, recent_files_with_extension(state_.recent_files, request.extension), started_in_);
    return;
  }
  file_target_ = FileTarget::kNone;
  if (r.outcome == FileDialogResult::Outcome::kChosen) use_chosen_file(target, r.path);
}

void App::use_chosen_file(FileTarget target, const std::string& chosen) {
  const FileDialogRequest request = file_request(target);
  std::string path = absolute_path(chosen, files_folder());
  // The desktop's dialogs take a name as typed: "plot" is written as plot.png.
  if (request.save) path = with_extension(path, request.extension);
  state_.export_dir = folder_of(path);
  switch (target) {
    case FileTarget::kLoadCsv:
      start_load_csv(path);
      break;
    case FileTarget::kExportCsv:
      export_csv(path);
      break;
    case FileTarget::kExportPlot:
      copy_to(export_path_, sizeof export_path_, path);
      export_error_.clear();
      break;
    case FileTarget::kScreenshot:
      request_screenshot(path);
      break;
    case FileTarget::kLoadKernelText:
    case FileTarget::kSaveKernelText: {
      const bool load = target == FileTarget::kLoadKernelText;
      std::string why;
      if (load ? source_.editor().load_file(path, &why) : source_.editor().save_file(path, &why))
        set_status((load ? "loaded " : "saved the edit to ") + path, false);
      else
        set_status(why, true);
      break;
    }
    case FileTarget::kNone:
      break;
  }
}

void App::draw_file_chooser(FileTarget level) {
  // The chooser the Export PNG dialog opened is drawn inside that dialog (a modal above a
  // modal must be opened from within it); the others at the window's level.
  const bool from_export = file_target_ == FileTarget::kExportPlot;
  if (!file_chooser_.is_open() || from_export != (level == FileTarget::kExportPlot)) return;
  const bool chosen = file_chooser_.draw();
  if (file_chooser_.is_open()) return;
  const FileTarget target = file_target_;
  file_target_ = FileTarget::kNone;
  if (chosen) use_chosen_file(target, file_chooser_.chosen_path());
}

void App::open_export_dialog() {
  show_export_dialog_ = true;
  export_error_.clear();
  copy_to(export_path_, sizeof export_path_, fresh_file_in(files_folder(), "tilescope-plot", "png"));
}

void App::draw_export_plot_dialog() {
  if (show_export_dialog_) ImGui::OpenPopup("Export plot");
  show_export_dialog_ = false;
  if (!ImGui::BeginPopupModal("Export plot", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    // Closed (Esc) while its chooser was open: the chooser goes with it.
    if (file_target_ == FileTarget::kExportPlot && file_chooser_.is_open()) {
      file_chooser_.close();
      file_target_ = FileTarget::kNone;
    }
    return;
  }
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("File");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 44);  // room for a folder and a dated name
  if (ImGui::InputText("##export_file", export_path_, sizeof export_path_)) export_error_.clear();
  ImGui::SameLine();
  ImGui::BeginDisabled(choosing_file());
  if (ImGui::Button("Browse...")) choose_file(FileTarget::kExportPlot);
  ImGui::EndDisabled();
  const char* presets[] = {"1280 x 720", "1920 x 1080", "2560 x 1440", "3840 x 2160 (4K)", "custom"};
  ImGui::SetNextItemWidth(em * 12);
  if (ImGui::Combo("resolution", &export_preset_, presets, IM_ARRAYSIZE(presets))) {
    const int w[] = {1280, 1920, 2560, 3840}, h[] = {720, 1080, 1440, 2160};
    if (export_preset_ < 4) {
      state_.export_width = w[export_preset_];
      state_.export_height = h[export_preset_];
    }
  }
  if (export_preset_ == 4) {
    ImGui::SetNextItemWidth(em * 6);
    ImGui::InputInt("width", &state_.export_width, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 6);
    ImGui::InputInt("height", &state_.export_height, 0);
    state_.export_width = std::clamp(state_.export_width, kMinPlotImageSide, kMaxPlotImageSide);
    state_.export_height = std::clamp(state_.export_height, kMinPlotImageSide, kMaxPlotImageSide);
  }
  if (!export_error_.empty()) {
    ImGui::PushTextWrapPos(em * 40);
    ImGui::TextColored(kErrorColour, "%s", export_error_.c_str());
    ImGui::PopTextWrapPos();
  }
  // Enter exports, unless a chooser has the keyboard (it took Enter for itself first).
  const bool enter = !choosing_file() && (key_tapped(GLFW_KEY_ENTER) || key_tapped(GLFW_KEY_KP_ENTER));
  if (ImGui::Button("Export", ImVec2(em * 6, 0)) || enter) {
    // A bare name goes where the choosers open, not where the program happened to start.
    const std::string path = with_extension(absolute_path(export_path_, files_folder()), "png");
    std::string why;
    if (check_writable_path(path, &why)) {
      state_.export_dir = folder_of(path);
      request_plot_export(path, state_.export_width, state_.export_height);
      ImGui::CloseCurrentPopup();
    } else {
      export_error_ = printable_text(why);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
  draw_file_chooser(FileTarget::kExportPlot);
  ImGui::EndPopup();
}

void App::draw_file_menu_items() {
  const bool free = !choosing_file();
  if (ImGui::MenuItem("Load results CSV...", "Ctrl+O", false, free)) choose_file(FileTarget::kLoadCsv);
  const std::vector<std::string> recent = recent_files_with_extension(state_.recent_files, "csv");
  if (ImGui::BeginMenu("Load recent CSV", free && !recent.empty())) {
    for (const std::string& path : recent) {
      const bool there = is_regular_file(path);
      if (ImGui::MenuItem(printable_text(path).c_str(), nullptr, false, there)) start_load_csv(path);
      if (!there && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("no longer there");
    }
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Export results CSV...", nullptr, false, free)) choose_file(FileTarget::kExportCsv);
  if (ImGui::MenuItem("Export plot PNG...", "Ctrl+E", false, free)) open_export_dialog();
  ImGui::Separator();
  if (ImGui::MenuItem("Screenshot of the window...", nullptr, false, free)) choose_file(FileTarget::kScreenshot);
  if (ImGui::MenuItem("Quick screenshot", "F12")) quick_screenshot();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Saves tilescope-screenshot-<date>-<time>.png in %s", printable_text(files_folder()).c_str());
  if (!free) ImGui::TextDisabled("A file dialog is open.");
}

}  // namespace tilescope
