// The roofs' pure parts: the datasheet arithmetic, the ridge point, the JSON file and its
// cache (round trip, key, fallbacks, bad files), and `bench --roofs`'s arguments and table.
// The measurements themselves need a GPU: tests/gpu/gpu_roofs_test.cpp.
#include "kernels/roofs/roofs.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "app/cli/bench_args.h"
#include "app/cli/roofs_command.h"
#include "app/export/roofs_cache.h"
#include "kernels/cuda/device_info.h"
#include "kernels/roofs/roofs_fed.h"
#include "kernels/roofs/roofs_wgmma.h"
#include "tests/support/run_program.h"

namespace tilescope {
namespace {

// An H100 SXM as the driver describes it: 132 SMs at 1980 MHz, HBM3 at 2619 MHz on 5120 bits;
// its peaks derived from those figures as the probe derives them.
DeviceInfo h100_like() {
  DeviceInfo d;
  d.availability = GpuAvailability::Available;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.memory_clock_khz = 2619000;
  d.memory_bus_bits = 5120;
  d.driver_version = 13000;
  derive_peaks(d);
  return d;
}

TEST(Roofs, DramBandwidthFromClockAndBusMatchesTheH100Datasheet) {
  // NVIDIA's datasheet: 3.35 TB/s for the H100 SXM5 80 GB; 67 TFLOP/s FP32, 34 FP64 (non-tensor).
  const DeviceInfo d = h100_like();
  EXPECT_NEAR(d.peak_dram_gbps, 3350.0, 3350.0 * 0.005);
  EXPECT_NEAR(d.peak_fp32_gflops, 67000.0, 67000.0 * 0.01);
  EXPECT_NEAR(d.peak_fp64_gflops, 34000.0, 34000.0 * 0.02);
  EXPECT_EQ(dram_bandwidth_gbps(0, 5120), 0.0);
  EXPECT_EQ(dram_bandwidth_gbps(2619000, 0), 0.0);
  // Twice the clock, twice the bandwidth; half the bus, half.
  EXPECT_DOUBLE_EQ(dram_bandwidth_gbps(2000000, 256) * 2, dram_bandwidth_gbps(4000000, 256));
  EXPECT_DOUBLE_EQ(dram_bandwidth_gbps(2000000, 256), dram_bandwidth_gbps(2000000, 512) / 2);
}

TEST(Roofs, DatasheetTableHasEveryRoofOnceWithValuesWhereTheyExist) {
  const DeviceInfo d = h100_like();
  const RoofTable t = datasheet_table(d);
  EXPECT_EQ(t.device_name, d.name);
  EXPECT_EQ(t.driver_version, "13.0");
  for (const char* id : {kRoofFp32Fma, kRoofFp64Fma, kRoofHbmCopy, kRoofHbmRead, kRoofL2Read, kRoofSharedRead})
    ASSERT_NE(t.find(id), nullptr) << id;
  for (std::size_t i = 0; i < t.roofs.size(); ++i)
    for (std::size_t j = i + 1; j < t.roofs.size(); ++j) EXPECT_NE(t.roofs[i].id, t.roofs[j].id);
  EXPECT_DOUBLE_EQ(t.find(kRoofFp32Fma)->datasheet, d.peak_fp32_gflops);
  EXPECT_DOUBLE_EQ(t.find(kRoofFp64Fma)->datasheet, d.peak_fp64_gflops);
  EXPECT_DOUBLE_EQ(t.find(kRoofHbmCopy)->datasheet, d.peak_dram_gbps);
  EXPECT_EQ(t.find(kRoofL2Read)->datasheet, 0.0);
  EXPECT_EQ(t.find(kRoofSharedRead)->datasheet, 0.0);
  EXPECT_EQ(t.find(kRoofFp32Fma)->precision, "f32");
  EXPECT_EQ(t.find(kRoofFp64Fma)->precision, "f64");
  for (const Roof& r : t.roofs) {
    EXPECT_EQ(r.unit, r.kind == RoofKind::Compute ? "GFLOP/s" : "GB/s") << r.id;
    EXPECT_EQ(r.measured, 0.0) << r.id;  // nothing measured yet
    EXPECT_FALSE(r.method.empty()) << r.id;
  }
  // No measurement: no top roofs and no ratio.
  EXPECT_EQ(t.top_compute("f32"), nullptr);
  EXPECT_EQ(t.dram(), nullptr);
  EXPECT_EQ(roof_ratio(*t.find(kRoofFp32Fma)), 0.0);
}

DeviceInfo with_compute_capability(DeviceInfo d, int major, int minor) {
  d.cc_major = major;
  d.cc_minor = minor;
  return d;
}

// The tensor-core rows: each a compute roof in GFLOP/s for one of the precisions the GEMM
// types name, worth 2*M*N*K per instruction of its shape, without a datasheet value, and only
// on the devices whose architecture has the instruction.
TEST(Roofs, TensorCoreRowsAreWellFormedComputeRoofs) {
  struct Expected {
    const char* id;
    const char* precision;
    int m, n, k, min_cc;
  };
  const Expected expected[] = {
      {kRoofMmaF16, "f16", 16, 8, 16, 80},         {kRoofMmaBf16, "bf16", 16, 8, 16, 80},
      {kRoofMmaTf32, "tf32", 16, 8, 8, 80},        {kRoofMmaF64M8n8k4, "f64", 8, 8, 4, 80},
      {kRoofMmaF64M16n8k16, "f64", 16, 8, 16, 90}, {kRoofWmmaF16, "f16", 16, 16, 16, 70},
      {kRoofWmmaTf32, "tf32", 16, 16, 8, 80},      {kRoofWmmaF64, "f64", 8, 8, 4, 80},
      {kRoofWgmmaF16, "f16", 64, 128, 16, 90},     {kRoofWgmmaBf16, "bf16", 64, 128, 16, 90},
      {kRoofWgmmaTf32, "tf32", 64, 128, 8, 90},    {kRoofMmaFedF16, "f16", 16, 8, 16, 80},
      {kRoofMmaFedBf16, "bf16", 16, 8, 16, 80},    {kRoofMmaFedTf32, "tf32", 16, 8, 8, 80},
  };
  ASSERT_EQ(tensor_roof_specs().size(), std::size(expected));
  for (const Expected& e : expected) {
    const TensorRoofSpec* spec = nullptr;
    for (const TensorRoofSpec& s : tensor_roof_specs())
      if (std::string(s.id) == e.id) spec = &s;
    ASSERT_NE(spec, nullptr) << e.id;
    EXPECT_EQ(spec->flops_per_instruction, 2.0 * e.m * e.n * e.k) << e.id;
    EXPECT_EQ(spec->min_cc, e.min_cc) << e.id;
    // The precision is one the GEMM types know by that name.
    Precision p;
    ASSERT_TRUE(parse_precision(spec->precision, &p)) << e.id;
    EXPECT_EQ(std::string(to_string(p)), e.precision) << e.id;
  }

  // An sm_90 part has every tensor-core row; the wgmma ones (sm_90a code) only from a build whose
  // architectures include 90, as this one's do when it says it holds them.
  const RoofTable h100 = datasheet_table(h100_like());
  int h100_rows = 0;
  for (const Expected& e : expected) {
    const Roof* r = h100.find(e.id);
    const TensorRoofSpec* spec = nullptr;
    for (const TensorRoofSpec& s : tensor_roof_specs())
      if (std::string(s.id) == e.id) spec = &s;
    EXPECT_EQ(spec->arch_specific, e.m == 64) << e.id << ": the wgmma rows, and only they, are sm_90a code";
    if (spec->arch_specific && !wgmma_roofs_built()) {
      EXPECT_EQ(r, nullptr) << e.id;
      continue;
    }
    ASSERT_NE(r, nullptr) << e.id << ": an sm_90 part has every tensor-core row";
    ++h100_rows;
    EXPECT_EQ(r->kind, RoofKind::Compute) << e.id;
    EXPECT_EQ(r->precision, e.precision) << e.id;
    EXPECT_EQ(r->unit, "GFLOP/s") << e.id;
    EXPECT_EQ(r->datasheet, 0.0) << e.id << ": no per-SM tensor rate among the device attributes";
    EXPECT_NE(r->method.find("no datasheet value"), std::string::npos) << e.id;
    EXPECT_FALSE(r->name.empty()) << e.id;
  }
  // The compute rows come before the bandwidth rows.
  bool seen_bandwidth = false;
  for (const Roof& r : h100.roofs) {
    if (r.kind == RoofKind::Bandwidth) seen_bandwidth = true;
    EXPECT_FALSE(seen_bandwidth && r.kind == RoofKind::Compute) << r.id;
  }

  // An sm_80 part has no m16n8k16 FP64 shape; a Turing part only wmma f16; an unknown one none.
  const RoofTable a100 = datasheet_table(with_compute_capability(h100_like(), 8, 0));
  EXPECT_EQ(a100.find(kRoofMmaF64M16n8k16), nullptr);
  EXPECT_NE(a100.find(kRoofMmaF64M8n8k4), nullptr);
  EXPECT_NE(a100.find(kRoofMmaTf32), nullptr);
  const RoofTable ada = datasheet_table(with_compute_capability(h100_like(), 8, 9));
  EXPECT_EQ(ada.find(kRoofMmaF64M16n8k16), nullptr);
  EXPECT_NE(ada.find(kRoofMmaBf16), nullptr);
  const RoofTable turing = datasheet_table(with_compute_capability(h100_like(), 7, 5));
  EXPECT_NE(turing.find(kRoofWmmaF16), nullptr);
  for (const char* id : {kRoofMmaF16, kRoofMmaBf16, kRoofMmaTf32, kRoofMmaF64M8n8k4, kRoofWmmaTf32, kRoofWmmaF64})
    EXPECT_EQ(turing.find(id), nullptr) << id;
  // sm_90a code runs on compute capability 9.0 alone: a Blackwell part has every mma.sync row
  // but no wgmma one.
  const RoofTable blackwell = datasheet_table(with_compute_capability(h100_like(), 10, 0));
  EXPECT_NE(blackwell.find(kRoofMmaF64M16n8k16), nullptr);
  for (const char* id : {kRoofWgmmaF16, kRoofWgmmaBf16, kRoofWgmmaTf32}) {
    EXPECT_EQ(blackwell.find(id), nullptr) << id;
    EXPECT_EQ(a100.find(id), nullptr) << id;
  }
  const RoofTable unknown = datasheet_table(with_compute_capability(h100_like(), 0, 0));
  EXPECT_EQ(unknown.roofs.size(), h100.roofs.size() - h100_rows);
  // The plain roofs are the same on every part.
  for (const char* id : {kRoofFp32Fma, kRoofFp64Fma, kRoofHbmCopy, kRoofHbmRead, kRoofL2Read, kRoofSharedRead})
    EXPECT_NE(unknown.find(id), nullptr) << id;
}

RoofTable measured_table() {
  RoofTable t = datasheet_table(h100_like());
  t.measured_at = "2026-11-22T18:00:00Z";
  double v = 1000;
  for (Roof& r : t.roofs) {
    r.measured = (v *= 1.5);
    if (r.kind == RoofKind::Compute) r.clock_mhz = 1755;
  }
  return t;
}

Roof& roof(RoofTable& t, const std::string& id) {
  for (Roof& r : t.roofs)
    if (r.id == id) return r;
  throw std::runtime_error("no roof " + id);
}

// The smem-fed rows' traffic per instruction is the mma_sync kernel's with 128 x 256 block tiles
// and 64 x 64 warp tiles: a 48 KB slab (A 128 and B 256 rows of 128 bytes) feeds 8 warps x 4 k
// steps x 4 x 8 instructions. Beside the multiplied slab, as many landing slabs as fit, up to 3:
// an H100 (227 KB per block) 3, an A100 (163 KB) 2, sm_86/89 (99 KB) 1, less than two slabs none.
TEST(Roofs, SmemFedRowsCarryTheKernelsTraffic) {
  EXPECT_EQ(kFedRoofSlabBytes, std::size_t{(128 + 256) * 128});
  EXPECT_EQ(kFedRoofInstructionsPerSlab, (128 / 64) * (256 / 64) * 4 * (64 / 16) * (64 / 8));
  EXPECT_EQ(fed_roof_landings(227 * 1024), 3);
  EXPECT_EQ(fed_roof_landings(163 * 1024), 2);
  EXPECT_EQ(fed_roof_landings(99 * 1024), 1);
  EXPECT_EQ(fed_roof_landings(95 * 1024), 0);
  for (std::size_t kb : {227, 163, 99}) EXPECT_LE(fed_roof_shared_bytes(fed_roof_landings(kb * 1024)), kb * 1024);
}

TEST(Roofs, TopRoofsAndDram) {
  RoofTable t = measured_table();
  roof(t, kRoofHbmCopy).measured = 2800;
  roof(t, kRoofHbmRead).measured = 3000;
  EXPECT_EQ(t.dram()->id, kRoofHbmRead);
  roof(t, kRoofHbmCopy).measured = 3100;
  EXPECT_EQ(t.dram()->id, kRoofHbmCopy);
  EXPECT_EQ(t.top_compute("f32")->id, kRoofFp32Fma);
  // FP64 has the FMA pipe and the tensor cores' rows: the top is the highest measured of them.
  for (Roof& r : t.roofs)
    if (r.precision == "f64") r.measured = 30000;
  roof(t, kRoofMmaF64M16n8k16).measured = 66000;
  EXPECT_EQ(t.top_compute("f64")->id, kRoofMmaF64M16n8k16);
  roof(t, kRoofMmaF64M16n8k16).measured = 0;  // not measured: not a roof
  roof(t, kRoofFp64Fma).measured = 33000;
  EXPECT_EQ(t.top_compute("f64")->id, kRoofFp64Fma);
  for (Roof& r : t.roofs)
    if (r.precision == "tf32") r.measured = 0;
  EXPECT_EQ(t.top_compute("tf32"), nullptr);
  EXPECT_DOUBLE_EQ(roof_ratio(*t.find(kRoofHbmCopy)), 3100 / t.find(kRoofHbmCopy)->datasheet);
}

// A cached table is current when it has every roof this build measures on the device, each
// measured, every compute roof with its clock; one from an earlier version is measured again.
TEST(Roofs, ACachedTableIsCurrentOnlyWithEveryRoofAndClock) {
  const DeviceInfo device = h100_like();
  RoofTable t = measured_table();
  EXPECT_TRUE(roofs_current(t, device));
  RoofTable no_clock = t;
  roof(no_clock, kRoofMmaBf16).clock_mhz = 0;  // written before the clock was recorded
  EXPECT_FALSE(roofs_current(no_clock, device));
  RoofTable missing = t;
  missing.roofs.erase(missing.roofs.begin() + 2);  // written before a roof existed
  EXPECT_FALSE(roofs_current(missing, device));
  RoofTable unmeasured = t;
  roof(unmeasured, kRoofL2Read).measured = 0;
  EXPECT_FALSE(roofs_current(unmeasured, device));
  // Roofs it does not know (a later version's) do not make it stale.
  RoofTable extra = t;
  Roof later = t.roofs.front();
  later.id = "a_later_roof";
  extra.roofs.push_back(later);
  EXPECT_TRUE(roofs_current(extra, device));
}

TEST(Roofs, RidgePointIsWhereBandwidthMeetsCompute) {
  const double p = 60000, b = 3000;
  const double ridge = ridge_intensity(p, b);
  EXPECT_DOUBLE_EQ(ridge, 20.0);
  EXPECT_DOUBLE_EQ(roofline_bound(p, b, ridge), p);
  EXPECT_DOUBLE_EQ(roofline_bound(p, b, ridge / 4), b * ridge / 4);  // left of it: memory bound
  EXPECT_DOUBLE_EQ(roofline_bound(p, b, ridge * 4), p);              // right of it: compute bound
  EXPECT_EQ(ridge_intensity(0, b), 0.0);
  EXPECT_EQ(ridge_intensity(p, 0), 0.0);
}

TEST(RoofsFile, RoundTripsEveryField) {
  const RoofTable t = measured_table();
  RoofTable back;
  std::string error;
  ASSERT_TRUE(roofs_from_json(roofs_to_json(t), &back, &error)) << error;
  EXPECT_EQ(back.device_name, t.device_name);
  EXPECT_EQ(back.driver_version, t.driver_version);
  EXPECT_EQ(back.measured_at, t.measured_at);
  ASSERT_EQ(back.roofs.size(), t.roofs.size());
  for (std::size_t i = 0; i < t.roofs.size(); ++i) {
    EXPECT_EQ(back.roofs[i].id, t.roofs[i].id);
    EXPECT_EQ(back.roofs[i].name, t.roofs[i].name);
    EXPECT_EQ(back.roofs[i].kind, t.roofs[i].kind);
    EXPECT_EQ(back.roofs[i].precision, t.roofs[i].precision);
    EXPECT_DOUBLE_EQ(back.roofs[i].measured, t.roofs[i].measured);
    EXPECT_DOUBLE_EQ(back.roofs[i].datasheet, t.roofs[i].datasheet);
    EXPECT_EQ(back.roofs[i].unit, t.roofs[i].unit);
    EXPECT_EQ(back.roofs[i].method, t.roofs[i].method);
    EXPECT_DOUBLE_EQ(back.roofs[i].clock_mhz, t.roofs[i].clock_mhz);
  }
  // A roof without a datasheet value says null, not 0.
  EXPECT_NE(roofs_to_json(t).find("\"datasheet\": null"), std::string::npos);
}

TEST(RoofsFile, RejectsWhatIsNotARoofsFile) {
  RoofTable t;
  std::string error;
  EXPECT_FALSE(roofs_from_json("not json", &t, &error));
  EXPECT_FALSE(roofs_from_json("{\"roofs\": []}", &t, &error));
  EXPECT_NE(error.find("tilescope_roofs"), std::string::npos) << error;
  EXPECT_FALSE(roofs_from_json("{\"tilescope_roofs\": 1, \"roofs\": {}}", &t, &error));
  EXPECT_FALSE(roofs_from_json(
      "{\"tilescope_roofs\": 1, \"roofs\": [{\"id\": \"x\", \"kind\": \"sideways\", \"measured\": 1}]}", &t, &error));
  EXPECT_NE(error.find("kind"), std::string::npos) << error;
  EXPECT_FALSE(roofs_from_json(
      "{\"tilescope_roofs\": 1, \"roofs\": [{\"id\": \"x\", \"kind\": \"compute\", \"measured\": -5}]}", &t, &error));
  EXPECT_NE(error.find("measured"), std::string::npos) << error;
  EXPECT_FALSE(load_roofs_file("/nonexistent/roofs.json", &t, &error));
}

class RoofsCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tilescope_roofs_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string dir_;
};

TEST_F(RoofsCache, KeyedByDeviceAndDriverWithAnotherDriverAsFallback) {
  RoofTable t = measured_table();
  t.device_name = "GPU/with spaces";
  std::string path, error;
  ASSERT_TRUE(cache_roofs(dir_ + "/sub", t, &path, &error)) << error;  // creates the folder
  EXPECT_EQ(std::filesystem::path(path).parent_path(), std::filesystem::path(dir_ + "/sub"));
  EXPECT_EQ(std::filesystem::path(path).filename().string().find('/'), std::string::npos);
  EXPECT_EQ(path.find(' '), std::string::npos) << path;

  RoofTable found;
  bool exact = false;
  ASSERT_TRUE(find_cached_roofs(dir_ + "/sub", t.device_name, t.driver_version, &found, &exact));
  EXPECT_TRUE(exact);
  EXPECT_EQ(found.roofs.size(), t.roofs.size());
  // Another driver: the same device's table, marked inexact.
  ASSERT_TRUE(find_cached_roofs(dir_ + "/sub", t.device_name, "99.9", &found, &exact));
  EXPECT_FALSE(exact);
  EXPECT_EQ(found.driver_version, t.driver_version);
  // Another device: nothing, even one whose name makes the same file-safe text.
  EXPECT_FALSE(find_cached_roofs(dir_ + "/sub", "GPU_with_spaces", t.driver_version, &found, &exact));
  EXPECT_FALSE(find_cached_roofs(dir_ + "/sub", "Another GPU", t.driver_version, &found, &exact));
  EXPECT_FALSE(find_cached_roofs("", t.device_name, t.driver_version, &found, &exact));
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_ + "/sub")) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST_F(RoofsCache, FolderFollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  EXPECT_EQ(roofs_cache_dir(), dir_ + "/tilescope");
  setenv("XDG_CACHE_HOME", "", 1);
  const char* home = std::getenv("HOME");
  if (home && *home) {
    EXPECT_EQ(roofs_cache_dir(), std::string(home) + "/.cache/tilescope");
  }
  if (old)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
}

TEST(BenchRoofs, ParsesAndRefusesSweepOptions) {
  EXPECT_TRUE(parse_bench_args({"--roofs"}).roofs);
  const BenchOptions with_files = parse_bench_args({"--roofs", "--json", "c.json", "--csv", "c.csv"});
  EXPECT_TRUE(with_files.ok()) << with_files.error;
  EXPECT_EQ(with_files.json_path, "c.json");
  EXPECT_FALSE(parse_bench_args({"--roofs", "--sizes", "1024"}).ok());
  EXPECT_FALSE(parse_bench_args({"--roofs", "--variants", "all"}).ok());
  EXPECT_FALSE(parse_bench_args({"--roofs", "--list"}).ok());
  EXPECT_NE(bench_usage().find("--roofs"), std::string::npos);
  EXPECT_NE(bench_synopsis().find("--roofs"), std::string::npos);
}

TEST(BenchRoofs, TableShowsMeasuredDatasheetAndRatio) {
  RoofTable t = measured_table();
  const std::string text = format_roof_table(t);
  for (const Roof& r : t.roofs) EXPECT_NE(text.find(r.name), std::string::npos) << r.name;
  EXPECT_NE(text.find("none"), std::string::npos);  // L2 and shared memory have no datasheet value
  // Every row's name stands apart from its kind, the longest tensor-core name included.
  for (const Roof& r : t.roofs) EXPECT_NE(text.find(r.name + " "), std::string::npos) << r.name;
  // The compute roofs say the clock they ran at, the bandwidth roofs have none.
  EXPECT_NE(text.find("MHz"), std::string::npos);
  EXPECT_NE(text.find(" 1755  GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find(" -  GB/s"), std::string::npos) << text;
  const std::string csv = roofs_to_csv(t);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(t.roofs.size() + 1));
  EXPECT_NE(csv.find(",unit,clock_mhz,method\n"), std::string::npos);
  EXPECT_NE(csv.find(",GFLOP/s,1755,"), std::string::npos);
}

TEST(BenchRoofs, WithoutAGpuSaysWhyAndExits3) {
  if (probe_device().ok()) GTEST_SKIP() << "a GPU is present: tests/gpu/gpu_roofs_test.cpp measures";
  const tilescope::testing::ProgramOutcome o = tilescope::testing::run_program(TILESCOPE_BINARY, "bench --roofs");
  const std::string& output = o.output;
  EXPECT_EQ(o.code, 3) << output;
  EXPECT_NE(output.find("no usable GPU"), std::string::npos) << output;
}

}  // namespace
}  // namespace tilescope
