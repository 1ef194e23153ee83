#include "kernels/jit/compile_gate.h"

#include <algorithm>
#include <chrono>

namespace tilescope {

void CompileGate::set_limit(int n) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = n;
  }
  changed_.notify_all();
}

CompileGate::Place CompileGate::enter(const CompileDropped& dropped) {
  std::unique_lock<std::mutex> lock(mutex_);
  // A drop sets a flag nobody notifies the gate of: the waiters look again every 50 ms.
  while (limit_ > 0 && wanted_locked() >= limit_ && !is_dropped(dropped))
    changed_.wait_for(lock, std::chrono::milliseconds(50));
  return running_.insert(running_.end(), dropped);
}

void CompileGate::leave(Place place) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(place);
  }
  changed_.notify_all();
}

int CompileGate::wanted_running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return wanted_locked();
}

int CompileGate::wanted_locked() const {
  return static_cast<int>(
      std::count_if(running_.begin(), running_.end(), [](const CompileDropped& d) { return !is_dropped(d); }));
}

CompileGate& compile_gate() {
  static CompileGate gate;
  return gate;
}

}  // namespace tilescope
