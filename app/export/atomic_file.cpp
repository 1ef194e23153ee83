#include "app/export/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tilescope {
namespace {

std::string errno_text(int err) {
  return std::strerror(err);
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool write_all(int fd, const std::string& contents) {
  const char* p = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string atomic_temp_path(const std::string& path) {
  return path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
}

bool write_file_atomically(const std::string& path, const std::string& contents, std::string* error) {
  if (path.empty()) {
    *error = "cannot write a file with an empty name";
    return false;
  }
  const std::string temp = atomic_temp_path(path);
  // O_NOFOLLOW: never write through a symlink someone left at the temporary name.
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    *error = "cannot write " + path + ": " + errno_text(errno);
    return false;
  }
  auto fail = [&](int err) {
    ::unlink(temp.c_str());
    *error = "cannot write " + path + ": " + errno_text(err);
    return false;
  };
  if (!write_all(fd, contents)) {
    const int err = errno;
    ::close(fd);
    return fail(err);
  }
  // fsync before rename: otherwise a crash can leave the new name pointing at an empty file.
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(err);
  }
  if (::close(fd) != 0) return fail(errno);
  // rename() replaces a file atomically; onto a directory it fails (EISDIR) and the
  // directory is left alone.
  if (::rename(temp.c_str(), path.c_str()) != 0) return fail(errno);

  // Make the rename itself durable; a failure here does not undo a completed write.
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

bool check_writable_path(const std::string& path, std::string* error) {
  if (path.empty()) {
    *error = "cannot write a file with an empty name";
    return false;
  }
  auto refuse = [&](const std::string& why) {
    *error = "cannot write " + path + ": " + why;
    return false;
  };
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0) {
    if (S_ISDIR(target.st_mode)) return refuse("it is a folder; name a file in it");
    if (!S_ISREG(target.st_mode)) return refuse("it exists and is not a regular file");
  }
  const std::string folder = directory_of(path);
  struct stat dir {};
  if (::stat(folder.c_str(), &dir) != 0) {
    const int err = errno;
    return refuse(err == ENOENT ? "the folder " + folder + " does not exist" : folder + ": " + errno_text(err));
  }
  if (!S_ISDIR(dir.st_mode)) return refuse(folder + " is not a folder");
  // Tried rather than judged from the permission bits, which do not bind root and say nothing
  // of a read-only mount: a file of a fresh unique name (mkstemp: never one someone else made)
  // is created and removed at once.
  std::string probe = folder + "/.tilescope-write-check-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return refuse("cannot create a file in " + folder + ": " + errno_text(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

}  // namespace tilescope
