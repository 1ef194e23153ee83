#include "app/platform/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace tilescope {

ChildProcess::~ChildProcess() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
}

bool ChildProcess::start(const std::vector<std::string>& argv, const std::string& output_path, std::string* error) {
  if (pid_ > 0 || argv.empty()) {
    *error = argv.empty() ? "no program to start" : "a worker is still running";
    return false;
  }
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // A process group of its own, led by the child: kill() then takes down what it started too (ncu's
  // profiled program, a shell's commands), and a Ctrl-C at the terminal reaches only this program,
  // which stops its worker itself.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0].c_str(), &files, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) {
    *error = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  ending_ = Ending{};
  started_ = std::chrono::steady_clock::now();
  return true;
}

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == 0) return true;
  if (r == pid_) {
    ending_.exited = WIFEXITED(status);
    ending_.code = ending_.exited ? WEXITSTATUS(status) : 0;
    ending_.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  pid_ = -1;  // ended (or not ours any more: ECHILD)
  return false;
}

void ChildProcess::kill() {
  if (pid_ > 0) ::kill(-pid_, SIGKILL);
}

double ChildProcess::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::string this_program_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  path[n] = '\0';
  return path;
}

std::string ending_text(const ChildProcess::Ending& e) {
  if (e.exited) return "exit status " + std::to_string(e.code);
  if (e.signal) return "stopped by signal " + std::to_string(e.signal) + " (" + strsignal(e.signal) + ")";
  return "ended";
}

}  // namespace tilescope
