// Menus (with their keyboard shortcuts shown), the keyboard shortcuts themselves, the dialogs
// (the file dialogs' own code is in app/ui/shell/file_dialogs.cpp, the status bar in app/ui/shell/status_bar.cpp),
// and the colour themes.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "app/ui/shell/app.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/modal_escape.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/gemm_types.h"
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

// From the host's queue of presses (app/ui/shell/key_presses.h), so that a tap shorter than a frame
// still acts, once; two taps within one frame act twice.
void App::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  while (key_tapped(GLFW_KEY_F11)) set_presenter(!state_.presenter);
  while (key_tapped(GLFW_KEY_F12)) quick_screenshot();
  // Esc closes the dialog on top first, doing nothing it would have done; with none open it
  // cancels the work under way.
  while (key_tapped(GLFW_KEY_ESCAPE)) {
    if (close_topmost_modal()) continue;
    cancel();
    if (csv_loader_.busy()) csv_loader_.cancel();
  }
  // The chooser's keys (Enter, arrows, Backspace) before the panels, which read keys too.
  file_chooser_.take_keys();
  while (key_tapped(GLFW_KEY_Q, GLFW_MOD_CONTROL)) quit();
  // Shortcuts that open a dialog, and the single letters, wait while a dialog is open.
  const bool dialog_open = modal_dialog_open() || choosing_file();
  while (key_tapped(GLFW_KEY_E, GLFW_MOD_CONTROL))
    if (!dialog_open) open_export_dialog();
  while (key_tapped(GLFW_KEY_O, GLFW_MOD_CONTROL))
    if (!dialog_open) choose_file(FileTarget::kLoadCsv);
  while (key_tapped(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL) || key_tapped(GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL))
    state_.font_scale = std::min(3.0f, state_.font_scale + 0.1f);
  while (key_tapped(GLFW_KEY_MINUS, GLFW_MOD_CONTROL) || key_tapped(GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL))
    state_.font_scale = std::max(0.6f, state_.font_scale - 0.1f);
  // Single letters only while no text field has the keyboard, and without Ctrl, Alt or Super.
  if (io.WantTextInput || modal_dialog_open()) return;
  while (key_tapped(GLFW_KEY_R, 0)) run();
  while (key_tapped(GLFW_KEY_S, 0)) sweep();
  while (key_tapped(GLFW_KEY_L, 0)) live();
}

void App::draw_menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    draw_file_menu_items();  // app/ui/shell/file_dialogs.cpp
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
    help_.draw_items(*this);
    ImGui::Separator();
    if (ImGui::MenuItem("About tilescope")) show_about_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::draw_dialogs() {
  finish_desktop_file_dialog();
  draw_export_plot_dialog();  // app/ui/shell/file_dialogs.cpp, with the chooser it opens
  draw_file_chooser(FileTarget::kNone);
  if (show_about_) ImGui::OpenPopup("About tilescope");
  show_about_ = false;

  const float em = ImGui::GetFontSize();
  if (ImGui::BeginPopupModal("About tilescope", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("tilescope %s: how a GPU multiplies matrices.", kTilescopeVersion);
    ImGui::Text("OpenGL: %s", host_.gl_version().c_str());
    ImGui::Text("Renderer: %s", host_.renderer().c_str());
    ImGui::Text("UI font: %s", ui_font_summary().c_str());
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
