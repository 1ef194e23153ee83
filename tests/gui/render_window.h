// One frame of ImGui drawing in a window that fills a headless framebuffer, captured: how the GUI
// tests look at a picture. Optionally with the text ImGui wrote (its log), for the words that
// only text widgets carry.
#pragma once

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app/platform/image.h"
#include "tests/gui/gui_test_support.h"

namespace tilescope::testing {

template <typename Draw>
Image render_window(int w, int h, Draw draw, std::string* text = nullptr) {
  auto host = make_host(w, h);
  EXPECT_TRUE(host);
  if (!host) return {};
  Image shot;
  for (int frame = 0; frame < 2; ++frame) {  // the second frame has the layout settled
    host->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(w), static_cast<float>(h)));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    if (text) ImGui::LogToBuffer();
    draw();
    if (text && frame == 1) *text = GImGui->LogBuffer.c_str();
    if (text) ImGui::LogFinish();
    ImGui::End();
    if (frame == 1) host->request_capture();
    host->end_frame();
  }
  std::string error;
  EXPECT_TRUE(host->take_capture(&shot, &error)) << error;
  return shot;
}

}  // namespace tilescope::testing
