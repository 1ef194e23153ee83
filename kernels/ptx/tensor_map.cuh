// CUtensorMap, the TMA's description of a matrix in global memory, under both compilers. nvcc
// has the driver API's <cuda.h> (the host fills a map with cuTensorMapEncodeTiled); NVRTC has no
// host headers, and a kernel only passes a map on to the TMA, so here it is the opaque struct
// <cuda.h> declares: the same name (a kernel's mangled name keeps CUtensorMap_st), size and
// alignment.
#pragma once

#ifdef __CUDACC_RTC__
typedef struct CUtensorMap_st {
  alignas(128) unsigned long opaque[16];  // CU_TENSOR_MAP_NUM_QWORDS of cuuint64_t
} CUtensorMap;
static_assert(sizeof(CUtensorMap) == 128, "the size <cuda.h> gives CUtensorMap");
#else
#include <cuda.h>  // CUtensorMap (the type only: the driver is reached through the runtime)
#endif
