// The Source view's highlighter (app/ui/source/cuda_syntax.h): each kind of word found, what a
// line leaves open carried to the next, and every byte of a line covered. Here rather than in
// tests/cpu: the module is built into the window's library, which only this suite links.
#include "app/ui/source/cuda_syntax.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tilescope;

namespace {

// The kind of the token holding the first byte of `word` in `line` (checked to exist).
TokenKind kind_of(const std::string& line, const std::string& word, SyntaxState state = {}) {
  const std::vector<Token> tokens = tokenize_line(line, &state);
  const std::size_t at = line.find(word);
  EXPECT_NE(at, std::string::npos) << word;
  for (const Token& t : tokens)
    if (static_cast<std::size_t>(t.begin) <= at && at < static_cast<std::size_t>(t.end)) return t.kind;
  ADD_FAILURE() << "no token holds " << word;
  return TokenKind::Plain;
}

// The text of the token holding `word`.
std::string token_text(const std::string& line, const std::string& word) {
  SyntaxState state;
  const std::size_t at = line.find(word);
  for (const Token& t : tokenize_line(line, &state))
    if (static_cast<std::size_t>(t.begin) <= at && at < static_cast<std::size_t>(t.end))
      return line.substr(t.begin, t.end - t.begin);
  return "";
}

TEST(CudaSyntax, TokensCoverTheLineInOrder) {
  const std::string line = "  __global__ void k(const float* a) { int i = 0x1F; /* c */ } // end";
  SyntaxState state;
  const std::vector<Token> tokens = tokenize_line(line, &state);
  int at = 0;
  for (const Token& t : tokens) {
    EXPECT_EQ(t.begin, at);
    EXPECT_LT(t.begin, t.end);
    at = t.end;
  }
  EXPECT_EQ(at, static_cast<int>(line.size()));
}

TEST(CudaSyntax, FindsKeywordsTypesAndCudaWords) {
  const std::string line = "template <typename T> __global__ void k(int n) { __shared__ float s[4]; __syncthreads(); }";
  EXPECT_EQ(kind_of(line, "template"), TokenKind::Keyword);
  EXPECT_EQ(kind_of(line, "typename"), TokenKind::Keyword);
  EXPECT_EQ(kind_of(line, "__global__"), TokenKind::Cuda);
  EXPECT_EQ(kind_of(line, "__shared__"), TokenKind::Cuda);
  EXPECT_EQ(kind_of(line, "__syncthreads"), TokenKind::Cuda);
  EXPECT_EQ(kind_of(line, "void"), TokenKind::Type);
  EXPECT_EQ(kind_of(line, "float"), TokenKind::Type);
  EXPECT_EQ(kind_of(line, "k("), TokenKind::Plain);
  EXPECT_EQ(kind_of("constexpr int kN = blockIdx.x;", "constexpr"), TokenKind::Keyword);
  EXPECT_EQ(kind_of("constexpr int kN = blockIdx.x;", "blockIdx"), TokenKind::Cuda);
  EXPECT_EQ(kind_of("int is_template_x;", "is_template_x"), TokenKind::Plain) << "a keyword inside a word";
}

TEST(CudaSyntax, FindsNumbersWithTheirSuffixesAndExponents) {
  EXPECT_EQ(token_text("x = 1.5e-3f;", "1.5"), "1.5e-3f");
  EXPECT_EQ(token_text("x = 0x1Fu + 2;", "0x1F"), "0x1Fu");
  EXPECT_EQ(token_text("x = 0xE-1;", "0xE"), "0xE") << "in hex, e is a digit and the minus is a minus";
  EXPECT_EQ(kind_of("x = 16;", "16"), TokenKind::Number);
  EXPECT_EQ(kind_of("float2 v;", "float2"), TokenKind::Type) << "a digit inside a word is no number";
}

TEST(CudaSyntax, FindsStringsAndCharactersWithEscapes) {
  EXPECT_EQ(token_text(R"(asm("mov.u32 %0, \"x\";" : "=r"(r));)", "mov"), R"("mov.u32 %0, \"x\";")");
  EXPECT_EQ(kind_of("char c = '\\'';", "'"), TokenKind::String);
  EXPECT_EQ(token_text("char c = '\\''; int i;", "'"), "'\\''");
  EXPECT_EQ(kind_of("s = \"// not a comment\";", "//"), TokenKind::String);
}

TEST(CudaSyntax, FindsLineAndBlockCommentsAcrossLines) {
  EXPECT_EQ(kind_of("int a; // int b;", "int b"), TokenKind::Comment);
  EXPECT_EQ(kind_of("a /* int */ int b;", "int */"), TokenKind::Comment);
  EXPECT_EQ(kind_of("a /* int */ int b;", "int b"), TokenKind::Type) << "code after the comment's end";
  const auto lines = tokenize_lines({"int a; /* opens", "  still a comment int", "closes */ float b;", "int c;"});
  EXPECT_EQ(lines[1].size(), 1u);
  EXPECT_EQ(lines[1][0].kind, TokenKind::Comment);
  EXPECT_EQ(lines[2][0].kind, TokenKind::Comment);
  EXPECT_EQ(lines[2][0].end, 9) << "up to and including */";
  EXPECT_EQ(kind_of("closes */ float b;", "float", SyntaxState{true, false}), TokenKind::Type);
  EXPECT_EQ(lines[3][0].kind, TokenKind::Type) << "nothing left open";
}

TEST(CudaSyntax, FindsPreprocessorLinesAndTheirContinuations) {
  EXPECT_EQ(kind_of("#include \"kernels/x.cuh\"", "kernels"), TokenKind::Preprocessor);
  EXPECT_EQ(kind_of("  #pragma unroll", "unroll"), TokenKind::Preprocessor);
  EXPECT_EQ(kind_of("#define N 4 // four", "four"), TokenKind::Comment);
  const auto lines = tokenize_lines({"#define F(x) \\", "  ((x) + 1)", "int y;"});
  EXPECT_EQ(lines[1].back().kind, TokenKind::Preprocessor) << "continued by the backslash";
  EXPECT_EQ(lines[2][0].kind, TokenKind::Type) << "the directive ended";
  EXPECT_EQ(kind_of("x = a # b;", "b;"), TokenKind::Plain) << "a # inside a line starts nothing";
}

}  // namespace
