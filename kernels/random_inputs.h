// Deterministic random matrix entries, the same on host and device: element `index` of the
// input numbered `stream` for a given seed. Values are uniform in [-1, 1), never zero, and
// exactly representable in float, so a float and a double run see the same numbers and one
// double reference serves both.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define TILESCOPE_HD __host__ __device__ __forceinline__
#else
#define TILESCOPE_HD inline
#endif

namespace tilescope {

TILESCOPE_HD std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

TILESCOPE_HD double input_value(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t h = splitmix64(splitmix64(seed * 0x100000001B3ull + stream) ^ index);
  // 23 random bits: a multiple of 2^-22 in [-1, 1), shifted by half a step so it is never 0.
  const std::int64_t bits = static_cast<std::int64_t>(h >> 41);  // 0 .. 2^23-1
  return (static_cast<double>(bits) - 4194304.0 + 0.5) / 4194304.0;
}

}  // namespace tilescope
