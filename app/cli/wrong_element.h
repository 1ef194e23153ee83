// Where a failed check tells the learner to look: the first wrong element of C, its value and the
// reference's, and who wrote it according to the variant's mapping model (the proofs make the
// model equal to what the kernel did). "C(12, 40) = 3.125, the reference 2.875: written by block
// (1, 0), thread (8, 4)". Said by `tilescope bench` under a FAIL and by the window's Source view
// under a run of an edited kernel.
#pragma once

#include <string>

#include "kernels/core/variant.h"
#include "kernels/measure/measure.h"

namespace tilescope {

// "" when the run located no wrong element (RunResult::wrong_row < 0). `config_index` is the
// configuration whose model names the owner (the tile of an edit: an edit changes the text, not
// the tile); the owner is left out where v has no model.
std::string wrong_element_sentence(const RunResult& r, const VariantDescriptor& v, int config_index);

// The same for the configuration the row names, looked up in this process ("" when it has none).
std::string wrong_element_sentence(const RunResult& r);

}  // namespace tilescope
