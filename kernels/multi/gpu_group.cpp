#include "kernels/multi/gpu_group.h"

#include <cublas_v2.h>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_scope.h"

namespace tilescope {

int cuda_gpu_count() {
  int have = 0;
  if (cudaGetDeviceCount(&have) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return have;
}

std::string gpu_count_error(int count) {
  const int have = cuda_gpu_count();
  if (count < 1) return "--gpus needs at least 1 GPU (got " + std::to_string(count) + ")";
  if (count > have)
    return "asks for " + std::to_string(count) + " GPUs; this machine has " + std::to_string(have) +
           (have == 1 ? " CUDA GPU" : " CUDA GPUs");
  return "";
}

std::vector<std::string> gpu_names(int count) {
  std::vector<std::string> names;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    names.push_back(prop.name);
  }
  return names;
}

GpuGroup::GpuGroup(int count) {
  if (std::string bad = gpu_count_error(count); !bad.empty()) throw GpuError(bad);
  for (int d = 0; d < count; ++d) {
    devices_.push_back(d);
    auto g = std::make_unique<PerGpu>();
    DeviceScope on(d);
    CUDA_CHECK(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&g->transfer, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasCreate(&g->cublas));
    gpus_.push_back(std::move(g));
  }
}

GpuGroup::~GpuGroup() {
  if (const NcclApi* api = comms_.empty() && teams_.empty() ? nullptr : nccl()) {
    for (NcclComm c : comms_) api->comm_destroy(c);
    for (auto& [ranks, comms] : teams_)
      for (NcclComm c : comms) api->comm_destroy(c);
  }
  for (std::size_t i = 0; i < gpus_.size(); ++i) {
    if (cudaSetDevice(devices_[i]) != cudaSuccess) continue;
    PerGpu& g = *gpus_[i];
    g.a.release();
    g.b.release();
    g.c.release();
    g.scratch.release();
    if (g.cublas) cublasDestroy(g.cublas);
    if (g.compute) cudaStreamDestroy(g.compute);
    if (g.transfer) cudaStreamDestroy(g.transfer);
  }
  cudaSetDevice(0);
}

void GpuGroup::ensure_communicators() {
  if (!comms_.empty()) return;
  const NcclApi* api = nccl();
  if (!api) throw GpuError(nccl_unusable_reason());
  std::vector<NcclComm> comms(devices_.size(), nullptr);
  NCCL_CHECK(api->comm_init_all(comms.data(), size(), devices_.data()));
  comms_ = std::move(comms);
}

void GpuGroup::drop_communicators() {
  if (const NcclApi* api = nccl()) {
    for (NcclComm c : comms_) api->comm_abort(c);
    for (auto& [ranks, comms] : teams_)
      for (NcclComm c : comms) api->comm_abort(c);
  }
  comms_.clear();
  teams_.clear();
}

const std::vector<NcclComm>& GpuGroup::team_communicators(const std::vector<int>& ranks) {
  auto found = teams_.find(ranks);
  if (found != teams_.end()) return found->second;
  ensure_communicators();  // NCCL is there (or this throws why not)
  std::vector<int> devices;
  for (int r : ranks) devices.push_back(devices_.at(r));
  std::vector<NcclComm> comms(ranks.size(), nullptr);
  NCCL_CHECK(nccl()->comm_init_all(comms.data(), static_cast<int>(comms.size()), devices.data()));
  return teams_[ranks] = std::move(comms);
}

std::vector<GpuShare> GpuGroup::shares_for(const SplitLayout& layout, std::size_t input_bytes, std::size_t c_bytes) {
  std::vector<GpuShare> shares;
  for (std::size_t i = 0; i < gpus_.size(); ++i) {
    PerGpu& g = *gpus_[i];
    const GpuLayout& l = layout.gpus.at(i);
    DeviceScope on(devices_[i]);
    g.a.resize(static_cast<std::size_t>(l.a_elements) * input_bytes);
    g.b.resize(static_cast<std::size_t>(l.b_elements) * input_bytes);
    g.c.resize(static_cast<std::size_t>(l.c_elements) * c_bytes);
    g.scratch.resize(l.scratch_bytes);
    GpuShare s;
    s.device = devices_[i];
    s.compute = g.compute;
    s.transfer = g.transfer;
    s.cublas = g.cublas;
    s.comm = comms_.empty() ? nullptr : comms_[i];
    s.a = g.a.get();
    s.b = g.b.get();
    s.c = g.c.get();
    s.scratch = g.scratch.get();
    shares.push_back(s);
  }
  return shares;
}

void GpuGroup::synchronize() const {
  for (std::size_t i = 0; i < gpus_.size(); ++i) {
    DeviceScope on(devices_[i]);
    CUDA_CHECK(cudaStreamSynchronize(gpus_[i]->compute));
    CUDA_CHECK(cudaStreamSynchronize(gpus_[i]->transfer));
  }
}

}  // namespace tilescope
