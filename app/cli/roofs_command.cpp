#include "app/cli/roofs_command.h"

#include <cstdio>
#include <exception>

#include "app/cli/bench_command.h"
#include "app/export/atomic_file.h"
#include "app/export/results_csv.h"
#include "app/export/roofs_cache.h"
#include "kernels/cuda/device_info.h"

namespace tilescope {

namespace {

std::string number(double v, const char* fmt = "%.1f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string pad(const std::string& s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string format_roof_table(const RoofTable& t) {
  std::string out =
      "Roofs of " + t.device_name + " (driver " + t.driver_version + ", measured " + t.measured_at + ")\n";
  const std::size_t w0 = 24, w1 = 10, w2 = 12, w3 = 12, w4 = 7, w5 = 7;
  out += pad("roof", w0, false) + pad("kind", w1, false) + pad("measured", w2, true) + pad("datasheet", w3, true) +
         pad("ratio", w4, true) + pad("MHz", w5, true) + "  unit\n";
  for (const Roof& r : t.roofs) {
    const double ratio = roof_ratio(r);
    out += pad(r.name, w0, false) + pad(to_string(r.kind), w1, false) +
           pad(r.measured > 0 ? number(r.measured) : "-", w2, true) +
           pad(r.datasheet > 0 ? number(r.datasheet) : "none", w3, true) +
           pad(ratio > 0 ? number(ratio, "%.3f") : "-", w4, true) +
           pad(r.clock_mhz > 0 ? number(r.clock_mhz, "%.0f") : "-", w5, true) + "  " + r.unit + "\n";
  }
  out +=
      "datasheet-derived: FP32/FP64 = SMs x FMA lanes per SM x 2 x max SM clock; HBM = memory clock x 2 x bus "
      "width. L2, shared memory and the tensor-core rows (mma.sync, wmma, wgmma) have no datasheet-derived figure "
      "here. "
      "MHz: the SM clock while a compute roof ran (a board at its power limit runs slower, random operands draw more "
      "power).\n";
  return out;
}

std::string roofs_to_csv(const RoofTable& t) {
  std::string out =
      "device,driver_version,measured_at,id,name,kind,precision,measured,datasheet,ratio,unit,clock_mhz,method\n";
  for (const Roof& r : t.roofs) {
    out += csv_field(t.device_name) + "," + csv_field(t.driver_version) + "," + csv_field(t.measured_at) + "," +
           csv_field(r.id) + "," + csv_field(r.name) + "," + to_string(r.kind) + "," + csv_field(r.precision) + "," +
           number(r.measured, "%.3f") + "," + (r.datasheet > 0 ? number(r.datasheet, "%.3f") : "") + "," +
           (roof_ratio(r) > 0 ? number(roof_ratio(r), "%.4f") : "") + "," + csv_field(r.unit) + "," +
           (r.clock_mhz > 0 ? number(r.clock_mhz, "%.0f") : "") + "," + csv_field(r.method) + "\n";
  }
  return out;
}

int run_roofs(const BenchOptions& opt, std::ostream& out, std::ostream& err) {
  const DeviceInfo& device = probe_device();
  if (!device.ok()) {
    err << "tilescope: no usable GPU: "
        << (device.unavailable_reason.empty() ? "the CUDA device probe failed" : device.unavailable_reason) << "\n";
    return kExitNoGpu;
  }
  RoofTable table;
  try {
    err << "measuring the roofs of " << device.name << " ...\n";
    table = measure_roofs(device);
  } catch (const std::exception& e) {
    err << "tilescope bench: measuring the roofs failed: " << e.what() << "\n";
    return kExitRunFailed;
  }
  out << format_roof_table(table);

  std::string path, error;
  if (cache_roofs(roofs_cache_dir(), table, &path, &error))
    err << "cached in " << path << "\n";
  else
    err << "tilescope: not cached: " << error << "\n";  // the table above still stands

  int code = kExitOk;
  auto write = [&](const std::string& file, const std::string& text) {
    std::string why;
    if (write_file_atomically(file, text, &why)) {
      err << "wrote " << file << "\n";
    } else {
      err << "tilescope: " << why << "\n";
      code = kExitOutputFailed;
    }
  };
  if (!opt.json_path.empty()) write(opt.json_path, roofs_to_json(table));
  if (!opt.csv_path.empty()) write(opt.csv_path, roofs_to_csv(table));
  return code;
}

}  // namespace tilescope
