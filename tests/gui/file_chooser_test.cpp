// Files as people expect them: the in-app chooser (listing, keyboard, save questions), the
// desktop's dialog as a separate program (a stand-in zenity/kdialog on $PATH), the recent
// files, Esc closing dialogs without acting, F12's file name, and the status bar's message.
#define GLFW_INCLUDE_NONE
#include "app/ui/shell/file_chooser.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "app/platform/desktop_file_dialog.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/file_paths.h"
#include "app/ui/shell/folder_listing.h"
#include "app/ui/shell/modal_escape.h"
#include "app/ui/shell/text_fit.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/printable_check.h"

using namespace tilescope;
using namespace tilescope::testing;
namespace fs = std::filesystem;

namespace {

// A folder of folders and files of several types, removed after.
class Folder : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.empty());
    for (const char* d : {"zeta", "Alpha", ".git"}) fs::create_directory(dir_ + "/" + d);
    write_file(dir_ + "/b.csv", std::string(100, 'x'));
    write_file(dir_ + "/A.CSV", "a");
    write_file(dir_ + "/notes.txt", "n");
    write_file(dir_ + "/plot.png", "p");
    write_file(dir_ + "/.hidden.csv", "h");
  }

  static std::vector<std::string> names(const FolderListing& l) {
    std::vector<std::string> out;
    for (const FolderEntry& e : l.entries) out.push_back(e.name);
    return out;
  }
  std::vector<std::string> files_like(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().filename().string());
    return out;
  }
  FileDialogRequest request(bool save, const std::string& extension, const std::string& name = "") const {
    FileDialogRequest r;
    r.save = save;
    r.title = "test";
    r.folder = dir_;
    r.file_name = name;
    r.filter_label = extension == "csv" ? "CSV files" : "PNG images";
    r.extension = extension;
    return r;
  }

  const TempDir tmp_{"tilescope-chooser"};
  const std::string dir_ = tmp_.path();
};

void write_program(const std::string& path, const std::string& script) {
  write_file(path, "#!/bin/sh\n" + script);
  chmod(path.c_str(), 0755);
}

bool wait_for(DesktopFileDialog& dialog, FileDialogResult* r, double seconds = 10) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (dialog.take_result(r)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// An App whose choosers open in `folder`, with a sweep to plot.
std::unique_ptr<App> headless_app(Host& host, const std::string& folder) {
  auto app = std::make_unique<App>(host, without_gpu());
  app->state().export_dir = folder;
  EXPECT_TRUE(app->load_csv(kH100Csv)) << app->status();
  app->state().recent_files.clear();
  return app;
}

}  // namespace

// ---- the listing -------------------------------------------------------------------------------

TEST_F(Folder, ListsFoldersFirstThenFilesOfTheTypeByName) {
  const FolderListing l = list_folder(dir_, "csv", false);
  EXPECT_EQ(l.error, "");
  EXPECT_EQ(names(l), (std::vector<std::string>{"Alpha", "zeta", "A.CSV", "b.csv"}));
  EXPECT_TRUE(l.entries[0].folder);
  EXPECT_FALSE(l.entries[3].folder);
  EXPECT_EQ(l.entries[3].bytes, 100u);
  EXPECT_EQ(names(list_folder(dir_, "csv", true)),
            (std::vector<std::string>{".git", "Alpha", "zeta", ".hidden.csv", "A.CSV", "b.csv"}));
  EXPECT_EQ(names(list_folder(dir_, "png", false)), (std::vector<std::string>{"Alpha", "zeta", "plot.png"}));
}

TEST_F(Folder, AFolderThatCannotBeReadSaysWhy) {
  const FolderListing missing = list_folder(dir_ + "/gone", "csv", false);
  EXPECT_EQ(missing.error, "cannot read " + dir_ + "/gone: No such file or directory");
  EXPECT_TRUE(missing.entries.empty());
  EXPECT_NE(list_folder(dir_ + "/b.csv", "csv", false).error.find("Not a directory"), std::string::npos);
}

TEST(FolderListing, SizesAndDatesInWords) {
  EXPECT_EQ(format_file_size(0), "0 B");
  EXPECT_EQ(format_file_size(999), "999 B");
  EXPECT_EQ(format_file_size(1000), "1.0 KB");
  EXPECT_EQ(format_file_size(12345), "12.3 KB");
  EXPECT_EQ(format_file_size(999400), "999 KB");
  EXPECT_EQ(format_file_size(999600), "1.0 MB") << "not 1000 KB";
  EXPECT_EQ(format_file_size(4500000000ull), "4.5 GB");
  const std::time_t when = 1795703405;
  std::tm local{};
  localtime_r(&when, &local);
  char expected[64];
  std::snprintf(expected, sizeof expected, "%04d-%02d-%02d %02d:%02d", local.tm_year + 1900, local.tm_mon + 1,
                local.tm_mday, local.tm_hour, local.tm_min);
  EXPECT_EQ(format_file_time(when), expected);
}

TEST(FilePaths, AbsoluteAndTidy) {
  EXPECT_EQ(absolute_path("a/./b/../c.csv", "/home/t"), "/home/t/a/c.csv");
  EXPECT_EQ(absolute_path("/x/y/", "/home/t"), "/x/y");
  EXPECT_EQ(absolute_path("..", "/"), "/");
  EXPECT_EQ(folder_of("/a/b.csv"), "/a");
  EXPECT_EQ(folder_of("/b.csv"), "/");
  EXPECT_EQ(file_name_of("/a/b.csv"), "b.csv");
  EXPECT_EQ(with_extension("plot", "png"), "plot.png");
  EXPECT_EQ(with_extension("PLOT.PNG", "png"), "PLOT.PNG");
  EXPECT_EQ(with_extension("plot.v2", "png"), "plot.v2.png");
  EXPECT_FALSE(has_extension(".png", "png")) << "a hidden file named .png has no name before it";
}

// ---- the in-app chooser, driven as the keyboard and mouse drive it --------------------------------

TEST_F(Folder, OpenModeWalksFoldersAndTakesAFile) {
  FileChooser c;
  c.open(request(false, "csv"), {}, "/");
  ASSERT_TRUE(c.is_open());
  EXPECT_EQ(c.folder(), dir_);
  EXPECT_EQ(c.selected(), -1);
  c.move_selection(1);  // Down: the first entry, a folder
  EXPECT_EQ(c.selected(), 0);
  EXPECT_FALSE(c.activate()) << "Enter on a folder opens it";
  EXPECT_EQ(c.folder(), dir_ + "/Alpha");
  c.go_up();
  EXPECT_EQ(c.folder(), dir_);
  c.move_selection(10);  // clamped to the last entry
  EXPECT_EQ(c.selected(), 3);
  ASSERT_TRUE(c.activate());
  EXPECT_EQ(c.chosen_path(), dir_ + "/b.csv");
  EXPECT_FALSE(c.is_open());
}

TEST_F(Folder, OpenModeTakesTypedNamesAndSaysWhatIsMissing) {
  FileChooser c;
  c.open(request(false, "csv"), {}, "/");
  EXPECT_FALSE(c.activate());
  EXPECT_NE(c.message().find("select a file"), std::string::npos) << c.message();
  c.set_file_name("zeta");
  EXPECT_FALSE(c.activate());
  EXPECT_EQ(c.folder(), dir_ + "/zeta") << "a typed folder opens";
  c.set_file_name("nope.csv");
  EXPECT_FALSE(c.activate());
  EXPECT_EQ(c.message(), "no file " + dir_ + "/zeta/nope.csv");
  c.set_file_name("../b.csv");
  ASSERT_TRUE(c.activate());
  EXPECT_EQ(c.chosen_path(), dir_ + "/b.csv");
}

TEST_F(Folder, SaveModeAddsTheExtensionAndAsksBeforeReplacing) {
  FileChooser c;
  c.open(request(true, "png", "new"), {}, "/");
  EXPECT_EQ(c.file_name(), "new");
  ASSERT_TRUE(c.activate());
  EXPECT_EQ(c.chosen_path(), dir_ + "/new.png");

  c.open(request(true, "png", "other"), {}, "/");
  c.select(2);  // plot.png: its name goes to the name field
  EXPECT_EQ(c.file_name(), "plot.png");
  EXPECT_FALSE(c.activate()) << "plot.png exists: asked first";
  EXPECT_EQ(c.replace_question(), dir_ + "/plot.png");
  c.decline_replace();
  EXPECT_TRUE(c.is_open());
  EXPECT_EQ(c.replace_question(), "");
  EXPECT_FALSE(c.activate());
  ASSERT_TRUE(c.confirm_replace());
  EXPECT_EQ(c.chosen_path(), dir_ + "/plot.png");

  c.open(request(true, "png", "missing/x"), {}, "/");
  EXPECT_FALSE(c.activate());
  EXPECT_NE(c.message().find("does not exist"), std::string::npos) << c.message();
  c.set_file_name("");
  EXPECT_FALSE(c.activate());
  EXPECT_EQ(c.message(), "type a name for the file");
}

TEST_F(Folder, AMissingStartFolderOpensWhereTheProgramStarted) {
  FileDialogRequest r = request(false, "csv");
  r.folder = dir_ + "/gone";
  FileChooser c;
  c.open(r, {}, dir_ + "/zeta");
  EXPECT_EQ(c.folder(), dir_ + "/zeta");
}

// ---- the desktop's dialog: a stand-in tool on $PATH ------------------------------------------------

TEST(DesktopFileDialog, CommandLinesOfZenityAndKdialog) {
  FileDialogRequest r;
  r.title = "Export plot PNG";
  r.folder = "/home/t/plots";
  r.file_name = "p.png";
  r.filter_label = "PNG images";
  r.extension = "png";
  r.save = true;
  EXPECT_EQ(
      desktop_dialog_command(DesktopDialogTool::kZenity, r),
      (std::vector<std::string>{"zenity", "--file-selection", "--title=Export plot PNG",
                                "--filename=/home/t/plots/p.png", "--save", "--confirm-overwrite",
                                "--file-filter=PNG images (*.png) | *.png *.PNG", "--file-filter=All files | *"}));
  EXPECT_EQ(desktop_dialog_command(DesktopDialogTool::kKdialog, r),
            (std::vector<std::string>{"kdialog", "--title", "Export plot PNG", "--getsavefilename",
                                      "/home/t/plots/p.png", "*.png *.PNG|PNG images"}));
  r.save = false;
  const std::vector<std::string> open = desktop_dialog_command(DesktopDialogTool::kZenity, r);
  EXPECT_EQ(open[3], "--filename=/home/t/plots/") << "a folder to start in, with its slash";
  EXPECT_EQ(std::count(open.begin(), open.end(), "--save"), 0);
  EXPECT_EQ(desktop_dialog_command(DesktopDialogTool::kKdialog, r)[3], "--getopenfilename");
}

TEST(DesktopFileDialog, ExitStatusMeansChosenCancelledOrFailed) {
  const FileDialogResult chosen = desktop_dialog_result(DesktopDialogTool::kZenity, 0, "/a/b c.csv\n");
  EXPECT_EQ(chosen.outcome, FileDialogResult::Outcome::kChosen);
  EXPECT_EQ(chosen.path, "/a/b c.csv");
  EXPECT_EQ(desktop_dialog_result(DesktopDialogTool::kZenity, 1, "").outcome, FileDialogResult::Outcome::kCancelled);
  EXPECT_EQ(desktop_dialog_result(DesktopDialogTool::kKdialog, 0, "").outcome, FileDialogResult::Outcome::kCancelled);
  const FileDialogResult failed = desktop_dialog_result(DesktopDialogTool::kKdialog, 254, "");
  EXPECT_EQ(failed.outcome, FileDialogResult::Outcome::kFailed);
  EXPECT_EQ(failed.error, "kdialog ended with status 254");
}

TEST_F(Folder, TheDesktopToolIsFoundOnlyWithADisplay) {
  const std::string bin = dir_ + "/bin";
  fs::create_directory(bin);
  write_program(bin + "/zenity", "exit 0\n");
  write_program(bin + "/kdialog", "exit 0\n");
  ScopedEnv path("PATH", bin);
  ScopedEnv forced("TILESCOPE_FILE_DIALOG", "", true);
  ScopedEnv desktop("XDG_CURRENT_DESKTOP", "GNOME");
  ScopedEnv wayland("WAYLAND_DISPLAY", "", true);
  {
    ScopedEnv display("DISPLAY", "", true);
    EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kNone) << "no display: tilescope's own";
  }
  ScopedEnv display("DISPLAY", ":99");
  EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kZenity);
  {
    ScopedEnv kde("XDG_CURRENT_DESKTOP", "KDE");
    EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kKdialog);
  }
  {
    ScopedEnv builtin("TILESCOPE_FILE_DIALOG", "builtin");
    EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kNone);
  }
  fs::remove(bin + "/zenity");
  EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kKdialog) << "whichever is there";
  fs::remove(bin + "/kdialog");
  EXPECT_EQ(find_desktop_dialog_tool(), DesktopDialogTool::kNone);
}

TEST_F(Folder, TheDesktopDialogRunsBesideTheFramesAndAnswers) {
  const std::string bin = dir_ + "/bin";
  fs::create_directory(bin);
  // The stand-in keeps its arguments, waits as a person would, then prints a choice.
  write_program(bin + "/zenity",
                "printf '%s\\n' \"$@\" > " + dir_ + "/args\n/bin/sleep 0.5\necho " + dir_ + "/b.csv\n");
  // Only the stand-in: a real zenity installed on this machine must not answer instead.
  ScopedEnv path("PATH", bin);
  DesktopFileDialog dialog;
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error)) << error;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.3)
      << "start() does not wait for the dialog";
  EXPECT_TRUE(dialog.busy());
  FileDialogResult r;
  EXPECT_FALSE(dialog.take_result(&r)) << "no answer yet";
  EXPECT_FALSE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error)) << "one at a time";
  ASSERT_TRUE(wait_for(dialog, &r));
  EXPECT_EQ(r.outcome, FileDialogResult::Outcome::kChosen) << r.error;
  EXPECT_EQ(r.path, dir_ + "/b.csv");
  EXPECT_FALSE(dialog.busy());
  EXPECT_NE(tilescope::testing::read_file(dir_ + "/args").find("--file-selection"), std::string::npos);

  write_program(bin + "/zenity", "exit 1\n");
  ASSERT_TRUE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error)) << error;
  ASSERT_TRUE(wait_for(dialog, &r));
  EXPECT_EQ(r.outcome, FileDialogResult::Outcome::kCancelled);

  write_program(bin + "/zenity", "exit 3\n");
  ASSERT_TRUE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error)) << error;
  ASSERT_TRUE(wait_for(dialog, &r));
  EXPECT_EQ(r.outcome, FileDialogResult::Outcome::kFailed);
  EXPECT_EQ(r.error, "zenity ended with status 3");

  // Closed by the program (it is quitting): at once, not after the tool's 30 seconds.
  write_program(bin + "/zenity", "exec /bin/sleep 30\n");
  ASSERT_TRUE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error)) << error;
  dialog.cancel();
  ASSERT_TRUE(wait_for(dialog, &r, 5));
  EXPECT_EQ(r.outcome, FileDialogResult::Outcome::kCancelled);

  fs::remove(bin + "/zenity");
  EXPECT_FALSE(dialog.start(DesktopDialogTool::kZenity, request(false, "csv"), &error));
  EXPECT_NE(error.find("cannot start zenity"), std::string::npos) << error;
}

// ---- the App: choosers, Esc, F12, the status bar ---------------------------------------------------

TEST_F(Folder, LoadCsvThroughTheChooserWithTheKeyboard) {
  fs::copy_file(kH100Csv, dir_ + "/b.csv", fs::copy_options::overwrite_existing);
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  auto app = headless_app(*host, dir_);
  const std::size_t rows_before = app->history().size();
  frame(*host, *app);
  app->choose_file(App::FileTarget::kLoadCsv);  // headless: tilescope's own chooser
  frame(*host, *app);
  ASSERT_TRUE(app->file_chooser().is_open());
  EXPECT_EQ(app->file_chooser().folder(), dir_);
  EXPECT_TRUE(modal_dialog_open());
  // Alpha, zeta, A.CSV, b.csv: four steps down, then Enter.
  for (int i = 0; i < 4; ++i) host->queue_key_press(GLFW_KEY_DOWN, 0);
  frame(*host, *app);
  EXPECT_EQ(app->file_chooser().selected(), 3);
  host->queue_key_press(GLFW_KEY_ENTER, 0);
  frame(*host, *app);
  EXPECT_FALSE(app->file_chooser().is_open());
  frames_while_loading(*host, *app);
  EXPECT_FALSE(app->status_is_error()) << app->status();
  EXPECT_EQ(app->history().size(), 2 * rows_before) << "the same sweep once more";
  EXPECT_EQ(app->status().rfind("loaded " + dir_ + "/b.csv (", 0), 0u) << app->status();
  ASSERT_FALSE(app->state().recent_files.empty());
  EXPECT_EQ(app->state().recent_files.front(), dir_ + "/b.csv");
  EXPECT_FALSE(app->choosing_file());
}

TEST_F(Folder, EscClosesTheChooserAndTheExportDialogWithoutActing) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  auto app = headless_app(*host, dir_);
  frame(*host, *app);
  app->set_status("before", false);
  app->choose_file(App::FileTarget::kExportCsv);
  frame(*host, *app);
  ASSERT_TRUE(app->file_chooser().is_open());
  host->queue_key_press(GLFW_KEY_ESCAPE, 0);
  frame(*host, *app);
  frame(*host, *app);
  EXPECT_FALSE(app->file_chooser().is_open());
  EXPECT_FALSE(app->choosing_file());
  EXPECT_FALSE(modal_dialog_open());
  EXPECT_TRUE(files_like("tilescope-results").empty()) << "nothing exported";
  EXPECT_EQ(app->status(), "before");

  app->open_export_dialog();
  frame(*host, *app);
  EXPECT_TRUE(modal_dialog_open());
  host->queue_key_press(GLFW_KEY_ESCAPE, 0);
  frames(*host, *app, 3);
  EXPECT_FALSE(modal_dialog_open());
  EXPECT_TRUE(files_like("tilescope-plot").empty()) << "nothing exported";

  // Enter exports, to a name with the date and no colon.
  app->open_export_dialog();
  frame(*host, *app);
  host->queue_key_press(GLFW_KEY_ENTER, 0);
  frames(*host, *app, 3);
  app->finish_file_writes();
  EXPECT_FALSE(modal_dialog_open());
  const std::vector<std::string> plots = files_like("tilescope-plot-");
  ASSERT_EQ(plots.size(), 1u) << app->status();
  EXPECT_EQ(plots[0].find(':'), std::string::npos) << plots[0];
  EXPECT_EQ(app->status(), "wrote " + dir_ + "/" + plots[0] + " (1920 x 1080)");
}

TEST_F(Folder, TheExportDialogRefusesAFolderItCannotWriteAndStaysOpen) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  auto app = headless_app(*host, dir_);
  app->open_export_dialog();
  frame(*host, *app);
  // The Browse chooser, opened from within the dialog, picks a file in a missing folder by name.
  app->choose_file(App::FileTarget::kExportPlot);
  frame(*host, *app);
  ASSERT_TRUE(app->file_chooser().is_open());
  app->file_chooser().set_file_name("gone/plot");
  host->queue_key_press(GLFW_KEY_ENTER, 0);
  frame(*host, *app);
  EXPECT_TRUE(app->file_chooser().is_open()) << "the chooser says why and stays";
  EXPECT_NE(app->file_chooser().message().find("does not exist"), std::string::npos);
  app->file_chooser().set_file_name("chosen");
  host->queue_key_press(GLFW_KEY_ENTER, 0);
  frame(*host, *app);
  EXPECT_FALSE(app->file_chooser().is_open());
  EXPECT_TRUE(modal_dialog_open()) << "back in the Export dialog, which now names " << dir_ << "/chosen.png";
  host->queue_key_press(GLFW_KEY_ENTER, 0);
  frames(*host, *app, 3);
  app->finish_file_writes();
  EXPECT_TRUE(fs::exists(dir_ + "/chosen.png")) << app->status();
  EXPECT_EQ(app->state().export_dir, dir_);
}

TEST_F(Folder, F12SavesAScreenshotNamedByTheDateWithoutColons) {
  auto host = make_host(960, 540);
  ASSERT_TRUE(host);
  auto app = headless_app(*host, dir_);
  frame(*host, *app);
  host->queue_key_press(GLFW_KEY_F12, 0);
  frame(*host, *app);
  frame(*host, *app);
  app->finish_file_writes();
  const std::vector<std::string> shots = files_like("tilescope-screenshot-");
  ASSERT_EQ(shots.size(), 1u) << app->status();
  EXPECT_EQ(shots[0].find(':'), std::string::npos) << shots[0];
  EXPECT_EQ(shots[0].size(), std::string("tilescope-screenshot-2026-11-26-143005.png").size()) << shots[0];
  EXPECT_EQ(app->status(), "wrote screenshot " + dir_ + "/" + shots[0]);
  // Twice within a second: a second file, not the first one replaced.
  host->queue_key_press(GLFW_KEY_F12, 0);
  frame(*host, *app);
  frame(*host, *app);
  app->finish_file_writes();
  EXPECT_EQ(files_like("tilescope-screenshot-").size(), 2u);
}

TEST(StatusBar, AnErrorStaysUntilDismissedOrReplaced) {
  auto host = make_host(960, 540);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.set_status("cannot write /nope/x.csv", true);
  frames(*host, app, 3);
  EXPECT_EQ(app.status(), "cannot write /nope/x.csv") << "still there frames later";
  app.dismiss_status();
  EXPECT_EQ(app.status(), "");
  EXPECT_FALSE(app.status_is_error());
  app.set_status("cannot write /nope/x.csv", true);
  app.set_status("wrote /tmp/x.csv (1 row)", false);
  EXPECT_FALSE(app.status_is_error()) << "the next success replaces it";
}

TEST(StatusBar, LongMessagesAreCutAtACharacterWithAnEllipsis) {
  auto host = make_host(960, 540);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  frame(*host, app);
  host->begin_frame();
  std::string text;
  for (int i = 0; i < 40; ++i) text += "A\u1d40A \u00d7 ";
  const float width = 200;
  const std::string fitted = fit_text(text, width);
  EXPECT_LE(ImGui::CalcTextSize(fitted.c_str()).x, width);
  EXPECT_GT(ImGui::CalcTextSize(fitted.c_str()).x, width * 0.8f) << "no more cut than needed";
  EXPECT_EQ(fitted.substr(fitted.size() - 3), "...");
  EXPECT_EQ(tilescope::testing::first_unprintable(fitted), "") << "no character cut in half";
  EXPECT_EQ(fit_text("short", width), "short");
  app.frame();
  host->end_frame();
}

// In the window, with a display and a desktop tool on $PATH (a stand-in zenity), File > Load
// CSV asks the tool, and the window keeps drawing frames while its dialog is open.
TEST_F(Folder, InTheWindowTheDesktopDialogAnswersWhileFramesGoOn) {
  if (!have_display()) GTEST_SKIP() << "DISPLAY is not set: run under xvfb-run -a";
  fs::copy_file(kH100Csv, dir_ + "/b.csv", fs::copy_options::overwrite_existing);
  const std::string bin = dir_ + "/bin";
  fs::create_directory(bin);
  write_program(bin + "/zenity", "/bin/sleep 0.5\necho " + dir_ + "/b.csv\n");
  ScopedEnv path("PATH", bin);
  ScopedEnv forced("TILESCOPE_FILE_DIALOG", "zenity");
  auto host = make_window_host(host_options(960, 540));
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().export_dir = dir_;
  frame(*host, app);
  app.choose_file(App::FileTarget::kLoadCsv);
  EXPECT_TRUE(app.choosing_file());
  EXPECT_FALSE(app.file_chooser().is_open()) << "the desktop's dialog, not tilescope's";
  int frames = 0;
  const auto start = std::chrono::steady_clock::now();
  while ((app.choosing_file() || app.loading_csv()) && frames < 2000) {
    frame(*host, app);
    ++frames;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(app.status_is_error()) << app.status();
  EXPECT_EQ(app.status().rfind("loaded " + dir_ + "/b.csv (", 0), 0u) << app.status();
  EXPECT_GT(frames, 5) << "frames went on while the dialog was open (" << seconds << " s)";
}
