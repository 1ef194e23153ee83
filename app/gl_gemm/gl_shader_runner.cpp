#include "gl_gemm/gl_shader_runner.h"

#include <GL/gl.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "external_runner.h"
#include "gl_gemm/shader_gemm.h"
#include "platform/egl_context.h"

namespace tilescope {
namespace {

// Mesa's software rasterisers run "GPU" work on CPU threads and undercount GL_TIME_ELAPSED over
// several passes (shader_gemm.cpp); there the wall clock is the honest time.
bool software_renderer(const std::string& renderer) {
  return renderer.find("llvmpipe") != std::string::npos || renderer.find("softpipe") != std::string::npos;
}

class GlShaderThread {
 public:
  static GlShaderThread& instance() {
    // Never destroyed: ending the GL thread from a static destructor, inside exit(), crashed
    // on the NVIDIA driver (tilescope bench, H200, driver 580). main() calls stop() instead,
    // while every library is still whole.
    static GlShaderThread* thread = new GlShaderThread();
    return *thread;
  }

  // Waits for a run in progress (the caller's cancel shortens it), ends the thread, and leaves
  // everything ready for a new thread at the next run.
  void stop() {
    std::lock_guard<std::mutex> one_at_a_time(call_mutex_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
      wake_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = false;
  }

  void set_context(GlThreadContext* context) {
    stop();
    std::lock_guard<std::mutex> lock(mutex_);
    context_source_ = context;
  }

  ExternalOutcome run(const ExternalRun& job) {
    std::lock_guard<std::mutex> one_at_a_time(call_mutex_);
    std::unique_lock<std::mutex> lock(mutex_);
    if (!thread_.joinable()) thread_ = std::thread(&GlShaderThread::main, this);
    job_ = job;
    outcome_.reset();
    wake_.notify_all();
    wake_.wait(lock, [&] { return outcome_.has_value(); });
    ExternalOutcome out = std::move(*outcome_);
    outcome_.reset();
    return out;
  }

  void request_reload() { generation_.fetch_add(1); }

  GlShaderThreadInfo info() {
    std::lock_guard<std::mutex> lock(mutex_);
    return info_;
  }

 private:
  GlShaderThread() = default;

  void main() {
    GlThreadContext* external = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      external = context_source_;
    }
    std::unique_ptr<EglContext> egl;
    std::string context_error;
    bool have_context = false;
    std::string description;
    if (external) {
      have_context = external->make_current(&context_error);
      description = external->description();
    } else {
      egl = std::make_unique<EglContext>();
      have_context = egl->create(EglPlatform::kAuto, &context_error);
      description = egl->description();
    }
    std::unique_ptr<ShaderLibrary> library;
    int loaded_generation = -1;
    std::set<std::string> warm;  // mode names run since the last load
    if (have_context) {
      library = std::make_unique<ShaderLibrary>();
      const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      std::lock_guard<std::mutex> lock(mutex_);
      info_.renderer = renderer ? renderer : "?";
      info_.context = description;
      info_.shader_dir = library->directory();
    } else {
      context_error = "no OpenGL context for the texture shaders: " + context_error;
    }
    for (;;) {
      ExternalRun job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return quit_ || job_.has_value(); });
        if (quit_) break;
        job = *job_;
        job_.reset();
      }
      ExternalOutcome out;
      if (!library) {
        out.error = context_error;
      } else {
        const int generation = generation_.load();
        if (generation != loaded_generation) {
          // A new library: $TILESCOPE_SHADERS is read again, so a reload may also move folders.
          library = std::make_unique<ShaderLibrary>();
          std::string log;
          library->reload(&log);
          loaded_generation = generation;
          warm.clear();
          std::lock_guard<std::mutex> lock(mutex_);
          info_.shader_dir = library->directory();
          info_.load_log = log;
          ++info_.loads;
        }
        out = run_job(job, *library, &warm);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      outcome_ = std::move(out);
      wake_.notify_all();
    }
    library.reset();  // its programs go while the context is still current
    if (external && have_context) external->release();
  }

  ExternalOutcome run_job(const ExternalRun& job, const ShaderLibrary& library, std::set<std::string>* warm) {
    ExternalOutcome out;
    const TileConfig& cfg = job.variant->configs[job.config_index];
    const std::string config = cfg.name;
    if (cfg.engine_mode < 0 || cfg.engine_mode >= kShaderModeCount) {
      out.error = "the texture-shader engine has no mode #" + std::to_string(cfg.engine_mode) + " (" + config + ")";
      return out;
    }
    const ShaderMode mode = static_cast<ShaderMode>(cfg.engine_mode);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      out.device_name = info_.renderer;
    }
    ShaderGemmOptions options;
    options.cancel = job.cancel;
    // The Measurer's first run is timed apart: here it is the engine's first warm-up run.
    options.warmup = job.warmup + 1;
    out.first_was_cold = warm->insert(config).second;
    ShaderGemmResult result =
        run_shader_gemm(mode, job.a, job.b, job.M, job.N, job.K, job.repetitions, library, options);
    if (!result.error.empty()) {
      out.error = result.error;
      return out;
    }
    out.first_ms = result.first_ms;
    const bool wall = software_renderer(out.device_name);
    out.timer = wall ? "wall_clock" : "gl_time_elapsed";
    out.times_ms = wall ? result.wall_ms_all : result.gpu_ms_all;
    out.passes = result.passes;
    out.fetches_per_fma = result.fetches_per_fma;
    out.c = std::move(result.c);
    return out;
  }

  std::mutex call_mutex_;  // one caller at a time
  std::mutex mutex_;       // everything below
  std::condition_variable wake_;
  std::optional<ExternalRun> job_;
  std::optional<ExternalOutcome> outcome_;
  bool quit_ = false;
  GlThreadContext* context_source_ = nullptr;  // nullptr: a headless EGL context of its own
  std::atomic<int> generation_{0};
  GlShaderThreadInfo info_;
  std::thread thread_;
};

}  // namespace

void install_gl_shader_runner() {
  install_external_runner(Backend::GlShader,
                          [](const ExternalRun& job) { return GlShaderThread::instance().run(job); });
}

void stop_gl_shader_runner() {
  GlShaderThread::instance().stop();
}

void set_gl_thread_context(GlThreadContext* context) {
  GlShaderThread::instance().set_context(context);
}

void request_shader_reload() {
  GlShaderThread::instance().request_reload();
}

GlShaderThreadInfo gl_shader_thread_info() {
  return GlShaderThread::instance().info();
}

}  // namespace tilescope
