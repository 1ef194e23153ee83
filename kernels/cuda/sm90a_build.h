// Whether this file was compiled for sm_90a (CMakeLists.txt defines TILESCOPE_SM90A_CODE for the
// files it compiles for 90a): the host's answer to "is there code to run" for the variants whose
// kernels use wgmma_ptx.cuh.
#pragma once

namespace tilescope {

#ifdef TILESCOPE_SM90A_CODE
constexpr bool kSm90aCodeBuilt = true;
#else
constexpr bool kSm90aCodeBuilt = false;
#endif

}  // namespace tilescope
