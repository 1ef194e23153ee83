#include "app/export/file_names.h"

namespace tilescope {

std::string timestamped_file_name(const std::string& stem, const std::string& extension, std::time_t when) {
  std::tm local{};
  localtime_r(&when, &local);
  char stamp[32];
  if (std::strftime(stamp, sizeof stamp, "%Y-%m-%d-%H%M%S", &local) == 0) stamp[0] = '\0';
  return stem + "-" + stamp + "." + extension;
}

}  // namespace tilescope
