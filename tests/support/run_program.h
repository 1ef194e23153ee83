// Running the real program from a test: `tilescope ARGS` (ARGS already shell-quoted where
// needed) with stdout and stderr together, and its exit code (-1 when it did not exit normally).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace tilescope::testing {

struct ProgramOutcome {
  int code = -1;
  std::string output;
};

inline ProgramOutcome run_program(const std::string& binary, const std::string& args) {
  const std::string cmd = "'" + binary + "' " + args + " 2>&1";
  ProgramOutcome o;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) o.output += buf;
  const int status = pclose(p);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

}  // namespace tilescope::testing
