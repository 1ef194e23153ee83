// A learner's edit of a kernel text, run in place of the shipped one. The window never runs an
// edit in its own process: a kernel that faults leaves its CUDA context unusable, and one that
// never ends cannot be stopped from inside. It hands the edit to a worker (`tilescope bench
// --kernel-text ID=FILE`, `tilescope compile --kernel-text ...`), a process that installs the
// text here for its whole life, compiles the variant's typed tiles from it, and can be killed.
//
// An edited configuration is a typed tile of the edited text: its name is the tile's canonical
// spelling followed by " (edited <tag>)", the tag being 8 hex digits of the text's hash, so that
// every row it gives says it was edited and which edit it was.
#pragma once

#include <string>

#include "kernels/core/variant.h"

namespace tilescope {

// The edit's tag: 8 hex digits (FNV-1a over the text).
std::string edit_tag(const std::string& text);

// Why `text`, read from a file, cannot be a kernel text ("" when it may be one): empty, too large
// (over kMaxKernelTextBytes), holding NUL bytes (a binary file), or declaring no __global__
// function (not a kernel text at all). `source` names the file in the message.
constexpr std::size_t kMaxKernelTextBytes = 1 << 20;
std::string kernel_text_problem(const std::string& text, const std::string& source);

// An edit kept in a file: its bytes when they may be a kernel text, else false with *why (the file
// cannot be read, or kernel_text_problem's reason). What `--kernel-text` and the editor's Load read.
bool read_kernel_text_file(const std::string& path, std::string* text, std::string* why);

// From now on, v's kernel text is `text` in this process: every compile of it (kernel_text_job)
// reads this instead of the file. Thread-safe.
void use_edited_text(const VariantDescriptor& v, const std::string& text);
// The edited text installed for v; false when v runs its shipped text.
bool edited_text_of(const VariantDescriptor& v, std::string* text);

// The name of configuration `typed_name` (a typed tile's canonical spelling) compiled from the edit
// tagged `tag`: "tile=16 (edited 3fa2c1d0)".
std::string edited_config_name(const std::string& typed_name, const std::string& tag);

// Configuration `base_index` of v as an edited configuration: the typed tile of its values, named
// for the edit `tag`, added for the rest of the session. Its launches compile v's kernel text at
// run time, which is the edit once use_edited_text installed it. -1 with *why when v takes no typed
// tiles (its launches cannot compile at run time) or refuses the tile.
int add_edited_config(const VariantDescriptor& v, int base_index, const std::string& tag, std::string* why);

}  // namespace tilescope
