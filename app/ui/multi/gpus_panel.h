// The GPUs tab: a run split across GPUs as it ran. Its timeline, a product row and a transfer row
// per GPU, each piece a bar from when it started to when it ended (hover: what it was), so that a
// transfer hidden under a product, or a product waiting for its panel, can be seen; how much of
// each GPU's transfers hid; where the pieces lay, A at the start and C at the end, coloured by
// GPU; and the model's speed-up on 1 to 64 GPUs beside the measured ones (split_model_view.h).
// The run shown is the newest split run of the history (a Run with a split, or a JSON that
// `tilescope bench --gpus` wrote, loaded), or one picked from the list. The tab is in the bar
// where the machine has several GPUs or the history holds such a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/ui/multi/split_model_view.h"
#include "app/ui/shell/tab.h"

namespace tilescope {

struct RunResult;

class GpusPanel : public Tab {
 public:
  const char* title() const override { return "GPUs"; }
  void draw(TabContext& ctx) override;
  // In the bar where the machine has several GPUs or the history holds a split run.
  bool in_tab_bar(const TabContext& ctx) override;
  // Scrolls the tab, once it is drawn, to its top or to the model's section (scripts: gpus-scroll).
  enum class Section { Top, Model };
  void scroll_to(Section s) { scroll_to_ = s, scroll_pending_ = true; }
  SplitModelView& model() { return model_; }

 private:
  void refresh(const TabContext& ctx);
  std::uint64_t checked_version_ = ~std::uint64_t{0};  // the history's version last looked through
  std::vector<std::size_t> split_rows_;                // its split runs (row indices), newest first
  std::vector<double> speedups_;                       // each one's speed-up over one GPU (<= 0: none)
  void draw_timeline(TabContext& ctx, const RunResult& r);
  void draw_placement(const RunResult& r);
  std::size_t shown_ = 0;  // the split run shown: its index among the history's split runs, newest first
  SplitModelView model_;
  Section scroll_to_ = Section::Top;
  bool scroll_pending_ = false;
  void scroll_here(Section s);
};

}  // namespace tilescope
