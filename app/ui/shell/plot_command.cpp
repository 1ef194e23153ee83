#include "app/ui/shell/plot_command.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"
#include "app/export/count_text.h"
#include "app/export/plot_image.h"
#include "app/export/printable_text.h"
#include "app/export/roofs_cache.h"
#include "app/platform/host.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/gui_main.h"

namespace tilescope {
namespace {

const char* kPlotUsage = R"(usage: tilescope plot --csv IN.csv -o OUT.png [--size WxH] [--problem gemm|ata]
                      [--precision f32|f64|tf32|f16|bf16] [--y gflops|ms] [--ylog]
                      [--roofline [--roofs FILE]]

Renders the timing plot of a CSV written by `tilescope bench --csv` (or the window's export)
to a PNG, headless through EGL: title, axes, legend, device and date.

--roofline renders the Roofline view instead: every result at its arithmetic intensity
against its GFLOP/s, under the device's measured roofs. The roofs come from --roofs FILE
(written by `tilescope bench --roofs --json FILE`), else from the cache of the CSV's
device ($XDG_CACHE_HOME/tilescope, ~/.cache/tilescope); without either the points are drawn
with a note on how to measure the roofs.

The CSV must hold rows of the chosen problem and precision (default gemm, f32); the CPU
reference's rows are f64.

Exit codes:
  0  the PNG was written
  1  the CSV cannot be read or holds no row of the chosen problem and precision (the
     message lists what it holds), the --roofs file cannot be read, or the PNG cannot be
     written
  2  bad arguments (this usage on stderr)
  5  no OpenGL context (no EGL display)
)";

struct PlotOptions {
  std::string csv, out;
  int width = 1920, height = 1080;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  YAxisQuantity y = YAxisQuantity::Gflops;
  bool ylog = false;
  bool roofline = false;
  std::string roofs;  // --roofs FILE
};

// False with *code set when the command ends here (help, bad arguments).
bool parse_plot_options(int argc, char** argv, PlotOptions* o, int* code) {
  ArgParser p;
  p.option("--csv", "IN.csv").option("--output", "OUT.png", "-o").option("--size", "WxH");
  p.option("--problem", "gemm|ata")
      .option("--precision", precision_names("|"))
      .option("--y", "gflops|ms")
      .flag("--ylog");
  p.flag("--roofline").option("--roofs", "FILE");
  const bool parsed = p.parse(argc, argv);
  if (parsed && p.help()) {
    std::cout << kPlotUsage;
    *code = 0;
    return false;
  }
  int problem = 0, precision = 0, y = 0;
  std::vector<std::string> precision_choices;
  for (Precision q : all_precisions()) precision_choices.push_back(to_string(q));
  if (parsed && p.get_size("--size", kMinPlotImageSide, kMaxPlotImageSide, &o->width, &o->height) &&
      p.get_choice("--problem", {"gemm", "ata"}, &problem) &&
      p.get_choice("--precision", precision_choices, &precision) && p.get_choice("--y", {"gflops", "ms"}, &y)) {
    o->csv = p.value("--csv");
    o->out = p.value("--output");
    if (o->csv.empty() || o->out.empty()) {
      std::cerr << "tilescope plot: --csv and -o are required\n" << kPlotUsage;
      *code = 2;
      return false;
    }
    o->problem = problem == 0 ? Problem::Gemm : Problem::Ata;
    o->precision = all_precisions()[static_cast<std::size_t>(precision)];
    o->y = y == 0 ? YAxisQuantity::Gflops : YAxisQuantity::Milliseconds;
    o->ylog = p.has("--ylog");
    o->roofline = p.has("--roofline");
    o->roofs = p.value("--roofs");
    if (!o->roofs.empty() && !o->roofline) {
      std::cerr << "tilescope plot: --roofs needs --roofline\n" << kPlotUsage;
      *code = 2;
      return false;
    }
    return true;
  }
  std::cerr << "tilescope plot: " << p.error() << "\n" << kPlotUsage;
  *code = 2;
  return false;
}

// "" when `rows` hold one of `problem` and `precision` (what the plot is of), else why not, with
// what they hold instead: "no gemm f16 rows in r.csv; it holds gemm f32 (12 rows), ata f32 (4 rows)".
std::string nothing_to_plot(const std::vector<RunResult>& rows, const std::string& csv, Problem problem,
                            Precision precision) {
  std::vector<std::pair<std::string, std::size_t>> held;  // "gemm f32" and its rows, in first-seen order
  for (const RunResult& r : rows) {
    if (r.problem == problem && r.precision == precision) return "";
    const std::string kind = std::string(to_string(r.problem)) + " " + to_string(r.precision);
    auto it = std::find_if(held.begin(), held.end(), [&](const auto& h) { return h.first == kind; });
    if (it == held.end())
      held.push_back({kind, 1});
    else
      ++it->second;
  }
  std::string holds;
  for (const auto& [kind, count] : held)
    holds += (holds.empty() ? "" : ", ") + kind + " (" + count_text(count, "row", "rows") + ")";
  return "no " + std::string(to_string(problem)) + " " + to_string(precision) + " rows in " + csv +
         (holds.empty() ? "" : "; it holds " + holds) + ": choose them with --problem and --precision";
}

}  // namespace

int run_plot_command(int argc, char** argv) {
  PlotOptions o;
  int code = 0;
  if (!parse_plot_options(argc, argv, &o, &code)) return code;

  HostOptions ho;
  ho.width = 640;
  ho.height = 360;
  std::string error;
  std::unique_ptr<Host> host = create_headless_host(ho, &error);
  if (!host) {
    std::cerr << "tilescope plot: " << error << "\n";
    return kExitNoDisplay;
  }
  AppOptions ao;             // no settings: a plot command must not change the window's
  ao.measure_roofs = false;  // the roofs come from --roofs or the cache
  App app(*host, ao);
  if (o.roofline) {
    app.timing().set_plot_kind(TimingPlotKind::Roofline);
    RoofTable roofs;
    std::string why;
    if (!o.roofs.empty() && !load_roofs_file(o.roofs, &roofs, &why)) {
      std::cerr << "tilescope plot: " << printable_text(why) << "\n";
      return 1;
    }
    if (!o.roofs.empty()) app.timing().set_roofs(roofs, o.roofs);
  }
  if (!app.load_csv(o.csv)) {
    std::cerr << "tilescope plot: " << app.status() << "\n";
    return 1;
  }
  const std::string nothing = nothing_to_plot(*app.history().rows(), o.csv, o.problem, o.precision);
  if (!nothing.empty()) {
    std::cerr << "tilescope plot: " << printable_text(nothing) << "\n";
    return 1;
  }
  app.state().problem = o.problem;
  app.state().precision = o.precision;
  app.state().y_quantity = o.y;
  app.state().y_log = o.ylog;
  app.request_plot_export(o.out, o.width, o.height);
  host->begin_frame();
  app.frame();
  host->end_frame();
  app.after_frame();
  app.finish_file_writes();
  if (app.status_is_error()) {
    std::cerr << "tilescope plot: " << app.status() << "\n";
    return 1;
  }
  std::cerr << "tilescope plot: " << app.status() << "\n";
  return 0;
}

}  // namespace tilescope
