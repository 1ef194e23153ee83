// Where the program finds the files it reads at run time: shaders/ (the texture-shader GEMM's
// GLSL) and assets/ (lesson scripts). No path of the build machine is compiled in, so the same
// binary works installed under any prefix, copied elsewhere, or run from its build folder:
//   shaders  1. $TILESCOPE_SHADERS when set and non-empty (a learner's edited copy: an installed
//               shaders/ is read-only), then the data folder's shaders/;
//   data     2. <folder of the program>/../share/tilescope (installed: bin/ beside share/),
//            3. the program's folder and each folder above it (a build folder inside a clone
//               finds the clone); the first that holds shaders/<the marker file> and assets/.
// The program's own location is its real path (/proc/self/exe, symbolic links resolved), so a
// link to it elsewhere on PATH changes nothing.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tilescope {

enum class DataSource {
  kInstalled,    // <program folder>/../share/tilescope
  kEnvironment,  // $TILESCOPE_SHADERS (the shader folder only)
  kSourceTree,   // a folder above the program holding shaders/ and assets/
  kNotFound,
};

// "installed, next to the program", "TILESCOPE_SHADERS", "source tree", "not found".
const char* data_source_name(DataSource source);

// The lookup's inputs, so that it can be tested without the running program's filesystem.
struct DataLookup {
  std::string program;      // absolute real path of the program ("" when unknown)
  std::string shaders_env;  // the value of $TILESCOPE_SHADERS ("" when unset)
  std::string marker;       // a file every shaders/ of this program holds, e.g. "gemm_quad.vert"
  std::function<bool(const std::string& path)> exists;  // a file or folder exists at path
};

struct DataDirs {
  std::string root;  // the folder holding shaders/ and assets/; "" when none was found
  DataSource root_source = DataSource::kNotFound;
  std::string shaders;  // the shader folder to read; "" when none
  DataSource shaders_source = DataSource::kNotFound;
  std::string assets;                  // root/assets; "" when no root
  std::vector<std::string> looked_in;  // the candidate data folders, in the order tried
};

// The pure lookup (see the top of this file).
DataDirs locate_data_dirs(const DataLookup& lookup);

// The running program's: its real path, $TILESCOPE_SHADERS now, the real filesystem. The
// part that depends on the program's location is computed once per marker.
DataDirs find_data_dirs(const std::string& marker);

// One line for people: "/usr/share/tilescope (installed, next to the program)", or
// "not found: looked in A, B, ..." (then what to do).
std::string describe_data_root(const DataDirs& dirs);
std::string describe_shader_dir(const DataDirs& dirs);

// The running program's absolute real path ("" when /proc/self/exe cannot be read).
std::string program_path();

}  // namespace tilescope
