#include "app/cli/results_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "app/cli/text_table.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/split_words.h"

namespace tilescope {
namespace {

std::string format_pct(double pct) {
  return pct < 0 || !std::isfinite(pct) ? "-" : table_printf("%.1f%%", pct);
}

std::string format_kib(int bytes) {
  return table_printf("%.1fK", bytes / 1024.0);
}

std::string cublas_version_string(int v) {
  // cublasGetVersion: major * 10000 + minor * 100 + patch.
  if (v <= 0) return "";
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

std::string check_text(const RunResult& r) {
  if (!r.verified) return "-";
  return r.passed ? "pass" : "FAIL";
}

// Words wrapped to `width` columns, each line starting with `indent`.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::string format_device_line(const DeviceInfo& device, const std::vector<RunResult>& rows) {
  if (device.ok()) {
    std::string line = "device: " + device.name + " (cc " + std::to_string(device.cc_major) + "." +
                       std::to_string(device.cc_minor) + ", " + std::to_string(device.sm_count) + " SMs)" +
                       " | SM clock " + std::to_string(device.sm_clock_khz / 1000) + " MHz" + " | driver " +
                       version_string(device.driver_version) + " | runtime " + version_string(device.runtime_version);
    if (device.cublas_version > 0) line += " | cuBLAS " + cublas_version_string(device.cublas_version);
    line += " | peak FP32 " + table_printf("%.1f", device.peak_fp32_gflops) + " GFLOP/s, FP64 " +
            table_printf("%.1f", device.peak_fp64_gflops) + " GFLOP/s";
    return line + "\n";
  }
  if (!rows.empty() && !rows.front().device_name.empty()) {
    const RunResult& r = rows.front();
    std::string line = "device: " + r.device_name;
    if (r.sm_clock_mhz > 0) line += " | SM clock " + std::to_string(r.sm_clock_mhz) + " MHz";
    if (!r.driver_version.empty()) line += " | driver " + r.driver_version;
    if (!r.runtime_version.empty()) line += " | runtime " + r.runtime_version;
    if (r.cublas_version > 0) line += " | cuBLAS " + cublas_version_string(r.cublas_version);
    return line + "\n";
  }
  std::string line = "device: none";
  if (!device.unavailable_reason.empty()) line += " (" + device.unavailable_reason + ")";
  return line + "\n";
}

// The renderers and timers behind texture-shader rows: OpenGL may draw on another device than
// CUDA's (llvmpipe on a machine without a GPU), so it is named apart.
std::string format_gl_lines(const std::vector<RunResult>& rows) {
  std::string out;
  std::vector<std::string> seen;
  for (const RunResult& r : rows) {
    const VariantDescriptor* v = find_variant(r.variant_id);
    if (!v || v->backend != Backend::GlShader || !r.ok()) continue;
    const std::string line = "texture shaders: drawn by " + r.device_name + ", timed with " + r.timer +
                             (r.timer == "wall_clock" ? " (this renderer's GL_TIME_ELAPSED undercounts passes)" : "");
    if (std::find(seen.begin(), seen.end(), line) != seen.end()) continue;
    seen.push_back(line);
    out += line + "\n";
  }
  return out;
}

// "2.5/4": 32-byte sectors per global load request / per store request, from the model.
static std::string sectors_text(const RunResult& r) {
  if (r.load_sectors_per_request < 0) return "-";
  return table_printf("%.3g", r.load_sectors_per_request) + "/" +
         table_printf("%.3g", std::max(0.0, r.store_sectors_per_request));
}

namespace {

// bench --rounds: each configuration's % of cuBLAS round by round and their median, so that a
// figure that must hold "in every round" is read off one line. "" unless the rows span rounds.
std::string format_rounds_summary(const std::vector<RunResult>& rows) {
  const int rounds = std::accumulate(rows.begin(), rows.end(), 0,
                                     [](int most, const RunResult& r) { return std::max(most, r.round); });
  if (rounds < 2) return "";
  // The runs of one configuration, problem, input type and shape, in the order they first ran.
  struct Line {
    const RunResult* first;
    std::vector<double> pct;  // by round, -1 where that round has no % (an error, no baseline)
  };
  std::vector<Line> lines;
  auto same = [](const RunResult& a, const RunResult& b) {
    return a.variant_id == b.variant_id && a.config_name == b.config_name && a.problem == b.problem &&
           a.precision == b.precision && a.shape.M == b.shape.M && a.shape.N == b.shape.N && a.shape.K == b.shape.K;
  };
  for (const RunResult& r : rows) {
    if (r.round < 1) continue;
    auto at = std::find_if(lines.begin(), lines.end(), [&](const Line& l) { return same(*l.first, r); });
    if (at == lines.end()) at = lines.insert(lines.end(), Line{&r, std::vector<double>(rounds, -1)});
    if (r.ok()) at->pct[r.round - 1] = r.pct_of_cublas;
  }
  std::vector<std::string> head = {"variant", "config", "problem", "prec", "M x N x K"};
  for (int i = 1; i <= rounds; ++i) head.push_back("%cuBLAS r" + std::to_string(i));
  head.push_back("median");
  std::vector<bool> right(head.size(), true);
  std::fill(right.begin(), right.begin() + 4, false);
  TextTable table(right);
  table.add(head);
  bool any = false;
  for (const Line& l : lines) {
    std::vector<double> have;
    for (double p : l.pct)
      if (p >= 0) have.push_back(p);
    if (have.empty()) continue;
    any = true;
    std::vector<std::string> cells = {l.first->variant_id, l.first->config_name, to_string(l.first->problem),
                                      to_string(l.first->precision), shape_text(l.first->shape)};
    for (double p : l.pct) cells.push_back(format_pct(p));
    cells.push_back(format_pct(median_of(std::move(have))));
    table.add(std::move(cells));
  }
  if (!any) return "";
  return "Round by round (% of the cuBLAS run of the same round; the configurations ran in the order given in odd "
         "rounds, reversed in even ones):\n" +
         table.str();
}

// bench --profile's columns: each figure of ProfileFigures, its header and its format.
struct ProfileColumn {
  const char* header;
  double ProfileFigures::*figure;
  const char* format;
};
const ProfileColumn kProfileColumns[] = {
    {"FMA%", &ProfileFigures::fma_pipe_pct, "%.1f"},          {"FP64%", &ProfileFigures::fp64_pipe_pct, "%.1f"},
    {"tensor%", &ProfileFigures::tensor_pipe_pct, "%.1f"},    {"issue%", &ProfileFigures::issue_active_pct, "%.1f"},
    {"cyc/issue", &ProfileFigures::cycles_per_issue, "%.2f"}, {"FFMA%", &ProfileFigures::ffma_share_pct, "%.1f"},
};

// What each profile column means, for the lines under the table.
constexpr const char* kProfileLegend =
    "Nsight Compute's figures of the timed kernels (bench --profile: each configuration run again alone, its kernels "
    "replayed with the clocks not locked; docs/PROFILER.md):\n"
    "  FMA% / FP64% / tensor%: % of the active cycles in which the FP32 FMA pipe / the FP64 pipe / the tensor pipe "
    "(mma.sync, wmma or wgmma) was busy; FMA 80% = the FP32 units were fed 4 cycles in 5\n"
    "  issue%: % of the cycles in which the warp schedulers issued an instruction (one a cycle at most)\n"
    "  cyc/issue: cycles a warp waits per instruction it issues (more warps hide a longer wait)\n"
    "  FFMA%: FFMA instructions per instruction issued (a warp's 32 lanes each): how much of the work is the "
    "multiply-add itself\n";

}  // namespace

std::string format_results_table(const std::vector<RunResult>& rows, const DeviceInfo& device) {
  std::string out = format_device_line(device, rows) + format_gl_lines(rows);
  if (rows.empty()) return out + "(no results)\n";

  const bool profiled = std::any_of(rows.begin(), rows.end(), [](const RunResult& r) { return r.profile.any(); });
  std::vector<bool> right = {false, false, false, false, true, true,  true, true, true, true, true,
                             true,  true,  true,  true,  true, false, true, true, true, true, true};
  std::vector<std::string> head = {
      "variant", "config",  "problem", "prec",    "M",     "N",    "K",    "first ms", "median ms", "min ms", "max ms",
      "GFLOP/s", "%cuBLAS", "%peak",   "rel err", "check", "regs", "smem", "occ",      "sect/rq",   "bank",   "MHz"};
  if (profiled)
    for (const ProfileColumn& c : kProfileColumns) {
      right.push_back(true);
      head.push_back(c.header);
    }
  TextTable table(right);
  table.add(head);
  bool any_cold = false;
  std::vector<const RunResult*> failures;
  for (const RunResult& r : rows) {
    // A split's row names the split and its GPUs before the kernel each GPU ran.
    const std::string variant = variant_column_words(r);
    std::vector<std::string> cells = {variant,
                                      r.config_name,
                                      to_string(r.problem),
                                      to_string(r.precision),
                                      std::to_string(r.shape.M),
                                      std::to_string(r.shape.N),
                                      std::to_string(r.shape.K)};
    if (!r.ok()) {
      table.add(std::move(cells), "error: " + r.error);
      continue;
    }
    any_cold = any_cold || r.first_was_cold;
    if (r.verified && !r.passed) failures.push_back(&r);
    // cuBLAS is opaque: no registers, shared memory or occupancy to show.
    const bool has_kernel = r.registers_per_thread > 0;
    cells.push_back(table_ms(r.first_ms) + (r.first_was_cold ? "*" : ""));
    cells.push_back(table_ms(r.median_ms));
    cells.push_back(table_ms(r.min_ms));
    cells.push_back(table_ms(r.max_ms));
    cells.push_back(table_printf("%.1f", r.gflops));
    cells.push_back(r.split.empty()              ? format_pct(r.pct_of_cublas)
                    : r.speedup_over_one_gpu > 0 ? table_printf("%.2fx1GPU", r.speedup_over_one_gpu)
                                                 : "-");
    cells.push_back(r.pct_of_peak > 0 ? format_pct(r.pct_of_peak) : "-");
    cells.push_back(r.verified && r.rel_error >= 0 ? table_printf("%.1e", r.rel_error) : r.verified ? "nan" : "-");
    cells.push_back(check_text(r));
    cells.push_back(has_kernel ? std::to_string(r.registers_per_thread) : "-");
    cells.push_back(has_kernel ? format_kib(r.static_shared_bytes + r.dynamic_shared_bytes) : "-");
    cells.push_back(has_kernel && r.occupancy >= 0 ? table_printf("%.0f%%", 100.0 * r.occupancy) : "-");
    cells.push_back(sectors_text(r));
    cells.push_back(r.shared_conflicts_per_instruction >= 0 ? table_printf("%.2f", r.shared_conflicts_per_instruction)
                                                            : "-");
    cells.push_back(r.run_clock_mhz > 0 ? table_printf("%.0f", r.run_clock_mhz) : "-");
    if (profiled)
      for (const ProfileColumn& c : kProfileColumns) {
        const double v = r.profile.*c.figure;
        cells.push_back(std::isnan(v) ? "-" : table_printf(c.format, v));
      }
    table.add(std::move(cells));
  }
  out += table.str();

  if (any_cold)
    out +=
        "* first use of this kernel in the process: includes one-time start-up costs (module loading, cuBLAS "
        "initialisation, cold caches; for the texture shaders the texture upload and the driver's shader compile)\n";
  const bool any_pct = std::any_of(rows.begin(), rows.end(), [](const RunResult& r) { return r.pct_of_cublas >= 0; });
  if (any_pct)
    out += "%cuBLAS: against the fastest non-opt-in cuBLAS configuration of the same problem, precision and shape\n";
  if (std::any_of(rows.begin(), rows.end(), [](const RunResult& r) { return r.speedup_over_one_gpu > 0; }))
    out +=
        "split:config xN kernel: the product split across N GPUs (tilescope bench --help: --split), each GPU "
        "multiplying with the kernel named; its %cuBLAS cell is its speed-up over that kernel alone on one GPU "
        "(x1GPU); %peak is of all N GPUs' peak\n";
  if (std::any_of(rows.begin(), rows.end(), [](const RunResult& r) { return r.run_clock_mhz > 0; }))
    out +=
        "MHz: the median SM clock while the timed runs ran (a board at its power limit runs below its maximum "
        "clock)\n";
  if (std::any_of(rows.begin(), rows.end(), [](const RunResult& r) { return r.load_sectors_per_request >= 0; }))
    out +=
        "sect/rq: 32-byte sectors per global load / store request (4 = a warp of neighbouring floats, 32 = a sector "
        "per lane); bank: shared-memory bank conflicts, extra wavefronts per shared instruction; both counted from "
        "the kernel's model (tilescope memory), as Nsight Compute's per-instruction counts do\n";
  if (profiled) out += kProfileLegend;
  for (const RunResult* r : failures) {
    out += "FAIL " + r->variant_id + ":" + r->config_name + " " + to_string(r->problem) + " " +
           to_string(r->precision) + " " + shape_text(r->shape) + ": relative error " +
           table_printf("%.3e", r->rel_error) + " > tolerance " + table_printf("%.3e", r->tolerance);
    if (r->unwritten > 0) out += ", " + std::to_string(r->unwritten) + " elements of C never written";
    if (!r->reference.empty()) out += " (reference " + r->reference + ")";
    out += "\n";
  }
  return out + format_rounds_summary(rows);
}

std::string format_registry_listing() {
  std::string out;
  for (const VariantDescriptor* v : variant_registry()) {
    out += std::string(v->id) + " - " + v->label + " (" + to_string(v->backend) + ")\n";
    out += wrap(v->summary, 92, "    ");
    TextTable table({false, false, false, false, false});
    table.add({"config", "tile BMxBNxBK TMxTN (or warp tile, stages)", "threads", "writes", "math"});
    for (std::size_t i = 0; i < v->configs.size(); ++i) {
      const TileConfig& c = v->configs[i];
      const bool tiled = c.threads() > 0;
      // BK is 0 for a kernel without K slabs (naive): shown as "-".
      std::string tile = tiled ? std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" +
                                     (c.bk > 0 ? std::to_string(c.bk) : std::string("-")) + " " + std::to_string(c.tm) +
                                     "x" + std::to_string(c.tn)
                               : "-";
      // Tensor-core kernels: the warp tile instead of a thread's, and the stages of their ring.
      if (tiled && c.warp_m > 0)
        tile = std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) + " warp " +
               std::to_string(c.warp_m) + "x" + std::to_string(c.warp_n) +
               (c.stages > 0 ? " s" + std::to_string(c.stages) : std::string());
      // Fragment shaders have no blocks or threads: the block of C one fragment computes.
      if (v->backend == Backend::GlShader) tile = std::to_string(c.bm) + "x" + std::to_string(c.bn) + " per fragment";
      std::string math = c.math ? c.math : "";
      // Outside "all variants" (runs_by_default): an opt-in configuration, or one of an extra variant.
      if (!runs_by_default(*v, static_cast<int>(i)))
        math += " [" + std::string(c.opt_in ? "opt-in" : to_string(v->role)) + ": run only when named, " +
                std::string(v->id) + ":" + c.name + "]";
      table.add({c.name, tile, tiled ? std::to_string(c.threads_x) + "x" + std::to_string(c.threads_y) : "-",
                 c.output == OutputPart::UpperTriangle ? "upper" : "full", math});
    }
    std::string rows = table.str();
    // Indent the configuration table under its variant.
    std::string indented;
    std::size_t start = 0;
    while (start < rows.size()) {
      const std::size_t end = rows.find('\n', start);
      indented += "    " + rows.substr(start, end - start + 1);
      start = end + 1;
    }
    out += indented;
    // What each configuration changes, in words: its name alone (_mb, _c2) explains nothing.
    for (const TileConfig& c : v->configs)
      if (!c.description.empty())  // a hanging indent: the name at 4 columns, the lines after it at 6
        out += "    " + wrap(c.name + ": " + c.description, 92, "      ").substr(6);
    // The parameters a learner may type instead of picking a configuration (typed_configs.h).
    if (!v->tile_params.empty()) {
      std::string params;
      for (const TileParam& p : v->tile_params)
        params += (params.empty() ? "" : "; ") + std::string(p.key) + " = " + p.meaning;
      out += "    " + wrap("typed tiles, " + std::string(v->id) + ":key=value,...: " + params, 92, "      ").substr(6);
      // Each configuration of the compiled set as a typed tile: the same kernel, compiled at run time.
      for (const TileConfig& c : v->configs)
        out += "      " + c.name + " typed: " + tile_values_text(v->tile_values_of(c)) + "\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace tilescope
