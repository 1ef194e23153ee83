#include "kernels/jit/kernel_cache.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

namespace tilescope {

namespace {

std::mutex g_mutex;
std::shared_ptr<KernelCacheStorage> g_storage;

std::shared_ptr<KernelCacheStorage> storage() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_storage;
}

struct Fnv64 {
  std::uint64_t h = 1469598103934665603ull;
  void add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    const std::string sep(1, '\0');  // "ab" + "c" and "a" + "bc" hash apart
    for (unsigned char c : sep) h = (h ^ c) * 1099511628211ull;
  }
};

// The text of every project file `text` includes ("..." includes found under `root`), recursively,
// each once, in the order met.
void add_included(const std::string& root, const std::string& text, std::set<std::string>* seen, Fnv64* hash) {
  static const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, include_re) || !seen->insert(m[1]).second) continue;
    std::ifstream file(std::filesystem::path(root) / std::string(m[1]), std::ios::binary);
    if (!file) continue;  // not ours: the toolkit's, covered by NVRTC's version
    std::ostringstream s;
    s << file.rdbuf();
    hash->add(m[1]);
    hash->add(s.str());
    add_included(root, s.str(), seen, hash);
  }
}

constexpr const char* kMagic = "tilescope-kernel-cache-1";

void put(std::string* out, const std::string& field) {
  *out += std::to_string(field.size()) + "\n" + field;
}
bool take(const std::string& bytes, std::size_t* at, std::string* field) {
  const std::size_t nl = bytes.find('\n', *at);
  if (nl == std::string::npos || nl == *at || nl - *at > 12) return false;
  std::size_t size = 0;
  for (std::size_t i = *at; i < nl; ++i) {
    if (bytes[i] < '0' || bytes[i] > '9') return false;
    size = size * 10 + static_cast<std::size_t>(bytes[i] - '0');
  }
  if (size > bytes.size() - nl - 1) return false;
  *field = bytes.substr(nl + 1, size);
  *at = nl + 1 + size;
  return true;
}

}  // namespace

void install_kernel_cache(std::shared_ptr<KernelCacheStorage> s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_storage = std::move(s);
}

std::string compile_cache_key(const CompileJob& job, const std::string& driver) {
  Fnv64 hash;
  hash.add(kMagic);
  hash.add(job.file_name);  // -lineinfo writes it into the PTX, and messages name it
  hash.add(job.source);
  std::set<std::string> seen;
  add_included(job.include_root, job.source, &seen, &hash);
  for (const std::string& o : compile_options(job)) hash.add(o);
  for (const std::string& n : job.names) hash.add(n);
  hash.add(nvrtc_version_text());
  hash.add(driver);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash.h));
  return hex;
}

std::string serialize_program(const CompiledProgram& p) {
  std::string out;
  put(&out, kMagic);
  put(&out, p.log);
  put(&out, p.ptx);
  put(&out, p.cubin);
  put(&out, std::to_string(p.compile_seconds));
  put(&out, std::to_string(p.lowered.size()));
  for (const std::string& n : p.lowered) put(&out, n);
  return out;
}

bool deserialize_program(const std::string& bytes, CompiledProgram* p) {
  CompiledProgram r;
  std::size_t at = 0;
  std::string magic, seconds, count;
  if (!take(bytes, &at, &magic) || magic != kMagic || !take(bytes, &at, &r.log) || !take(bytes, &at, &r.ptx) ||
      !take(bytes, &at, &r.cubin) || !take(bytes, &at, &seconds) || !take(bytes, &at, &count))
    return false;
  try {
    r.compile_seconds = std::stod(seconds);
    const unsigned long n = std::stoul(count);
    if (n > 1000) return false;
    for (unsigned long i = 0; i < n; ++i) {
      std::string name;
      if (!take(bytes, &at, &name)) return false;
      r.lowered.push_back(name);
      r.resources.push_back(parse_resources(r.log, name));
    }
  } catch (const std::exception&) {
    return false;
  }
  if (at != bytes.size() || r.cubin.empty()) return false;
  r.compiled = true;
  r.diagnostics = parse_diagnostics(r.log);
  *p = std::move(r);
  return true;
}

CompiledProgram compile_cached(const CompileJob& job, const std::string& driver) {
  const std::shared_ptr<KernelCacheStorage> store = storage();
  if (!store) {
    CompiledProgram p = compile_program(job);
    p.cache_note = "no cache folder: compiled without caching";
    return p;
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string key = compile_cache_key(job, driver);
  std::string bytes;
  CompiledProgram cached;
  if (store->read(key, &bytes) && deserialize_program(bytes, &cached) && cached.lowered.size() == job.names.size()) {
    cached.from_cache = true;
    cached.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return cached;
  }
  CompiledProgram p = compile_program(job);
  p.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!p.compiled) return p;
  std::string error;
  if (!store->write(key, serialize_program(p), &error)) p.cache_note = "not cached (" + error + ")";
  return p;
}

}  // namespace tilescope
