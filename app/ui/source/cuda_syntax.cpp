#include "app/ui/source/cuda_syntax.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

namespace tilescope {

namespace {

// Words kept short of a full grammar: what a reader of these kernels meets.
const char* const kKeywords[] = {"alignas",
                                 "alignof",
                                 "asm",
                                 "break",
                                 "case",
                                 "catch",
                                 "class",
                                 "const",
                                 "consteval",
                                 "constexpr",
                                 "constinit",
                                 "continue",
                                 "decltype",
                                 "default",
                                 "delete",
                                 "do",
                                 "else",
                                 "enum",
                                 "explicit",
                                 "extern",
                                 "false",
                                 "for",
                                 "friend",
                                 "goto",
                                 "if",
                                 "inline",
                                 "mutable",
                                 "namespace",
                                 "new",
                                 "noexcept",
                                 "nullptr",
                                 "operator",
                                 "private",
                                 "protected",
                                 "public",
                                 "return",
                                 "sizeof",
                                 "static",
                                 "static_assert",
                                 "static_cast",
                                 "reinterpret_cast",
                                 "const_cast",
                                 "struct",
                                 "switch",
                                 "template",
                                 "this",
                                 "throw",
                                 "true",
                                 "try",
                                 "typedef",
                                 "typename",
                                 "union",
                                 "using",
                                 "virtual",
                                 "volatile",
                                 "while",
                                 "requires",
                                 "concept"};
const char* const kTypes[] = {
    "auto",    "bool",    "char",     "double",   "float",    "half",    "int",           "long",
    "short",   "signed",  "unsigned", "void",     "size_t",   "int8_t",  "int16_t",       "int32_t",
    "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "float2",  "float4",        "int2",
    "int4",    "uint2",   "uint4",    "dim3",     "__half",   "__half2", "__nv_bfloat16", "__nv_bfloat162"};
// CUDA's own words: qualifiers, built-in variables, intrinsics. Any other word of the form
// __name__ or __name (a compiler built-in) counts too.
const char* const kCuda[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};

bool in_list(const std::string& word, const char* const* list, std::size_t n) {
  return std::any_of(list, list + n, [&](const char* w) { return word == w; });
}

TokenKind word_kind(const std::string& w) {
  if (in_list(w, kKeywords, std::size(kKeywords))) return TokenKind::Keyword;
  if (in_list(w, kTypes, std::size(kTypes))) return TokenKind::Type;
  if (in_list(w, kCuda, std::size(kCuda)) || (w.size() > 2 && w[0] == '_' && w[1] == '_')) return TokenKind::Cuda;
  return TokenKind::Plain;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The end of a literal opened by `quote` at i (the closing quote's next byte, or the line's end:
// an unclosed literal runs to the end of the line), skipping escaped characters.
std::size_t literal_end(const std::string& s, std::size_t i, char quote) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == quote) {
      return i + 1;
    }
  }
  return s.size();
}

// A number: digits, then what may follow in a literal (hex digits, a point, an exponent and its
// sign, suffixes such as 16u, 1.0f, 0x1p-3, 1'000).
std::size_t number_end(const std::string& s, std::size_t start) {
  const bool hex = s[start] == '0' && start + 1 < s.size() && (s[start + 1] == 'x' || s[start + 1] == 'X');
  std::size_t i = start;
  for (++i; i < s.size(); ++i) {
    const char c = s[i], prev = s[i - 1];
    // In hex, e is a digit: only p starts the exponent there.
    const bool exponent_sign = (c == '+' || c == '-') && std::strchr(hex ? "pP" : "eEpP", prev) != nullptr;
    if (!word_char(c) && c != '.' && c != '\'' && !exponent_sign) break;
  }
  return i;
}

class LineScanner {
 public:
  LineScanner(const std::string& line, SyntaxState* state) : s_(line), state_(state) {}

  std::vector<Token> run() {
    if (state_->in_block_comment) block_comment(0);
    const std::size_t first = s_.find_first_not_of(" \t", i_);
    if (state_->in_directive || (first != std::string::npos && s_[first] == '#' && !state_->in_block_comment))
      directive_ = true;
    while (i_ < s_.size()) step();
    state_->in_directive = directive_ && !s_.empty() && s_.back() == '\\';
    return std::move(out_);
  }

 private:
  void emit(std::size_t b, std::size_t e, TokenKind k) {
    if (b >= e) return;
    if (!out_.empty() && out_.back().kind == k && out_.back().end == static_cast<int>(b))
      out_.back().end = static_cast<int>(e);
    else
      out_.push_back({static_cast<int>(b), static_cast<int>(e), k});
    i_ = e;
  }
  // From b: up to and including */ , or to the end of the line with the comment left open.
  void block_comment(std::size_t b) {
    const std::size_t close = s_.find("*/", b == 0 && state_->in_block_comment ? 0 : b + 2);
    state_->in_block_comment = close == std::string::npos;
    emit(b, state_->in_block_comment ? s_.size() : close + 2, TokenKind::Comment);
  }
  void step() {
    const char c = s_[i_];
    const char next = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
    if (c == '/' && next == '/') return emit(i_, s_.size(), TokenKind::Comment);
    if (c == '/' && next == '*') return block_comment(i_);
    // Inside a directive everything but comments is the directive's colour ("#include <x>").
    if (directive_) return emit(i_, i_ + 1, TokenKind::Preprocessor);
    if (c == '"' || c == '\'') return emit(i_, literal_end(s_, i_, c), TokenKind::String);
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(next))))
      return emit(i_, number_end(s_, i_), TokenKind::Number);
    if (word_char(c)) {
      std::size_t e = i_;
      while (e < s_.size() && word_char(s_[e])) ++e;
      return emit(i_, e, word_kind(s_.substr(i_, e - i_)));
    }
    emit(i_, i_ + 1, TokenKind::Plain);
  }

  const std::string& s_;
  SyntaxState* state_;
  std::size_t i_ = 0;
  bool directive_ = false;
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> tokenize_line(const std::string& line, SyntaxState* state) {
  return LineScanner(line, state).run();
}

std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string>& lines) {
  std::vector<std::vector<Token>> out;
  out.reserve(lines.size());
  SyntaxState state;
  for (const std::string& line : lines) out.push_back(tokenize_line(line, &state));
  return out;
}

}  // namespace tilescope
