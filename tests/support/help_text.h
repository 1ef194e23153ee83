// The help texts, parsed into what they promise: the "Exit codes:" list as code -> text, the
// option names as whole tokens, the lines that start with a given prefix. Tests check these
// instead of substrings, which a longer entry also contains ("0  " inside "130  ", "--n" inside
// "--no-verify").
#pragma once

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tilescope::testing {

inline std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline std::size_t indent_of(const std::string& line) {
  const std::size_t first = line.find_first_not_of(' ');
  return first == std::string::npos ? line.size() : first;
}

// The list under a line that reads exactly "Exit codes:", up to the first empty line: each entry
// is an indented whole number, two or more spaces, and its text; lines indented deeper than the
// code continue the entry before (joined with one space). Other lines end the entry.
inline std::map<int, std::string> exit_code_entries(const std::string& usage) {
  std::map<int, std::string> out;
  const std::vector<std::string> lines = text_lines(usage);
  std::size_t i = 0;
  while (i < lines.size() && lines[i] != "Exit codes:") ++i;
  int current = -1;
  std::size_t current_indent = 0;
  for (++i; i < lines.size() && !lines[i].empty(); ++i) {
    const std::string& line = lines[i];
    const std::size_t indent = indent_of(line);
    std::size_t end = indent;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    const bool two_spaces = end + 2 <= line.size() && line.compare(end, 2, "  ") == 0;
    const std::size_t text = line.find_first_not_of(' ', end);
    if (indent > 0 && end > indent && two_spaces && text != std::string::npos) {
      current = std::stoi(line.substr(indent, end - indent));
      current_indent = indent;
      out[current] = line.substr(text);
    } else if (current >= 0 && indent > current_indent + 1) {
      out[current] += " " + line.substr(indent);
    } else {
      current = -1;
    }
  }
  return out;
}

// The codes an "Exit codes:" list has entries for, to compare with what a program returns.
inline std::set<int> exit_codes_of(const std::map<int, std::string>& entries) {
  std::set<int> codes;
  for (const auto& entry : entries) codes.insert(entry.first);
  return codes;
}

// Every option name in the text as a whole token: "-h", "--help", "--no-verify" (a name ends at
// a character that cannot be part of it, so "--n" is not found inside "--no-verify").
inline std::set<std::string> option_names(const std::string& text) {
  std::set<std::string> names;
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '-' || (i > 0 && name_char(text[i - 1]))) continue;
    std::size_t end = i;
    while (end < text.size() && name_char(text[end])) ++end;
    const std::string token = text.substr(i, end - i);
    const std::size_t dashes = token.rfind("--", 0) == 0 ? 2 : 1;
    if (token.size() > dashes && std::isalpha(static_cast<unsigned char>(token[dashes]))) names.insert(token);
    i = end;
  }
  return names;
}

// Whether some line of `text` starts with `prefix` (a usage line, a message's first words).
inline bool has_line_starting_with(const std::string& text, const std::string& prefix) {
  for (const std::string& line : text_lines(text))
    if (line.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace tilescope::testing
