// The one command-line parser (app/cli/arg_parser.h): the accepted forms (--name, --name VALUE,
// --name=VALUE, a short alias), --help winning over everything, and every mistake as one
// sentence that names the option: unknown options, stray words, missing values, values given to
// flags, and typed values out of range or of the wrong form.
#include "app/cli/arg_parser.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

using namespace tilescope;

namespace {

// The parser of a small command: two flags (one with an alias) and options of each type.
ArgParser make_parser() {
  ArgParser p;
  p.flag("--headless")
      .flag("--list", "-l")
      .option("--size", "WxH")
      .option("--output", "PNG", "-o")
      .option("--frames", "N")
      .option("--seed", "N")
      .option("--theme", "NAME");
  return p;
}

using Args = std::vector<std::string>;

TEST(ArgParser, NothingGivenIsFineAndTypedGettersLeaveTheirOutputs) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{})) << p.error();
  EXPECT_FALSE(p.help());
  EXPECT_EQ(p.error(), "");
  EXPECT_TRUE(p.args().empty());
  EXPECT_FALSE(p.has("--headless"));
  EXPECT_EQ(p.value("--output"), "");
  EXPECT_EQ(p.value("--output", "plot.png"), "plot.png");
  int frames = 7, w = 11, h = 13, theme = 2;
  unsigned long long seed = 42;
  EXPECT_TRUE(p.get_int("--frames", 1, 100, &frames));
  EXPECT_TRUE(p.get_uint64("--seed", 0, 1000, &seed));
  EXPECT_TRUE(p.get_size("--size", 1, 8192, &w, &h));
  EXPECT_TRUE(p.get_choice("--theme", {"dark", "light"}, &theme));
  EXPECT_EQ(frames, 7);
  EXPECT_EQ(seed, 42u);
  EXPECT_EQ(w, 11);
  EXPECT_EQ(h, 13);
  EXPECT_EQ(theme, 2);
  EXPECT_EQ(p.error(), "");
}

TEST(ArgParser, FlagsAndOptionsInEveryForm) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"--headless", "--size", "640x480", "--output=a.png", "-l", "--frames=3"})) << p.error();
  EXPECT_FALSE(p.help());
  EXPECT_TRUE(p.has("--headless"));
  EXPECT_TRUE(p.has("--list")) << "the alias -l is stored under the option's name";
  EXPECT_FALSE(p.has("-l"));
  EXPECT_FALSE(p.has("--seed"));
  EXPECT_EQ(p.value("--headless", "x"), "") << "a flag has no value";
  EXPECT_EQ(p.value("--size"), "640x480");
  EXPECT_EQ(p.value("--output"), "a.png");
  EXPECT_EQ(p.value("--frames"), "3");
  ASSERT_EQ(p.args().size(), 5u);
  EXPECT_EQ(p.args()[0].name, "--headless");
  EXPECT_EQ(p.args()[1].name, "--size");
  EXPECT_EQ(p.args()[1].value, "640x480");
  EXPECT_EQ(p.args()[2].name, "--output");
  EXPECT_EQ(p.args()[3].name, "--list");
  EXPECT_EQ(p.args()[4].value, "3");
}

TEST(ArgParser, AnAliasTakesItsValueLikeTheOption) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"-o", "plot.png"})) << p.error();
  EXPECT_EQ(p.value("--output"), "plot.png");
  ASSERT_EQ(p.args().size(), 1u);
  EXPECT_EQ(p.args()[0].name, "--output");
  // The = form is for long names only: "-o=x" is not the alias.
  EXPECT_FALSE(p.parse(Args{"-o=plot.png"}));
  EXPECT_EQ(p.error(), "unknown option '-o=plot.png'");
}

TEST(ArgParser, RepeatsAreKeptInOrderAndTheLastValueWins) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"--frames", "1", "--headless", "--frames=2", "--headless"})) << p.error();
  EXPECT_EQ(p.value("--frames"), "2");
  EXPECT_EQ(p.args().size(), 4u);
  int frames = 0;
  ASSERT_TRUE(p.get_int("--frames", 1, 10, &frames)) << p.error();
  EXPECT_EQ(frames, 2);
}

TEST(ArgParser, EqualsKeepsTheRestOfTheArgumentAndAllowsAnEmptyValue) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"--output=a=b.png"})) << p.error();
  EXPECT_EQ(p.value("--output"), "a=b.png");
  ASSERT_TRUE(p.parse(Args{"--output="})) << p.error();
  EXPECT_TRUE(p.has("--output"));
  EXPECT_EQ(p.value("--output", "fallback"), "");
}

TEST(ArgParser, UnknownOptionsAndStrayWordsAreNamed) {
  ArgParser p = make_parser();
  EXPECT_FALSE(p.parse(Args{"--headless", "--nope"}));
  EXPECT_EQ(p.error(), "unknown option '--nope'");
  EXPECT_FALSE(p.parse(Args{"--nope=3"}));
  EXPECT_EQ(p.error(), "unknown option '--nope'") << "the name, without the value";
  EXPECT_FALSE(p.parse(Args{"-x"}));
  EXPECT_EQ(p.error(), "unknown option '-x'");
  EXPECT_FALSE(p.parse(Args{"--headless", "stray"}));
  EXPECT_EQ(p.error(), "unexpected argument 'stray'");
  EXPECT_FALSE(p.parse(Args{""}));
  EXPECT_EQ(p.error(), "unexpected argument ''");
  // Names are exact: no prefixes, no case folding.
  EXPECT_FALSE(p.parse(Args{"--head"}));
  EXPECT_EQ(p.error(), "unknown option '--head'");
  EXPECT_FALSE(p.parse(Args{"--HEADLESS"}));
  EXPECT_EQ(p.error(), "unknown option '--HEADLESS'");
}

TEST(ArgParser, AMissingValueIsNamed) {
  ArgParser p = make_parser();
  EXPECT_FALSE(p.parse(Args{"--size"}));
  EXPECT_EQ(p.error(), "--size needs a value");
  // A following option is a forgotten value, not the value.
  EXPECT_FALSE(p.parse(Args{"--output", "--headless"}));
  EXPECT_EQ(p.error(), "--output needs a value");
  // The alias's message names the option.
  EXPECT_FALSE(p.parse(Args{"--headless", "-o"}));
  EXPECT_EQ(p.error(), "--output needs a value");
  // A value that starts with one dash is a value ("-1"), so that the typed check can name it.
  ASSERT_TRUE(p.parse(Args{"--frames", "-1"})) << p.error();
  EXPECT_EQ(p.value("--frames"), "-1");
  int frames = 5;
  EXPECT_FALSE(p.get_int("--frames", 1, 10, &frames));
  EXPECT_EQ(p.error(), "--frames needs a whole number from 1 to 10, got '-1'");
  EXPECT_EQ(frames, 5);
}

TEST(ArgParser, AFlagTakesNoValue) {
  ArgParser p = make_parser();
  EXPECT_FALSE(p.parse(Args{"--headless=yes"}));
  EXPECT_EQ(p.error(), "--headless takes no value");
  EXPECT_FALSE(p.parse(Args{"--list="}));
  EXPECT_EQ(p.error(), "--list takes no value");
}

TEST(ArgParser, HelpWinsOverEverythingElse) {
  for (const Args& args : {Args{"--help"}, Args{"-h"}, Args{"--size", "oops", "--help"}, Args{"--nope", "-h"},
                           Args{"stray", "--help"}, Args{"--output", "-h"}}) {
    ArgParser p = make_parser();
    ASSERT_TRUE(p.parse(args)) << args.size() << " args: " << p.error();
    EXPECT_TRUE(p.help());
    EXPECT_EQ(p.error(), "");
    EXPECT_TRUE(p.args().empty()) << "nothing else is parsed";
  }
  // "--help=x" is not the help.
  ArgParser p = make_parser();
  EXPECT_FALSE(p.parse(Args{"--help=x"}));
  EXPECT_FALSE(p.help());
  EXPECT_EQ(p.error(), "unknown option '--help'");
}

TEST(ArgParser, EachParseStartsAfresh) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"--help"}));
  EXPECT_TRUE(p.help());
  EXPECT_FALSE(p.parse(Args{"--nope"}));
  EXPECT_FALSE(p.help());
  EXPECT_FALSE(p.error().empty());
  ASSERT_TRUE(p.parse(Args{"--headless"})) << p.error();
  EXPECT_EQ(p.error(), "") << "a successful parse clears the last error";
  EXPECT_FALSE(p.help());
  ASSERT_EQ(p.args().size(), 1u);
  ASSERT_TRUE(p.parse(Args{"--frames", "4"}));
  EXPECT_FALSE(p.has("--headless")) << "the previous parse's arguments are gone";
}

TEST(ArgParser, ArgvSkipsTheProgramAndTheCommandWord) {
  const char* argv[] = {"tilescope", "plot", "--size", "800x600", "-l"};
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(5, argv, 2)) << p.error();
  EXPECT_EQ(p.value("--size"), "800x600");
  EXPECT_TRUE(p.has("--list"));
  ArgParser q = make_parser();
  EXPECT_FALSE(q.parse(5, argv));  // from argv[1]: "plot" is a stray word here
  EXPECT_EQ(q.error(), "unexpected argument 'plot'");
}

TEST(ArgParser, GetIntChecksTheRangeAndTheForm) {
  ArgParser p = make_parser();
  int frames = 0;
  ASSERT_TRUE(p.parse(Args{"--frames", "10"}));
  EXPECT_TRUE(p.get_int("--frames", 1, 10, &frames)) << p.error();
  EXPECT_EQ(frames, 10);
  ASSERT_TRUE(p.parse(Args{"--frames", "1"}));
  EXPECT_TRUE(p.get_int("--frames", 1, 10, &frames)) << p.error();
  EXPECT_EQ(frames, 1);
  for (const char* bad : {"0", "11", "3.5", "1e3", " 3", "3 ", "+3", "x", "", "99999999999999999999999"}) {
    ASSERT_TRUE(p.parse(Args{std::string("--frames=") + bad})) << p.error();
    frames = -7;
    EXPECT_FALSE(p.get_int("--frames", 1, 10, &frames)) << "'" << bad << "'";
    EXPECT_EQ(p.error(), std::string("--frames needs a whole number from 1 to 10, got '") + bad + "'");
    EXPECT_EQ(frames, -7) << "untouched on an error";
  }
  // The largest int is reachable.
  ASSERT_TRUE(p.parse(Args{"--frames", std::to_string(std::numeric_limits<int>::max())}));
  EXPECT_TRUE(p.get_int("--frames", 1, std::numeric_limits<int>::max(), &frames)) << p.error();
  EXPECT_EQ(frames, std::numeric_limits<int>::max());
}

TEST(ArgParser, GetUint64TakesTheWholeRangeAndRejectsOverflow) {
  ArgParser p = make_parser();
  unsigned long long seed = 0;
  const unsigned long long max = std::numeric_limits<unsigned long long>::max();
  ASSERT_TRUE(p.parse(Args{"--seed", std::to_string(max)}));
  EXPECT_TRUE(p.get_uint64("--seed", 0, max, &seed)) << p.error();
  EXPECT_EQ(seed, max);
  ASSERT_TRUE(p.parse(Args{"--seed", "18446744073709551616"}));  // max + 1
  seed = 5;
  EXPECT_FALSE(p.get_uint64("--seed", 0, max, &seed));
  EXPECT_EQ(p.error(), "--seed needs a whole number from 0 to " + std::to_string(max) + ", got '18446744073709551616'");
  EXPECT_EQ(seed, 5u);
  ASSERT_TRUE(p.parse(Args{"--seed", "0"}));
  EXPECT_FALSE(p.get_uint64("--seed", 1, 100, &seed));
  EXPECT_EQ(p.error(), "--seed needs a whole number from 1 to 100, got '0'");
}

TEST(ArgParser, GetSizeTakesWidthByHeight) {
  ArgParser p = make_parser();
  int w = 0, h = 0;
  ASSERT_TRUE(p.parse(Args{"--size=1920x1080"}));
  ASSERT_TRUE(p.get_size("--size", 16, 8192, &w, &h)) << p.error();
  EXPECT_EQ(w, 1920);
  EXPECT_EQ(h, 1080);
  for (const char* bad :
       {"1920", "1920x", "x1080", "1920X1080", "1920x1080x3", "8x1080", "1920x9000", "-1x10", "1920 x 1080", ""}) {
    ASSERT_TRUE(p.parse(Args{std::string("--size=") + bad})) << p.error();
    w = h = -1;
    EXPECT_FALSE(p.get_size("--size", 16, 8192, &w, &h)) << "'" << bad << "'";
    EXPECT_EQ(p.error(), std::string("--size takes WxH between 16 and 8192, e.g. 1920x1080, got '") + bad + "'");
    EXPECT_EQ(w, -1);
    EXPECT_EQ(h, -1);
  }
}

TEST(ArgParser, GetChoiceListsTheChoices) {
  ArgParser p = make_parser();
  int theme = -1;
  ASSERT_TRUE(p.parse(Args{"--theme", "light"}));
  ASSERT_TRUE(p.get_choice("--theme", {"dark", "light", "print"}, &theme)) << p.error();
  EXPECT_EQ(theme, 1);
  ASSERT_TRUE(p.parse(Args{"--theme", "Light"}));
  theme = -1;
  EXPECT_FALSE(p.get_choice("--theme", {"dark", "light", "print"}, &theme));
  EXPECT_EQ(p.error(), "--theme is dark, light or print, got 'Light'");
  EXPECT_EQ(theme, -1);
  EXPECT_FALSE(p.get_choice("--theme", {"dark", "light"}, &theme));
  EXPECT_EQ(p.error(), "--theme is dark or light, got 'Light'");
}

TEST(ArgParser, FailSetsTheErrorForChecksAcrossOptions) {
  ArgParser p = make_parser();
  ASSERT_TRUE(p.parse(Args{"--headless"}));
  p.fail("--output is required with --headless");
  EXPECT_EQ(p.error(), "--output is required with --headless");
}

TEST(ParseUnsignedText, DigitsOnlyWithinTheRange) {
  unsigned long long v = 99;
  EXPECT_TRUE(parse_unsigned_text("0", 0, 10, &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(parse_unsigned_text("007", 0, 10, &v));
  EXPECT_EQ(v, 7u);
  v = 99;
  for (const char* bad : {"", "-1", "+1", "1.0", "1 ", "0x10", "11"}) {
    EXPECT_FALSE(parse_unsigned_text(bad, 0, 10, &v)) << "'" << bad << "'";
    EXPECT_EQ(v, 99u) << "untouched";
  }
  EXPECT_FALSE(parse_unsigned_text("99999999999999999999", 0, std::numeric_limits<unsigned long long>::max(), &v));
}

}  // namespace
