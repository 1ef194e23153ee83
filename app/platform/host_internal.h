// What the window and headless hosts share: the one-host-per-process rule, the ImGui context's
// set-up, and the font atlas built on the CPU before the renderer backend makes its GL objects.
// Private to app/platform.
#pragma once

#include <memory>
#include <string>

namespace tilescope {
namespace detail {

// A host of type H made from `options` and initialised (H::init); null and *error when it
// could not be: what both create_*_host functions do.
template <typename H, typename Options>
std::unique_ptr<H> make_initialised(const Options& options, std::string* error) {
  auto host = std::make_unique<H>(options);
  if (!host->init(options, error)) return nullptr;
  return host;
}

// One host at a time: a host owns ImGui's (global) current context and, for the window host,
// GLFW's global state. False and *error when a host is alive already.
bool claim_host_slot(std::string* error);
void release_host_slot();

// ImGui::CreateContext(), io.IniFilename (`ini_path` must outlive the context: ImGui keeps the
// pointer; "" = none), dark style with sizes scaled by `content_scale`.
void create_imgui_context(const std::string& ini_path, float content_scale);

// After ImGui_ImplOpenGL3_Init(): puts the UI font into the atlas and lets the backend make its
// shaders, buffers and font texture now (not lazily in the first NewFrame), so that a broken
// GL context is reported by create_*_host. Prints a message when it falls back to ImGui's font.
bool create_renderer_objects(float font_pixels, std::string* error);

// The UI font into ImGui's atlas, CPU side only (no GL); false and *error after falling back
// to ImGui's built-in font.
bool add_ui_font_to_atlas(float pixels, std::string* error);

// glGetString(name) as a string ("" when the context gives nothing).
std::string gl_string(unsigned name);

// 16 px at scale 1, unless the options ask for a size.
float default_font_pixels(float requested_pixels, float content_scale);

}  // namespace detail
}  // namespace tilescope
