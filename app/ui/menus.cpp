// Menus (with their keyboard shortcuts shown), the keyboard shortcuts themselves, the status
// bar, the small path dialogs, and the colour themes.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "gemm_types.h"
#include "ui/app.h"
#include "ui/key_presses.h"
#include "ui/widgets.h"
#include "version.h"

namespace tilescope {

namespace {

// A high-contrast theme for projectors: pure black background, white text, saturated accents.
void style_high_contrast() {
  ImGui::StyleColorsDark();
  ImVec4* c = ImGui::GetStyle().Colors;
  c[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
  c[ImGuiCol_TextDisabled] = ImVec4(0.80f, 0.80f, 0.80f, 1);
  c[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
  c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
  c[ImGuiCol_PopupBg] = ImVec4(0.05f, 0.05f, 0.05f, 1);
  c[ImGuiCol_Border] = ImVec4(0.85f, 0.85f, 0.85f, 1);
  c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.12f, 0.12f, 1);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.25f, 0.25f, 0.45f, 1);
  c[ImGuiCol_Button] = ImVec4(0.10f, 0.30f, 0.75f, 1);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.20f, 0.45f, 0.95f, 1);
  c[ImGuiCol_Header] = ImVec4(0.15f, 0.35f, 0.80f, 1);
  c[ImGuiCol_CheckMark] = ImVec4(1, 0.85f, 0.1f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(0.10f, 0.10f, 0.10f, 1);
  c[ImGuiCol_TableBorderLight] = ImVec4(0.5f, 0.5f, 0.5f, 1);
  c[ImGuiCol_PlotHistogram] = ImVec4(1, 0.75f, 0.1f, 1);
}

}  // namespace

void App::apply_theme() {
  const Theme theme = state_.presenter ? Theme::HighContrast : state_.theme;
  switch (theme) {
    case Theme::Light:
      ImGui::StyleColorsLight();
      break;
    case Theme::HighContrast:
      style_high_contrast();
      break;
    default:
      ImGui::StyleColorsDark();
      break;
  }
  ImGuiStyle& st = ImGui::GetStyle();
  st.FrameRounding = 3;
  st.GrabRounding = 3;
  st.FrameBorderSize = theme == Theme::HighContrast ? 1.0f : 0.0f;
  applied_theme_ = state_.theme;
  applied_presenter_ = state_.presenter;
}

// From the host's queue of presses (ui/key_presses.h), so that a tap shorter than a frame
// still acts, once; two taps within one frame act twice.
void App::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  while (key_tapped(GLFW_KEY_F11)) set_presenter(!state_.presenter);
  while (key_tapped(GLFW_KEY_F12)) {
    const std::string path = state_.export_dir + "/tilescope-screenshot-" + utc_timestamp_now() + ".png";
    request_screenshot(path);
  }
  while (key_tapped(GLFW_KEY_ESCAPE)) {
    cancel();
    if (csv_loader_.busy()) csv_loader_.cancel();
  }
  while (key_tapped(GLFW_KEY_Q, GLFW_MOD_CONTROL)) quit();
  while (key_tapped(GLFW_KEY_E, GLFW_MOD_CONTROL)) open_export_dialog();
  while (key_tapped(GLFW_KEY_O, GLFW_MOD_CONTROL)) {
    show_load_dialog_ = true;
    std::snprintf(path_buffer_, sizeof path_buffer_, "%s/tilescope-results.csv", state_.export_dir.c_str());
  }
  while (key_tapped(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL) || key_tapped(GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL))
    state_.font_scale = std::min(3.0f, state_.font_scale + 0.1f);
  while (key_tapped(GLFW_KEY_MINUS, GLFW_MOD_CONTROL) || key_tapped(GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL))
    state_.font_scale = std::max(0.6f, state_.font_scale - 0.1f);
  // Single letters only while no text field has the keyboard, and without Ctrl, Alt or Super.
  if (io.WantTextInput) return;
  while (key_tapped(GLFW_KEY_R, 0)) run();
  while (key_tapped(GLFW_KEY_S, 0)) sweep();
  while (key_tapped(GLFW_KEY_L, 0)) live();
}

void App::draw_menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Load results CSV...", "Ctrl+O")) {
      show_load_dialog_ = true;
      std::snprintf(path_buffer_, sizeof path_buffer_, "%s/tilescope-results.csv", state_.export_dir.c_str());
    }
    if (ImGui::MenuItem("Export results CSV...")) {
      show_csv_dialog_ = true;
      std::snprintf(path_buffer_, sizeof path_buffer_, "%s/tilescope-results.csv", state_.export_dir.c_str());
    }
    if (ImGui::MenuItem("Export plot PNG...", "Ctrl+E")) open_export_dialog();
    if (ImGui::MenuItem("Screenshot of the window", "F12"))
      request_screenshot(state_.export_dir + "/tilescope-screenshot-" + utc_timestamp_now() + ".png");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Run")) {
    const bool is_busy = busy();
    if (ImGui::MenuItem("Run", "R", false, !is_busy)) run();
    if (ImGui::MenuItem("Sweep", "S", false, !is_busy)) sweep();
    if (ImGui::MenuItem("Live", "L", false, !is_busy)) live();
    if (ImGui::MenuItem("Cancel / Stop", "Esc", false, is_busy)) cancel();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Presenter mode", "F11", state_.presenter)) set_presenter(!state_.presenter);
    if (ImGui::MenuItem("Bigger text", "Ctrl+=")) state_.font_scale = std::min(3.0f, state_.font_scale + 0.1f);
    if (ImGui::MenuItem("Smaller text", "Ctrl+-")) state_.font_scale = std::max(0.6f, state_.font_scale - 0.1f);
    ImGui::Separator();
    if (ImGui::MenuItem("Dark theme", nullptr, state_.theme == Theme::Dark)) state_.theme = Theme::Dark;
    if (ImGui::MenuItem("Light theme", nullptr, state_.theme == Theme::Light)) state_.theme = Theme::Light;
    if (ImGui::MenuItem("High-contrast theme", nullptr, state_.theme == Theme::HighContrast))
      state_.theme = Theme::HighContrast;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("About tilescope")) show_about_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::draw_status_bar() {
  ImGui::Separator();
  if (csv_loader_.busy()) draw_csv_load_progress();
  if (!status_.empty()) {
    if (status_error_)
      ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", status_.c_str());
    else
      ImGui::TextUnformatted(status_.c_str());
  } else {
    ImGui::TextDisabled("Ready. R: run, S: sweep, L: live, Esc: cancel, F11: presenter mode, F12: screenshot.");
  }
  // Frame time and renderer on the right.
  double median = 0;
  if (!frame_times_.empty()) {
    // The last 60 frames; an even count takes the mean of the two middle ones (median_of's rule).
    median = median_of(
        std::vector<double>(frame_times_.end() - std::min<std::size_t>(frame_times_.size(), 60), frame_times_.end()));
  }
  char right[256];
  std::snprintf(right, sizeof right, "%.1f ms/frame  |  %s", median, host_.renderer().c_str());
  // Right-aligned, and only where it does not run into the message on the left.
  const float w = ImGui::CalcTextSize(right).x;
  const float left_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  const float x = ImGui::GetWindowContentRegionMax().x - w;
  if (x > left_end + ImGui::GetFontSize()) {
    ImGui::SameLine(x);
    ImGui::TextDisabled("%s", right);
  }
}

void App::open_export_dialog() {
  show_export_dialog_ = true;
  std::snprintf(path_buffer_, sizeof path_buffer_, "%s/tilescope-plot.png", state_.export_dir.c_str());
}

bool App::path_dialog(const char* title, const char* help, const char* action) {
  bool confirmed = false;
  const float em = ImGui::GetFontSize();
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return false;
  ImGui::TextDisabled("%s", help);
  ImGui::SetNextItemWidth(em * 28);
  ImGui::InputText("file", path_buffer_, sizeof path_buffer_);
  if (ImGui::Button(action, ImVec2(em * 6, 0))) {
    confirmed = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return confirmed;
}

void App::draw_dialogs() {
  if (show_export_dialog_) ImGui::OpenPopup("Export plot");
  if (show_csv_dialog_) ImGui::OpenPopup("Export CSV");
  if (show_load_dialog_) ImGui::OpenPopup("Load CSV");
  if (show_about_) ImGui::OpenPopup("About tilescope");
  show_export_dialog_ = show_csv_dialog_ = show_load_dialog_ = show_about_ = false;

  const float em = ImGui::GetFontSize();
  if (ImGui::BeginPopupModal("Export plot", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::SetNextItemWidth(em * 28);
    ImGui::InputText("file", path_buffer_, sizeof path_buffer_);
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
      state_.export_width = std::clamp(state_.export_width, 64, 8192);
      state_.export_height = std::clamp(state_.export_height, 64, 8192);
    }
    if (ImGui::Button("Export", ImVec2(em * 6, 0))) {
      request_plot_export(path_buffer_, state_.export_width, state_.export_height);
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  if (path_dialog("Export CSV", "Every row of the history, in the format of `tilescope bench --csv`.", "Export"))
    export_csv(path_buffer_);
  if (path_dialog("Load CSV", "A CSV written by tilescope (bench --csv or File > Export): its rows join the history.",
                  "Load"))
    start_load_csv(path_buffer_);
  if (ImGui::BeginPopupModal("About tilescope", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("tilescope %s: how a GPU multiplies matrices.", kTilescopeVersion);
    ImGui::Text("OpenGL: %s", host_.gl_version().c_str());
    ImGui::Text("Renderer: %s", host_.renderer().c_str());
    if (device_.ok())
      ImGui::Text("GPU: %s, driver %s, CUDA runtime %s", device_.name.c_str(),
                  version_string(device_.driver_version).c_str(), version_string(device_.runtime_version).c_str());
    else
      ImGui::Text("GPU: none usable (%s)", device_.unavailable_reason.c_str());
    if (ImGui::Button("Close", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

}  // namespace tilescope
