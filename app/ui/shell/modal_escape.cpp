#include "app/ui/shell/modal_escape.h"

#include <imgui.h>
#include <imgui_internal.h>  // the popup stack: public ImGui closes only the popup being drawn

namespace tilescope {

bool modal_dialog_open() {
  return ImGui::GetTopMostPopupModal() != nullptr;
}

bool close_topmost_modal() {
  const ImGuiWindow* modal = ImGui::GetTopMostPopupModal();
  if (!modal) return false;
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int level = g.OpenPopupStack.Size - 1; level >= 0; --level) {
    if (g.OpenPopupStack[level].Window != modal) continue;
    ImGui::ClosePopupToLevel(level, true);
    return true;
  }
  return false;
}

}  // namespace tilescope
