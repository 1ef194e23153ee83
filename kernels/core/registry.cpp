// The registry is an explicit list on purpose: static self-registration silently loses
// variants when the linker drops unreferenced objects from a static library. A variant file
// kernels/variants/NN_<id>.cu (or .cpp) defines kVariant<...> and gets one line below, in the order NN;
// a test checks that files and lines match. The examples of tests/example_variant/ are added by
// the test programs themselves, explicitly too (add_example_variant).
#include "kernels/core/registry.h"

#include "kernels/core/typed_configs.h"

namespace tilescope {

extern const VariantDescriptor kCublasVariant;           // 00_cublas.cu
extern const VariantDescriptor kNaiveVariant;            // 01_naive.cu
extern const VariantDescriptor kSmemTiledVariant;        // 02_smem_tiled.cu
extern const VariantDescriptor kRegtilePrefetchVariant;  // 03_regtile_prefetch.cu
extern const VariantDescriptor kWmmaVariant;             // 04_wmma.cu
extern const VariantDescriptor kMmaSyncVariant;          // 05_mma_sync.cu
extern const VariantDescriptor kWgmmaTmaVariant;         // 06_wgmma_tma.cu
extern const VariantDescriptor kGlShaderVariant;         // 07_gl_shader.cpp

namespace {
VariantList& registry_list() {
  static VariantList list = {
      &kCublasVariant, &kNaiveVariant,   &kSmemTiledVariant, &kRegtilePrefetchVariant,
      &kWmmaVariant,   &kMmaSyncVariant, &kWgmmaTmaVariant,  &kGlShaderVariant,
  };
  return list;
}
}  // namespace

const VariantList& variant_registry() {
  return registry_list();
}

void add_example_variant(const VariantDescriptor& v) {
  registry_list().push_back(&v);
}

// The backends' names, as rows of results carry them.
const char* to_string(Backend b) {
  static constexpr EnumName<Backend> kNames[] = {
      {Backend::Cuda, "cuda"}, {Backend::Cublas, "cublas"}, {Backend::GlShader, "gl_shader"}};
  return enum_name(b, kNames, "?");
}

const VariantDescriptor* find_variant(const std::string& id) {
  for (const VariantDescriptor* v : variant_registry())
    if (id == v->id) return v;
  return nullptr;
}

int find_config(const VariantDescriptor& v, const std::string& config_name) {
  for (int i = 0, n = config_count(v); i < n; ++i)
    if (config_at(v, i).name == config_name) return i;
  return -1;
}

const VariantDescriptor* baseline_variant() {
  for (const VariantDescriptor* v : variant_registry())
    if (v->role == Role::Baseline) return v;
  return nullptr;
}

const VariantDescriptor* focus_variant(Precision precision) {
  const VariantDescriptor* focus = nullptr;
  for (const VariantDescriptor* v : variant_registry())
    if (v->role == Role::Kernel && v->model && supports(*v, precision)) focus = v;
  return focus;
}

}  // namespace tilescope
