// The SM clock while runs are timed. A board at its power limit lowers its clock by hundreds of
// MHz during a long GEMM (an H100 at 700 W: from 1980 to 1500-1800 MHz), so a time means little
// without the clock it ran at. NVML, the driver's management library, is read every few
// milliseconds on a thread of its own while the timed runs go on; it is loaded at run time, and
// without it (no driver, a container that lacks it) nothing is sampled and the clock is unknown
// (0). The roofs table measures the clock of its roofs from the SMs' cycle counters instead
// (roofs_device.cuh), which needs a kernel of our own; this works for cuBLAS too.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tilescope {

class SmClockSampler {
 public:
  // For the CUDA device `cuda_device` (matched to NVML's by PCI bus id).
  explicit SmClockSampler(int cuda_device);
  ~SmClockSampler();
  SmClockSampler(const SmClockSampler&) = delete;
  SmClockSampler& operator=(const SmClockSampler&) = delete;

  // False when NVML is missing or does not know the device; start() and stop() then do nothing
  // but return 0. why_unavailable() says why, in a few words.
  bool available() const { return read_ != nullptr; }
  const std::string& why_unavailable() const { return why_; }

  // Samples from now until stop(), one at each end and one every kPeriodMs between.
  void start();
  // The median of the samples since start(), in MHz; 0 when nothing was sampled.
  double stop();

  // One reading now, in MHz (0 when unavailable).
  double read_now() const;

  static constexpr int kPeriodMs = 2;

 private:
  // One reading into samples_, unless it failed.
  void sample();

  using ReadClock = int (*)(void* device, int clock_type, unsigned* mhz);
  ReadClock read_ = nullptr;
  int (*shutdown_)() = nullptr;
  void* device_ = nullptr;
  std::string why_;

  std::thread thread_;
  std::atomic<bool> running_{false};
  std::mutex mutex_;
  std::vector<double> samples_;
};

// Samples while it lives: start() on construction, and stop() on destruction unless done()
// took the result first, so a run that throws does not leave the sampling thread polling.
class SampledSpan {
 public:
  explicit SampledSpan(SmClockSampler& sampler) : sampler_(sampler) { sampler_.start(); }
  ~SampledSpan() {
    if (!done_) sampler_.stop();
  }
  SampledSpan(const SampledSpan&) = delete;
  SampledSpan& operator=(const SampledSpan&) = delete;
  // SmClockSampler::stop()'s median.
  double done() {
    done_ = true;
    return sampler_.stop();
  }

 private:
  SmClockSampler& sampler_;
  bool done_ = false;
};

// The median of `values` (0 for none): the middle one, or the mean of the middle two.
double median_or_zero(std::vector<double> values);

}  // namespace tilescope
