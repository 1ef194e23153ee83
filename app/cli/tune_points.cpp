#include "app/cli/tune_points.h"

#include <cstdio>
#include <cstdlib>

#include "app/export/results_csv.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {
namespace {

const char* const kStatusNames[] = {"pending", "ok", "refused", "failed", "error"};

// The columns before and after the parameters'.
const std::vector<std::string> kHead = {"device", "variant", "problem", "precision", "m", "n", "k"};
const std::vector<std::string> kTail = {"status",    "reason",    "gflops",    "pct_of_cublas",
                                        "registers", "occupancy", "compile_s", "median_ms"};

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string row_text(const TuneTable& t, const std::string& variant, const std::vector<std::string>& params,
                     const TunePoint& p) {
  std::vector<std::string> f = {t.device,
                                variant,
                                to_string(t.problem),
                                to_string(t.precision),
                                std::to_string(t.shape.M),
                                std::to_string(t.shape.N),
                                std::to_string(t.shape.K)};
  f.insert(f.end(), params.begin(), params.end());
  const bool ran = p.status == TuneStatus::Ok || p.status == TuneStatus::Failed;
  f.push_back(to_string(p.status));
  f.push_back(p.reason);
  f.push_back(ran ? number(p.gflops) : "");
  f.push_back(ran && p.pct_of_cublas >= 0 ? number(p.pct_of_cublas) : "");
  f.push_back(p.registers > 0 ? std::to_string(p.registers) : "");
  f.push_back(p.occupancy >= 0 ? number(p.occupancy) : "");
  f.push_back(p.compile_seconds >= 0 ? number(p.compile_seconds) : "");
  f.push_back(ran ? number(p.median_ms) : "");
  std::string line;
  for (std::size_t i = 0; i < f.size(); ++i) line += (i ? "," : "") + csv_field(f[i]);
  return line + "\n";
}

// RFC 4180 records: fields split at commas outside quotes, "" inside quotes a quote; blank lines
// skipped. False for an unterminated quote.
bool csv_records(const std::string& text, std::vector<std::vector<std::string>>* out) {
  std::vector<std::string> record(1);
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"')
        record.back() += c;
      else if (i + 1 < text.size() && text[i + 1] == '"')
        record.back() += '"', ++i;
      else
        quoted = false;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      record.emplace_back(), any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !record[0].empty()) out->push_back(record);
      record.assign(1, ""), any = false;
    } else {
      record.back() += c;
    }
  }
  if (any || !record[0].empty()) out->push_back(record);
  return !quoted;
}

bool to_double(const std::string& s, double fallback, double* out) {
  if (s.empty()) {
    *out = fallback;
    return true;
  }
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

bool to_int(const std::string& s, long long* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtoll(s.c_str(), &end, 10);
  return end && *end == '\0';
}

}  // namespace

const char* to_string(TuneStatus s) {
  return kStatusNames[static_cast<int>(s)];
}

bool parse_tune_status(const std::string& text, TuneStatus* out) {
  for (int i = 0; i < 5; ++i)
    if (text == kStatusNames[i]) {
      *out = static_cast<TuneStatus>(i);
      return true;
    }
  return false;
}

std::vector<TunePoint> check_tune_points(const VariantDescriptor& v, const std::vector<TileValues>& grid,
                                         Problem problem, Precision precision, const DeviceLimits* limits) {
  std::vector<TunePoint> points;
  for (const TileValues& values : grid) {
    TunePoint p;
    p.values = values;
    TileConfig cfg;
    if (!typed_tile_config(v, values, &cfg, &p.reason)) {
      p.status = TuneStatus::Refused;
    } else {
      p.config_index = add_typed_config(v, cfg);
      p.reason = limits ? unsupported_reason(v, p.config_index, problem, precision, *limits)
                        : variant_refusal(v, p.config_index, problem, precision);
      if (!p.reason.empty()) p.status = TuneStatus::Refused;
    }
    points.push_back(std::move(p));
  }
  return points;
}

void record_tune_result(const RunResult& r, TunePoint* p) {
  p->registers = r.registers_per_thread;
  p->occupancy = r.occupancy;
  if (!r.ok()) {
    p->status = TuneStatus::Error;
    p->reason = r.error;
    return;
  }
  p->gflops = r.gflops;
  p->median_ms = r.median_ms;
  p->status = r.verified && !r.passed ? TuneStatus::Failed : TuneStatus::Ok;
  if (p->status == TuneStatus::Failed) {
    char text[96];
    std::snprintf(text, sizeof text, "wrong result: relative error %.3g above the tolerance %.3g", r.rel_error,
                  r.tolerance);
    p->reason = r.unwritten > 0 ? std::to_string(r.unwritten) + " elements of C never written" : text;
  }
}

namespace {

// The type C of configuration `config_index` of variant `id` is stored in, for input type p.
OutputType config_output_type(const std::string& id, int config_index, Precision p) {
  const VariantDescriptor* v = find_variant(id);
  const bool known = v && config_index_error(*v, config_index).empty();
  return output_type(p, known && config_at(*v, config_index).c_in_input_type);
}

}  // namespace

OutputType point_output_type(const TuneTable& t, const TunePoint& p) {
  return config_output_type(t.variant, p.config_index, t.precision);
}

OutputType tune_output_type(const TuneTable& t) {
  for (const TunePoint& p : t.points)
    if (p.config_index >= 0) return point_output_type(t, p);
  return output_type(t.precision, false);
}

void fill_tune_pct(TuneTable* t) {
  const bool base = t->baseline.status == TuneStatus::Ok && t->baseline.gflops > 0;
  const VariantDescriptor* bv = find_variant(t->baseline_variant);
  const OutputType base_type =
      config_output_type(t->baseline_variant, bv ? find_config(*bv, t->baseline_config) : -1, t->precision);
  for (TunePoint& p : t->points)
    p.pct_of_cublas = base && p.status == TuneStatus::Ok && point_output_type(*t, p) == base_type
                          ? 100.0 * p.gflops / t->baseline.gflops
                          : -1;
}

bool tune_baseline(Problem problem, Precision precision, OutputType c_type, const DeviceLimits& limits,
                   const VariantDescriptor** v, int* config_index) {
  for (const VariantDescriptor* d : variant_registry()) {
    if (d->role != Role::Baseline) continue;
    for (int i = 0; i < static_cast<int>(d->configs.size()); ++i)
      if (is_baseline(*d, i) && unsupported_reason(*d, i, problem, precision, limits).empty() &&
          output_type(precision, d->configs[i].c_in_input_type) == c_type) {
        *v = d;
        *config_index = i;
        return true;
      }
  }
  return false;
}

std::string tune_to_csv(const TuneTable& t) {
  std::string header;
  std::vector<std::string> columns = kHead;
  columns.insert(columns.end(), t.keys.begin(), t.keys.end());
  columns.insert(columns.end(), kTail.begin(), kTail.end());
  for (std::size_t i = 0; i < columns.size(); ++i) header += (i ? "," : "") + csv_field(columns[i]);
  std::string out = header + "\n";
  for (const TunePoint& p : t.points) {
    std::vector<std::string> params;
    for (const std::string& key : t.keys) params.push_back(std::to_string(tile_value(p.values, key, 0)));
    out += row_text(t, t.variant, params, p);
  }
  if (!t.baseline_variant.empty())
    out += row_text(t, t.baseline_variant, std::vector<std::string>(t.keys.size()), t.baseline);
  return out;
}

bool tune_from_csv(const std::string& text, TuneTable* out, std::string* error) {
  std::vector<std::vector<std::string>> rows;
  if (!csv_records(text, &rows)) {
    *error = "an unterminated quote";
    return false;
  }
  if (rows.empty() || rows[0].size() < kHead.size() + kTail.size() + 1 ||
      !std::equal(kHead.begin(), kHead.end(), rows[0].begin()) ||
      !std::equal(kTail.rbegin(), kTail.rend(), rows[0].rbegin())) {
    *error = "line 1: not the header of a `tilescope tune --csv` file";
    return false;
  }
  TuneTable t;
  const std::size_t n_keys = rows[0].size() - kHead.size() - kTail.size();
  t.keys.assign(rows[0].begin() + static_cast<long>(kHead.size()),
                rows[0].begin() + static_cast<long>(kHead.size() + n_keys));
  for (std::size_t line = 1; line < rows.size(); ++line) {
    const std::vector<std::string>& f = rows[line];
    const std::string where = "line " + std::to_string(line + 1) + ": ";
    if (f.size() != rows[0].size()) {
      *error = where + std::to_string(f.size()) + " fields, the header has " + std::to_string(rows[0].size());
      return false;
    }
    TunePoint p;
    const std::size_t tail = kHead.size() + n_keys;
    long long m = 0, n = 0, k = 0, regs = 0;
    bool ok = parse_problem(f[2], &t.problem) && parse_precision(f[3], &t.precision) && to_int(f[4], &m) &&
              to_int(f[5], &n) && to_int(f[6], &k) && parse_tune_status(f[tail], &p.status) &&
              to_double(f[tail + 2], 0, &p.gflops) && to_double(f[tail + 3], -1, &p.pct_of_cublas) &&
              (f[tail + 4].empty() || to_int(f[tail + 4], &regs)) && to_double(f[tail + 5], -1, &p.occupancy) &&
              to_double(f[tail + 6], -1, &p.compile_seconds) && to_double(f[tail + 7], 0, &p.median_ms);
    p.reason = f[tail + 1];
    p.registers = static_cast<int>(regs);
    const bool is_baseline_row = f[kHead.size()].empty() && n_keys > 0;
    for (std::size_t i = 0; ok && !is_baseline_row && i < n_keys; ++i) {
      long long v = 0;
      ok = to_int(f[kHead.size() + i], &v);
      p.values.emplace_back(t.keys[i], static_cast<int>(v));
    }
    if (!ok) {
      *error = where + "a field does not parse";
      return false;
    }
    t.device = f[0];
    t.shape = Shape{m, n, k};
    if (is_baseline_row) {
      t.baseline_variant = f[1];
      t.baseline = p;
    } else {
      t.variant = f[1];
      t.points.push_back(std::move(p));
    }
  }
  *out = std::move(t);
  return true;
}

}  // namespace tilescope
