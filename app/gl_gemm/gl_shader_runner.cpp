#include "app/gl_gemm/gl_shader_runner.h"

#include <GL/gl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "app/gl_gemm/shader_gemm.h"
#include "app/gl_gemm/shader_time_estimate.h"
#include "app/platform/egl_context.h"
#include "app/platform/software_renderer.h"
#include "kernels/core/external_runner.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {
namespace {

// The work between two waits on a software renderer: short enough that a cancel (Esc) lands at
// once, long enough that the waits cost nothing measurable.
constexpr double kSliceSeconds = 0.1;
// The GL thread's nice value on a software renderer (0 is the window's; 19 the lowest priority).
constexpr int kSoftwareRendererNice = 10;
// The run that measures a mode's fetch rate: large enough that a run's fixed costs (the clear,
// the wait) are under a tenth of it on llvmpipe, small enough to take at most about 0.3 s there.
constexpr int kRateRunSize = 256;

std::string current_renderer() {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return renderer ? renderer : "?";
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

  ExternalOutcome run(const ExternalRun& job) { return call(Job{job, false}); }

  // Asked before the Measurer makes the inputs (ExternalRunner::refusal): on the GL thread too,
  // since the estimate may need the mode's fetch rate measured first.
  std::string refusal(const ExternalRun& job) { return call(Job{job, true}).error; }

  void request_reload() { generation_.fetch_add(1); }

  GlShaderThreadInfo info() {
    std::lock_guard<std::mutex> lock(mutex_);
    return info_;
  }

  void set_limit(double seconds) { limit_seconds_.store(seconds); }

  GlShaderProgress progress() {
    GlShaderProgress out;
    std::lock_guard<std::mutex> lock(mutex_);
    out.drawing = drawing_;
    out.what = drawing_what_;
    out.fraction = drawing_ ? fraction_.load() : 0;
    return out;
  }

 private:
  // A call for the GL thread: a run, or only the question whether it would be refused.
  struct Job {
    ExternalRun run;
    bool refusal_only = false;
  };

  GlShaderThread() = default;

  ExternalOutcome call(const Job& job) {
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

  void main() {
    GlThreadContext* external = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      external = context_source_;
    }
    std::unique_ptr<EglContext> egl;
    std::string context_error;
    std::string description;
    rates_.clear();  // measured on the last thread's renderer
    bool external_current = external && take_external_context(external, &description, &context_error);
    bool have_context = external_current || make_own_context(&egl, &description, &context_error);
    if (!have_context && external && external->make_current(&context_error)) {
      // No EGL here: the hidden window's context, whose frames wait behind llvmpipe's runs, is
      // still better than no texture shaders.
      external_current = have_context = true;
      description = external->description();
    }
    std::unique_ptr<ShaderLibrary> library;
    int loaded_generation = -1;
    std::set<std::string> warm;  // mode names run since the last load
    if (have_context) {
      library = std::make_unique<ShaderLibrary>();
      software_ = software_renderer(current_renderer());
      std::lock_guard<std::mutex> lock(mutex_);
      info_.renderer = current_renderer();
      info_.context = description;
      info_.shader_dir = library->directory();
    } else {
      context_error = "no OpenGL context for the texture shaders: " + context_error;
    }
    for (;;) {
      Job job;
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
          rates_.clear();  // an edited shader may fetch at another rate
          std::lock_guard<std::mutex> lock(mutex_);
          info_.shader_dir = library->directory();
          info_.load_log = log;
          ++info_.loads;
        }
        if (job.refusal_only) {
          ShaderTimeRequest request;
          const ShaderFetchRate* rate = nullptr;
          out.error = refusal(job.run, *library, &request, &rate);
        } else {
          out = run_job(job.run, *library, &warm);
        }
      }
      std::lock_guard<std::mutex> lock(mutex_);
      outcome_ = std::move(out);
      wake_.notify_all();
    }
    library.reset();  // its programs go while the context is still current
    if (external_current) external->release();
  }

  // The window's hidden context, kept where it draws on hardware. On llvmpipe it is let go: all
  // contexts of the window's display share one rasterizer, which runs the scene a context queued
  // (every draw since its last wait) to its end before the next context's, so the window's frame
  // waited behind the texture shaders' run.
  bool take_external_context(GlThreadContext* external, std::string* description, std::string* error) {
    if (!external->make_current(error)) return false;
    if (!software_renderer(current_renderer())) {
      *description = external->description();
      return true;
    }
    external->release();
    *description = " (not the window's hidden context: on llvmpipe it shares the window's rasterizer)";
    return false;
  }

  // A headless EGL context; on Mesa the device platform's software device first: a display apart
  // from the headless host's surfaceless one, so with a rasterizer of its own. *description gets
  // the context's description in front of what it holds.
  bool make_own_context(std::unique_ptr<EglContext>* egl, std::string* description, std::string* error) {
    if (!make_egl_context(egl, error)) return false;
    if (software_renderer(current_renderer())) {
      // llvmpipe's draws are CPU work on the same cores as the window's frames: at a lower
      // priority they take the cores only while the UI does not need them (frames during a run,
      // 2 cores under load: median 85 -> 57 ms, the longest 193 -> 127 ms). The rasterizer's
      // threads start with the display and inherit this thread's priority, so the display is
      // made again after lowering it.
      egl->reset();
      setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kSoftwareRendererNice);
      if (!make_egl_context(egl, error)) return false;
      *description += " (at a lower CPU priority than the window)";
    }
    *description = (*egl)->description() + *description;
    return true;
  }

  static bool make_egl_context(std::unique_ptr<EglContext>* egl, std::string* error) {
    *egl = std::make_unique<EglContext>();
    std::string device_error;
    if ((*egl)->create(EglPlatform::kDevice, &device_error) || (*egl)->create(EglPlatform::kAuto, error)) return true;
    *error = device_error + "; " + *error;
    return false;
  }

  // The Measurer's first run is timed apart: here it is the engine's first warm-up run.
  static int engine_warmup(const ExternalRun& job) { return job.warmup + 1; }

  // Why the job is not drawn ("" = it is): a configuration the engine has no mode for, a failed
  // or cancelled measurement of the fetch rate, or on a software renderer an estimate over the
  // limit. *request: the job as the engine draws it; *rate: the mode's fetch rate on a software
  // renderer (nullptr where none is known or needed).
  std::string refusal(const ExternalRun& job, const ShaderLibrary& library, ShaderTimeRequest* request,
                      const ShaderFetchRate** rate) {
    *rate = nullptr;
    const TileConfig& cfg = config_at(*job.variant, job.config_index);
    if (cfg.engine_mode < 0 || cfg.engine_mode >= kShaderModeCount)
      return "the texture-shader engine has no mode #" + std::to_string(cfg.engine_mode) + " (" + cfg.name + ")";
    request->mode = static_cast<ShaderMode>(cfg.engine_mode);
    request->variant = job.variant->id;
    request->config = cfg.name;
    request->M = job.M, request->N = job.N, request->K = job.K;
    request->runs = engine_warmup(job) + job.repetitions;
    if (!software_) return "";
    std::string error;
    *rate = fetch_rate(*request, library, job.cancel, &error);
    if (!error.empty() || !*rate) return error;
    const std::string refused = shader_time_refusal(*request, **rate, limit_seconds_.load());
    return refused.empty() ? "" : "refused: " + refused;
  }

  ExternalOutcome run_job(const ExternalRun& job, const ShaderLibrary& library, std::set<std::string>* warm) {
    ExternalOutcome out;
    ShaderTimeRequest request;
    const ShaderFetchRate* rate = nullptr;
    out.error = refusal(job, library, &request, &rate);
    if (!out.error.empty()) return out;
    const std::string& config = request.config;
    out.device_name = current_renderer();
    ShaderGemmOptions options;
    options.cancel = job.cancel;
    options.warmup = engine_warmup(job);
    options.progress = &fraction_;
    if (rate) options.slice_fetches = rate->fetches_per_second * kSliceSeconds;
    publish_progress(true, config + " at " + shader_size_text(job.M, job.N, job.K));
    out.first_was_cold = warm->insert(config).second;
    ShaderGemmResult result =
        run_shader_gemm(request.mode, job.a, job.b, job.M, job.N, job.K, job.repetitions, library, options);
    publish_progress(false, "");
    if (!result.error.empty()) {
      out.error = result.error;
      return out;
    }
    if (software_) learn_rate(request, result.wall_ms, "the last run at " + shader_size_text(job.M, job.N, job.K));
    out.first_ms = result.first_ms;
    // llvmpipe undercounts GL_TIME_ELAPSED over several passes (shader_gemm.cpp): there the wall
    // clock is the honest time.
    out.timer = software_ ? "wall_clock" : "gl_time_elapsed";
    out.times_ms = software_ ? result.wall_ms_all : result.gpu_ms_all;
    out.passes = result.passes;
    out.fetches_per_fma = result.fetches_per_fma;
    out.c = std::move(result.c);
    return out;
  }

  // The fetches of one run of `request`'s size.
  static double run_fetches(const ShaderTimeRequest& request) {
    return describe_shader_layout(request.mode, request.M, request.N, request.K).fetches;
  }

  // The rate of the request's mode on this renderer: known, or measured now on a small run when
  // the request draws more than that run would. nullptr when the request is too small to need
  // one; *error when the measuring run failed (a broken shader: the request would fail alike) or
  // was cancelled.
  const ShaderFetchRate* fetch_rate(const ShaderTimeRequest& request, const ShaderLibrary& library,
                                    const std::atomic<bool>* cancel, std::string* error) {
    const auto known = rates_.find(request.mode);
    if (known != rates_.end()) return &known->second;
    ShaderTimeRequest small = request;
    small.M = small.N = small.K = kRateRunSize;
    small.runs = 2;
    if (run_fetches(request) * request.runs <= run_fetches(small) * small.runs) return nullptr;
    publish_progress(true, "measuring the fetch rate of " + request.config);
    // Any values do: the rate does not depend on them (0.5: no denormals, no NaN).
    const std::vector<float> ones(static_cast<std::size_t>(kRateRunSize) * kRateRunSize, 0.5f);
    ShaderGemmOptions options;
    options.cancel = cancel;
    options.warmup = small.runs - 1;
    options.progress = &fraction_;
    const ShaderGemmResult result = run_shader_gemm(request.mode, ones.data(), ones.data(), kRateRunSize, kRateRunSize,
                                                    kRateRunSize, 1, library, options);
    publish_progress(false, "");
    if (!result.error.empty()) {
      *error = result.error;
      return nullptr;
    }
    learn_rate(small, result.wall_ms, "a run at " + shader_size_text(kRateRunSize, kRateRunSize, kRateRunSize));
    const auto learned = rates_.find(request.mode);
    return learned == rates_.end() ? nullptr : &learned->second;
  }

  // Keeps the rate of a finished run of `request`'s size (median run time `run_ms`), when the run
  // was at least as large as the measuring run: smaller runs are mostly fixed costs.
  void learn_rate(const ShaderTimeRequest& request, double run_ms, const std::string& where) {
    const double fetches = run_fetches(request);
    const double enough = describe_shader_layout(request.mode, kRateRunSize, kRateRunSize, kRateRunSize).fetches;
    if (run_ms <= 0 || fetches < enough) return;
    ShaderFetchRate& rate = rates_[request.mode];
    rate.fetches_per_second = fetches / (run_ms * 1e-3);
    rate.renderer = current_renderer();
    rate.measured_on = where;
  }

  void publish_progress(bool drawing, const std::string& what) {
    if (drawing) fraction_.store(0);
    std::lock_guard<std::mutex> lock(mutex_);
    drawing_ = drawing;
    drawing_what_ = what;
  }
  std::mutex call_mutex_;  // one caller at a time
  std::mutex mutex_;       // everything below
  std::condition_variable wake_;
  std::optional<Job> job_;
  std::optional<ExternalOutcome> outcome_;
  bool quit_ = false;
  GlThreadContext* context_source_ = nullptr;  // nullptr: a headless EGL context of its own
  std::atomic<int> generation_{0};
  GlShaderThreadInfo info_;
  bool drawing_ = false;      // a call is being drawn (or its rate measured)
  std::string drawing_what_;  // what, for the progress bar
  std::atomic<double> fraction_{0};
  std::atomic<double> limit_seconds_{0};
  // GL thread only: whether its renderer is a software one, and the fetch rates measured on it.
  bool software_ = false;
  std::map<ShaderMode, ShaderFetchRate> rates_;
  std::thread thread_;
};

}  // namespace

void install_gl_shader_runner() {
  ExternalRunner runner;
  runner.refusal = [](const ExternalRun& job) { return GlShaderThread::instance().refusal(job); };
  runner.run = [](const ExternalRun& job) { return GlShaderThread::instance().run(job); };
  install_external_runner(Backend::GlShader, std::move(runner));
}

void stop_gl_shader_runner() {
  GlShaderThread::instance().stop();
}

void set_gl_thread_context(GlThreadContext* context) {
  GlShaderThread::instance().set_context(context);
}

void set_gl_shader_time_limit(double seconds) {
  GlShaderThread::instance().set_limit(seconds);
}

GlShaderProgress gl_shader_progress() {
  return GlShaderThread::instance().progress();
}

void request_shader_reload() {
  GlShaderThread::instance().request_reload();
}

GlShaderThreadInfo gl_shader_thread_info() {
  return GlShaderThread::instance().info();
}

}  // namespace tilescope
