// NCCL is loaded at run time (kernels/cuda/nccl_api.h): its values declared here agree with the
// library's header where this machine has one; a machine with the library loads every function
// the splits call, reads its version and has NVLink multicast off unless the environment said
// otherwise; one without it says which library is missing and what for.
#include "kernels/cuda/nccl_api.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_libraries.h"

#if __has_include(<nccl.h>)
#include <nccl.h>
// Our values and the header's, compared as the ints the ABI passes.
constexpr bool same(int ours, int theirs) {
  return ours == theirs;
}
static_assert(same(tilescope::kNcclSuccess, ncclSuccess) && same(tilescope::kNcclInProgress, ncclInProgress));
static_assert(same(tilescope::kNcclUint8, ncclUint8) && same(tilescope::kNcclFloat16, ncclFloat16) &&
              same(tilescope::kNcclFloat32, ncclFloat32) && same(tilescope::kNcclFloat64, ncclFloat64) &&
              same(tilescope::kNcclBfloat16, ncclBfloat16));
static_assert(same(tilescope::kNcclSum, ncclSum));
#endif

using namespace tilescope;

TEST(NcclLibrary, LoadsWhereInstalledOrSaysWhyNot) {
  const RuntimeLibrary& lib = nccl_library();
  EXPECT_EQ(lib.soname, "libnccl.so.2");
  if (!lib.loaded) {
    const std::string why = missing_nccl_sentence();
    EXPECT_NE(why.find("libnccl.so.2"), std::string::npos) << why;
    EXPECT_NE(why.find("splits"), std::string::npos) << why;
    EXPECT_EQ(nccl(), nullptr);
    EXPECT_EQ(nccl_unusable_reason(), why);
    GTEST_SKIP() << "NCCL is not installed here: " << why;
  }
  EXPECT_EQ(missing_nccl_sentence(), "");
  ASSERT_NE(nccl(), nullptr) << nccl_unusable_reason();
  EXPECT_EQ(nccl_unusable_reason(), "");
  const std::string version = nccl_version_text();
  EXPECT_EQ(version.rfind("2.", 0), 0u) << version;
  // Loading it switched NVLink multicast off, unless the environment had a say first.
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  ASSERT_NE(nvls, nullptr);
}

TEST(NcclLibrary, AFailedCallThrowsWithNcclsWords) {
  if (!nccl()) GTEST_SKIP() << "NCCL is not installed here";
  try {
    NCCL_CHECK(nccl()->comm_init_all(nullptr, 0, nullptr));  // no communicators: invalid
    FAIL() << "ncclCommInitAll of nothing succeeded";
  } catch (const GpuError& e) {
    EXPECT_NE(std::string(e.what()).find("NCCL error"), std::string::npos) << e.what();
  }
}
