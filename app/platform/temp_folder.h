// A private folder for files handed to another program (an edited kernel text and its worker's
// output, a landscape to draw, a cubin to disassemble): made under $TMPDIR (else /tmp) on first
// use, readable by this user alone, removed with everything in it when its owner goes.
#pragma once

#include <string>

namespace tilescope {

class TempFolder {
 public:
  // `stem`: the start of the folder's name ("tilescope-edit").
  explicit TempFolder(std::string stem) : stem_(std::move(stem)) {}
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  // The folder, made on the first call; "" with *error when it cannot be made.
  const std::string& path(std::string* error);

 private:
  std::string stem_, path_;
};

}  // namespace tilescope
