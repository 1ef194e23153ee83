// What every launch file does alike, written once: turning a configuration's run-time index into
// the compile-time row its kernel template takes, building the descriptor's configuration list from
// the rows of the compiled set, the model factory, and
// the timed and traced launches made from one launch template. Host code for launch files only
// (nvcc compiles them; the kernel texts never include this).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/core/kernel_names.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/instrument/probe.cuh"
#include "kernels/instrument/timeline.h"
#include "kernels/instrument/timeline_probe.cuh"

namespace tilescope {

namespace detail {
// fn(C{}) for the first of the compile-time constants Cs whose value is `value`, and what it returns;
// GpuError(`none`) when none is.
template <typename Fn, typename Value, typename... Cs>
auto select(Value value, Fn& fn, const std::string& none) {
  using Result = decltype(fn(std::tuple_element_t<0, std::tuple<Cs...>>{}));
  if constexpr (std::is_void_v<Result>) {
    if (!((value == Cs::value ? (fn(Cs{}), true) : false) || ...)) throw GpuError(none);
  } else {
    std::optional<Result> out;
    if (!((value == Cs::value ? (out.emplace(fn(Cs{})), true) : false) || ...)) throw GpuError(none);
    return *out;
  }
}
template <typename Fn, int... C>
auto with_row(const VariantDescriptor& v, int index, Fn& fn, std::integer_sequence<int, C...>) {
  return select<Fn, int, std::integral_constant<int, C>...>(index, fn, config_index_error(v, index));
}
}  // namespace detail

// Calls fn(std::integral_constant<int, C>{}) for the row C == index of a compiled set of kRows
// rows, and returns what it returns: a kernel template takes its row at compile time, a launch
// knows it at run time. An index outside the set throws GpuError naming it (config_index_error).
template <int kRows, typename Fn>
auto with_row(const VariantDescriptor& v, int index, Fn&& fn) {
  return detail::with_row(v, index, fn, std::make_integer_sequence<int, kRows>{});
}

// Calls fn(std::integral_constant<Precision, P>{}) for P == precision, one of the input types a
// kernel template is compiled for (kTypes), and returns what it returns; another type throws
// GpuError (the descriptor refuses it before any launch).
template <Precision... kTypes, typename Fn>
auto with_precision(Precision precision, Fn&& fn) {
  return detail::select<Fn, Precision, std::integral_constant<Precision, kTypes>...>(
      precision, fn, std::string("no kernel is compiled for ") + to_string(precision));
}
// The input types of the tensor-core kernels.
template <typename Fn>
auto with_tensor_core_precision(Precision precision, Fn&& fn) {
  return with_precision<Precision::F16, Precision::BF16, Precision::TF32, Precision::F64>(precision, fn);
}

// The descriptor's configuration list: to_config(row) for every row, in the table's order.
template <typename Row, std::size_t kRows, typename ToConfig>
std::vector<TileConfig> configs_of(const Row (&rows)[kRows], ToConfig to_config) {
  std::vector<TileConfig> out;
  for (const Row& row : rows) out.push_back(to_config(row));
  return out;
}

// The row a configuration was built from (configs_of keeps the table's order, so the index is the
// row); nullptr for a configuration of no row (a name from elsewhere).
template <typename Row, std::size_t kRows>
const Row* row_of(const Row (&rows)[kRows], const std::vector<TileConfig>& configs, const TileConfig& cfg) {
  for (std::size_t i = 0; i < kRows && i < configs.size(); ++i)
    if (configs[i].name == cfg.name) return &rows[i];
  return nullptr;
}

// VariantDescriptor::model for a model class built from a row of the compiled set:
// Model(row, problem, precision, the problem's normalised shape).
template <typename Model, const auto& kRows>
std::unique_ptr<MappingModel> row_model(int config_index, Problem problem, Precision precision, const Shape& shape) {
  return std::make_unique<Model>(kRows[config_index], problem, precision, normalised(problem, shape));
}

// The element type of an FMA kernel (float or double) for a precision, as fn's argument:
// fn(float{}) or fn(double{}).
template <typename Fn>
auto with_fma_type(Precision precision, Fn&& fn) {
  return precision == Precision::F32 ? fn(float{}) : fn(double{});
}

// The probe type as a template argument of a name expression (kernel_names.h), and the header that
// declares it beyond the kernel text's own includes, for the kernels a launch compiles at run time.
struct ProbeSpelling {
  const char* name;
  const char* header;  // "": the kernel text includes it (NoProbe)
};
template <typename Probe>
ProbeSpelling probe_spelling() {
  if constexpr (std::is_same_v<Probe, TraceProbe>) {
    return {"tilescope::TraceProbe", "kernels/instrument/probe.cuh"};
  } else if constexpr (std::is_same_v<Probe, TimelineProbe>) {
    return {kTimelineProbeName, kTimelineProbeHeader};
  } else {
    static_assert(std::is_same_v<Probe, NoProbe>, "a probe without a spelling for run-time compiles");
    return {kNoProbeName, ""};
  }
}

// The timed and the traced launch (VariantDescriptor::launch, launch_traced) from one template,
// Launch::run(args, config_index, probe), so that both take exactly the same path.
template <typename Launch>
void set_launches(VariantDescriptor& v) {
  v.launch = [](const GemmArgs& g, int config_index) { Launch::run(g, config_index, NoProbe{}); };
  v.launch_traced = [](const GemmArgs& g, int config_index, const TraceBuffers& trace) {
    Launch::run(g, config_index, TraceProbe{trace});
  };
}

}  // namespace tilescope
