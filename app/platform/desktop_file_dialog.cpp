#include "app/platform/desktop_file_dialog.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace tilescope {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool on_path(const std::string& program) {
  const std::string path = env("PATH");
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string dir = end > start ? path.substr(start, end - start) : ".";
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// The folder with one slash at its end: zenity starts in a folder only when the name ends so.
std::string folder_with_slash(const std::string& folder) {
  return !folder.empty() && folder.back() == '/' ? folder : folder + "/";
}

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string trim_line_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// Reads the tool's output until it closes it (a path is short: more is not a path).
std::string read_all(int fd) {
  constexpr std::size_t kMaxOutput = 64 * 1024;
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (out.size() < kMaxOutput) out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

const char* tool_name(DesktopDialogTool tool) {
  switch (tool) {
    case DesktopDialogTool::kZenity:
      return "zenity";
    case DesktopDialogTool::kKdialog:
      return "kdialog";
    default:
      return "none";
  }
}

DesktopDialogTool find_desktop_dialog_tool() {
  const std::string forced = env("TILESCOPE_FILE_DIALOG");
  if (forced == "builtin") return DesktopDialogTool::kNone;
  if (env("DISPLAY").empty() && env("WAYLAND_DISPLAY").empty()) return DesktopDialogTool::kNone;
  if (forced == "zenity" || forced == "kdialog") {
    if (!on_path(forced)) return DesktopDialogTool::kNone;
    return forced == "zenity" ? DesktopDialogTool::kZenity : DesktopDialogTool::kKdialog;
  }
  const bool kde = env("XDG_CURRENT_DESKTOP").find("KDE") != std::string::npos;
  if (kde && on_path("kdialog")) return DesktopDialogTool::kKdialog;
  if (on_path("zenity")) return DesktopDialogTool::kZenity;
  if (on_path("kdialog")) return DesktopDialogTool::kKdialog;
  return DesktopDialogTool::kNone;
}

std::vector<std::string> desktop_dialog_command(DesktopDialogTool tool, const FileDialogRequest& r) {
  const std::string start = r.save ? folder_with_slash(r.folder) + r.file_name : folder_with_slash(r.folder);
  // Both spellings of the extension: "PLOT.PNG" from a camera-era habit is still a PNG.
  const std::string patterns = r.extension.empty() ? "*" : "*." + r.extension + " *." + upper(r.extension);
  if (tool == DesktopDialogTool::kZenity) {
    std::vector<std::string> argv = {"zenity", "--file-selection", "--title=" + r.title, "--filename=" + start};
    if (r.save) {
      argv.push_back("--save");
      argv.push_back("--confirm-overwrite");  // zenity 4 always asks and ignores this
    }
    if (!r.extension.empty()) {
      argv.push_back("--file-filter=" + r.filter_label + " (*." + r.extension + ") | " + patterns);
      argv.push_back("--file-filter=All files | *");
    }
    return argv;
  }
  if (tool == DesktopDialogTool::kKdialog) {
    // kdialog asks before replacing a file by itself.
    return {"kdialog", "--title",
            r.title,   r.save ? "--getsavefilename" : "--getopenfilename",
            start,     r.extension.empty() ? "*|All files" : patterns + "|" + r.filter_label};
  }
  return {};
}

FileDialogResult desktop_dialog_result(DesktopDialogTool tool, int exit_code, const std::string& printed) {
  FileDialogResult r;
  const std::string path = trim_line_end(printed);
  if (exit_code == 0 && !path.empty() && path.find('\n') == std::string::npos) {
    r.outcome = FileDialogResult::Outcome::kChosen;
    r.path = path;
  } else if (exit_code == 0 || exit_code == 1) {
    r.outcome = FileDialogResult::Outcome::kCancelled;
  } else {
    r.outcome = FileDialogResult::Outcome::kFailed;
    r.error = std::string(tool_name(tool)) + " ended with status " + std::to_string(exit_code);
  }
  return r;
}

DesktopFileDialog::~DesktopFileDialog() {
  cancel();
  waiter_.join();
}

bool DesktopFileDialog::start(DesktopDialogTool tool, const FileDialogRequest& request, std::string* error) {
  if (waiter_.busy()) {
    *error = "a file dialog is open already";
    return false;
  }
  const std::vector<std::string> args = desktop_dialog_command(tool, request);
  if (args.empty()) {
    *error = "no desktop file dialog";
    return false;
  }
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    *error = std::string("cannot start ") + tool_name(tool) + ": " + std::strerror(errno);
    return false;
  }
  // The tool's stdout is the pipe; its stdin and stderr /dev/null (GTK's warnings about a
  // dialog without a parent window are not the user's business).
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    *error = std::string("cannot start ") + tool_name(tool) + ": " + std::strerror(spawned);
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pid_ = pid;
  }
  return waiter_.start([this, tool, pid, fd = out[0]] {
    const std::string printed = read_all(fd);
    ::close(fd);
    // Waited for without reaping first, so that cancel() never signals a reused process id.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    int status = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pid_ = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    FileDialogResult r;
    if (WIFEXITED(status))
      r = desktop_dialog_result(tool, WEXITSTATUS(status), printed);
    else
      r.outcome = FileDialogResult::Outcome::kCancelled;  // closed by cancel() (or killed)
    return r;
  });
}

void DesktopFileDialog::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pid_ > 0) ::kill(pid_, SIGTERM);
}

}  // namespace tilescope
