// Edits run in a worker process (app/platform/child_process.h, app/ui/source/kernel_edit_job.h):
// a worker that never ends is killed at its time limit, one that dies of a signal or fails is
// reported with why, and the window's side goes on; the worker's command line and the compiler's
// messages at the edit's lines; then a real Check through this program, as the Source view's editor
// starts it, of a good edit and of a broken one.
#include "app/ui/source/kernel_edit_job.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "app/platform/child_process.h"
#include "app/runner/timing_history.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "app/ui/source/kernel_editor.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

const VariantDescriptor& editable_variant() {
  return testing::variant_where(
      [](const VariantDescriptor& v) {
        return testing::is_product_kernel(v) && takes_typed_tiles(v) && v.model_caps.staged_phases &&
               !v.model_caps.prefetch && !v.model_caps.warp_level;
      },
      "a shared-memory tiled kernel of one element per thread that takes typed tiles");
}

// A shell script standing in for the worker program.
std::string fake_worker(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  chmod(path.c_str(), 0755);
  return path;
}

template <typename Job>
void wait_until_done(Job& job, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (job.busy() && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

TEST(ChildProcess, ReportsExitStatusSignalsAndKill) {
  ChildProcess p;
  std::string error;
  const std::string out = ::testing::TempDir() + "child-output.txt";
  ASSERT_TRUE(p.start({"/bin/sh", "-c", "echo said; exit 3"}, out, &error)) << error;
  while (p.running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(p.ending().exited);
  EXPECT_EQ(p.ending().code, 3);
  std::ifstream said(out);
  std::string word;
  said >> word;
  EXPECT_EQ(word, "said");

  ASSERT_TRUE(p.start({"/bin/sh", "-c", "kill -SEGV $$"}, out, &error)) << error;
  while (p.running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(p.ending().signal, SIGSEGV);
  EXPECT_NE(ending_text(p.ending()).find("signal 11"), std::string::npos) << ending_text(p.ending());

  ASSERT_TRUE(p.start({"/bin/sleep", "60"}, out, &error)) << error;
  EXPECT_TRUE(p.running());
  p.kill();
  const auto start = std::chrono::steady_clock::now();
  while (p.running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(p.ending().signal, SIGKILL);

  // What the child started goes with it (ncu's profiled program, a shell's commands).
  ASSERT_TRUE(p.start({"/bin/sh", "-c", "/bin/sleep 60 & echo $!; wait"}, out, &error)) << error;
  pid_t grandchild = 0;
  for (int i = 0; i < 500 && grandchild == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::ifstream(out) >> grandchild;
  }
  ASSERT_GT(grandchild, 0) << "the shell did not say its child's pid";
  p.kill();
  while (p.running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // Gone, or a zombie waiting for init to reap it: no longer running either way.
  auto state_of = [](pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    return close == std::string::npos || close + 2 >= line.size() ? 'X' : line[close + 2];
  };
  char state = state_of(grandchild);
  for (int i = 0; i < 200 && state != 'X' && state != 'Z'; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    state = state_of(grandchild);
  }
  EXPECT_TRUE(state == 'X' || state == 'Z') << "the child's own child still runs (state " << state << ")";

  EXPECT_FALSE(p.start({"/no/such/program"}, out, &error));
  EXPECT_NE(error.find("/no/such/program"), std::string::npos) << error;
}

TEST(KernelEditJob, WorkerArgumentsNameTheEditOnlyWhenThereIsOne) {
  const VariantDescriptor& v = editable_variant();
  EditRequest r;
  r.variant = &v;
  r.config_name = v.configs[v.default_config].name;
  r.action = EditAction::Run;
  r.shape = {100, 200, 300};
  const std::vector<std::string> run = edit_worker_arguments("/bin/tilescope", r, "/t/x.cuh", "/t/run.csv");
  const std::string joined = [&] {
    std::string j;
    for (const std::string& a : run) j += a + " ";
    return j;
  }();
  EXPECT_EQ(run[1], "bench");
  EXPECT_NE(joined.find(std::string("--kernel-text ") + v.id + "=/t/x.cuh"), std::string::npos) << joined;
  EXPECT_NE(joined.find("--m 100 --n 200 --k 300"), std::string::npos) << joined;
  EXPECT_NE(joined.find("--csv /t/run.csv"), std::string::npos) << joined;
  r.edited = false;
  r.action = EditAction::Check;
  const std::vector<std::string> check = edit_worker_arguments("/bin/tilescope", r, "/t/x.cuh", "/t/run.csv");
  EXPECT_EQ(check[1], "compile");
  EXPECT_EQ(std::find(check.begin(), check.end(), "--kernel-text"), check.end());
}

TEST(KernelEditJob, DiagnosticsAreTheEditsLines) {
  const std::string output =
      "smem tile=16: f32 gemm for sm_90\n"
      "kernels/variants/02_x.cuh:55: error: expected a \";\"\n"
      "kernels/ptx/other.cuh:3: error: not ours\n"
      "kernels/variants/02_x.cuh:54: warning: this pragma must immediately precede a statement\n"
      "kernels/variants/02_x.cuh:junk\n";
  const std::vector<EditDiagnostic> d = edit_diagnostics(output, "kernels/variants/02_x.cuh");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].line, 54);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "expected a \";\"");
  EXPECT_EQ(d[1].line, 53);
  EXPECT_EQ(d[1].severity, "warning");
}

TEST(KernelEditJob, StopsAWorkerThatNeverEndsAndReportsOneThatDies) {
  const VariantDescriptor& v = editable_variant();
  EditRequest r;
  r.variant = &v;
  r.config_name = v.configs[v.default_config].name;
  r.text = "__global__ void k() {}";
  r.time_limit_s = 0.5;

  KernelEditJob hang(fake_worker("hanging-worker.sh", "sleep 60"));
  std::string error;
  ASSERT_TRUE(hang.start(r, &error)) << error;
  wait_until_done(hang, 10);
  EditOutcome o;
  ASSERT_TRUE(hang.take_outcome(&o));
  EXPECT_TRUE(o.timed_out);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.summary.find("stopped after"), std::string::npos) << o.summary;
  EXPECT_FALSE(hang.take_outcome(&o)) << "an outcome is taken once";

  r.time_limit_s = 30;
  KernelEditJob dies(fake_worker("dying-worker.sh", "echo 'tilescope compile: about to fall over'; kill -SEGV $$"));
  ASSERT_TRUE(dies.start(r, &error)) << error;
  wait_until_done(dies, 10);
  ASSERT_TRUE(dies.take_outcome(&o));
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.summary.find("signal 11"), std::string::npos) << o.summary;
  EXPECT_NE(o.summary.find("about to fall over"), std::string::npos) << o.summary;

  KernelEditJob cancelled(fake_worker("slow-worker.sh", "sleep 60"));
  ASSERT_TRUE(cancelled.start(r, &error)) << error;
  EXPECT_FALSE(cancelled.start(r, &error)) << "one worker at a time";
  cancelled.cancel();
  wait_until_done(cancelled, 10);
  ASSERT_TRUE(cancelled.take_outcome(&o));
  EXPECT_TRUE(o.cancelled);
  EXPECT_EQ(o.summary, "cancelled");
}

// The editor as the Source view drives it, with this program as the worker: a Check of the shipped
// text's tile after an edit that keeps it valid, then of one that breaks a line.
TEST(KernelEditor, ChecksAnEditAndMarksTheBrokenLine) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not installed here: " << nvrtc_library().error;
  const VariantDescriptor& v = editable_variant();
  KernelEditor editor(TILESCOPE_BINARY);
  std::string why;
  ASSERT_TRUE(editor.open(v, &why)) << why;
  EXPECT_FALSE(editor.edited());
  ASSERT_TRUE(editor.replace("__syncthreads();", 2, "", &why)) << why;
  EXPECT_TRUE(editor.edited());
  EXPECT_FALSE(editor.replace("__syncthreads();", 9, "", &why));
  EditRunSettings s;
  s.config_name = v.configs[v.default_config].name;
  TimingHistory history;
  ASSERT_TRUE(editor.check(s, &why)) << why;
  wait_until_done(editor, 60);
  ASSERT_TRUE(editor.poll(history));
  EXPECT_TRUE(editor.last().ok) << editor.last().summary << "\n" << editor.last().output;
  EXPECT_NE(editor.last().output.find("registers per thread"), std::string::npos) << editor.last().output;
  EXPECT_FALSE(editor.last().tag.empty());

  ASSERT_TRUE(editor.replace("__syncthreads();", 1, "__syncthreads()", &why)) << why;
  ASSERT_TRUE(editor.check(s, &why)) << why;
  wait_until_done(editor, 60);
  ASSERT_TRUE(editor.poll(history));
  EXPECT_FALSE(editor.last().ok);
  ASSERT_FALSE(editor.last().diagnostics.empty()) << editor.last().output;
  EXPECT_EQ(editor.last().diagnostics.front().severity, "error");
  EXPECT_NE(editor.last().summary.find("does not compile"), std::string::npos) << editor.last().summary;
  EXPECT_EQ(history.size(), 0u) << "a Check runs nothing";

  // Run without a GPU is refused with the reason; Revert brings the shipped text back.
  EXPECT_FALSE(editor.run(s, &why));
  EXPECT_NE(why.find("GPU"), std::string::npos) << why;
  editor.revert();
  EXPECT_FALSE(editor.edited());

  // Files: a saved edit loads back; a file that is no kernel text is refused and changes nothing.
  ASSERT_TRUE(editor.replace("__syncthreads();", 2, "", &why)) << why;
  const std::string saved = ::testing::TempDir() + "saved-edit.cuh";
  ASSERT_TRUE(editor.save_file(saved, &why)) << why;
  const std::string edited_text = editor.text();
  editor.revert();
  ASSERT_TRUE(editor.load_file(saved, &why)) << why;
  EXPECT_EQ(editor.text(), edited_text);
  const std::string notes = ::testing::TempDir() + "notes.txt";
  std::ofstream(notes) << "not a kernel";
  EXPECT_FALSE(editor.load_file(notes, &why));
  EXPECT_NE(why.find("not a kernel text"), std::string::npos) << why;
  EXPECT_EQ(editor.text(), edited_text);
  EXPECT_FALSE(editor.save_file("/no/such/folder/edit.cuh", &why));
}

}  // namespace
}  // namespace tilescope

namespace tilescope {
namespace {

// A lesson's edit lines in the window: the Source tab opens in the editor, an edit is made and
// checked through the worker, and the promises about its outcome hold (and fail when untrue).
TEST(KernelEditor, ScriptEditsChecksAndKeepsItsPromises) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not installed here: " << nvrtc_library().error;
  auto host = testing::make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, testing::without_gpu());
  const std::string id = editable_variant().id;
  ScriptPlayer script;
  std::string error;
  ASSERT_TRUE(script.load_text("use " + id + " on\nfocus " + id +
                                   "\nedit on\nframes 2\n# expect: tab source\n"
                                   "edit-replace __syncthreads(); 2 -\nedit-check\n# expect: edit compiled\n"
                                   "edit-replace __syncthreads(); 1 __syncthreads()\nedit-check\n"
                                   "# expect: edit compiled\nframes 2\n",
                               "edit.txt", &error))
      << error;
  std::vector<std::string> failures;
  for (int i = 0; i < 2000 && script.step(app, &failures); ++i) {
    testing::frame(*host, app);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(script.finished());
  ASSERT_EQ(failures.size(), 1u) << "the second edit does not compile";
  EXPECT_EQ(failures[0], "edit.txt:11: expected edit compiled, but the last edit's outcome is error");
  EXPECT_TRUE(app.source().editing());
  EXPECT_FALSE(app.source().editor().last().diagnostics.empty());
  EXPECT_FALSE(app.busy());
}

}  // namespace
}  // namespace tilescope

namespace tilescope {
namespace {

TEST(KernelEditor, ScriptLinesAreCheckedBeforeTheyPlay) {
  EXPECT_EQ(check_script_line({"edit", "on"}), "");
  EXPECT_NE(check_script_line({"edit", "maybe"}), "");
  EXPECT_EQ(check_script_line({"edit-replace", "__syncthreads();", "2", "-"}), "");
  EXPECT_NE(check_script_line({"edit-replace", "__syncthreads();", "second", "-"}), "");
  EXPECT_NE(check_script_line({"edit-replace", "__syncthreads();", "0", "-"}), "");
  EXPECT_NE(check_script_line({"edit-replace", "__syncthreads();"}), "");
  EXPECT_EQ(check_script_line({"edit-run"}), "");
  EXPECT_NE(check_script_line({"edit-check", "now"}), "");
  EXPECT_EQ(check_expectation({"edit", "failed"}), "");
  EXPECT_NE(check_expectation({"edit", "fine"}), "");
}

}  // namespace
}  // namespace tilescope
