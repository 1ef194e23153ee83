#include "kernels/core/external_runner.h"

#include <map>
#include <mutex>
#include <utility>

namespace tilescope {
namespace {

std::mutex g_mutex;
std::map<Backend, ExternalRunner>& runners() {
  static std::map<Backend, ExternalRunner> map;
  return map;
}

}  // namespace

void install_external_runner(Backend backend, ExternalRunner runner) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (runner)
    runners()[backend] = std::move(runner);
  else
    runners().erase(backend);
}

ExternalRunner external_runner(Backend backend) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const auto it = runners().find(backend);
  return it == runners().end() ? ExternalRunner() : it->second;
}

}  // namespace tilescope
