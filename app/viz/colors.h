// The mapping view's colours, one definition for the host path (mapping_images.cpp) and the
// CUDA path (interop.cu), so the two pictures are equal to the bit — a GPU test compares them.
// IM_COL32 layout: R in the low byte, alpha 255.
#pragma once

#include <cmath>

#include "kernels/measure/random_inputs.h"  // TILESCOPE_HD

namespace tilescope {

TILESCOPE_HD unsigned colour_channel(double v) {
  v = v < 0 ? 0 : (v > 1 ? 1 : v);
  return static_cast<unsigned>(v * 255.0 + 0.5);
}

TILESCOPE_HD unsigned pack_rgb(double r, double g, double b) {
  return colour_channel(r) | (colour_channel(g) << 8) | (colour_channel(b) << 16) | 0xFF000000u;
}

TILESCOPE_HD unsigned hsv_colour(double h, double s, double v) {
  h = h - floor(h);
  const double i = floor(h * 6), f = h * 6 - i;
  const double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
  switch (static_cast<int>(i) % 6) {
    case 0:
      return pack_rgb(v, t, p);
    case 1:
      return pack_rgb(q, v, p);
    case 2:
      return pack_rgb(p, v, t);
    case 3:
      return pack_rgb(p, q, v);
    case 4:
      return pack_rgb(t, p, v);
    default:
      return pack_rgb(v, p, q);
  }
}

// Golden-ratio hues: neighbouring blocks (and threads) get clearly different colours.
TILESCOPE_HD unsigned block_color(int block_linear, bool dimmed) {
  const double h = fmod(block_linear * 0.618033988749895, 1.0);
  return hsv_colour(h, dimmed ? 0.35 : 0.65, dimmed ? 0.45 : 0.85);
}

TILESCOPE_HD unsigned thread_color(int thread_linear) {
  const double h = fmod(thread_linear * 0.618033988749895 + 0.3, 1.0);
  return hsv_colour(h, 0.9, 1.0);
}

// Tensor-core kernels: a warp's lanes, the warps of a block and a lane's accumulator registers.
// Lanes: the mma layouts give lane l the group g = l / 4 (a row of C) and the thread t = l % 4 in
// it (a pair of columns), so the 8 groups get 8 hues, neighbours far apart (g * 3 mod 8), and
// the 4 threads of a group 4 shades of its hue.
TILESCOPE_HD unsigned lane_color(int lane) {
  const int g = (lane / 4) % 8, t = lane % 4;
  return hsv_colour(((g * 3) % 8) / 8.0, 0.85, 1.0 - 0.16 * t);
}

TILESCOPE_HD unsigned warp_color(int warp) {
  const double h = fmod(warp * 0.618033988749895 + 0.1, 1.0);
  return hsv_colour(h, 0.7, 0.95);
}

// Slots in fours: a hue per four (mma.sync: the mma tile of the warp), a shade per slot in it
// (its register c0 .. c3: c0 and c1 the two columns of the upper rows, c2 and c3 of the lower).
TILESCOPE_HD unsigned register_color(int slot) {
  const double h = fmod((slot / 4) * 0.618033988749895 + 0.55, 1.0);
  const int r = slot % 4;
  return hsv_colour(h, r < 2 ? 0.85 : 0.45, r % 2 == 0 ? 1.0 : 0.7);
}

// What the selected block's elements of C are coloured by: the thread (every kernel), or, for a
// tensor-core kernel (threads_x = 32: x is the lane, y the warp), its warp, lane or register.
enum class ThreadColouring : int { Thread = 0, Warp = 1, Lane = 2, Register = 3 };

TILESCOPE_HD unsigned selected_block_color(ThreadColouring mode, int thread_linear, int threads_x, int slot) {
  switch (mode) {
    case ThreadColouring::Warp:
      return warp_color(thread_linear / threads_x);
    case ThreadColouring::Lane:
      return lane_color(thread_linear % threads_x);
    case ThreadColouring::Register:
      return register_color(slot);
    default:
      return thread_color(thread_linear);
  }
}

// The pipeline timeline: a hue per stage of the ring of shared-memory buffers, so that slab n
// and slab n + stages (the same buffer, refilled) look alike. The MMA bars are solid in it; the
// copies in flight into the stage are a darker, greyer shade of the same hue.
TILESCOPE_HD unsigned stage_color(int stage) {
  return hsv_colour(fmod(stage * 0.618033988749895 + 0.58, 1.0), 0.7, 0.95);
}

TILESCOPE_HD unsigned stage_copy_color(int stage) {
  return hsv_colour(fmod(stage * 0.618033988749895 + 0.58, 1.0), 0.55, 0.5);
}

// t in [0, 1]: dark purple -> teal -> yellow, perceptually ordered (a viridis-like ramp).
TILESCOPE_HD unsigned heat_color(double t) {
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  const double r = t < 0.5 ? 0.27 - 0.15 * t * 2 : 0.12 + (0.99 - 0.12) * (t - 0.5) * 2;
  const double g = t < 0.5 ? 0.00 + 0.56 * t * 2 : 0.56 + (0.91 - 0.56) * (t - 0.5) * 2;
  const double b = t < 0.5 ? 0.33 + 0.22 * t * 2 : 0.55 - (0.55 - 0.14) * (t - 0.5) * 2;
  return pack_rgb(r, g, b);
}

}  // namespace tilescope
