// The GPUs tab's section "The model: more GPUs": for the product of the run shown (its kernel and
// configuration, problem, type, shape), every split of the history that has a model, its speed-up
// over the kernel alone on one GPU (or the efficiency) against the number of GPUs: the model's
// prediction from 1 to 64 GPUs as a line, the measured runs as dots of the same colour, the ideal
// faint; hover a point for its figures. The predictions come from the rows' own link figures
// (kernels/multi/split_forecast.h): a loaded file is drawn without measuring anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/viz/speedup_plot.h"
#include "kernels/multi/split_forecast.h"

namespace tilescope {

class TimingHistory;

class SplitModelView {
 public:
  // `shown` is the history's row `shown_row`; `link_error` why the window's runner could not measure
  // the link ("" when it could, or did not try).
  void draw(const TimingHistory& history, std::size_t shown_row, const RunResult& shown, const std::string& link_error);
  // What the y axis shows (the radio buttons above the plot; scripts: gpus-model).
  void show(ModelAxis axis) { shows_ = axis; }

 private:
  void refresh(const TimingHistory& history, std::size_t shown_row, const RunResult& shown);
  void draw_plot(const RunResult& shown);

  std::uint64_t version_ = ~std::uint64_t{0};  // the history's version the model was worked out for
  std::size_t row_ = ~std::size_t{0};          // and the row shown then
  std::vector<RunResult> rows_;                // the shown product's rows (model_ points into them)
  std::vector<PredictedSplit> model_;
  std::string missing_;  // why there is no model, when model_ is empty
  ModelAxis shows_ = ModelAxis::Speedup;
};

}  // namespace tilescope
