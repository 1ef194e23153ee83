#include "app/cli/arg_parser.h"

#include <cctype>
#include <limits>

namespace tilescope {

ArgParser& ArgParser::flag(const std::string& name, const std::string& alias) {
  specs_.push_back({name, alias, "", false});
  return *this;
}

ArgParser& ArgParser::option(const std::string& name, const std::string& value_name, const std::string& alias) {
  specs_.push_back({name, alias, value_name, true});
  return *this;
}

const ArgParser::Spec* ArgParser::find(const std::string& name) const {
  for (const Spec& s : specs_)
    if (name == s.name || (!s.alias.empty() && name == s.alias)) return &s;
  return nullptr;
}

bool ArgParser::parse(int argc, const char* const* argv, int first) {
  std::vector<std::string> args;
  for (int i = first; i < argc; ++i) args.emplace_back(argv[i] ? argv[i] : "");
  return parse(args);
}

bool ArgParser::parse(const std::vector<std::string>& args) {
  args_.clear();
  error_.clear();
  help_ = false;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      help_ = true;
      return true;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string name = arg, value;
    bool inline_value = false;
    const std::size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inline_value = true;
    }
    const Spec* spec = find(name);
    if (!spec) {
      if (arg.empty() || arg[0] != '-')
        error_ = "unexpected argument '" + arg + "'";
      else
        error_ = "unknown option '" + name + "'";
      return false;
    }
    if (!spec->takes_value && inline_value) {
      error_ = spec->name + " takes no value";
      return false;
    }
    if (spec->takes_value && !inline_value) {
      // A following option is a forgotten value, not a file or list starting with "--".
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) {
        error_ = spec->name + " needs a value";
        return false;
      }
      value = args[++i];
    }
    args_.push_back({spec->name, value});
  }
  return true;
}

bool ArgParser::has(const std::string& name) const {
  for (const Arg& a : args_)
    if (a.name == name) return true;
  return false;
}

std::string ArgParser::value(const std::string& name, const std::string& fallback) const {
  for (auto it = args_.rbegin(); it != args_.rend(); ++it)
    if (it->name == name) return it->value;
  return fallback;
}

bool parse_unsigned_text(const std::string& text, unsigned long long lo, unsigned long long hi,
                         unsigned long long* out) {
  if (text.empty()) return false;
  unsigned long long v = 0;
  for (char ch : text) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    const unsigned long long digit = static_cast<unsigned long long>(ch - '0');
    if (v > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool ArgParser::get_uint64(const std::string& name, unsigned long long lo, unsigned long long hi,
                           unsigned long long* out) {
  if (!has(name)) return true;
  const std::string text = value(name);
  if (parse_unsigned_text(text, lo, hi, out)) return true;
  error_ =
      name + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + text + "'";
  return false;
}

bool ArgParser::get_int(const std::string& name, int lo, int hi, int* out) {
  unsigned long long v = 0;
  if (lo < 0) lo = 0;  // options count things: no negative values
  if (!has(name)) return true;
  if (!get_uint64(name, static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), &v)) return false;
  *out = static_cast<int>(v);
  return true;
}

bool ArgParser::get_size(const std::string& name, int lo, int hi, int* width, int* height) {
  if (!has(name)) return true;
  const std::string text = value(name);
  const std::size_t x = text.find('x');
  unsigned long long w = 0, h = 0;
  if (x != std::string::npos && parse_unsigned_text(text.substr(0, x), lo, hi, &w) &&
      parse_unsigned_text(text.substr(x + 1), lo, hi, &h)) {
    *width = static_cast<int>(w);
    *height = static_cast<int>(h);
    return true;
  }
  error_ = name + " takes WxH between " + std::to_string(lo) + " and " + std::to_string(hi) +
           ", e.g. 1920x1080, got '" + text + "'";
  return false;
}

bool ArgParser::get_choice(const std::string& name, const std::vector<std::string>& choices, int* out) {
  if (!has(name)) return true;
  const std::string text = value(name);
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (text == choices[i]) {
      *out = static_cast<int>(i);
      return true;
    }
    list += (i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ")) + choices[i];
  }
  error_ = name + " is " + list + ", got '" + text + "'";
  return false;
}

}  // namespace tilescope
