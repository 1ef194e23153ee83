#include "app/cli/memory_command.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "app/cli/kernel_text_option.h"
#include "app/cli/memory_record.h"
#include "app/export/atomic_file.h"
#include "app/export/recorded_warp_file.h"
#include "kernels/core/registry.h"
#include "kernels/core/text_format.h"
#include "kernels/core/typed_configs.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"

namespace tilescope {

namespace {

const char* kMemoryUsage = R"usage(usage: tilescope memory [--variants LIST] [--problem LIST] [--precision LIST]
                        [--sizes LIST | --m LIST --n LIST --k LIST] [--sites] [--exact]
                        [--record BLOCK,WARP [--recording FILE]] [--kernel-text ID=FILE]
                        [--csv FILE]

Counts, from each configuration's mapping model (no GPU needed), what the memory system makes of
the kernel's accesses, one warp instruction at a time, summed over the whole kernel:
  global loads and stores: requests (warp instructions with an active lane) and 32-byte sectors;
    sectors per request is 4 for 32 neighbouring floats, 32 when every lane needs a sector of its
    own (uncoalesced)
  shared-memory loads and stores: instructions, wavefronts (passes through the 32 banks) and bank
    conflicts (the wavefronts beyond the ideal: lanes of one phase on different words of a bank)
Nsight Compute reports the same totals of a run as l1tex__t_requests / l1tex__t_sectors
_pipe_lsu_mem_global_op_ld (and _st) and l1tex__data_pipe_lsu_wavefronts / l1tex__data_bank_conflicts
_pipe_lsu_mem_shared_op_ld (and _st). A cp.async (LDGSTS) counts as a global load; its shared side,
written line by line as its data arrive, is counted apart from the stores (with --sites: its "into
shared memory" site), as Nsight Compute counts it apart. wmma's fragment loads and accumulator
stores are counted as the compiler makes them for sm_90 (the kernel cannot record them);
wgmma_tma's operands travel by the TMA, which these counters do not see: its C stores are counted,
and in its register-sourced (_rs) rows the lanes' loads of B's fragments.
Variants without such a model (cuBLAS, the texture shaders) are listed as such.

  --variants, --problem, --precision, --sizes, --m, --n, --k
                as `tilescope bench` takes them (bench --help); default: every variant whose
                model lists its accesses, gemm, f32, 1024
  --sites       one line per access site of the kernel as well
  --csv FILE    write every row (and with --sites every site) as CSV
  --record BLOCK,WARP
                also run each configuration's instrumented kernel on the GPU, record the
                addresses of warp WARP of block BLOCK (blockIdx.y * gridDim.x + blockIdx.x) at
                every step of every access, and compare them with the model's; prints the time
                the recording took
  --recording FILE
                with --record: write every configuration's recorded warp to FILE (device,
                variant, configuration, edit, problem, type, sizes, block, warp, steps, then the
                32 lanes' addresses per stream and step; the format is in docs/MEMORY.md),
                through a temporary file renamed into place, once every configuration is done
  --kernel-text ID=FILE
                run variant ID's selected configurations from the edited kernel text in FILE,
                as `tilescope bench` does (their rows say "(edited TAG)"); with --record the
                edited kernel's warp is compared with the shipped kernel's model, and an address
                the edit moved is named by its access site, step and lane (without --record the
                counts are the shipped kernel's model's: the model does not read the edit)
  --exact       count every block, however long it takes (without it, a kernel of more than
                about 4 million warp accesses is counted on every n-th block and scaled, and
                its row says "sampled")

Exit codes: 0 counted (and recorded as the model says); 2 bad arguments (--recording without
--record, an unreadable --kernel-text file, nothing to record); 3 --record without a usable GPU,
or the instrumented run failed (nothing is written then); 4 --csv or --recording could not be
written (a missing or read-only folder is refused before anything runs); 5 a recorded address
differs from the model's (an edit's: from the shipped kernel's model; --recording is written).

Example:
  tilescope memory --variants naive:32x8,naive:32x8_columns --sizes 1024 --sites
  tilescope memory --variants smem_tiled:16 --sizes 1024 --record 5,1 --recording warp.txt
)usage";

struct Row {
  std::string variant, config, problem, precision, site;
  Shape shape;
  AccessCounts gl, gs, sl, ss;
  bool sampled = false;
};

std::string ratio(std::int64_t num, std::int64_t den) {
  if (den == 0) return "-";
  return format("%.2f", static_cast<double>(num) / static_cast<double>(den));
}

std::string csv_line(const Row& r) {
  auto c = [](const AccessCounts& a) {
    return format("%lld,%lld,%lld,%lld", static_cast<long long>(a.requests), static_cast<long long>(a.sectors),
                  static_cast<long long>(a.wavefronts), static_cast<long long>(a.conflicts()));
  };
  return r.variant + "," + r.config + "," + r.problem + "," + r.precision + "," + std::to_string(r.shape.M) + "," +
         std::to_string(r.shape.N) + "," + std::to_string(r.shape.K) + "," + r.site + "," + c(r.gl) + "," + c(r.gs) +
         "," + c(r.sl) + "," + c(r.ss) + "," + (r.sampled ? "sampled" : "exact") + "\n";
}

const char* kCsvHeader =
    "variant,config,problem,precision,M,N,K,site,"
    "global_ld_requests,global_ld_sectors,global_ld_wavefronts,global_ld_conflicts,"
    "global_st_requests,global_st_sectors,global_st_wavefronts,global_st_conflicts,"
    "shared_ld_instructions,shared_ld_sectors,shared_ld_wavefronts,shared_ld_conflicts,"
    "shared_st_instructions,shared_st_sectors,shared_st_wavefronts,shared_st_conflicts,counted\n";

void print_row(const Row& r, std::ostream& out) {
  auto l = [](long long v) { return std::to_string(v); };
  out << format("%-16s %-22s %-4s %-4s %5lld %5lld %5lld  ", r.variant.c_str(), r.config.c_str(), r.problem.c_str(),
                r.precision.c_str(), static_cast<long long>(r.shape.M), static_cast<long long>(r.shape.N),
                static_cast<long long>(r.shape.K));
  out << format("%11s %6s  %9s %6s  %11s %11s  %10s %10s%s\n", l(r.gl.requests).c_str(),
                ratio(r.gl.sectors, r.gl.requests).c_str(), l(r.gs.requests).c_str(),
                ratio(r.gs.sectors, r.gs.requests).c_str(), l(r.sl.wavefronts).c_str(), l(r.sl.conflicts()).c_str(),
                l(r.ss.wavefronts).c_str(), l(r.ss.conflicts()).c_str(), r.sampled ? "  sampled" : "");
}

// The variants whose models list their memory accesses, comma separated: the default list.
std::string variants_with_access_sites() {
  std::string out;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    std::string why;
    const auto model =
        make_mapping_model(v->id, v->default_config, Problem::Gemm,
                           v->precisions.empty() ? Precision::F32 : v->precisions.front(), {64, 64, 64}, &why);
    if (model && !model->access_sites().empty()) out += (out.empty() ? "" : ",") + std::string(v->id);
  }
  return out;
}

// The options of `memory` beyond bench's, and bench's own as bench parses them.
struct MemoryOptions {
  BenchOptions bench;
  bool sites = false, exact = false;
  int record_block = -1, record_warp = -1;  // -1: no --record
  std::string recording;                    // --recording FILE
  KernelTextOption edit;                    // --kernel-text, once installed
  // The configuration each selection names, before an edit turned it into an edited one.
  std::vector<int> shipped_config;
};

// Parses argv; kMemoryOk, or the exit code with the message on `err` (help on `out`: *help).
int parse_memory_options(int argc, const char* const* argv, MemoryOptions* o, bool* help, std::ostream& out,
                         std::ostream& err) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      out << kMemoryUsage;
      *help = true;
      return kMemoryOk;
    }
    if (a == "--record") {
      if (i + 1 >= argc || std::sscanf(argv[i + 1], "%d,%d", &o->record_block, &o->record_warp) != 2 ||
          o->record_block < 0 || o->record_warp < 0) {
        err << "tilescope memory: --record takes BLOCK,WARP (two numbers >= 0, e.g. --record 0,3)\n";
        return kMemoryBadArguments;
      }
      ++i;
      continue;
    }
    if (a == "--recording") {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') {
        err << "tilescope memory: --recording takes a FILE\n";
        return kMemoryBadArguments;
      }
      o->recording = argv[++i];
      continue;
    }
    if (a == "--sites" || a == "--exact") {
      (a == "--sites" ? o->sites : o->exact) = true;
      continue;
    }
    for (const char* refused :
         {"--reps", "--warmup", "--no-verify", "--seed", "--json", "--list", "--roofs", "--no-baseline"})
      if (a == refused) {
        err << "tilescope memory: " << a << " is an option of bench, not of memory (tilescope memory --help)\n";
        return kMemoryBadArguments;
      }
    args.push_back(a);
  }
  if (!o->recording.empty() && o->record_block < 0) {
    err << "tilescope memory: --recording writes the warp --record BLOCK,WARP records: give --record too\n";
    return kMemoryBadArguments;
  }
  auto given = [&](const char* name) {
    for (const std::string& a : args)
      if (a == name) return true;
    return false;
  };
  if (!given("--variants")) {
    const std::string listed = variants_with_access_sites();
    if (listed.empty()) {
      err << "tilescope memory: no variant's model lists its memory accesses\n";
      return kMemoryBadArguments;
    }
    args.insert(args.end(), {"--variants", listed});
  }
  if (!given("--sizes") && !given("--m") && !given("--n") && !given("--k"))
    args.insert(args.end(), {"--sizes", "1024"});
  args.push_back("--no-baseline");
  o->bench = parse_bench_args(args);
  std::string error = o->bench.error;
  for (const VariantSelection& sel : o->bench.selections) o->shipped_config.push_back(sel.config_index);
  if (error.empty()) use_kernel_text(&o->bench, &error, &o->edit);
  if (!error.empty()) {
    err << "tilescope memory: " << error << "\n";
    return kMemoryBadArguments;
  }
  // Files that cannot be written are refused before anything is counted or recorded.
  for (const std::string& path : {o->bench.csv_path, o->recording})
    if (!path.empty() && !check_writable_path(path, &error)) {
      err << "tilescope memory: " << error << "\n";
      return kMemoryOutputFailed;
    }
  return kMemoryOk;
}

// The per-site lines of --sites, printed and added to the CSV.
void print_sites(const MappingModel& model, const AccessTotals& t, const Row& row, std::ostream& out,
                 std::string* csv) {
  const std::vector<AccessSite> list = model.access_sites();
  for (std::size_t s = 0; s < list.size(); ++s) {
    const AccessCounts& c = t.per_site[s];
    Row site_row = row;
    site_row.site = list[s].name;
    site_row.gl = site_row.gs = site_row.sl = site_row.ss = AccessCounts();
    const bool global = list[s].space == MemorySpace::Global, load = list[s].kind == AccessKind::Load;
    (global ? (load ? site_row.gl : site_row.gs) : (load ? site_row.sl : site_row.ss)) = c;
    out << format("    %-32s %2d-byte %s %s: %lld requests, ", list[s].name.c_str(), list[s].bytes,
                  to_string(list[s].space), to_string(list[s].kind), static_cast<long long>(c.requests));
    if (global)
      out << format("%lld sectors (%s per request)\n", static_cast<long long>(c.sectors),
                    ratio(c.sectors, c.requests).c_str());
    else
      out << format("%lld wavefronts (%s per instruction), %lld conflicts\n", static_cast<long long>(c.wavefronts),
                    ratio(c.wavefronts, c.requests).c_str(), static_cast<long long>(c.conflicts()));
    *csv += csv_line(site_row);
  }
}

}  // namespace

int run_memory_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  MemoryOptions o;
  bool help = false;
  if (const int code = parse_memory_options(argc, argv, &o, &help, out, err); code != kMemoryOk || help) return code;
  const BenchOptions& opt = o.bench;
  if (o.edit.variant && o.record_block < 0)
    out << "note: the counts of the edited rows are the shipped kernel's model's (the model does not read the "
           "edit); --record BLOCK,WARP records what the edited kernel does\n";
  std::string csv = kCsvHeader;
  std::vector<WarpRecord> recorded;
  int code = kMemoryOk;
  out << format("%-16s %-22s %-4s %-4s %5s %5s %5s  %11s %6s  %9s %6s  %11s %11s  %10s %10s\n", "variant", "config",
                "prob", "type", "M", "N", "K", "global ld", "sec/rq", "global st", "sec/rq", "shared ld wf",
                "ld conflicts", "shared st wf", "st conflicts");
  for (Problem problem : opt.problems)
    for (const Shape& shape : opt.shapes_for(problem))
      for (Precision precision : opt.precisions)
        for (std::size_t i = 0; i < opt.selections.size(); ++i) {
          const VariantSelection& sel = opt.selections[i];
          const VariantDescriptor& v = *sel.variant;
          const TileConfig& cfg = config_at(v, sel.config_index);
          if (!variant_refusal(v, sel.config_index, problem, precision).empty()) continue;
          std::string why;
          const std::unique_ptr<MappingModel> model =
              make_mapping_model(v.id, sel.config_index, problem, precision, shape, &why);
          Row row;
          row.variant = v.id;
          row.config = cfg.name;
          row.problem = to_string(problem);
          row.precision = to_string(precision);
          row.site = "all";
          row.shape = shape;
          if (!model || model->access_sites().empty()) {
            out << format("%-16s %-22s %-4s %-4s  no access model: %s\n", v.id, cfg.name.c_str(), to_string(problem),
                          to_string(precision),
                          model ? "its model does not list the kernel's accesses yet" : why.c_str());
            continue;
          }
          const AccessTotals t = o.exact ? access_totals(*model, INT64_MAX) : access_totals(*model);
          row.gl = t.global_load;
          row.gs = t.global_store;
          row.sl = t.shared_load;
          row.ss = t.shared_store;
          row.sampled = t.sampled;
          print_row(row, out);
          csv += csv_line(row);
          if (o.record_block >= 0) {
            // An edited configuration is recorded for the shipped (or typed) one it edits.
            const bool edited = o.edit.variant == &v;
            const WarpToCompare w{&v,
                                  sel.config_index,
                                  config_at(v, o.shipped_config[i]).name,
                                  edited ? o.edit.tag : "",
                                  problem,
                                  precision,
                                  shape,
                                  o.record_block,
                                  o.record_warp};
            WarpRecord record;
            const int recorded_code = record_and_compare(w, *model, out, err, &record);
            // A difference is a finding, not a failure: the other configurations are recorded too.
            if (recorded_code != kMemoryOk && recorded_code != kMemoryRecordDiffers) return recorded_code;
            code = std::max(code, recorded_code);
            recorded.push_back(std::move(record));
          }
          if (o.sites) print_sites(*model, t, row, out, &csv);
        }
  std::string error;
  if (!o.recording.empty()) {
    if (recorded.empty()) {
      err << "tilescope memory: --recording: no configuration was recorded (none of those selected lists its "
             "accesses)\n";
      return kMemoryBadArguments;
    }
    if (!write_recorded_warps_file(o.recording, recorded, &error)) {
      err << "tilescope memory: " << error << "\n";
      return kMemoryOutputFailed;
    }
  }
  if (!opt.csv_path.empty() && !write_file_atomically(opt.csv_path, csv, &error)) {
    err << "tilescope memory: " << error << "\n";
    return kMemoryOutputFailed;
  }
  return code;
}

}  // namespace tilescope
