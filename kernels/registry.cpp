// The registry is an explicit list on purpose: static self-registration silently loses
// variants when the linker drops unreferenced objects from a static library.
#include "registry.h"

namespace tilescope {

// Each variant file defines its descriptor.
extern const VariantDescriptor kCublasVariant;           // 00_cublas.cu
extern const VariantDescriptor kNaiveVariant;            // 01_naive.cu
extern const VariantDescriptor kSmemTiledVariant;        // 02_smem_tiled.cu
extern const VariantDescriptor kRegtilePrefetchVariant;  // 03_regtile_prefetch.cu
extern const VariantDescriptor kGlShaderVariant;         // 04_gl_shader.cpp

const std::vector<const VariantDescriptor*>& variant_registry() {
  static const std::vector<const VariantDescriptor*> registry = {
      &kCublasVariant,
      &kNaiveVariant,
      &kSmemTiledVariant,
      &kRegtilePrefetchVariant,
      &kGlShaderVariant,
  };
  return registry;
}

const VariantDescriptor* find_variant(const std::string& id) {
  for (const VariantDescriptor* v : variant_registry())
    if (id == v->id) return v;
  return nullptr;
}

int find_config(const VariantDescriptor& v, const std::string& config_name) {
  for (std::size_t i = 0; i < v.configs.size(); ++i)
    if (v.configs[i].name == config_name) return static_cast<int>(i);
  return -1;
}

}  // namespace tilescope
