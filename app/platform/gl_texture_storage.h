// The storage of an RGBA8 texture, made the one way both its owners need it: the offscreen
// render target's colour buffer and the mapping view's textures.
#pragma once

namespace tilescope {

// A new 2D texture of width x height RGBA8 texels, their values undefined, clamped at the edges
// and sampled with `filter` (GL_NEAREST or GL_LINEAR, for both minifying and magnifying). The
// caller owns it (glDeleteTextures). The texture binding is left as it was. Needs a current GL
// context.
unsigned new_rgba8_texture(int width, int height, int filter);

}  // namespace tilescope
