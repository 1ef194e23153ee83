// Tiles a learner types: a kernel text's template parameters given by name
// ("regtile_prefetch:bm=96,bn=80,bk=24,tm=6,tn=5") instead of picked from the compiled set. The
// variant says which parameters its text takes (VariantDescriptor::tile_params) and turns typed
// values into a configuration or refuses them with the reason before anything compiles
// (VariantDescriptor::typed_config); NVRTC compiles the kernel at run time (kernels/jit/).
//
// A typed configuration is first-class: it is added to its variant's configurations for the rest
// of the session, after the compiled set, so it is timed, checked, plotted, exported and reloaded
// by its index and name like a shipped one. Its name is its canonical spelling, every parameter
// in the variant's order ("bm=96,bn=80,bk=24,tm=6,tn=5,pieces=4,min_blocks=2"), so that a CSV row
// names it completely, and settings or a lesson that name it type it again
// (config_named_or_typed).
#pragma once

#include <string>
#include <vector>

#include "kernels/core/variant.h"

namespace tilescope {

// "bm=96,bn=80" -> values. False with *error for an empty item, a missing '=', a value that is no
// whole number, a key written twice.
bool parse_tile_values(const std::string& text, TileValues* out, std::string* error);
// The canonical spelling: "bm=96,bn=80".
std::string tile_values_text(const TileValues& values);
// The value of `key`, or `fallback` when it is not there.
int tile_value(const TileValues& values, const std::string& key, int fallback);

// Whether a variant takes typed tiles at all.
bool takes_typed_tiles(const VariantDescriptor& v);

// The configuration of typed values: unknown keys are refused naming the parameters the text
// takes; parameters left out keep the default configuration's values; then the variant's own rules
// (typed_config). False with *why.
bool typed_tile_config(const VariantDescriptor& v, const TileValues& values, TileConfig* out, std::string* why);

// Whether `name` is written as a typed tile (key=value items) rather than as a name of the
// compiled set, whose names hold no '='.
bool spells_typed_tile(const std::string& name);
// The typed tile `name` spells for v: false with *why when it spells none (no '=': a name of the
// compiled set; a bad spelling; a tile the variant refuses). Nothing is added.
bool typed_tile_named(const VariantDescriptor& v, const std::string& name, TileConfig* out, std::string* why);
// The index of v's configuration called `name`: one it has (compiled, or typed and added before),
// else the typed tile it spells, added; -1 with *why when neither. What every reader of a
// configuration's name uses: the command line, settings, lesson scripts.
int config_named_or_typed(const VariantDescriptor& v, const std::string& name, std::string* why);

// Adds a typed configuration to its variant for the rest of the session and returns its index
// (the existing index when one of the same name is there already). Thread-safe.
int add_typed_config(const VariantDescriptor& v, const TileConfig& config);
// Parses, checks and adds in one step: the index, or -1 with *why.
int add_typed_tile(const VariantDescriptor& v, const std::string& values_text, std::string* why);

// Every configuration: the compiled set, then the typed ones in the order added. config_at's
// reference stays valid for the life of the program. Thread-safe.
int config_count(const VariantDescriptor& v);
const TileConfig& config_at(const VariantDescriptor& v, int index);
// Whether `index` names a typed configuration (one compiled at run time).
bool is_typed_config(const VariantDescriptor& v, int index);

}  // namespace tilescope
