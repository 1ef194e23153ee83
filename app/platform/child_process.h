// A program run as a process of its own and watched without blocking: the window runs a
// learner's edited kernel this way (a worker that may fault, hang or be killed without taking the
// window or its CUDA context along). Its standard output and error go, together, to a file the
// caller names and reads once it has ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace tilescope {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // A child still running is killed (with what it started) and reaped: none outlives its owner.
  ~ChildProcess();

  // Starts argv[0] (a path) with `argv`, its output to `output_path` (created or truncated).
  // False with *error (nothing started) when the file cannot be made or the program not started.
  // Only while none runs.
  bool start(const std::vector<std::string>& argv, const std::string& output_path, std::string* error);
  // Whether it still runs (asks the system without waiting; reaps it once it has ended).
  bool running();
  // Stops it now (SIGKILL), with every process it started (its process group); running() is false
  // once the system has taken it down.
  void kill();

  struct Ending {
    bool exited = false;  // ended by exit(): code is its status
    int code = 0;
    int signal = 0;  // killed by this signal (SIGKILL after kill(), SIGSEGV, ...)
  };
  // How it ended (meaningful once running() is false).
  const Ending& ending() const { return ending_; }
  // Seconds since start().
  double seconds() const;

 private:
  pid_t pid_ = -1;
  Ending ending_;
  std::chrono::steady_clock::time_point started_;
};

// The path of the running program (for a worker of the same program), "" when unknown.
std::string this_program_path();

// What an ending says to a user: "exit status 1", "stopped by signal 11 (Segmentation fault)".
std::string ending_text(const ChildProcess::Ending& e);

}  // namespace tilescope
