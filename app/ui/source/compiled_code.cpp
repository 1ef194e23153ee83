#include "app/ui/source/compiled_code.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/platform/temp_folder.h"
#include "app/ui/source/sass_lines.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"

namespace tilescope {

namespace {

// `nvdisasm -gi` of a cubin, with the source lines and the call sites of inlined helpers: "" and
// *text, or why there is none. Run as a program of its own, at most 30 s.
std::string disassemble(const std::string& cubin, std::string* text) {
  const std::string& tool = disassembler();
  if (tool.empty()) return "SASS needs nvdisasm from the CUDA toolkit (not found)";
  TempFolder folder("tilescope-sass");
  std::string error;
  const std::string& dir = folder.path(&error);
  if (dir.empty()) return "SASS: " + error;
  const std::string path = dir + "/code.cubin";
  std::ofstream(path, std::ios::binary) << cubin;
  const std::string command = "timeout 30 '" + tool + "' -gi -c '" + path + "' 2>&1";
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  for (std::size_t n; p && (n = std::fread(buffer, 1, sizeof buffer, p)) > 0;) out.append(buffer, n);
  const int status = p ? pclose(p) : -1;
  if (status != 0) return "nvdisasm failed: " + out.substr(0, out.find('\n'));
  *text = std::move(out);
  return "";
}

// The compile, on its own thread: the job (the text read from the disk), NVRTC through the disk
// cache, and the PTX parsed, so the UI thread only draws.
CompiledCodeResult run_compile(CompiledCodeResult c, const CompileDropped& dropped) {
  const VariantDescriptor& v = *c.request.variant;
  CompileJob job;
  if (!kernel_text_job(v, c.names, c.request.architecture, &job, &c.error)) return c;
  job.line_info = true;  // the PTX and SASS link to the text through their source lines
  job.dropped = dropped;
  c.program = compile_cached(job, c.request.driver);
  if (!c.program.compiled) return c;
  c.listing = parse_ptx(c.program.ptx);
  c.text_file = ptx_file_index(c.listing, job.file_name);
  std::string sass;
  c.sass_note = disassemble(c.program.cubin, &sass);
  if (c.sass_note.empty()) {
    c.sass = parse_sass(sass);
    c.sass_text_file = ptx_file_index(c.sass, job.file_name);
  }
  return c;
}

}  // namespace

std::string find_disassembler() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::string all = path;
    for (std::size_t b = 0, e; b <= all.size(); b = e + 1) {
      e = all.find(':', b);
      if (e == std::string::npos) e = all.size();
      if (e > b) dirs.emplace_back(all.substr(b, e - b));
    }
  }
  if (nvrtc_library().loaded) dirs.push_back(fs::path(nvrtc_library().path).parent_path().parent_path() / "bin");
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(dir / "nvdisasm", ec)) return (dir / "nvdisasm").string();
  }
  return "";
}

const std::string& disassembler() {
  static const std::string found = find_disassembler();
  return found;
}

void CompiledCode::request(const CompiledCodeRequest& r, int text_lines) {
  text_lines_ = text_lines;
  if (!r.variant || !r.variant->kernel_names || !config_index_error(*r.variant, r.config_index).empty()) return;
  if (job_ ? r == compiling_ : (has_result_ && r == result_.request)) return;
  if (!job_ && cancelled_ && r == wanted_) return;  // cancelled: waits for another request
  wanted_ = r;
  cancelled_ = false;
  if (job_) {
    *job_dropped_ = true;
    abandoned_.push_back(std::move(job_));
  }
  CompiledCodeResult c;
  c.request = r;
  const TileConfig& cfg = config_at(*r.variant, r.config_index);
  c.config = cfg.name;
  c.names = r.variant->kernel_names(cfg, r.precision, r.problem);
  compiling_ = r;
  started_at_ = std::chrono::steady_clock::now();
  job_ = std::make_unique<BackgroundResult<CompiledCodeResult>>();
  job_dropped_ = std::make_shared<std::atomic<bool>>(false);
  job_->start([c, dropped = CompileDropped(job_dropped_)] { return run_compile(c, dropped); });
}

void CompiledCode::poll() {
  CompiledCodeResult done;
  if (job_ && job_->take_result(&done)) {
    job_.reset();
    result_ = std::move(done);
    has_result_ = true;
    ++generation_;
    kernel_ = 0;
    remap();
  }
  // A cancelled compile's thread is joined once it has ended: take_result returns at once then.
  abandoned_.erase(std::remove_if(abandoned_.begin(), abandoned_.end(),
                                  [](std::unique_ptr<BackgroundResult<CompiledCodeResult>>& j) {
                                    CompiledCodeResult dropped;
                                    return j->take_result(&dropped);
                                  }),
                   abandoned_.end());
}

void CompiledCode::cancel() {
  if (!job_) return;
  *job_dropped_ = true;
  abandoned_.push_back(std::move(job_));
  cancelled_ = true;
}

double CompiledCode::seconds_compiling() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at_).count();
}

void CompiledCode::set_kernel(int k) {
  if (!has_result_ || k == kernel_ || k < 0 || k >= static_cast<int>(result_.names.size())) return;
  kernel_ = k;
  remap();
}

void CompiledCode::set_sass(bool on) {
  if (on == sass_) return;
  sass_ = on;
  remap();
}

const PtxListing* CompiledCode::shown_listing() const {
  if (!has_result_) return nullptr;
  return sass_shown() ? &result_.sass : &result_.listing;
}

int CompiledCode::shown_text_file() const {
  return sass_shown() ? result_.sass_text_file : result_.text_file;
}

const PtxKernel* CompiledCode::ptx_kernel() const {
  if (!has_result_ || kernel_ >= static_cast<int>(result_.program.lowered.size())) return nullptr;
  const std::string& mangled = result_.program.lowered[static_cast<std::size_t>(kernel_)];
  for (const PtxKernel& k : shown_listing()->kernels)
    if (k.name == mangled) return &k;
  return nullptr;
}

const KernelResources* CompiledCode::resources() const {
  if (!has_result_ || kernel_ >= static_cast<int>(result_.program.resources.size())) return nullptr;
  return &result_.program.resources[static_cast<std::size_t>(kernel_)];
}

void CompiledCode::remap() {
  const PtxKernel* k = ptx_kernel();
  map_ = k ? map_kernel(*k, shown_text_file(), text_lines_) : KernelLineMap{};
}

}  // namespace tilescope
