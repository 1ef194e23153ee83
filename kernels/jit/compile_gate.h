// How many compiles run at once in a process: a counting gate whose limit may change, in which a
// compile whose asker dropped it (CompileDropped, below) no longer counts. NVRTC cannot
// be stopped, so a dropped compile runs on to its end on its own thread, but it holds up nobody:
// a compile that hangs, then is cancelled, does not stop every later one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>

namespace tilescope {

// Set by whoever asked for a compile once its result is no longer wanted (a cancelled or replaced
// request); none: always wanted.
using CompileDropped = std::shared_ptr<const std::atomic<bool>>;

class CompileGate {
 public:
  using Place = std::list<CompileDropped>::iterator;

  // At most `n` wanted compiles at once from now on (n <= 0: no limit).
  void set_limit(int n);
  // Waits until fewer than the limit of wanted compiles hold a place, or until `dropped` is set
  // (then the caller skips its compile), and takes a place. Give it back with leave().
  Place enter(const CompileDropped& dropped);
  void leave(Place place);
  // The wanted compiles holding a place now.
  int wanted_running() const;

 private:
  static bool is_dropped(const CompileDropped& d) { return d && d->load(); }
  int wanted_locked() const;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int limit_ = 0;
  std::list<CompileDropped> running_;
};

// The process's gate, which compile_program passes (nvrtc_compiler.h).
CompileGate& compile_gate();

}  // namespace tilescope
