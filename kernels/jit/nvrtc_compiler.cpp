#include "kernels/jit/nvrtc_compiler.h"

#include <nvrtc.h>  // the types and result codes only: the functions come from nvrtc_symbol

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/compile_gate.h"

namespace tilescope {

namespace {

template <typename F>
F nvrtc(const char* name) {
  return reinterpret_cast<F>(nvrtc_symbol(name));
}

struct Nvrtc {
  decltype(&nvrtcCreateProgram) create = nvrtc<decltype(&nvrtcCreateProgram)>("nvrtcCreateProgram");
  decltype(&nvrtcDestroyProgram) destroy = nvrtc<decltype(&nvrtcDestroyProgram)>("nvrtcDestroyProgram");
  decltype(&nvrtcAddNameExpression) add_name = nvrtc<decltype(&nvrtcAddNameExpression)>("nvrtcAddNameExpression");
  decltype(&nvrtcCompileProgram) compile = nvrtc<decltype(&nvrtcCompileProgram)>("nvrtcCompileProgram");
  decltype(&nvrtcGetProgramLogSize) log_size = nvrtc<decltype(&nvrtcGetProgramLogSize)>("nvrtcGetProgramLogSize");
  decltype(&nvrtcGetProgramLog) log = nvrtc<decltype(&nvrtcGetProgramLog)>("nvrtcGetProgramLog");
  decltype(&nvrtcGetPTXSize) ptx_size = nvrtc<decltype(&nvrtcGetPTXSize)>("nvrtcGetPTXSize");
  decltype(&nvrtcGetPTX) ptx = nvrtc<decltype(&nvrtcGetPTX)>("nvrtcGetPTX");
  decltype(&nvrtcGetCUBINSize) cubin_size = nvrtc<decltype(&nvrtcGetCUBINSize)>("nvrtcGetCUBINSize");
  decltype(&nvrtcGetCUBIN) cubin = nvrtc<decltype(&nvrtcGetCUBIN)>("nvrtcGetCUBIN");
  decltype(&nvrtcGetLoweredName) lowered = nvrtc<decltype(&nvrtcGetLoweredName)>("nvrtcGetLoweredName");
  decltype(&nvrtcGetErrorString) error_text = nvrtc<decltype(&nvrtcGetErrorString)>("nvrtcGetErrorString");
  decltype(&nvrtcVersion) version = nvrtc<decltype(&nvrtcVersion)>("nvrtcVersion");
  bool complete() const {
    return create && destroy && add_name && compile && log_size && log && ptx_size && ptx && cubin_size && cubin &&
           lowered && error_text && version;
  }
};

const Nvrtc& api() {
  static const Nvrtc n;
  return n;
}

std::string program_log(const Nvrtc& n, nvrtcProgram program) {
  std::size_t size = 0;
  n.log_size(program, &size);
  std::string log(size, '\0');
  if (size > 0) n.log(program, log.data());
  return log.c_str();  // without the terminating zero the size counted
}

int first_int(const std::string& text, const std::regex& re) {
  std::smatch m;
  return std::regex_search(text, m, re) ? std::stoi(m[1]) : 0;
}

// Everything the program's outputs need once the compile succeeded.
void collect_outputs(const Nvrtc& n, nvrtcProgram program, const CompileJob& job, CompiledProgram* out) {
  std::size_t size = 0;
  if (n.ptx_size(program, &size) == NVRTC_SUCCESS && size > 0) {
    out->ptx.assign(size, '\0');
    n.ptx(program, out->ptx.data());
    out->ptx = out->ptx.c_str();
  }
  size = 0;
  if (n.cubin_size(program, &size) == NVRTC_SUCCESS && size > 0) {
    out->cubin.assign(size, '\0');
    n.cubin(program, out->cubin.data());
  }
  for (const std::string& name : job.names) {
    const char* mangled = nullptr;
    out->lowered.push_back(n.lowered(program, name.c_str(), &mangled) == NVRTC_SUCCESS && mangled ? mangled : "");
    out->resources.push_back(parse_resources(out->log, out->lowered.back()));
  }
}

// A place at the gate for one compile, held while it runs.
class GatePlace {
 public:
  explicit GatePlace(const CompileDropped& dropped) : place_(compile_gate().enter(dropped)) {}
  ~GatePlace() { compile_gate().leave(place_); }
  GatePlace(const GatePlace&) = delete;
  GatePlace& operator=(const GatePlace&) = delete;

 private:
  CompileGate::Place place_;
};

}  // namespace

void limit_concurrent_compiles(int n) {
  compile_gate().set_limit(n);
}

std::vector<std::string> compile_options(const CompileJob& job) {
  std::vector<std::string> options = {"--gpu-architecture=" + job.architecture,
                                      std::string("-std=") + TILESCOPE_CUDA_STD, "-I" + job.include_root,
                                      "-I" + job.cuda_include_dir, "--ptxas-options=-v"};
  if (job.line_info) options.push_back("-lineinfo");
  return options;
}

CompiledProgram compile_program(const CompileJob& job) {
  CompiledProgram out;
  const Nvrtc& n = api();
  if (!n.complete()) {
    out.error = "the run-time compiler NVRTC (" + nvrtc_library().soname +
                ") could not be loaded: " + nvrtc_library().error +
                "; install the CUDA toolkit's NVRTC to compile kernels at run time";
    return out;
  }
  const GatePlace place(job.dropped);
  if (job.dropped && job.dropped->load()) {
    out.error = "dropped before it started: no longer wanted";
    return out;
  }
  const auto start = std::chrono::steady_clock::now();
  nvrtcProgram program = nullptr;
  if (nvrtcResult e = n.create(&program, job.source.c_str(), job.file_name.c_str(), 0, nullptr, nullptr);
      e != NVRTC_SUCCESS) {
    out.error = std::string("NVRTC could not take the text: ") + n.error_text(e);
    return out;
  }
  for (const std::string& name : job.names) n.add_name(program, name.c_str());
  const std::vector<std::string> options = compile_options(job);
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult e = n.compile(program, static_cast<int>(argv.size()), argv.data());
  out.log = program_log(n, program);
  out.diagnostics = parse_diagnostics(out.log);
  if (e != NVRTC_SUCCESS) {
    out.error =
        std::string("compile failed (") + n.error_text(e) + ")" + (out.diagnostics.empty() ? ":\n" + out.log : "");
  } else {
    out.compiled = true;
    collect_outputs(n, program, job, &out);
  }
  n.destroy(&program);
  out.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.elapsed_seconds = out.compile_seconds;
  return out;
}

std::vector<SourceDiagnostic> parse_diagnostics(const std::string& log) {
  // NVRTC writes "name(LINE): error: message" (and "warning", "remark"), as the front end does.
  static const std::regex line_re(R"re(^(.*)\((\d+)\): (error|warning|catastrophic error)[^:]*: (.*)$)re");
  std::vector<SourceDiagnostic> out;
  std::size_t start = 0;
  while (start < log.size()) {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    const std::string line = log.substr(start, end - start);
    std::smatch m;
    if (std::regex_match(line, m, line_re)) {
      const std::string severity = m[3] == "warning" ? "warning" : "error";
      out.push_back({m[1], std::stoi(m[2]), severity, m[4]});
    }
    start = end + 1;
  }
  return out;
}

KernelResources parse_resources(const std::string& log, const std::string& mangled) {
  KernelResources r;
  r.mangled = mangled;
  if (mangled.empty()) return r;
  // ptxas -v: "Compiling entry function 'NAME' for 'sm_90'", "Function properties for NAME",
  // "N bytes stack frame, N bytes spill stores, N bytes spill loads", "Used N registers, ...".
  const std::size_t at = log.find("Compiling entry function '" + mangled + "'");
  if (at == std::string::npos) return r;
  std::size_t end = log.find("Compiling entry function", at + 1);
  const std::string part = log.substr(at, end == std::string::npos ? std::string::npos : end - at);
  r.registers = first_int(part, std::regex(R"(Used (\d+) registers)"));
  r.stack_bytes = first_int(part, std::regex(R"((\d+) bytes stack frame)"));
  r.spill_store_bytes = first_int(part, std::regex(R"((\d+) bytes spill stores)"));
  r.spill_load_bytes = first_int(part, std::regex(R"((\d+) bytes spill loads)"));
  r.static_shared_bytes = first_int(part, std::regex(R"((\d+) bytes smem)"));
  r.barriers = first_int(part, std::regex(R"(used (\d+) barriers)"));
  return r;
}

std::string nvrtc_version_text() {
  const Nvrtc& n = api();
  int major = 0, minor = 0;
  if (!n.complete() || n.version(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string find_cuda_include_dir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (nvrtc_library().loaded)
    candidates.push_back(fs::path(nvrtc_library().path).parent_path().parent_path() / "include");
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) candidates.push_back(fs::path(home) / "include");
  candidates.push_back("/usr/local/cuda/include");
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (fs::exists(dir / "cuda_fp16.h", ec)) return dir.string();
  }
  return candidates.back().string();
}

const std::vector<std::string>& selectable_architectures() {
  static const std::vector<std::string> archs = {"sm_90", "sm_80", "sm_86", "sm_89"};
  return archs;
}

}  // namespace tilescope
