// The base of the classes that own a GPU or OpenGL resource (a CUDA stream, the buffers and
// handles of a run, a GL texture, shader programs) and free it when they go: a copy would free it
// twice, so they are neither copied nor (having no move of their own) moved. Plain C++.
#pragma once

namespace tilescope {

class NoCopy {
 public:
  NoCopy(const NoCopy&) = delete;
  NoCopy& operator=(const NoCopy&) = delete;

 protected:
  NoCopy() = default;
  ~NoCopy() = default;
};

}  // namespace tilescope
