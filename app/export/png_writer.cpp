#include "app/export/png_writer.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "app/export/atomic_file.h"

namespace tilescope {
namespace {

void append_to_string(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

bool write_png(const std::string& path, const Image& image, std::string* error) {
  const std::size_t expected = static_cast<std::size_t>(image.width > 0 ? image.width : 0) *
                               static_cast<std::size_t>(image.height > 0 ? image.height : 0) * 4;
  if (image.width <= 0 || image.height <= 0 || image.rgba.size() != expected) {
    *error = "cannot write " + path + ": the image is empty or malformed (" + std::to_string(image.width) + "x" +
             std::to_string(image.height) + ", " + std::to_string(image.rgba.size()) + " bytes)";
    return false;
  }
  // stb's flip flag is process-wide state; Image rows are always top to bottom, so make sure
  // nobody's earlier setting turns our files upside down.
  stbi_flip_vertically_on_write(0);
  std::string encoded;
  const int ok = stbi_write_png_to_func(append_to_string, &encoded, image.width, image.height, 4, image.rgba.data(),
                                        image.width * 4);
  if (!ok || encoded.empty()) {
    *error = "cannot write " + path + ": PNG encoding failed";
    return false;
  }
  return write_file_atomically(path, encoded, error);
}

bool read_png(const std::string& path, Image* out, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  stbi_set_flip_vertically_on_load(0);
  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                          static_cast<int>(bytes.size()), &width, &height, &channels, 4);
  if (!pixels) {
    const char* reason = stbi_failure_reason();
    *error = "cannot read " + path + ": cannot decode it as an image (" + (reason ? reason : "unknown reason") + ")";
    return false;
  }
  out->width = width;
  out->height = height;
  out->rgba.assign(pixels, pixels + static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  stbi_image_free(pixels);
  return true;
}

}  // namespace tilescope
