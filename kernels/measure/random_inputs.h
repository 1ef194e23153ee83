// Deterministic random matrix entries, the same on host and device: element `index` of the
// input numbered `stream` for a given seed, for a run in each input type. Values are odd
// multiples of 2^-p in (-1, 1), p the type's significand bits (53 double, 24 float, 11 TF32 and
// FP16, 8 BF16): uniform, symmetric, never zero, exactly representable in the type (FP16's
// smallest, 2^-11, is above its smallest normal 2^-14), and with as many random bits as the type
// holds. Full mantissas make every product and
// sum round in either type, so the check against the FP64 reference sees the rounding of the
// arithmetic under test (with fewer bits, products of doubles were exact and every double run
// reported an error of exactly 0). Both values come from the same 64 random bits (the float's
// are the top 24 of the double's 53; TF32's, FP16's and BF16's the top 11 or 8), and every
// operation below is exact, so the host and the device produce them bit for bit. The host keeps
// the narrow types' values as float or double (exact); the device converts them to __half or
// __nv_bfloat16, also exactly.
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

TILESCOPE_HD std::uint64_t input_bits(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix64(splitmix64(seed * 0x100000001B3ull + stream) ^ index);
}

// The input of a double run: (2b + 1 - 2^53) / 2^53 for 53 random bits b, an odd integer below
// 2^53 in magnitude (exact in double) times a power of two (exact).
TILESCOPE_HD double input_value(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::int64_t bits = static_cast<std::int64_t>(input_bits(seed, stream, index) >> 11);  // 0 .. 2^53-1
  const std::int64_t odd = 2 * bits + 1 - (std::int64_t{1} << 53);
  return static_cast<double>(odd) * 0x1p-53;
}

// The input of a run whose type holds p <= 24 significant bits: (2b + 1 - 2^p) / 2^p for the top
// p random bits b, an odd integer below 2^p in magnitude (exact in float) times a power of two.
TILESCOPE_HD float input_value_narrow(std::uint64_t seed, std::uint64_t stream, std::uint64_t index,
                                      int significand_bits) {
  const auto bits = static_cast<std::int32_t>(input_bits(seed, stream, index) >> (64 - significand_bits));
  const std::int32_t odd = 2 * bits + 1 - (std::int32_t{1} << significand_bits);
  return static_cast<float>(odd) * (1.0f / static_cast<float>(std::int32_t{1} << significand_bits));
}

// The input of a float run: the top 24 random bits, exact in float.
TILESCOPE_HD float input_value_f32(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return input_value_narrow(seed, stream, index, 24);
}

// The input of a run in T (float or double).
template <typename T>
TILESCOPE_HD T input_value_as(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);
template <>
TILESCOPE_HD float input_value_as<float>(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return input_value_f32(seed, stream, index);
}
template <>
TILESCOPE_HD double input_value_as<double>(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return input_value(seed, stream, index);
}

}  // namespace tilescope
