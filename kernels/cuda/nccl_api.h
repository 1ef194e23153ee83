// The part of NCCL's interface that the splits across GPUs call (kernels/multi/), declared here
// from NCCL 2's documented ABI (libnccl.so.2) and resolved at run time from the library that
// cuda_libraries.h loads: the build needs no NCCL header and the program no NCCL, like cuBLAS.
// tests/cpu/nccl_api_test.cpp holds these values against <nccl.h> where a machine has it.
//
// Every call goes through nccl() and NCCL_CHECK: a failed one throws GpuError with NCCL's words.
#pragma once

#include <cstddef>
#include <string>

struct CUstream_st;

namespace tilescope {

struct NcclCommunicator;  // ncclComm: one rank's communicator, opaque
using NcclComm = NcclCommunicator*;

// ncclResult_t, ncclDataType_t and ncclRedOp_t: the values the splits use.
enum NcclResult : int { kNcclSuccess = 0, kNcclInProgress = 7 };
enum NcclType : int { kNcclUint8 = 1, kNcclFloat16 = 6, kNcclFloat32 = 7, kNcclFloat64 = 8, kNcclBfloat16 = 9 };
enum NcclOp : int { kNcclSum = 0 };

// NCCL's functions, as pointers into the loaded library.
struct NcclApi {
  int (*get_version)(int* version) = nullptr;
  int (*comm_init_all)(NcclComm* comms, int count, const int* devices) = nullptr;
  int (*comm_destroy)(NcclComm comm) = nullptr;
  int (*comm_abort)(NcclComm comm) = nullptr;
  int (*comm_get_async_error)(NcclComm comm, int* error) = nullptr;
  const char* (*get_error_string)(int result) = nullptr;
  const char* (*get_last_error)(NcclComm comm) = nullptr;
  int (*group_start)() = nullptr;
  int (*group_end)() = nullptr;
  int (*broadcast)(const void* send, void* recv, std::size_t count, int type, int root, NcclComm comm,
                   CUstream_st* stream) = nullptr;
  int (*reduce)(const void* send, void* recv, std::size_t count, int type, int op, int root, NcclComm comm,
                CUstream_st* stream) = nullptr;
  int (*all_reduce)(const void* send, void* recv, std::size_t count, int type, int op, NcclComm comm,
                    CUstream_st* stream) = nullptr;
  int (*all_gather)(const void* send, void* recv, std::size_t send_count, int type, NcclComm comm,
                    CUstream_st* stream) = nullptr;
};

// The functions of the loaded NCCL, or nullptr when it (or one of them) is missing: then
// missing_nccl_sentence() (cuda_libraries.h) or nccl_api_missing_symbol() says why.
const NcclApi* nccl();
// The first function the loaded library lacks ("" when none, or when NCCL itself is missing).
std::string nccl_api_missing_symbol();
// Why the splits cannot use NCCL here, in one sentence ("" when nccl() is usable): the library
// missing (cuda_libraries.h), or one of its functions.
std::string nccl_unusable_reason();
// "2.28.9" from ncclGetVersion's 22809, "" when NCCL is missing.
std::string nccl_version_text();

[[noreturn]] void throw_nccl_error(const char* expr, const char* file, int line, int result);

}  // namespace tilescope

#define NCCL_CHECK(expr)                                                         \
  do {                                                                           \
    const int tilescope_nccl_ = (expr);                                          \
    if (tilescope_nccl_ != ::tilescope::kNcclSuccess)                            \
      ::tilescope::throw_nccl_error(#expr, __FILE__, __LINE__, tilescope_nccl_); \
  } while (0)
