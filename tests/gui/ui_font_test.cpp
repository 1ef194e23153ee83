// Every character the UI writes has a glyph in the font it uses, ImGui's built-in font included
// (a machine without system fonts, or TILESCOPE_UI_FONT=builtin): no '?' in "C = AᵀA". The
// characters are the ones ui_font_symbols() lists, and the sources write no others.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/platform/host.h"
#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

// The code points beyond ASCII in the string literals of the UI's sources (the app and the
// variants' descriptions), each with a file that writes it.
std::map<unsigned, std::string> characters_written() {
  std::map<unsigned, std::string> out;
  const std::regex source(R"(\.(cpp|h|cu|cuh)$)"), literal(R"("(?:[^"\\\n]|\\.)*")");
  for (const char* dir : {"/app", "/kernels"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + dir)) {
      if (!std::regex_search(e.path().string(), source)) continue;
      std::ifstream in(e.path());
      std::string line;
      while (std::getline(in, line)) {
        // Comments are not written on screen.
        const std::size_t comment = line.find("//");
        const std::string code = line.substr(0, comment);
        for (auto m = std::sregex_iterator(code.begin(), code.end(), literal); m != std::sregex_iterator(); ++m) {
          const std::string text = m->str();
          for (const char* s = text.c_str(); *s;) {
            unsigned c = 0;
            s += ImTextCharFromUtf8(&c, s, nullptr);
            if (c >= 0x80) out.emplace(c, e.path().filename().string());
          }
        }
      }
    }
  return out;
}

// Every view of the window in presenter mode, on AᵀA (its ᵀ everywhere) and on C = A·B, each
// frame's text checked for a character the font had no glyph for.
std::vector<std::string> missing_glyphs(int width, int height) {
  std::vector<std::string> out;
  auto host = ts::make_host(width, height);
  if (!host) return {"no host"};
  App app(*host, ts::without_gpu());
  app.load_csv(std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h100-2026-11-21/bench-ata.csv");
  app.set_presenter(true);
  auto frames = [&](const std::string& where, int n) {
    for (int i = 0; i < n; ++i) {
      ts::prepare_fonts();
      host->begin_frame();
      app.frame();
      host->end_frame();
      if (i == n - 1)
        for (const ts::CutText& c : ts::find_cut_text())
          if (c.how.find("no glyph") != std::string::npos) out.push_back(where + ": " + ts::describe(c));
      app.after_frame();
    }
  };
  // Float for the FMA kernels' pictures, bf16 for the tensor cores'.
  for (auto [problem, type] : {std::pair{Problem::Ata, Precision::F32}, std::pair{Problem::Ata, Precision::BF16},
                               std::pair{Problem::Gemm, Precision::BF16}}) {
    app.state().problem = problem;
    app.state().precision = type;
    app.show_timing();
    frames("Timing", 4);
    app.timing().set_plot_kind(TimingPlotKind::Roofline);
    frames("Roofline", 4);
    // Every variant's pictures and words, or why it has none in this type.
    for (std::size_t i = 0; i < app.state().lesson.size(); ++i) {
      app.state().focused = static_cast<int>(i);
      app.show_mapping();
      frames("Mapping of " + app.state().lesson[i].variant_id, 3);
    }
    app.show_history();
    frames("History", 4);
  }
  return out;
}

TEST(UiFont, TheSourcesWriteOnlyCharactersEveryFontDraws) {
  const std::vector<unsigned> drawn = ui_font_symbols();
  const std::set<unsigned> known(drawn.begin(), drawn.end());
  const std::map<unsigned, std::string> written = characters_written();
  EXPECT_TRUE(written.count(0x1D40)) << "the scan finds the ᵀ of C = AᵀA";
  for (const auto& [c, file] : written) {
    char utf8[5];
    EXPECT_TRUE(known.count(c)) << file << " writes " << ImTextCharToUtf8(utf8, c) << " (U+" << std::hex << c
                                << "), which ui_font_symbols() does not promise to draw";
  }
}

TEST(UiFont, TheBuiltInFontDrawsEveryCharacterTheUiWrites) {
  ts::ScopedEnv builtin("TILESCOPE_UI_FONT", "builtin");
  const std::vector<std::string> missing = missing_glyphs(1280, 720);
  for (const std::string& m : missing) ADD_FAILURE() << m;
  // The app says which font it draws with, and what it made.
  EXPECT_NE(ui_font_summary().find("built-in"), std::string::npos) << ui_font_summary();
  EXPECT_NE(ui_font_summary().find("made from its own glyphs"), std::string::npos) << ui_font_summary();
}

TEST(UiFont, EveryFontDrawsEverySymbol) {
  for (const char* font : {"builtin", ""}) {
    SCOPED_TRACE(*font ? font : "the system font");
    ts::ScopedEnv chosen("TILESCOPE_UI_FONT", font);
    auto host = ts::make_host(640, 360);
    ASSERT_TRUE(host);
    std::string error;
    load_ui_font(30, &error);
    for (unsigned c : ui_font_symbols()) {
      char utf8[5];
      EXPECT_NE(ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(static_cast<ImWchar>(c)), nullptr)
          << ImTextCharToUtf8(utf8, c) << " in " << ui_font_summary();
    }
  }
}

}  // namespace
