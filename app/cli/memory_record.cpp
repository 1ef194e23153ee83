#include "app/cli/memory_record.h"

#include <chrono>

#include "app/cli/memory_command.h"
#include "app/cli/recorded_difference.h"
#include "kernels/core/text_format.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/trace.h"

namespace tilescope {

namespace {

// What the comparison found, in words: "" when every address is the model's.
std::string difference_words(const WarpToCompare& w, const MappingModel& model, const RecordedWarp& r, int bx, int by) {
  const std::string difference = compare_recorded_warp(model, r, bx, by, w.warp);
  if (difference.empty() || w.edit_tag.empty()) return difference;
  // An edit: the access it moved, as the Memory view names it.
  const MovedAddress moved = first_moved_address(model, split_recording(model, r, bx, by, w.warp), bx, by, w.warp);
  return "the edited kernel's addresses differ from the shipped kernel's model " +
         (moved.found ? moved_address_words(model, moved) : "(" + difference + ")");
}

}  // namespace

int record_and_compare(const WarpToCompare& w, const MappingModel& model, std::ostream& out, std::ostream& err,
                       WarpRecord* record) {
  const Dim2 grid = model.grid(), threads = model.block();
  const int warps = (threads.x * threads.y + kWarpLanes - 1) / kWarpLanes;
  if (w.block >= grid.x * grid.y || w.warp >= warps) {
    err << "tilescope memory: --record " << w.block << "," << w.warp << ": this launch has " << grid.x * grid.y
        << " blocks of " << warps << " warps\n";
    return kMemoryBadArguments;
  }
  const DeviceInfo& device = probe_device();
  if (!device.ok()) {
    err << "tilescope memory: --record needs a GPU: " << device.unavailable_reason << "\n";
    return kMemoryNoGpu;
  }
  const int bx = w.block % grid.x, by = w.block / grid.x;
  const auto start = std::chrono::steady_clock::now();
  const RecordedWarp r = record_warp(w.variant->id, w.config_index, w.problem, w.precision, w.shape,
                                     {w.block, w.warp, steps_to_record(model, bx, by)}, 1);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.ok()) {
    err << "tilescope memory: the instrumented run failed: " << r.error << "\n";
    return kMemoryNoGpu;
  }
  const std::string difference = difference_words(w, model, r, bx, by);
  const char* same = w.edit_tag.empty() ? "every address as the model says"
                                        : "every address of the edited kernel as the shipped kernel's model says";
  out << format("    recorded warp %d of block %d on %s in %.3f s (%d steps): %s\n", w.warp, w.block,
                device.name.c_str(), seconds, r.steps, difference.empty() ? same : difference.c_str());
  if (record) {
    record->device = device.name;
    record->variant = w.variant->id;
    record->config = w.config_name;
    record->edit = w.edit_tag;
    record->problem = w.problem;
    record->precision = w.precision;
    record->shape = normalised(w.problem, w.shape);
    record->block = w.block;
    record->warp = w.warp;
    record->recorded = r;
  }
  return difference.empty() ? kMemoryOk : kMemoryRecordDiffers;
}

}  // namespace tilescope
