#include "app/ui/shell/tile_editor.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/runner/runner.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/kernel_names.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"
#include "kernels/jit/occupancy.h"

namespace tilescope {

namespace {

const ImVec4 kRefusedColour(1, 0.6f, 0.3f, 1);
const ImVec4 kErrorColour(1, 0.45f, 0.35f, 1);

std::string kib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return text;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The compile of one tile, on the editor's thread: the job (the kernel text read from the disk),
// then NVRTC through the disk cache.
TileCompile run_compile(const VariantDescriptor& v, TileCompile c, const std::string& driver,
                        const CompileDropped& dropped) {
  c.program = compile_kernels(v, c.names, c.architecture, driver, dropped);
  if (!c.program.compiled && c.program.lowered.empty() && c.program.diagnostics.empty()) c.error = c.program.error;
  return c;
}

}  // namespace

const VariantDescriptor* TileEditor::sync(const AppState& state) {
  variant_ = nullptr;
  if (state.focused < 0 || state.focused >= static_cast<int>(state.lesson.size())) return nullptr;
  const LessonEntry& e = state.lesson[state.focused];
  const VariantDescriptor* v = find_variant(e.variant_id);
  if (!v || !takes_typed_tiles(*v) || !config_index_error(*v, e.config_index).empty()) return nullptr;
  variant_ = v;
  // The type and problem the learner chose, where the variant computes them.
  precision_ = supports(*v, state.precision) ? state.precision : v->precisions.front();
  problem_ = supports(*v, state.problem) ? state.problem : v->problems.front();
  const std::string selected = e.variant_id + ":" + config_at(*v, e.config_index).name;
  if (selected != synced_) {
    // Another row focused or another configuration chosen: the fields show it.
    synced_ = selected;
    const TileValues values = v->tile_values_of(config_at(*v, e.config_index));
    fields_.clear();
    for (const TileParam& p : v->tile_params) fields_.push_back(tile_value(values, p.key, 0));
    settle_pending_ = false;
  }
  check_tile();
  return v;
}

void TileEditor::check_tile() {
  TileValues values;
  for (std::size_t i = 0; i < fields_.size(); ++i) values.emplace_back(variant_->tile_params[i].key, fields_[i]);
  refusal_.clear();
  if (!typed_tile_config(*variant_, values, &tile_, &refusal_)) return;
  // The variant's own rules for the chosen problem and type, as its configurations are checked.
  if (variant_->refuses) refusal_ = variant_->refuses(problem_, precision_, tile_);
}

std::string TileEditor::architecture(const TabContext& ctx) const {
  // Code of one architecture only is compiled for it, as the program compiles it to run.
  if (variant_ && variant_->max_compute_capability > 0)
    return "sm_" + std::to_string(variant_->max_compute_capability) + "a";
  if (ctx.runner.gpu()) return "sm_" + std::to_string(ctx.device.cc_major) + std::to_string(ctx.device.cc_minor);
  const std::vector<std::string>& archs = selectable_architectures();
  return archs[std::clamp(arch_choice_, 0, static_cast<int>(archs.size()) - 1)];
}

void TileEditor::set_value(const std::string& key, int value) {
  for (std::size_t i = 0; variant_ && i < fields_.size(); ++i)
    if (key == variant_->tile_params[i].key) {
      fields_[i] = value;
      settle_pending_ = true;
      edited_at_ = std::chrono::steady_clock::now();
    }
}

bool TileEditor::compile(const TabContext& ctx) {
  if (!sync(ctx.state) || !refusal_.empty() || job_) return false;
  TileCompile c;
  c.variant_id = variant_->id;
  c.tile = tile_.name;
  c.architecture = architecture(ctx);
  c.precision = precision_;
  c.problem = problem_;
  c.threads = tile_.threads();
  c.config = tile_;
  c.names = variant_->kernel_names(tile_, precision_, problem_);
  // The driver is part of the cache's key: the same as the runner's compile of this tile, so
  // that Run after "Use this tile" loads what was compiled here.
  const std::string driver = ctx.device.ok() ? driver_version_text() : "none";
  const VariantDescriptor* v = variant_;
  job_ = std::make_unique<BackgroundResult<TileCompile>>();
  job_dropped_ = std::make_shared<std::atomic<bool>>(false);
  job_->start([v, c, driver, dropped = CompileDropped(job_dropped_)] { return run_compile(*v, c, driver, dropped); });
  compiling_tile_ = c.tile;
  started_at_ = std::chrono::steady_clock::now();
  settle_pending_ = false;
  return true;
}

void TileEditor::cancel() {
  if (!job_) return;
  *job_dropped_ = true;
  abandoned_.push_back(std::move(job_));
}

bool TileEditor::use_tile(TabContext& ctx) {
  if (!sync(ctx.state) || !refusal_.empty()) return false;
  LessonEntry& e = ctx.state.lesson[ctx.state.focused];
  e.config_index = add_typed_config(*variant_, tile_);
  synced_ = e.variant_id + ":" + tile_.name;  // the fields already show it
  ctx.app.set_status(std::string(variant_->label) + ": the typed tile " + tile_.name +
                         " is now a configuration; Run times it (compiled at run time)",
                     false);
  return true;
}

void TileEditor::take_finished() {
  TileCompile done;
  if (job_ && job_->take_result(&done)) {
    job_.reset();
    result_ = std::move(done);
    has_result_ = true;
  }
  // A cancelled compile's thread is joined once it has ended: take_result returns at once then.
  abandoned_.erase(std::remove_if(abandoned_.begin(), abandoned_.end(),
                                  [](std::unique_ptr<BackgroundResult<TileCompile>>& j) {
                                    TileCompile dropped;
                                    return j->take_result(&dropped);
                                  }),
                   abandoned_.end());
}

void TileEditor::draw(TabContext& ctx) {
  take_finished();
  if (!sync(ctx.state)) return;
  // The edits have settled: compile them (one compile at a time; a later edit waits for it).
  if (settle_pending_ && !job_ && seconds_since(edited_at_) >= kSettleSeconds) {
    if (refusal_.empty())
      compile(ctx);
    else
      settle_pending_ = false;
  }
  ImGui::PushID("tile editor");
  section("Type a tile");
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "The kernel's template parameters: change them and see what the tile costs before any run. NVRTC "
      "compiles it here.");
  ImGui::PopTextWrapPos();
  draw_fields();
  ImGui::PushTextWrapPos(0);
  if (!refusal_.empty()) {
    ImGui::TextColored(kRefusedColour, "Not a tile this kernel takes: %s.", refusal_.c_str());
  } else {
    const std::size_t shared = variant_->shared_bytes ? variant_->shared_bytes(tile_, precision_) : 0;
    ImGui::TextDisabled("%d threads per block, %s of shared memory per block (%s).", tile_.threads(),
                        kib(shared).c_str(), precision_facts(precision_).label);
  }
  ImGui::PopTextWrapPos();
  draw_architecture(ctx);
  draw_buttons(ctx);
  draw_result();
  ImGui::PopID();
}

// One field per parameter, its key as label and its meaning on hover, in columns: as many to a row
// as the column holds, each cell as wide as the longest key needs, so the fields line up.
void TileEditor::draw_fields() {
  const float spacing = ImGui::GetStyle().ItemInnerSpacing.x, gap = ImGui::GetFontSize();
  float key_w = 0;
  for (const TileParam& p : variant_->tile_params) key_w = std::max(key_w, text_width(p.key));
  const float avail = ImGui::GetContentRegionAvail().x;
  // A field for five digits; narrower where even one cell would not fit.
  const float field_w = std::max(gap, std::min(gap * 3.5f, avail - spacing - key_w));
  const float cell = field_w + spacing + key_w;
  const int per_row = std::max(1, static_cast<int>((avail + gap) / (cell + gap)));
  const float x0 = ImGui::GetCursorPosX();
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const TileParam& p = variant_->tile_params[i];
    if (i % per_row != 0) ImGui::SameLine(x0 + static_cast<float>(i % per_row) * (cell + gap));
    ImGui::SetNextItemWidth(field_w);
    if (ImGui::InputInt(p.key, &fields_[i], 0, 0)) {
      settle_pending_ = true;
      edited_at_ = std::chrono::steady_clock::now();
    }
    help_tooltip(p.meaning);
  }
}

// The architecture compiled for: the GPU's, else a choice.
void TileEditor::draw_architecture(const TabContext& ctx) {
  const std::string arch = architecture(ctx);
  if (ctx.runner.gpu() || variant_->max_compute_capability > 0) {
    ImGui::TextDisabled("compiled for %s (%s)", arch.c_str(), ctx.runner.gpu() ? "this GPU" : "its architecture");
    return;
  }
  const std::vector<std::string>& archs = selectable_architectures();
  const char* label = "architecture";
  float widest = 0;
  for (const std::string& a : archs) widest = std::max(widest, text_width(a.c_str()));
  ImGui::SetNextItemWidth(combo_width(widest));
  if (ImGui::BeginCombo(label, arch.c_str())) {
    for (std::size_t i = 0; i < archs.size(); ++i)
      if (ImGui::Selectable(archs[i].c_str(), static_cast<int>(i) == arch_choice_) &&
          static_cast<int>(i) != arch_choice_) {
        arch_choice_ = static_cast<int>(i);
        settle_pending_ = refusal_.empty();  // what the tile costs there
        edited_at_ = std::chrono::steady_clock::now() - std::chrono::seconds(1);
      }
    ImGui::EndCombo();
  }
  help_tooltip(
      "No GPU here: the GPU to compile for. Registers, spills and occupancy are what the tile would cost on it "
      "(sm_90: H100, sm_80: A100, sm_86: RTX 30, sm_89: RTX 40 / L4).");
}

// Compile, or the progress with Cancel; then Use this tile.
void TileEditor::draw_buttons(TabContext& ctx) {
  const bool refused = !refusal_.empty();
  if (job_) {
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "compiling, %.1f s", seconds_since(started_at_));
    const float t = static_cast<float>(ImGui::GetTime());
    const float cancel_w = button_width("Cancel");
    ImGui::ProgressBar(t * 0.7f - static_cast<int>(t * 0.7f), ImVec2(-cancel_w - ImGui::GetStyle().ItemSpacing.x, 0),
                       overlay);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) cancel();
    help_tooltip(
        "Stop waiting for this compile. NVRTC cannot be interrupted: it finishes in the background and its "
        "result is dropped.");
  } else {
    ImGui::BeginDisabled(refused);
    if (ImGui::Button("Compile")) compile(ctx);
    ImGui::EndDisabled();
    help_tooltip(
        "Compile the tile now with NVRTC (it also compiles by itself half a second after you stop typing). "
        "A tile compiled before loads from the cache in milliseconds.");
  }
  const char* use_label = "Use this tile";
  same_line_if_fits(button_width(use_label));
  ImGui::BeginDisabled(refused);
  if (ImGui::Button(use_label)) use_tile(ctx);
  ImGui::EndDisabled();
  help_tooltip(
      "Add the tile to the variant's configurations and select it: Run and Sweep time it like a shipped one "
      "(compiled at run time). It stays in the list until the program ends.");
}

namespace {}  // namespace

void TileEditor::draw_result() {
  if (!has_result_ || result_.variant_id != variant_->id) return;
  const TileCompile& r = result_;
  const CompiledProgram& p = r.program;
  ImGui::PushTextWrapPos(0);
  // The tile's spelling broken after each comma: one unbroken 50-character word would run past the column.
  std::string tile;
  for (char c : r.tile) tile += c == ',' ? std::string(", ") : std::string(1, c);
  ImGui::Text("%s for %s, %s %s:", tile.c_str(), r.architecture.c_str(), precision_facts(r.precision).label,
              to_string(r.problem));
  if (!r.error.empty()) {
    ImGui::TextColored(kErrorColour, "%s", r.error.c_str());
  } else if (!p.compiled) {
    ImGui::TextColored(kErrorColour, "did not compile: %s", p.error.c_str());
    // Each message at its line of the kernel text.
    for (const SourceDiagnostic& d : p.diagnostics)
      ImGui::TextColored(d.severity == "error" ? kErrorColour : kRefusedColour, "%s line %d: %s: %s", d.file.c_str(),
                         d.line, d.severity.c_str(), d.message.c_str());
  } else {
    ArchitectureLimits arch;
    const bool known = architecture_limits(r.architecture, &arch);
    for (std::size_t i = 0; i < p.resources.size() && i < r.names.size(); ++i) {
      const KernelResources& k = p.resources[i];
      const std::size_t shared = shared_per_block(*variant_, r.config, r.precision, k);
      // The full name expression is too long for the column: the arguments that tell the kernels
      // apart, and the whole name on hover.
      ImGui::TextDisabled("kernel %zu of %zu%s", i + 1, r.names.size(), kernel_difference(r.names, i).c_str());
      help_tooltip(r.names[i].c_str());
      ImGui::Indent();
      const bool spills = k.spill_store_bytes > 0 || k.spill_load_bytes > 0;
      ImGui::TextColored(spills ? kRefusedColour : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                         "%d registers per thread, %d B spill stores, %d B spill loads, %d B stack", k.registers,
                         k.spill_store_bytes, k.spill_load_bytes, k.stack_bytes);
      ImGui::Text("%s shared memory per block, %d threads per block", kib(shared).c_str(), r.threads);
      if (known)
        ImGui::Text("occupancy: %s",
                    occupancy_sentence(occupancy(arch, r.threads, k.registers, shared), r.threads).c_str());
      else
        ImGui::TextDisabled("occupancy: the limits of %s are not known here", r.architecture.c_str());
      ImGui::Unindent();
    }
    if (p.from_cache)
      ImGui::TextDisabled("from the cache (compiled in %s the first time)",
                          format_ms(p.compile_seconds * 1000).c_str());
    else
      ImGui::TextDisabled("compiled in %s", format_ms(p.compile_seconds * 1000).c_str());
    if (!p.cache_note.empty()) ImGui::TextDisabled("cache: %s", p.cache_note.c_str());
  }
  ImGui::PopTextWrapPos();
}

}  // namespace tilescope
