#include "app/cli/tune_args.h"

#include <algorithm>

#include "app/cli/arg_parser.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {
namespace {

// The options every variant has; a variant's tile parameters are added to these.
const char* const kFixedOptions[] = {"--variant", "--x",   "--y",   "--size",     "--precision", "--problem", "--reps",
                                     "--warmup",  "--csv", "--png", "--png-size", "--jobs",      "--from-csv"};

bool parse_whole(const std::string& text, int lo, int hi, int* out) {
  unsigned long long v = 0;
  if (!parse_unsigned_text(text, static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), &v))
    return false;
  *out = static_cast<int>(v);
  return true;
}

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(c, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

std::string param_keys(const VariantDescriptor& v) {
  std::string out;
  for (const TileParam& p : v.tile_params) out += (out.empty() ? "" : ", ") + std::string("--") + p.key;
  return out;
}

std::string typed_variant_ids() {
  std::string out;
  for (const VariantDescriptor* v : variant_registry())
    if (takes_typed_tiles(*v)) out += (out.empty() ? "" : ", ") + std::string(v->id);
  return out;
}

// The value of "--variant" among raw arguments ("--variant ID" or "--variant=ID"), "" if none: the
// variant decides which further options exist, so it is read before the parser is built.
std::string variant_argument(const std::vector<std::string>& args) {
  std::string id;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--variant" && i + 1 < args.size()) id = args[i + 1];
    if (args[i].rfind("--variant=", 0) == 0) id = args[i].substr(10);
  }
  return id;
}

TuneParam* find_param(std::vector<TuneParam>& params, const std::string& key) {
  for (TuneParam& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

bool is_fixed_option(const std::string& name) {
  return std::any_of(std::begin(kFixedOptions), std::end(kFixedOptions), [&](const char* o) { return name == o; });
}

// An option that is neither fixed nor one of the variant's parameters, said with what the variant takes.
std::string unknown_parameter(const std::vector<std::string>& args, const VariantDescriptor& v) {
  for (const std::string& a : args) {
    if (a.rfind("--", 0) != 0 || a == "--help") continue;
    const std::string name = a.substr(0, a.find('='));
    if (is_fixed_option(name)) continue;
    bool known = false;
    for (const TileParam& p : v.tile_params) known = known || name == std::string("--") + p.key;
    if (!known) return "unknown option or tile parameter '" + name + "'; " + v.id + " takes " + param_keys(v);
  }
  return "";
}

bool apply_numbers(ArgParser& p, TuneOptions* o) {
  int size = 0;
  if (p.has("--size")) {
    if (!p.get_int("--size", 1, 1 << 16, &size)) return false;
    o->size = size;
  }
  int jobs = o->jobs;
  if (!p.get_int("--reps", 1, 100000, &o->repetitions) || !p.get_int("--warmup", 0, 10000, &o->warmup) ||
      !p.get_int("--jobs", 1, 256, &jobs) || !p.get_size("--png-size", 64, 8192, &o->png_width, &o->png_height))
    return false;
  o->jobs = jobs;
  return true;
}

}  // namespace

bool parse_tune_values(const std::string& key, const std::string& text, std::vector<int>* out, std::string* error) {
  out->clear();
  // 0 is a value (switches such as pad=0); what a variant cannot take is refused per point, with its reason.
  const std::string what = "--" + key + " takes LO:HI[:STEP], a list a,b,c or one value (whole numbers from 0 to " +
                           std::to_string(kMaxTileValue) + ")";
  for (const std::string& item : split(text, ',')) {
    const std::vector<std::string> r = split(item, ':');
    int lo = 0, hi = 0, step = 1;
    if (r.size() > 3 || !parse_whole(r[0], 0, kMaxTileValue, &lo) ||
        (r.size() > 1 && !parse_whole(r[1], 0, kMaxTileValue, &hi)) ||
        (r.size() > 2 && !parse_whole(r[2], 1, kMaxTileValue, &step))) {
      *error = what + "; got '" + item + "'";
      out->clear();
      return false;
    }
    if (r.size() == 1) hi = lo;
    if (hi < lo) {
      *error = "--" + key + ": the range '" + item + "' ends below its start";
      out->clear();
      return false;
    }
    for (int v = lo; v <= hi; v += step)
      if (std::find(out->begin(), out->end(), v) == out->end()) out->push_back(v);
  }
  return true;
}

std::vector<TuneParam> default_tune_params(const VariantDescriptor& v) {
  std::vector<TuneParam> params;
  if (!takes_typed_tiles(v)) return params;
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  for (const TileParam& p : v.tile_params) params.push_back({p.key, {tile_value(defaults, p.key, 1)}});
  return params;
}

void default_tune_axes(const std::vector<TuneParam>& params, std::string* x_key, std::string* y_key) {
  x_key->clear();
  y_key->clear();
  for (const TuneParam& p : params) {
    if (!p.ranged()) continue;
    if (x_key->empty())
      *x_key = p.key;
    else if (y_key->empty())
      *y_key = p.key;
  }
}

std::string tune_axes_error(const std::vector<TuneParam>& params, const std::string& x_key, const std::string& y_key) {
  auto check = [&](const char* option, const std::string& key) -> std::string {
    for (const TuneParam& p : params)
      if (p.key == key)
        return p.ranged() ? ""
                          : std::string(option) + " " + key + ": that parameter is not swept; give --" + key +
                                " a range or a list";
    return std::string(option) + ": '" + key + "' is no tile parameter of this variant";
  };
  if (x_key.empty()) return "nothing to tune: give at least one tile parameter a range (--KEY LO:HI:STEP)";
  if (const std::string e = check("--x", x_key); !e.empty()) return e;
  if (y_key.empty()) {
    for (const TuneParam& p : params)
      if (p.ranged() && p.key != x_key) return "--y: choose the second axis among the swept parameters";
    return "";
  }
  if (const std::string e = check("--y", y_key); !e.empty()) return e;
  if (x_key == y_key) return "--x and --y name the same parameter '" + x_key + "'";
  return "";
}

std::size_t tune_grid_size(const std::vector<TuneParam>& params) {
  std::size_t n = 1;
  for (const TuneParam& p : params) {
    n *= std::max<std::size_t>(p.values.size(), 1);
    if (n > kMaxTunePoints * 1024) return n;  // far past the limit already; no overflow
  }
  return n;
}

std::vector<TileValues> tune_grid(const std::vector<TuneParam>& params) {
  std::vector<TileValues> grid(1);
  for (const TuneParam& p : params) {
    std::vector<TileValues> next;
    for (const TileValues& partial : grid)
      for (int v : p.values) {
        next.push_back(partial);
        next.back().emplace_back(p.key, v);
      }
    grid = std::move(next);
  }
  return grid;
}

TuneOptions parse_tune_args(const std::vector<std::string>& args) {
  TuneOptions o;
  auto fail = [](const std::string& message) {
    TuneOptions failed;
    failed.error = message;
    return failed;
  };
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-h") != args.end()) {
    o.help = true;
    return o;
  }
  const std::string id = variant_argument(args);
  const bool from_csv =
      std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.rfind("--from-csv", 0) == 0; });
  if (!id.empty()) {
    o.variant = find_variant(id);
    if (!o.variant)
      return fail("--variant: unknown variant '" + id + "'; those taking typed tiles: " + typed_variant_ids());
    if (!takes_typed_tiles(*o.variant))
      return fail("--variant: " + id + " takes no typed tiles; those that do: " + typed_variant_ids());
    if (const std::string e = unknown_parameter(args, *o.variant); !e.empty()) return fail(e);
  } else if (!from_csv) {
    return fail("--variant is required (one taking typed tiles: " + typed_variant_ids() + ")");
  }

  ArgParser p;
  for (const char* name : kFixedOptions) p.option(name, "VALUE");
  if (o.variant)
    for (const TileParam& tp : o.variant->tile_params) p.option(std::string("--") + tp.key, "LO:HI[:STEP]");
  if (!p.parse(args)) return fail(p.error());
  if (!apply_numbers(p, &o)) return fail(p.error());
  o.csv_path = p.value("--csv");
  o.png_path = p.value("--png");
  o.from_csv = p.value("--from-csv");
  if (!o.from_csv.empty()) {
    if (o.png_path.empty()) return fail("--from-csv draws a landscape: give --png OUT.png");
    if (o.variant) return fail("--from-csv takes the variant and the grid from the CSV: give no --variant");
    o.x_key = p.value("--x");
    o.y_key = p.value("--y");
    return o;
  }
  if (!o.csv_path.empty() && o.csv_path == o.png_path) return fail("--csv and --png name the same file");
  if (p.has("--precision") && !parse_precision(p.value("--precision"), &o.precision))
    return fail("--precision: unknown input type '" + p.value("--precision") + "'; choose " + precision_names(", "));
  if (p.has("--problem") && !parse_problem(p.value("--problem"), &o.problem))
    return fail("--problem: choose gemm or ata, got '" + p.value("--problem") + "'");
  if (!supports(*o.variant, o.precision))
    return fail(std::string(o.variant->id) + " does not compute " + to_string(o.precision));
  if (!supports(*o.variant, o.problem))
    return fail(std::string(o.variant->id) + " does not compute " + to_string(o.problem));

  o.params = default_tune_params(*o.variant);
  for (const ArgParser::Arg& a : p.args()) {
    TuneParam* param = a.name.size() > 2 ? find_param(o.params, a.name.substr(2)) : nullptr;
    if (!param) continue;
    std::string error;
    if (!parse_tune_values(param->key, a.value, &param->values, &error)) return fail(error);
  }
  if (tune_grid_size(o.params) > kMaxTunePoints)
    return fail("the grid has " + std::to_string(tune_grid_size(o.params)) + " points, more than " +
                std::to_string(kMaxTunePoints) + ": use larger steps or fewer values");
  if (p.has("--x") || p.has("--y")) {
    o.x_key = p.value("--x");
    o.y_key = p.value("--y");
    std::string dx, dy;
    default_tune_axes(o.params, &dx, &dy);
    if (o.x_key.empty()) o.x_key = dx == o.y_key ? dy : dx;
  } else {
    default_tune_axes(o.params, &o.x_key, &o.y_key);
  }
  if (const std::string e = tune_axes_error(o.params, o.x_key, o.y_key); !e.empty()) return fail(e);
  return o;
}

TuneOptions parse_tune_args(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return parse_tune_args(args);
}

std::string tune_usage() {
  std::string params, example;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!takes_typed_tiles(*v)) continue;
    params += "  " + std::string(v->id) + ":\n";
    const std::vector<TuneParam> defaults = default_tune_params(*v);
    for (std::size_t i = 0; i < v->tile_params.size(); ++i) {
      const std::string key = v->tile_params[i].key;
      params += "    --" + key + std::string(12 - std::min<std::size_t>(11, key.size()), ' ') +
                v->tile_params[i].meaning + " (default " + std::to_string(defaults[i].values[0]) + ")\n";
    }
    if (example.empty() && defaults.size() >= 2)
      example = "  tilescope tune --variant " + std::string(v->id) + " --" + defaults[0].key + " 32:256:32 --" +
                defaults[1].key + " 32:256:32 --csv t.csv --png t.png\n";
  }
  return R"(usage: tilescope tune --variant ID --<param> LO:HI[:STEP] ... [--x P --y P] [--size N]
                      [--precision P] [--problem gemm|ata] [--reps N] [--warmup N] [--jobs N]
                      [--csv FILE] [--png FILE [--png-size WxH]]
       tilescope tune --from-csv FILE --png FILE [--x P --y P] [--png-size WxH]

Sweeps the tile parameters of a variant's kernel text: every point of the grid is checked (the
variant's rules, the device's limits) and refused with the reason before anything compiles;
the accepted ones are compiled in parallel with NVRTC (kept in the kernel cache), then timed
one by one against cuBLAS of the same input type, every result verified (a wrong tile is a
FAIL, never a fast one). The landscape: GFLOP/s over two parameters, each cell the best over
the others, refused cells grey, the best cell starred, the shipped configurations outlined.

  --variant ID        a variant taking typed tiles
  --<param> VALUES    LO:HI[:STEP] (step default 1), a list a,b,c, or one value; parameters
                      not given keep the default configuration's value
  --x P, --y P        the heatmap's axes (default: the first two swept parameters)
  --size N            M = N = K (default 4096)
  --precision P       )" +
         precision_names("|") + R"( (default f32)
  --problem P         gemm (default) or ata
  --reps N            timed repetitions per point (default 10); --warmup N (default 2)
  --jobs N            compile threads (default: one per core)
  --csv FILE          one row per grid point, and cuBLAS's
  --png FILE          the landscape as a picture (window builds only); --png-size (default 1600x1000)
  --from-csv FILE     draw the landscape of an earlier --csv instead of running (with --png)

Tile parameters:
)" + params +
         R"(
Exit codes: 0 every accepted point ran and passed; 1 a point failed its check or errored, or
every point was refused; 2 bad arguments; 3 no usable GPU (the refused points are still listed);
4 --csv or --png could not be written; 130 interrupted (Ctrl-C; what finished is written).

Example:
)" + example;
}

}  // namespace tilescope
