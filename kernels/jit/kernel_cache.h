// Compiled kernels kept between sessions, so that a tile compiled once loads in milliseconds the
// next time. The key is a hash of everything the machine code depends on: the text and every file
// it includes (read from the include root), the compile options, the architecture, NVRTC's version
// and the driver's. Where the bytes are kept is the program's business (the app keeps them as
// files under the XDG cache folder: app/export/kernel_cache_files.h); the core only asks for them.
// Without storage, or when it fails (an unwritable or full folder), the compile still happens and
// CompiledProgram::cache_note says why it was not kept.
#pragma once

#include <memory>
#include <string>

#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope {

class KernelCacheStorage {
 public:
  virtual ~KernelCacheStorage() = default;
  // The bytes stored under `key`; false when there are none.
  virtual bool read(const std::string& key, std::string* bytes) = 0;
  // False with *error when the bytes could not be kept (the compile goes on without the cache).
  virtual bool write(const std::string& key, const std::string& bytes, std::string* error) = 0;
};

// The storage every later compile uses (nullptr: none). Thread-safe.
void install_kernel_cache(std::shared_ptr<KernelCacheStorage> storage);

// The key of a compile: 16 hex digits. `driver` names the driver ("13000", or "none").
std::string compile_cache_key(const CompileJob& job, const std::string& driver);

// A compiled program as bytes and back (the outputs, the log, the compile time); false for bytes
// that are not one (a damaged or foreign file: it is compiled again).
std::string serialize_program(const CompiledProgram& p);
bool deserialize_program(const std::string& bytes, CompiledProgram* p);

// Compiles through the installed storage: from it when the key is there, else compiled and kept.
CompiledProgram compile_cached(const CompileJob& job, const std::string& driver);

}  // namespace tilescope
