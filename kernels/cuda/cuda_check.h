// Checked CUDA and cuBLAS calls. Inside the core a failed call throws GpuError (expression,
// file, line, message); Measurer::run turns it into RunResult::error, so the app abandons that
// run and shows why, while tools and tests treat it as fatal.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace tilescope {

class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_gpu_error(const char* expr, const char* file, int line, const std::string& what);
const char* cublas_status_name(cublasStatus_t s);

}  // namespace tilescope

#define CUDA_CHECK(expr)                                                                              \
  do {                                                                                                \
    cudaError_t tilescope_err_ = (expr);                                                              \
    if (tilescope_err_ != cudaSuccess)                                                                \
      ::tilescope::throw_gpu_error(                                                                   \
          #expr, __FILE__, __LINE__,                                                                  \
          std::string(cudaGetErrorName(tilescope_err_)) + ": " + cudaGetErrorString(tilescope_err_)); \
  } while (0)

#define CUBLAS_CHECK(expr)                                                                                     \
  do {                                                                                                         \
    cublasStatus_t tilescope_st_ = (expr);                                                                     \
    if (tilescope_st_ != CUBLAS_STATUS_SUCCESS)                                                                \
      ::tilescope::throw_gpu_error(#expr, __FILE__, __LINE__, ::tilescope::cublas_status_name(tilescope_st_)); \
  } while (0)

// After every kernel launch: a bad configuration shows up here, not at the next sync.
#define CUDA_CHECK_LAUNCH(what) CUDA_CHECK(cudaGetLastError())
