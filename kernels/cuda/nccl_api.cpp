#include "kernels/cuda/nccl_api.h"

#include <mutex>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_libraries.h"

namespace tilescope {
namespace {

struct Resolved {
  NcclApi api;
  std::string missing;  // the first symbol not found
  bool complete = false;
};

template <typename F>
void resolve(F*& slot, const char* symbol, std::string& missing) {
  slot = reinterpret_cast<F*>(nccl_symbol(symbol));
  if (!slot && missing.empty()) missing = symbol;
}

const Resolved& resolved() {
  static const Resolved r = [] {
    Resolved out;
    if (!nccl_library().loaded) return out;
    NcclApi& a = out.api;
    resolve(a.get_version, "ncclGetVersion", out.missing);
    resolve(a.comm_init_all, "ncclCommInitAll", out.missing);
    resolve(a.comm_destroy, "ncclCommDestroy", out.missing);
    resolve(a.comm_abort, "ncclCommAbort", out.missing);
    resolve(a.comm_get_async_error, "ncclCommGetAsyncError", out.missing);
    resolve(a.get_error_string, "ncclGetErrorString", out.missing);
    resolve(a.get_last_error, "ncclGetLastError", out.missing);
    resolve(a.group_start, "ncclGroupStart", out.missing);
    resolve(a.group_end, "ncclGroupEnd", out.missing);
    resolve(a.broadcast, "ncclBroadcast", out.missing);
    resolve(a.reduce, "ncclReduce", out.missing);
    resolve(a.all_reduce, "ncclAllReduce", out.missing);
    resolve(a.all_gather, "ncclAllGather", out.missing);
    out.complete = out.missing.empty();
    return out;
  }();
  return r;
}

}  // namespace

const NcclApi* nccl() {
  return resolved().complete ? &resolved().api : nullptr;
}

std::string nccl_api_missing_symbol() {
  return resolved().missing;
}

std::string nccl_unusable_reason() {
  if (nccl()) return "";
  const std::string missing = missing_nccl_sentence();
  return !missing.empty()
             ? missing
             : "the loaded NCCL lacks " + nccl_api_missing_symbol() + " (the splits need NCCL 2.12 or newer)";
}

std::string nccl_version_text() {
  const NcclApi* api = nccl();
  int v = 0;
  if (!api || api->get_version(&v) != kNcclSuccess) return "";
  // NCCL_VERSION(X, Y, Z): X * 10000 + Y * 100 + Z since 2.9 (X * 1000 + Y * 100 + Z before).
  const int major = v >= 10000 ? v / 10000 : v / 1000;
  const int minor = v >= 10000 ? (v / 100) % 100 : (v / 100) % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(v % 100);
}

void throw_nccl_error(const char* expr, const char* file, int line, int result) {
  const NcclApi* api = nccl();
  std::string what = "NCCL error " + std::to_string(result);
  if (api) {
    what += std::string(": ") + api->get_error_string(result);
    const char* last = api->get_last_error(nullptr);
    if (last && *last) what += std::string(" (") + last + ")";
  }
  throw_gpu_error(expr, file, line, what);
}

}  // namespace tilescope
