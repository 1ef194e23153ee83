#include "kernels/cuda/sm_clock.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>

#include "kernels/cuda/cuda_libraries.h"

namespace tilescope {

namespace {

// The few NVML entry points used, by their C signatures (nvml.h): every call returns 0 on success.
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM
using NvmlInit = int (*)();
using NvmlHandleByPciBusId = int (*)(const char* bus_id, void** device);

}  // namespace

double median_or_zero(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

SmClockSampler::SmClockSampler(int cuda_device) {
  const RuntimeLibrary nvml = load_runtime_library("NVML", "libnvidia-ml.so.1", "the SM clock during timed runs", {});
  if (!nvml.loaded) {
    why_ = "NVML (libnvidia-ml.so.1) could not be loaded";
    return;
  }
  auto symbol = [&](const char* name) { return dlsym(nvml.handle, name); };
  const auto init = reinterpret_cast<NvmlInit>(symbol("nvmlInit_v2"));
  const auto by_bus_id = reinterpret_cast<NvmlHandleByPciBusId>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
  const auto read = reinterpret_cast<ReadClock>(symbol("nvmlDeviceGetClockInfo"));
  shutdown_ = reinterpret_cast<int (*)()>(symbol("nvmlShutdown"));
  if (!init || !by_bus_id || !read || !shutdown_) {
    why_ = "NVML lacks the functions needed";
    shutdown_ = nullptr;
    return;
  }
  if (init() != 0) {
    why_ = "NVML did not start";
    shutdown_ = nullptr;
    return;
  }
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess || by_bus_id(bus_id, &device_) != 0) {
    cudaGetLastError();  // a failed query leaves no error behind for the next CUDA check
    why_ = "NVML does not know this CUDA device";
    return;
  }
  unsigned mhz = 0;
  if (read(device_, kNvmlClockSm, &mhz) != 0) {
    why_ = "NVML gives no SM clock for this device";
    return;
  }
  read_ = read;
}

SmClockSampler::~SmClockSampler() {
  stop();
  if (shutdown_) shutdown_();
}

double SmClockSampler::read_now() const {
  unsigned mhz = 0;
  return read_ && read_(device_, kNvmlClockSm, &mhz) == 0 ? mhz : 0;
}

void SmClockSampler::start() {
  stop();
  if (!read_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    samples_.clear();
  }
  sample();
  running_ = true;
  thread_ = std::thread([this] {
    while (running_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(kPeriodMs));
      sample();
    }
  });
}

void SmClockSampler::sample() {
  const double mhz = read_now();
  if (mhz <= 0) return;  // a failed reading is no sample
  std::lock_guard<std::mutex> lock(mutex_);
  samples_.push_back(mhz);
}

double SmClockSampler::stop() {
  if (!thread_.joinable()) return 0;
  running_ = false;
  thread_.join();
  sample();
  std::lock_guard<std::mutex> lock(mutex_);
  return median_or_zero(std::move(samples_));
}

}  // namespace tilescope
