#include "app/gl_gemm/shader_time_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gl_gemm/shader_gemm.h"

namespace tilescope {
namespace {

ShaderTimeRequest scaled(const ShaderTimeRequest& request, double factor) {
  ShaderTimeRequest out = request;
  out.M = std::max(1, static_cast<int>(request.M * factor));
  out.N = std::max(1, static_cast<int>(request.N * factor));
  out.K = std::max(1, static_cast<int>(request.K * factor));
  return out;
}

// Sizes a learner types: multiples of 64 from 128 on.
int round_down_to_a_typed_size(int n) {
  return n >= 128 ? n / 64 * 64 : n;
}

// The advice of a refusal: the largest sizes of the same shape that fit the limit (the fetches
// grow with M * N * K, padding aside, so a bisection on the scale finds them).
std::string what_fits(const ShaderTimeRequest& request, double fetches_per_second, double limit_seconds) {
  double low = 0, high = 1;
  for (int i = 0; i < 40; ++i) {
    const double mid = (low + high) / 2;
    if (estimated_shader_seconds(scaled(request, mid), fetches_per_second) <= limit_seconds)
      low = mid;
    else
      high = mid;
  }
  ShaderTimeRequest fits = scaled(request, low);
  fits.M = round_down_to_a_typed_size(fits.M);
  fits.N = round_down_to_a_typed_size(fits.N);
  fits.K = round_down_to_a_typed_size(fits.K);
  if (estimated_shader_seconds(fits, fetches_per_second) > limit_seconds) return "fewer repetitions";
  if (request.M == request.N && request.N == request.K)
    return "N <= " + std::to_string(fits.N) + " (or fewer repetitions)";
  return "sizes up to about " + shader_size_text(fits.M, fits.N, fits.K) + " (or fewer repetitions)";
}

}  // namespace

std::string shader_size_text(int M, int N, int K) {
  if (M == N && N == K) return std::to_string(N);
  return std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K);
}

std::string readable_duration(double seconds) {
  char text[32];
  if (seconds < 90)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 90 * 60)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  return text;
}

double estimated_shader_seconds(const ShaderTimeRequest& request, double fetches_per_second) {
  if (fetches_per_second <= 0) return 0;
  const ShaderPlanSummary plan = describe_shader_layout(request.mode, request.M, request.N, request.K);
  return plan.fetches * std::max(1, request.runs) / fetches_per_second;
}

std::string shader_time_refusal(const ShaderTimeRequest& request, const ShaderFetchRate& rate, double limit_seconds) {
  if (limit_seconds <= 0 || rate.fetches_per_second <= 0) return "";
  const double seconds = estimated_shader_seconds(request, rate.fetches_per_second);
  if (seconds <= limit_seconds) return "";
  const int runs = std::max(1, request.runs);
  char rate_text[64];
  std::snprintf(rate_text, sizeof rate_text, "%.0f million texel fetches/s", rate.fetches_per_second / 1e6);
  return request.variant + " " + request.config + " at " + shader_size_text(request.M, request.N, request.K) +
         " would take about " + readable_duration(seconds) + " on this renderer (" + rate.renderer +
         "): " + std::to_string(runs) + (runs == 1 ? " run" : " runs") + " of about " +
         readable_duration(seconds / runs) + " at " + rate_text + ", measured here on " + rate.measured_on +
         "; the limit for the texture shaders on a software renderer is " + readable_duration(limit_seconds) +
         ": choose " + what_fits(request, rate.fetches_per_second, limit_seconds);
}

}  // namespace tilescope
