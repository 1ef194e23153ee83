// Rules about the source tree itself, checked by reading it (the folder comes from the build):
//  - variant files and registry lines match one to one, in file-number order;
//  - no file outside a variant's own one (and the registry) names a variant, a configuration or
//    a backend by a string literal: everything else asks the descriptors;
//  - the layers of docs/ARCHITECTURE.md: which folder may include which.
// The scanners are plain functions, tested on in-memory snippets first, so each rule can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/registry.h"
#include "kernels/core/variant.h"
#include "tests/example_variant/example_variants.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

const fs::path kSource = TILESCOPE_SOURCE_DIR;
const fs::path kExamples = TILESCOPE_EXAMPLE_VARIANT_DIR;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string rel(const fs::path& p) {
  return fs::relative(p, kSource).generic_string();
}

// ---- variant files -------------------------------------------------------------------------

struct VariantFile {
  std::string number, id;
  fs::path path;
};

// The files NN_<id>.cu / NN_<id>.cpp of a folder, in file-number order (then name).
std::vector<VariantFile> variant_files(const fs::path& dir) {
  static const std::regex name_re(R"(^([0-9][0-9])_(.+)\.(cu|cpp)$)");
  std::vector<VariantFile> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && std::regex_match(name, m, name_re)) out.push_back({m[1], m[2], e.path()});
  }
  std::sort(out.begin(), out.end(), [](const VariantFile& a, const VariantFile& b) {
    return a.number != b.number ? a.number < b.number : a.path.filename() < b.path.filename();
  });
  return out;
}

std::vector<std::string> ids_of(const std::vector<VariantFile>& files) {
  std::vector<std::string> out;
  for (const VariantFile& f : files) out.push_back(f.id);
  return out;
}
std::vector<std::string> ids_of(const VariantList& list) {
  std::vector<std::string> out;
  for (const VariantDescriptor* v : list) out.push_back(v->id);
  return out;
}

TEST(SourceRules, EveryVariantFileHasOneRegistryLineInFileOrder) {
  const auto files = variant_files(kSource / "kernels/variants");
  ASSERT_FALSE(files.empty()) << "no kernels/variants/NN_<id>.* files under " << kSource;
  std::set<std::string> numbers;
  for (const VariantFile& f : files) EXPECT_TRUE(numbers.insert(f.number).second) << "two files numbered " << f.number;
  EXPECT_EQ(ids_of(registry_without_examples()), ids_of(files))
      << "variant_registry() (kernels/core/registry.cpp) must list exactly one entry per kernels/variants/NN_<id>.* "
         "file, "
         "in the order of the numbers";
}

TEST(SourceRules, EveryExampleVariantFileHasOneTestRegistryLine) {
  const auto files = variant_files(kExamples);
  ASSERT_FALSE(files.empty()) << "no example variant under " << kExamples;
  const VariantList& all = variant_registry();
  const VariantList product = registry_without_examples();
  ASSERT_GE(all.size(), product.size());
  ASSERT_TRUE(std::equal(product.begin(), product.end(), all.begin()))
      << "the test registry starts with the product's variants, in their order";
  const VariantList extra(all.begin() + static_cast<std::ptrdiff_t>(product.size()), all.end());
  EXPECT_EQ(ids_of(extra), ids_of(files)) << "tests/example_variant/test_registry.cpp must list one entry per "
                                             "example file, in the order of the numbers";
  // Variant numbers are not shared between the product and the examples.
  for (const VariantFile& e : files)
    for (const VariantFile& k : variant_files(kSource / "kernels/variants")) EXPECT_NE(e.number, k.number) << e.path;
}

// ---- string literals naming variants -------------------------------------------------------

struct Literal {
  int line;
  std::string text;
};

// The string literals of C++/CUDA source (comments and character literals skipped; raw strings
// read to their delimiter; adjacent pieces are separate literals). Escapes are kept as written.
std::vector<Literal> string_literals(const std::string& src) {
  std::vector<Literal> out;
  int line = 1;
  const std::size_t n = src.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char c = src[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') ++i;
      --i;
    } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) line += src[i++] == '\n';
      ++i;
    } else if (c == 'R' && i + 1 < n && src[i + 1] == '"' &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(src[i - 1])) || src[i - 1] == '_') ||
                src[i - 1] == 'u' || src[i - 1] == '8' || src[i - 1] == 'L' || src[i - 1] == 'U')) {
      const std::size_t open = src.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string end = ")" + src.substr(i + 2, open - i - 2) + "\"";
      const std::size_t close = src.find(end, open);
      if (close == std::string::npos) break;
      out.push_back({line, src.substr(open + 1, close - open - 1)});
      line += static_cast<int>(std::count(src.begin() + static_cast<std::ptrdiff_t>(i),
                                          src.begin() + static_cast<std::ptrdiff_t>(close), '\n'));
      i = close + end.size() - 1;
    } else if (c == '\'') {
      // A character literal, or a digit separator (1'000): skip to the closing quote on this line.
      if (i > 0 && std::isxdigit(static_cast<unsigned char>(src[i - 1])) && i + 1 < n &&
          std::isxdigit(static_cast<unsigned char>(src[i + 1])))
        continue;
      ++i;
      while (i < n && src[i] != '\'' && src[i] != '\n') i += src[i] == '\\' ? 2 : 1;
    } else if (c == '"') {
      std::string text;
      const int start = line;
      ++i;
      while (i < n && src[i] != '"' && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n) text += src[i++];
        text += src[i++];
      }
      out.push_back({start, text});
    }
  }
  return out;
}

// The names no source outside their owner may spell: every variant id, configuration name and
// backend name, mapped to the file stems that own them ("<NN>_<id>" of the variant). Exempt:
// names that are also the problem or precision vocabulary ("gemm" is a problem as well as the
// baseline's plain configuration: the literal cannot be told apart) and purely numeric names
// ("8", "16", "32" are tile sizes as well as sizes, counts and indices everywhere).
std::map<std::string, std::set<std::string>> guarded_names() {
  std::set<std::string> vocabulary;
  for (Problem p : {Problem::Gemm, Problem::Ata}) vocabulary.insert(to_string(p));
  for (Precision p : all_precisions()) vocabulary.insert(to_string(p));
  auto exempt = [&](const std::string& name) {
    return name.empty() || vocabulary.count(name) ||
           std::all_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  std::map<std::string, std::set<std::string>> out;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!exempt(v->id)) out[v->id].insert(v->id);
    for (const TileConfig& c : v->configs)
      if (!exempt(c.name)) out[c.name].insert(v->id);
  }
  for (Backend b : {Backend::Cuda, Backend::Cublas, Backend::GlShader})
    if (!exempt(to_string(b))) out[to_string(b)];  // owned by the registry alone (unless also an id)
  return out;
}

// "file:line: \"name\"" for every guarded literal in `src` that `owner_id` (the variant whose
// file this is, "" for none) does not own.
std::vector<std::string> stray_names(const std::string& file, const std::string& src, const std::string& owner_id,
                                     const std::map<std::string, std::set<std::string>>& guarded) {
  std::vector<std::string> out;
  for (const Literal& l : string_literals(src)) {
    const auto it = guarded.find(l.text);
    if (it != guarded.end() && !it->second.count(owner_id))
      out.push_back(file + ":" + std::to_string(l.line) + ": \"" + l.text + "\"");
  }
  return out;
}

TEST(SourceRules, LiteralScannerFindsNamesAndSkipsComments) {
  const std::map<std::string, std::set<std::string>> guarded = {{"alpha", {"alpha"}}, {"wide", {"alpha"}}, {"cpu", {}}};
  const std::string snippet =
      "// \"alpha\" in a comment is prose\n"
      "const char* a = \"alpha\";  /* \"wide\" */\n"
      "char q = '\"'; auto s = \"al\\\"pha\";\n"
      "auto r = R\"x(wide)x\"; int n = 1'000;\n"
      "f(\"cpu\", \"alphabet\");\n";
  const auto found = stray_names("snippet.cpp", snippet, "", guarded);
  EXPECT_EQ(found, (std::vector<std::string>{"snippet.cpp:2: \"alpha\"", "snippet.cpp:4: \"wide\"",
                                             "snippet.cpp:5: \"cpu\""}));
  // The owner's own file may spell its names, not another's backend.
  EXPECT_EQ(stray_names("01_alpha.cu", snippet, "alpha", guarded),
            (std::vector<std::string>{"01_alpha.cu:5: \"cpu\""}));
}

TEST(SourceRules, GuardedNamesIncludeEveryIdAndExemptOnlyTheSharedVocabulary) {
  const auto guarded = guarded_names();
  for (const VariantDescriptor* v : variant_registry()) {
    if (std::string(v->id) != to_string(Problem::Gemm)) {
      EXPECT_TRUE(guarded.count(v->id)) << v->id;
    }
    for (const TileConfig& c : v->configs) {
      if (guarded.count(c.name) != 0) continue;
      EXPECT_TRUE(c.name == to_string(Problem::Gemm) || c.name == to_string(Problem::Ata) ||
                  c.name.find_first_not_of("0123456789") == std::string::npos)
          << v->id << ":" << c.name << " is exempt without a reason";
    }
  }
  EXPECT_TRUE(guarded.count(to_string(Backend::Cuda)));
}

bool is_source(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".h" || e == ".hpp" || e == ".cpp" || e == ".cu" || e == ".cuh";
}

std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && is_source(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SourceRules, NoSourceNamesAVariantOutsideItsOwnFile) {
  const auto guarded = guarded_names();
  // The variant's own files: kernels/variants/NN_<id>.* and its kernel text NN_<id>.cuh (and the
  // examples' folder, which is theirs).
  std::map<std::string, std::string> owner_of_file;
  for (const VariantFile& f : variant_files(kSource / "kernels/variants")) {
    owner_of_file[rel(f.path)] = f.id;
    owner_of_file[rel(fs::path(f.path).replace_extension(".cuh"))] = f.id;
  }
  std::vector<std::string> found;
  int scanned = 0;
  for (const char* dir : {"app", "kernels", "tests"})
    for (const fs::path& p : sources_under(kSource / dir)) {
      const std::string r = rel(p);
      if (r == "kernels/core/registry.cpp" || r.rfind("tests/example_variant/", 0) == 0 ||
          r.rfind("tests/data/", 0) == 0)
        continue;
      const auto owner = owner_of_file.find(r);
      const auto hits = stray_names(r, read_text(p), owner == owner_of_file.end() ? "" : owner->second, guarded);
      found.insert(found.end(), hits.begin(), hits.end());
      ++scanned;
    }
  EXPECT_GT(scanned, 20);
  std::string list;
  for (const std::string& f : found) list += "  " + f + "\n";
  EXPECT_TRUE(found.empty()) << found.size()
                             << " literal(s) name a variant, a configuration or a backend outside the variant's "
                                "own file; ask the descriptor (registry.h) instead:\n"
                             << list;
}

// ---- layers --------------------------------------------------------------------------------

// The layer a file belongs to: a folder of kernels/ ("kernels/core", "kernels/variants", ...), an
// app/ folder ("ui", "cli", ...; app/ui/'s own folders are one layer), "main", "tests", or "".
std::string layer_of(const std::string& rel_path) {
  if (rel_path.rfind("kernels/", 0) == 0) {
    const std::size_t slash = rel_path.find('/', 8);
    return slash == std::string::npos ? "kernels" : rel_path.substr(0, slash);
  }
  if (rel_path == "app/main.cpp") return "main";
  if (rel_path.rfind("tests/", 0) == 0) return "tests";
  if (rel_path.rfind("app/", 0) == 0) {
    const std::size_t slash = rel_path.find('/', 4);
    return slash == std::string::npos ? "main" : rel_path.substr(4, slash - 4);
  }
  return "";
}

// What each layer may include besides itself (docs/ARCHITECTURE.md); "*" = anything of the
// project, "kernels/*" = every folder of kernels/. Inside kernels/, a variant may include the
// vocabulary (core), the PTX wrappers, the probes, the models it defines and the CUDA checks,
// never the measurer or the roofs: what times a kernel is not part of it.
const std::map<std::string, std::set<std::string>>& allowed_layers() {
  static const std::map<std::string, std::set<std::string>> m = {
      {"kernels/ptx", {"kernels/cuda"}},
      {"kernels/cuda", {"kernels/core"}},
      {"kernels/core", {"kernels/ptx", "kernels/models", "kernels/instrument", "kernels/cuda"}},
      {"kernels/models", {"kernels/core", "kernels/ptx"}},
      {"kernels/instrument", {"kernels/core", "kernels/models", "kernels/ptx", "kernels/cuda", "kernels/measure"}},
      {"kernels/variants",
       {"kernels/core", "kernels/ptx", "kernels/instrument", "kernels/models", "kernels/cuda", "kernels/jit"}},
      {"kernels/measure",
       {"kernels/core", "kernels/models", "kernels/instrument", "kernels/cuda", "kernels/ptx", "kernels/jit"}},
      {"kernels/roofs", {"kernels/core", "kernels/measure", "kernels/cuda", "kernels/ptx"}},
      {"kernels/jit", {"kernels/core", "kernels/cuda", "kernels/models"}},
      {"kernels/multi", {"kernels/core", "kernels/cuda", "kernels/measure"}},
      {"platform", {}},
      {"runner", {"kernels/*"}},
      {"viz", {"platform", "kernels/*"}},
      {"plot", {"platform", "kernels/*"}},
      {"export", {"plot", "platform", "kernels/*"}},
      {"gl_gemm", {"platform", "kernels/*"}},
      {"cli", {"export", "runner", "platform", "kernels/*"}},
      {"ui", {"*"}},
      {"main", {"*"}},
      {"tests", {"*"}},
  };
  return m;
}

bool may_include(const std::string& from, const std::string& to) {
  if (to == from) return true;
  const auto allowed = allowed_layers().find(from);
  if (allowed == allowed_layers().end()) return false;
  const std::set<std::string>& a = allowed->second;
  return a.count("*") || a.count(to) || (a.count("kernels/*") && to.rfind("kernels/", 0) == 0);
}

// "file:line: includes "x" (...)" for each include in `src` that breaks the layers, or that names a
// file of the project other than from the repository's root ("variant.h" for
// "kernels/core/variant.h"). `exists(rel)` answers whether a project file exists; an include that
// is no project file (a generated one such as "version.h", a third-party header) is not checked.
template <typename Exists>
std::vector<std::string> layer_violations(const std::string& file_rel, const std::string& src, Exists exists) {
  static const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<std::string> out;
  const std::string from = layer_of(file_rel);
  const std::string dir = fs::path(file_rel).parent_path().generic_string();
  std::istringstream in(src);
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    std::smatch m;
    if (!std::regex_search(line, m, include_re)) continue;
    const std::string inc = m[1];
    const std::string where = file_rel + ":" + std::to_string(no) + ": includes \"" + inc + "\"";
    if (!exists(inc)) {
      if (exists(dir + "/" + inc)) out.push_back(where + " (write it from the repository root)");
      continue;
    }
    const std::string to = layer_of(inc);
    if (!may_include(from, to)) out.push_back(where + " (" + from + " may not include " + to + ")");
  }
  return out;
}

TEST(SourceRules, LayerCheckerFindsAForbiddenInclude) {
  const std::set<std::string> files = {"app/platform/host.h",          "app/gl_gemm/shader_gemm.h",
                                       "app/ui/shell/app.h",           "kernels/core/variant.h",
                                       "app/platform/window_host.cpp", "kernels/measure/measure.h",
                                       "kernels/ptx/mma_ptx.cuh",      "kernels/variants/01_x.cu"};
  auto exists = [&](const std::string& r) { return files.count(r) > 0; };
  const std::string src =
      "#include \"app/platform/host.h\"\n"
      "#include \"version.h\"\n"
      "#include <vector>\n"
      "#include \"app/gl_gemm/shader_gemm.h\"\n"
      "  #  include \"kernels/core/variant.h\"\n"
      "#include \"host.h\"\n";
  EXPECT_EQ(layer_violations("app/platform/window_host.cpp", src, exists),
            (std::vector<std::string>{
                "app/platform/window_host.cpp:4: includes \"app/gl_gemm/shader_gemm.h\" (platform may not include "
                "gl_gemm)",
                "app/platform/window_host.cpp:5: includes \"kernels/core/variant.h\" (platform may not include "
                "kernels/core)",
                "app/platform/window_host.cpp:6: includes \"host.h\" (write it from the repository root)"}));
  EXPECT_TRUE(layer_violations("app/ui/shell/app.cpp", "#include \"app/gl_gemm/shader_gemm.h\"\n", exists).empty());
  EXPECT_EQ(layer_violations("kernels/core/x.cu", "#include \"app/ui/shell/app.h\"\n", exists).size(), 1u);
  // A variant may include the PTX wrappers and the vocabulary, never the measurer.
  const std::string variant_src = "#include \"kernels/ptx/mma_ptx.cuh\"\n#include \"kernels/core/variant.h\"\n";
  EXPECT_TRUE(layer_violations("kernels/variants/01_x.cu", variant_src, exists).empty());
  EXPECT_EQ(layer_violations("kernels/variants/01_x.cu", "#include \"kernels/measure/measure.h\"\n", exists),
            (std::vector<std::string>{"kernels/variants/01_x.cu:1: includes \"kernels/measure/measure.h\" "
                                      "(kernels/variants may not include kernels/measure)"}));
}

TEST(SourceRules, IncludesFollowTheLayers) {
  auto exists = [](const std::string& r) { return fs::is_regular_file(kSource / r); };
  std::vector<std::string> found;
  int scanned = 0;
  for (const char* dir : {"app", "kernels", "tests"})
    for (const fs::path& p : sources_under(kSource / dir)) {
      const std::string r = rel(p);
      const auto v = layer_violations(r, read_text(p), exists);
      found.insert(found.end(), v.begin(), v.end());
      ++scanned;
      EXPECT_FALSE(layer_of(r).empty()) << r;
      EXPECT_TRUE(allowed_layers().count(layer_of(r))) << r << ": a folder docs/ARCHITECTURE.md does not place";
    }
  EXPECT_GT(scanned, 20);
  std::string list;
  for (const std::string& f : found) list += "  " + f + "\n";
  EXPECT_TRUE(found.empty()) << found.size() << " include(s) break the layers (docs/ARCHITECTURE.md):\n" << list;
}

}  // namespace
