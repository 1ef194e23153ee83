#include "app/export/user_dirs.h"

#include <cstdlib>

namespace tilescope {

std::string xdg_user_dir(const char* xdg_variable, const char* home_fallback) {
  if (const char* x = std::getenv(xdg_variable); x && *x) return std::string(x) + "/tilescope";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/" + home_fallback + "/tilescope";
  return "";
}

}  // namespace tilescope
