// The words of a line of C++/CUDA kernel text by kind, for the Source view's colours: comments
// (block comments across lines), string and character literals, preprocessor lines (continued by
// a backslash), numbers, C++ keywords, types and CUDA's own words (__global__, __shared__,
// __syncthreads, threadIdx). A highlighter, not a parser: it never fails, it only colours.
// Plain C++: no ImGui.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

enum class TokenKind { Plain, Keyword, Type, Cuda, Preprocessor, Comment, String, Number };

// Bytes [begin, end) of the line.
struct Token {
  int begin = 0, end = 0;
  TokenKind kind = TokenKind::Plain;
};

// What a line leaves open for the next one.
struct SyntaxState {
  bool in_block_comment = false;  // a /* not closed yet
  bool in_directive = false;      // a preprocessor line ending in a backslash
};

// The tokens of one line (without its end), covering it from its first byte to its last, in
// order; neighbours of the same kind are merged. `state` carries what the line leaves open.
std::vector<Token> tokenize_line(const std::string& line, SyntaxState* state);
// Every line of a text, each with the state the lines before it left.
std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string>& lines);

}  // namespace tilescope
