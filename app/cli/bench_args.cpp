#include "app/cli/bench_args.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>

#include "app/cli/arg_parser.h"
#include "app/cli/size_list.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {
namespace {

const std::vector<std::int64_t> kDefaultSizes = {1024, 2048};

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = s.find(',', start);
    parts.push_back(trim(s.substr(start, pos == std::string::npos ? std::string::npos : pos - start)));
    if (pos == std::string::npos) return parts;
    start = pos + 1;
  }
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string variant_ids() {
  std::vector<std::string> ids;
  for (const VariantDescriptor* v : variant_registry()) ids.push_back(v->id);
  return join(ids);
}

std::string config_names(const VariantDescriptor& v) {
  std::vector<std::string> names;
  for (const TileConfig& c : v.configs) names.push_back(c.name + (c.opt_in ? " (opt-in)" : ""));
  return join(names);
}

bool parse_int_option(const std::string& option, const std::string& text, int lo, int hi, int* out,
                      std::string* error) {
  unsigned long long v = 0;
  if (!parse_unsigned_text(text, static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), &v)) {
    *error = option + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" +
             text + "'";
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}

void add_selection(std::vector<VariantSelection>* out, const VariantDescriptor* v, int config_index, bool baseline,
                   bool named = false) {
  for (VariantSelection& s : *out) {
    if (s.variant == v && s.config_index == config_index) {
      s.named = s.named || named;
      return;
    }
  }
  out->push_back({v, config_index, baseline, named});
}

// Adds the non-opt-in configurations of `v`; false when it has none.
bool add_default_configs(std::vector<VariantSelection>* out, const VariantDescriptor* v, bool baseline) {
  bool any = false;
  for (std::size_t i = 0; i < v->configs.size(); ++i) {
    if (v->configs[i].opt_in) continue;
    add_selection(out, v, static_cast<int>(i), baseline);
    any = true;
  }
  return any;
}

// The items of a --variants list: split at commas, except that a key=value after a typed tile
// belongs to it ("regtile_prefetch:bm=96,bn=80,naive" is two items); variant ids hold no '='.
std::vector<std::string> variant_items(const std::string& text) {
  std::vector<std::string> items;
  for (const std::string& piece : split_commas(text)) {
    const bool continues = piece.find('=') != std::string::npos && piece.find(':') == std::string::npos;
    if (continues && !items.empty() && items.back().find('=') != std::string::npos)
      items.back() += "," + piece;
    else
      items.push_back(piece);
  }
  return items;
}

bool parse_variants(const std::string& text, std::vector<VariantSelection>* out, std::string* error) {
  out->clear();
  for (const std::string& item : variant_items(text)) {
    if (item.empty()) {
      *error = "--variants: empty item in '" + text + "'; the variants are: " + variant_ids() + ", or all";
      return false;
    }
    if (item == "all") {
      for (const VariantDescriptor* v : variant_registry())
        if (v->role != Role::Extra) add_default_configs(out, v, false);
      continue;
    }
    const std::size_t colon = item.find(':');
    const std::string id = trim(item.substr(0, colon));
    const VariantDescriptor* v = find_variant(id);
    if (!v) {
      *error = "--variants: unknown variant '" + id + "'; the variants are: " + variant_ids() + ", or all (see --list)";
      return false;
    }
    if (colon == std::string::npos) {
      if (!add_default_configs(out, v, false)) {
        *error = "--variants: every configuration of '" + id + "' is opt-in; name one as " + id +
                 ":CONFIG (its configurations are: " + config_names(*v) + ")";
        return false;
      }
      continue;
    }
    const std::string config = trim(item.substr(colon + 1));
    if (spells_typed_tile(config)) {
      std::string why;
      const int typed = config_named_or_typed(*v, config, &why);
      if (typed < 0) {
        *error = "--variants: " + why;
        return false;
      }
      add_selection(out, v, typed, false, true);
      continue;
    }
    const int index = find_config(*v, config);
    if (index < 0) {
      *error = "--variants: variant '" + id + "' has no configuration '" + config +
               "'; its configurations are: " + config_names(*v);
      return false;
    }
    add_selection(out, v, index, false, true);
  }
  return true;
}

template <typename T>
bool parse_enum_list(const std::string& option, const std::string& text,
                     const std::function<bool(const std::string&, T*)>& parse_one, const char* choices,
                     std::vector<T>* out, std::string* error) {
  out->clear();
  for (const std::string& item : split_commas(text)) {
    T value{};
    if (!parse_one(item, &value)) {
      *error = option + ": unknown value '" + item + "'; choose " + choices;
      return false;
    }
    bool seen = false;
    for (const T& v : *out) seen = seen || v == value;
    if (!seen) out->push_back(value);
  }
  return true;
}

bool parse_sizes_option(const std::string& option, const std::string& text, std::vector<std::int64_t>* out,
                        std::string* error) {
  std::string why;
  if (parse_size_list(text, out, &why)) return true;
  *error = option + ": " + why;
  return false;
}

template <typename T>
bool contains(const std::vector<T>& items, T item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// The shapes of one problem from the size options (empty lists = option not given).
bool expand_shapes(Problem problem, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& m,
                   const std::vector<std::int64_t>& n, const std::vector<std::int64_t>& k, std::vector<Shape>* out,
                   std::string* error) {
  out->clear();
  const bool gemm = problem == Problem::Gemm;
  const bool separate = (gemm && !m.empty()) || !n.empty() || !k.empty();
  if (!separate) {
    for (std::int64_t s : sizes) out->push_back(normalised(problem, Shape{s, s, s}));
    return true;
  }
  const std::vector<std::int64_t>& ms = gemm ? (m.empty() ? sizes : m) : std::vector<std::int64_t>{0};
  const std::vector<std::int64_t>& ns = n.empty() ? sizes : n;
  const std::vector<std::int64_t>& ks = k.empty() ? sizes : k;
  // Each list holds at most 10000 entries, so the product fits in 64 bits.
  const std::uint64_t count = static_cast<std::uint64_t>(ms.size()) * ns.size() * ks.size();
  if (count > kMaxShapesPerProblem) {
    *error = "the sizes expand to " + std::to_string(count) + " " + to_string(problem) + " shapes; at most " +
             std::to_string(kMaxShapesPerProblem) + " are allowed";
    return false;
  }
  for (std::int64_t mv : ms)
    for (std::int64_t nv : ns)
      for (std::int64_t kv : ks) out->push_back(normalised(problem, Shape{mv, nv, kv}));
  return true;
}

// What the options say before it is checked and expanded: the lists as given.
struct RawBenchArgs {
  std::string variants_text = "all", problems_text = "gemm", precisions_text = "f32";
  std::string splits_text, gpus_text;
  std::vector<std::int64_t> sizes = kDefaultSizes, m, n, k;
  bool m_given = false;
};

// The options that only switch one setting, and what they set it to.
struct BenchFlag {
  const char* name;
  bool BenchOptions::*setting;
  bool value;
};
const BenchFlag kBenchFlags[] = {{"--no-verify", &BenchOptions::verify, false},
                                 {"--no-baseline", &BenchOptions::baseline, false},
                                 {"--list", &BenchOptions::list, true},
                                 {"--profile", &BenchOptions::profile, true},
                                 {"--roofs", &BenchOptions::roofs, true}};

// The options whose text is kept as given, resolved once all options are read.
struct BenchText {
  const char* name;
  std::string RawBenchArgs::*text;
};
const BenchText kBenchTexts[] = {{"--variants", &RawBenchArgs::variants_text},
                                 {"--split", &RawBenchArgs::splits_text},
                                 {"--gpus", &RawBenchArgs::gpus_text},
                                 {"--problem", &RawBenchArgs::problems_text},
                                 {"--precision", &RawBenchArgs::precisions_text}};

// The size lists: all sizes, or the sides one at a time.
struct BenchSizes {
  const char* name;
  std::vector<std::int64_t> RawBenchArgs::*sizes;
};
const BenchSizes kBenchSizes[] = {
    {"--sizes", &RawBenchArgs::sizes}, {"--m", &RawBenchArgs::m}, {"--n", &RawBenchArgs::n}, {"--k", &RawBenchArgs::k}};

// Every option of bench, for the one parser (cli/arg_parser.h).
ArgParser bench_parser() {
  ArgParser p;
  for (const BenchText& t : kBenchTexts) p.option(t.name, "VALUE");
  for (const BenchSizes& s : kBenchSizes) p.option(s.name, "VALUE");
  for (const char* name : {"--reps", "--warmup", "--rounds", "--seed", "--csv", "--json", "--kernel-text"})
    p.option(name, "VALUE");
  for (const BenchFlag& f : kBenchFlags) p.flag(f.name);
  return p;
}

// Takes one option into *opt (numbers, flags, file names) or *raw (lists resolved later).
bool apply_bench_option(const ArgParser::Arg& arg, BenchOptions* opt, RawBenchArgs* raw, std::string* error) {
  const std::string& name = arg.name;
  const std::string& value = arg.value;
  for (const BenchFlag& f : kBenchFlags)
    if (name == f.name) {
      opt->*f.setting = f.value;
      return true;
    }
  for (const BenchText& t : kBenchTexts)
    if (name == t.name) {
      raw->*t.text = value;
      opt->variants_given = opt->variants_given || name == "--variants";
      return true;
    }
  for (const BenchSizes& l : kBenchSizes)
    if (name == l.name) {
      opt->sizes_given = true;
      raw->m_given = raw->m_given || name == "--m";
      return parse_sizes_option(name, value, &(raw->*l.sizes), error);
    }
  if (name == "--reps") {
    return parse_int_option(name, value, 1, kMaxRepetitions, &opt->repetitions, error);
  } else if (name == "--warmup") {
    return parse_int_option(name, value, 0, kMaxWarmup, &opt->warmup, error);
  } else if (name == "--rounds") {
    return parse_int_option(name, value, 1, kMaxRounds, &opt->rounds, error);
  } else if (name == "--seed") {
    unsigned long long seed = 0;
    if (!parse_unsigned_text(value, 0, std::numeric_limits<std::uint64_t>::max(), &seed)) {
      *error = "--seed needs a whole number from 0 to 2^64-1, got '" + value + "'";
      return false;
    }
    opt->seed = seed;
  } else if (name == "--csv" || name == "--json") {
    if (trim(value).empty()) {
      *error = name + " needs a file name";
      return false;
    }
    (name == "--csv" ? opt->csv_path : opt->json_path) = value;
  } else if (name == "--kernel-text") {
    opt->kernel_text = value;
  }
  return true;
}

std::string split_ids() {
  std::vector<std::string> ids;
  for (const SplitDescriptor* s : split_registry()) ids.push_back(s->id);
  return join(ids);
}

// --gpus and --split: the GPU counts and the splits (every split of the problems when --gpus comes
// alone); a split without --gpus runs on 2 GPUs.
bool resolve_splits(const RawBenchArgs& raw, BenchOptions* opt, std::string* error) {
  if (!raw.gpus_text.empty()) {
    for (const std::string& item : split_commas(raw.gpus_text)) {
      int count = 0;
      if (!parse_int_option("--gpus", item, 1, kMaxGpus, &count, error)) return false;
      if (!contains(opt->gpus, count)) opt->gpus.push_back(count);
    }
  }
  if (raw.splits_text.empty()) {
    if (opt->gpus.empty()) return true;
    for (const SplitDescriptor* s : split_registry())
      for (Problem p : opt->problems)
        if (supports(*s, p)) {
          for (std::size_t i = 0; i < s->configs.size(); ++i) opt->splits.push_back({s, static_cast<int>(i)});
          break;
        }
    return true;
  }
  for (const std::string& item : split_commas(raw.splits_text)) {
    const std::size_t colon = item.find(':');
    const std::string id = trim(item.substr(0, colon));
    const SplitDescriptor* s = find_split(id);
    if (!s) {
      *error = "--split: unknown split '" + id + "'; the splits are: " + split_ids();
      return false;
    }
    if (colon == std::string::npos) {
      for (std::size_t i = 0; i < s->configs.size(); ++i) opt->splits.push_back({s, static_cast<int>(i)});
      continue;
    }
    const std::string config = trim(item.substr(colon + 1));
    const int index = find_split_config(*s, config);
    if (index < 0) {
      std::vector<std::string> names;
      for (const SplitConfig& c : s->configs) names.push_back(c.name);
      *error = "--split: split '" + id + "' has no configuration '" + config + "'; it has: " + join(names);
      return false;
    }
    opt->splits.push_back({s, index});
  }
  if (opt->gpus.empty()) opt->gpus.push_back(2);
  return true;
}

// Parses the problem and precision lists and expands the sizes into each problem's shapes.
bool resolve_problems_and_shapes(const RawBenchArgs& raw, BenchOptions* opt, std::string* error) {
  if (!parse_enum_list<Problem>("--problem", raw.problems_text, parse_problem, "gemm or ata (or gemm,ata)",
                                &opt->problems, error))
    return false;
  const std::string precisions = "one or more of " + precision_names(", ") + " (e.g. f32,bf16)";
  if (!parse_enum_list<Precision>("--precision", raw.precisions_text, parse_precision, precisions.c_str(),
                                  &opt->precisions, error))
    return false;
  if (raw.m_given && !contains(opt->problems, Problem::Gemm)) {
    *error = "--m does not apply to the ata problem: C = A^T A is N x N (A is K x N); use --n and --k";
    return false;
  }
  for (Problem p : opt->problems) {
    std::vector<Shape>& shapes = p == Problem::Gemm ? opt->gemm_shapes : opt->ata_shapes;
    if (!expand_shapes(p, raw.sizes, raw.m, raw.n, raw.k, &shapes, error)) return false;
  }
  return true;
}

// The baseline goes first: cuBLAS then runs (and pays its one-time start-up) before the
// kernels it is compared with, and % of cuBLAS is defined for every shape. The baseline that
// stores C in the input type joins only where a chosen configuration stores C so.
void add_baseline_selections(const std::vector<VariantSelection>& chosen, std::vector<VariantSelection>* selections) {
  const bool narrow_chosen = std::any_of(chosen.begin(), chosen.end(), [](const VariantSelection& s) {
    return config_at(*s.variant, s.config_index).c_in_input_type;
  });
  for (const VariantDescriptor* v : variant_registry()) {
    if (v->role != Role::Baseline) continue;
    for (std::size_t i = 0; i < v->configs.size(); ++i) {
      if (!is_baseline(*v, static_cast<int>(i))) continue;
      if (static_cast<int>(i) == narrow_c_baseline(*v) && !narrow_chosen) continue;
      bool chosen_already = false;
      for (const VariantSelection& s : chosen)
        chosen_already = chosen_already || (s.variant == v && s.config_index == static_cast<int>(i));
      if (!chosen_already) add_selection(selections, v, static_cast<int>(i), true);
    }
  }
}

}  // namespace

BenchOptions parse_bench_args(const std::vector<std::string>& args) {
  BenchOptions opt;
  ArgParser parser = bench_parser();
  // Help wins over everything else, so that `bench --sizes oops --help` still helps.
  if (parser.parse(args) && parser.help()) {
    opt.help = true;
    return opt;
  }

  auto fail = [](const std::string& message) {
    BenchOptions failed;
    failed.error = message;
    return failed;
  };
  if (!parser.error().empty()) return fail(parser.error());

  RawBenchArgs raw;
  std::string error;
  for (const ArgParser::Arg& arg : parser.args())
    if (!apply_bench_option(arg, &opt, &raw, &error)) return fail(error);

  if (opt.roofs && opt.list) return fail("--roofs and --list cannot be combined");
  if (opt.roofs && opt.profile)
    return fail("--profile profiles the sweep's kernels; --roofs measures the roofs instead: use one of them");
  // The second write would replace the first.
  if (!opt.csv_path.empty() && opt.csv_path == opt.json_path)
    return fail("--csv and --json name the same file '" + opt.csv_path + "'");
  if (opt.roofs && (opt.variants_given || opt.sizes_given))
    return fail("--roofs measures the device's roofs with its own kernels: it takes no --variants or sizes");

  std::vector<VariantSelection> chosen;
  if (!parse_variants(raw.variants_text, &chosen, &error)) return fail(error);
  if (!resolve_problems_and_shapes(raw, &opt, &error)) return fail(error);
  if (!resolve_splits(raw, &opt, &error)) return fail(error);
  if (opt.roofs && !opt.splits.empty()) return fail("--roofs measures one GPU's roofs: it takes no --gpus or --split");

  if (opt.baseline) add_baseline_selections(chosen, &opt.selections);
  for (const VariantSelection& s : chosen) add_selection(&opt.selections, s.variant, s.config_index, false, s.named);
  return opt;
}

BenchOptions parse_bench_args(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i] ? argv[i] : "");
  return parse_bench_args(args);
}

std::string bench_synopsis() {
  return R"(usage: tilescope bench [--variants LIST] [--problem gemm|ata] [--precision LIST]
                       [--sizes LIST | --m LIST --n LIST --k LIST] [--reps N] [--warmup N]
                       [--rounds N] [--no-verify] [--no-baseline] [--seed N] [--profile]
                       [--csv FILE] [--json FILE]
                       [--kernel-text ID=FILE] [--gpus LIST] [--split LIST]
                       [--list] [-h | --help]
       tilescope bench --roofs [--csv FILE] [--json FILE]
)";
}

std::string bench_usage() {
  return bench_synopsis() + R"(
Times GEMM variants on the GPU, checks their results against a reference, and prints a
table (median time, GFLOP/s, % of cuBLAS, % of peak, error, registers, shared memory,
occupancy).

What to run:
  --variants LIST    variants to run, comma separated: an id runs all its configurations
                     except opt-in ones; id:config runs one configuration (opt-in ones too,
                     e.g. smem_tiled:16, cublas:gemm_tf32); all = every variant.
                     id:key=value,... types a tile: the kernel text's template parameters
                     (bm, bn, bk, tm, tn, ... as --list shows), compiled at run time by
                     NVRTC; those left out keep the default configuration's values, e.g.
                     regtile_prefetch:bm=96,bn=80,bk=24,tm=6,tn=5. Default: all. See --list.
  --kernel-text ID=FILE
                     variant ID runs the kernel text in FILE (an edit of its shipped text,
                     kernels/variants/NN_ID.cuh) instead of its own: its configurations are
                     compiled from FILE at run time and named (edited TAG), TAG being the
                     text's hash; a file that is not a kernel text is refused with 2.
  --problem LIST     gemm (C = A B) and/or ata (C = A^T A, the seed problem). Default: gemm
  --precision LIST   input types, comma separated. Default: f32
                       f32   float, FP32 FMA          f64   double, FP64
                       tf32  TF32 inputs (float storage, 10-bit mantissa), FP32 accumulation
                       f16   FP16 inputs, FP32 accumulation, C in float (in f16: _c16 rows)
                       bf16  BF16 inputs, FP32 accumulation, C in float (in bf16: _c16 rows)
                     A variant that does not compute a type is listed as refused with the
                     reason (the FMA kernels of the staircase run f32 and f64, the
                     tensor-core kernels tf32, f16, bf16 and f64; cuBLAS runs all five,
                     cublasGemmEx for tf32, f16 and bf16). The tolerance follows the input
                     type's unit roundoff; % of cuBLAS compares runs of one type.
  --sizes LIST       square sizes, M = N = K (ata: N = K). Default: 1024,2048
  --m LIST, --n LIST, --k LIST
                     separate sizes: gemm runs every combination of M, N and K, a list not
                     given takes --sizes; ata uses --n and --k only (M is N).
How to run:
  --reps N           timed repetitions per run (median, min, max). Default: 10
  --warmup N         untimed runs after the first (cold) one. Default: 2
  --rounds N         the whole sweep N times (1 to 100), each round's runs of a shape side
                     by side, the configurations in the order given in rounds 1, 3, ..
                     and reversed in rounds 2, 4, .. (a clock that drifts favours none);
                     % of cuBLAS compares runs of one round; every row carries its round
                     (the CSV's and JSON's "round"), and the table ends with each
                     configuration's % of cuBLAS round by round. Default: 1
  --no-verify        do not check results against the reference
  --no-baseline      do not add the cuBLAS configurations (then no % of cuBLAS)
  --seed N           seed of the random inputs. Default: 1
  --profile          after the sweep, run each CUDA and cuBLAS configuration that timed
                     and passed once more, alone, under Nsight Compute (ncu), and add to
                     its row the figures that say why it is as fast as it is: FMA, FP64
                     and tensor pipes busy, issue slots busy, cycles per issued
                     instruction, FFMA share (the table explains each; docs/PROFILER.md).
                     ncu is $TILESCOPE_NCU, else ncu on PATH, else
                     /usr/local/cuda/bin/ncu; it needs permission to the GPU's
                     performance counters. ncu replays each kernel several times, the
                     clocks not locked; a profile that fails (no ncu, no permission, a
                     time-out) leaves the figures empty and says why once. --profile
                     never changes the exit code of a run that timed and verified.
Several GPUs (a product split across the GPUs of this machine):
  --gpus LIST        GPU counts, comma separated (1 to 64; devices 0 .. N-1), e.g. 1,2.
                     Each chosen variant configuration then also runs split across that
                     many GPUs by every split of --split, and alone on one GPU: the bar of
                     the split's speed-up (the "x1GPU" figure in the %cuBLAS column). More
                     GPUs than the machine has: that row says so, the others run.
  --split LIST       the splits, comma separated (id runs all its configurations,
                     id:config one): cublasxt (cuBLASXt, the library's own split; runs
                     cuBLAS whatever --variants says), split_nccl (gemm: block rows of C
                     per GPU, B broadcast by NCCL in panels while the last is multiplied),
                     ata_nccl (ata: A's rows split along K, the partial triangles summed
                     by NCCL). Default with --gpus: every split of the problems; without
                     --gpus a split runs on 2 GPUs. NCCL is loaded at run time (libnccl.so.2):
                     without it the NCCL splits say so and the rest runs. NVLink multicast
                     stays off (NCCL_NVLS_ENABLE=0 unless set in the environment).
Output:
  --csv FILE         write every result, with the device on every row, as CSV
  --json FILE        write the device and the results as JSON
                     (both are checked before the first run: a missing or read-only
                     folder, or a folder named as the file, is refused at once with 4)
  --list             print the variants and their configurations, then exit
  -h, --help         print this help, then exit

Roofs (the Roofline view's roofs):
  --roofs            instead of a sweep, measure the device's roofs with small kernels
                     (FP32 FMA, FP64 FMA, HBM read, HBM copy, L2 read, shared-memory read),
                     print them with the datasheet-derived value where one exists and the
                     ratio, and cache them for the window and `tilescope plot --roofline`
                     ($XDG_CACHE_HOME/tilescope, else ~/.cache/tilescope). --json FILE writes
                     the same JSON as the cache, --csv FILE one row per roof. Without a usable
                     GPU it exits with 3.

Size lists: 1024 | 512,1024,2048 | 1024:8192:x2 (geometric: 1024 2048 4096 8192) |
  1000:5000:+1000 (arithmetic) | 1024:8192 (a range without a step doubles) |
  mixtures such as 7,33,1024:4096:x2. Sizes are 1 to 1048576.
The first run of every configuration is timed on its own ("first" column; * = the first
use of that kernel in the process, with its start-up costs); median, min and max are
warm figures.

Without a usable GPU, bench says why in one line, times the CPU double-precision reference
instead (the requested sizes up to 512; without size options 128, 256 and 512), and exits
with 3.

Exit codes:
  0  every run succeeded (and passed verification)
  1  a run failed, a result failed verification, or every configuration asked
     for was refused (the reasons are listed as "refused: ...")
  2  bad arguments (a --kernel-text file that cannot be read or is no kernel text)
  3  no usable GPU
  4  an output file (--csv, --json) could not be written, or cannot be: its folder
     is missing or read-only, or it names a folder (then nothing was run)
  130  interrupted (Ctrl-C): no further run was started, and the run under way stopped
       between repetitions; the table and the --csv/--json files hold the runs that
       finished (with --profile: the figures profiled so far). A second Ctrl-C stops
       at once.
  When several apply, the largest is returned. --profile adds none: a profile that
  fails leaves its figures empty and the code as the timings made it.

Examples:
  tilescope bench --variants naive,smem_tiled:16 --sizes 512:4096:x2
  tilescope bench --problem ata --precision f32,f64 --n 4096 --k 1024 --csv ata.csv
  tilescope bench --variants cublas,regtile_prefetch:128x128x32_8x8 --sizes 4096 --rounds 3 --csv r.csv
  tilescope bench --variants naive,regtile_prefetch,cublas --sizes 2048 --profile
  tilescope bench --roofs --json roofs.json
)";
}

}  // namespace tilescope
