// The one command-line parser of tilescope: `bench`, `plot` and the window's options all go
// through it. Pure (no printing): every mistake becomes one sentence naming the option, which
// the caller prints with its own prefix and exit code.
//
//   ArgParser p;
//   p.flag("--headless").option("--size", "WxH").option("--output", "PNG", "-o");
//   if (!p.parse(args)) { std::cerr << "tilescope: " << p.error() << "\n"; return 2; }
//   if (p.help()) { ... }
//   int frames = 3;
//   if (!p.get_int("--frames", 1, 1000000, &frames)) { ... p.error() ... }
//
// Accepted forms: `--name`, `--name VALUE`, `--name=VALUE` and an option's short alias
// (`-o VALUE`). A value never starts with "--": `--csv --json x` says "--csv needs a value"
// (a value such as "-1" is taken, so that the typed check can name it). `-h` and `--help` win
// over everything else, so that `--sizes oops --help` still prints the help.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

class ArgParser {
 public:
  // One argument as given, with its alias resolved to the option's name ("-o" -> "--output").
  struct Arg {
    std::string name;
    std::string value;  // "" for a flag
  };

  // A switch without a value.
  ArgParser& flag(const std::string& name, const std::string& alias = "");
  // An option that takes a value; `value_name` ("WxH", "FILE") is for messages only.
  ArgParser& option(const std::string& name, const std::string& value_name, const std::string& alias = "");

  // `args` without the program or command word. False, with error() set, for an unknown option
  // ("unknown option '--x'"), a stray word ("unexpected argument 'x'"), a missing value
  // ("--csv needs a value"), or a value given to a flag ("--list takes no value"). With -h or
  // --help anywhere it returns true at once with help() set and nothing else parsed.
  bool parse(const std::vector<std::string>& args);
  bool parse(int argc, const char* const* argv, int first = 1);

  bool help() const { return help_; }
  const std::string& error() const { return error_; }
  // Every option given, in order (repeats included): for callers whose options interact.
  const std::vector<Arg>& args() const { return args_; }

  // Whether the option (or flag) was given at least once.
  bool has(const std::string& name) const;
  // The last value given for the option, or `fallback`.
  std::string value(const std::string& name, const std::string& fallback = "") const;

  // Typed values of the option's last occurrence. Not given: true, *out untouched. Given but
  // wrong: false, error() names the option, what it takes and what it got.
  bool get_int(const std::string& name, int lo, int hi, int* out);
  bool get_uint64(const std::string& name, unsigned long long lo, unsigned long long hi, unsigned long long* out);
  // "WxH", each side within [lo, hi].
  bool get_size(const std::string& name, int lo, int hi, int* width, int* height);
  // One of `choices`; *out is the index of the one given.
  bool get_choice(const std::string& name, const std::vector<std::string>& choices, int* out);

  // Sets error() (for checks that span options, such as "--csv and -o are required").
  void fail(const std::string& message) { error_ = message; }

 private:
  struct Spec {
    std::string name, alias, value_name;
    bool takes_value = false;
  };
  const Spec* find(const std::string& name) const;

  std::vector<Spec> specs_;
  std::vector<Arg> args_;
  bool help_ = false;
  std::string error_;
};

// Digits only (no sign, no spaces), within [lo, hi]; false on overflow.
bool parse_unsigned_text(const std::string& text, unsigned long long lo, unsigned long long hi,
                         unsigned long long* out);

}  // namespace tilescope
