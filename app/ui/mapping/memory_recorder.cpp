#include "app/ui/mapping/memory_recorder.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/cli/recorded_difference.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/text_format.h"
#include "kernels/core/typed_configs.h"
#include "kernels/instrument/recorded_warp.h"

namespace tilescope {

bool ShownWarp::same_configuration(const ShownWarp& o) const {
  return variant == o.variant && config == o.config && problem == o.problem && precision == o.precision &&
         shape.M == o.shape.M && shape.N == o.shape.N && shape.K == o.shape.K;
}

std::string shown_words(const ShownWarp& s) {
  return format("warp %d of block %d, %s %s, %s %s at %lld x %lld x %lld", s.warp, s.block, s.variant.c_str(),
                s.config.c_str(), to_string(s.problem), to_string(s.precision), static_cast<long long>(s.shape.M),
                static_cast<long long>(s.shape.N), static_cast<long long>(s.shape.K));
}

const WarpAccess* RecordedAccesses::at(int site, int step) const {
  if (site < 0 || site >= static_cast<int>(split.size())) return nullptr;
  const std::vector<WarpAccess>& steps = split[static_cast<std::size_t>(site)];
  return step >= 0 && step < static_cast<int>(steps.size()) ? &steps[static_cast<std::size_t>(step)] : nullptr;
}

namespace {

ShownWarp shown_of(const WarpRecord& r) {
  return ShownWarp{r.variant, r.config, r.problem, r.precision, r.shape, r.block, r.warp};
}

// The record cut into the model's accesses, and where it parts from the model.
std::unique_ptr<RecordedAccesses> cut(const WarpRecord& r, const MappingModel& model) {
  auto out = std::make_unique<RecordedAccesses>();
  out->of = shown_of(r);
  out->device = r.device;
  out->edit = r.edit;
  const int gx = std::max(1, model.grid().x), bx = r.block % gx, by = r.block / gx;
  out->split = split_recording(model, r.recorded, bx, by, r.warp);
  out->difference = compare_recorded_warp(model, r.recorded, bx, by, r.warp);
  if (!out->difference.empty() && !r.edit.empty()) {
    // An edit: the access it moved, as the view's controls name it.
    // One line where it can be, above two columns on a projector: the site, step and lane, and
    // the byte the shipped kernel's model gives against the one the edit recorded.
    const MovedAddress moved = first_moved_address(model, out->split, bx, by, r.warp);
    if (moved.found && moved.recorded >= 0 && moved.modelled >= 0)
      out->difference =
          format("the edit moved '%s' at step %d, lane %d from byte %lld to %lld",
                 model.access_sites()[static_cast<std::size_t>(moved.site)].name.c_str(), moved.step, moved.lane,
                 static_cast<long long>(moved.modelled), static_cast<long long>(moved.recorded));
    else
      out->difference = "the edited kernel's addresses differ from the shipped kernel's model " +
                        (moved.found ? moved_address_words(model, moved) : "(" + out->difference + ")");
  }
  return out;
}

// Why a kept recording went: what the view shows instead.
std::string dropped(const ShownWarp& was, const ShownWarp& now, bool edit) {
  return format("The %s (%s) was dropped: the view shows %s now, with the model's addresses.",
                edit ? "edited kernel's recording" : "recording", shown_words(was).c_str(),
                was.same_configuration(now) ? "another block or warp" : "another configuration or size");
}

}  // namespace

std::string MemoryRecorder::refusal(const VariantDescriptor& v, const RecordingInputs& in, bool edited) const {
  if (edited && in.edit_text.empty())
    return "The Source tab's editor holds no edit of " + std::string(v.id) + ": edit its text there first.";
  if (!in.unavailable.empty()) return in.unavailable;
  if (!v.launch_traced) return std::string(v.id) + " has no instrumented build to record a warp with.";
  if (edited && !takes_typed_tiles(v))
    return std::string(v.id) + " cannot run an edited text: its kernels are not compiled at run time.";
  if (job_.working()) return "A warp is being recorded: wait for it, or cancel it.";
  if (job_.program().empty()) return "No program to record with.";
  return "";
}

bool MemoryRecorder::record(const ShownWarp& shown, const VariantDescriptor& v, const RecordingInputs& in, bool edited,
                            std::string* why) {
  *why = refusal(v, in, edited);
  if (!why->empty()) return false;
  MemoryRecordRequest r;
  r.variant = &v;
  r.config_name = shown.config;
  r.problem = shown.problem;
  r.precision = shown.precision;
  r.shape = shown.shape;
  r.block = shown.block;
  r.warp = shown.warp;
  if (edited) r.edited_text = in.edit_text;
  if (!job_.start(r, why)) return false;
  note_.clear();
  return true;
}

void MemoryRecorder::keep(WarpRecord record) {
  const bool edit = !record.edit.empty();
  (edit ? pending_edited_ : pending_shipped_) = std::make_unique<WarpRecord>(std::move(record));
  (edit ? edited_ : shipped_).reset();
}

bool MemoryRecorder::load(const std::string& path, const ShownWarp& shown, int* block, int* warp, std::string* why) {
  std::vector<WarpRecord> records;
  if (!read_recorded_warps_file(path, &records, why)) return false;
  std::string held;
  for (WarpRecord& r : records) {
    if (shown_of(r).same_configuration(shown)) {
      *block = r.block, *warp = r.warp;
      keep(std::move(r));
      note_.clear();
      return true;
    }
    held += (held.empty() ? "" : "; ") + shown_words(shown_of(r));
  }
  *why = path + " holds no recording of " + shown.variant + " " + shown.config + ", " + to_string(shown.problem) + " " +
         to_string(shown.precision) +
         format(" at %lld x %lld x %lld", static_cast<long long>(shown.shape.M), static_cast<long long>(shown.shape.N),
                static_cast<long long>(shown.shape.K)) +
         " (it holds: " + held + ")";
  return false;
}

void MemoryRecorder::poll() {
  MemoryRecordOutcome o;
  if (!job_.take_outcome(&o)) return;
  if (!o.ok || o.records.empty()) {
    note_ = o.cancelled ? "The recording was cancelled." : "Recording failed: " + o.summary;
    return;
  }
  keep(std::move(o.records.front()));
}

void MemoryRecorder::follow(const ShownWarp& shown, const MappingModel& model) {
  for (bool edit : {false, true}) {
    std::unique_ptr<WarpRecord>& pending = edit ? pending_edited_ : pending_shipped_;
    std::unique_ptr<RecordedAccesses>& kept = edit ? edited_ : shipped_;
    if (pending) {
      if (shown_of(*pending) == shown)
        kept = cut(*pending, model);
      else
        note_ = dropped(shown_of(*pending), shown, edit);
      pending.reset();
    }
    if (kept && !(kept->of == shown)) {
      note_ = dropped(kept->of, shown, edit);
      kept.reset();
    }
  }
}

void MemoryRecorder::draw_buttons(const ShownWarp& shown, const VariantDescriptor& v, const RecordingInputs& in) {
  const float em = ImGui::GetFontSize();
  if (job_.busy()) {
    const double limit = job_.request().time_limit_s, s = job_.seconds();
    char label[96];
    std::snprintf(label, sizeof label, "recording %s: %.1f s of %.0f s",
                  job_.request().edited_text.empty() ? "on the GPU" : "the edit", s, limit);
    same_line_if_fits(em * 14);
    ImGui::ProgressBar(static_cast<float>(std::min(1.0, s / limit)), ImVec2(em * 13, 0), label);
    help_tooltip(
        "A worker process runs the instrumented kernel and records this warp's addresses; the window goes on. A "
        "kernel that faults or never ends stops the worker, not the window.");
    same_line_if_fits(button_width("Cancel##record"));
    if (ImGui::Button("Cancel##record")) cancel();
    return;
  }
  shipped_refusal_ = refusal(v, in, false);
  edited_refusal_ = refusal(v, in, true);
  std::string why;
  const char* kRecord = "Record on the GPU";
  same_line_if_fits(button_width(kRecord), em);
  ImGui::BeginDisabled(!shipped_refusal_.empty());
  if (ImGui::Button(kRecord) && !record(shown, v, in, false, &why)) note_ = why;
  ImGui::EndDisabled();
  help_tooltip(shipped_refusal_.empty()
                   ? "Runs the instrumented kernel in a worker process and records this warp's addresses at every "
                     "step of every access: the picture then shows what the kernel did, and says whether it is the "
                     "model's."
                   : shipped_refusal_.c_str());
  if (in.edit_text.empty()) return;  // offered where the editor holds an edit of this variant
  const char* kEdited = "Record the edited kernel";
  same_line_if_fits(button_width(kEdited));
  ImGui::BeginDisabled(!edited_refusal_.empty());
  if (ImGui::Button(kEdited) && !record(shown, v, in, true, &why)) note_ = why;
  ImGui::EndDisabled();
  help_tooltip(edited_refusal_.empty()
                   ? "Records this warp of the kernel as the Source tab's editor holds it, and draws its access "
                     "beside the shipped kernel's: an address the edit moved shows as the sectors or bank conflicts "
                     "it makes."
                   : edited_refusal_.c_str());
}

}  // namespace tilescope
