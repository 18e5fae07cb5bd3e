//===- CommandLineTest.cpp - The command-line layer of segtime ------------===//
///
/// \file
/// The value parsers every segtime command reads its options with
/// (tools/CommandLine.h): what they accept, and the errors naming the option.
///
//===----------------------------------------------------------------------===//
#include "tools/CommandLine.h"

#include <gtest/gtest.h>

using namespace segtime::cli;

namespace {

/// The message of the UsageError Fn throws ("" if it throws none).
template <typename Fn> std::string usageError(Fn F) {
  try {
    F();
  } catch (const UsageError &E) {
    return E.what();
  }
  return "";
}

} // namespace

TEST(CommandLine, Numbers) {
  EXPECT_DOUBLE_EQ(parseNumber("--x", "1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(parseNumber("--x", "+2.5"), 2.5);
  EXPECT_DOUBLE_EQ(parseNumber("--x", "-4"), -4);
  for (const char *Bad : {"", "10x", "x", "nan", "inf", "1e999", " 1", "1 ", "+-1"})
    EXPECT_EQ(usageError([&] { parseNumber("--x", Bad); }),
              "--x: '" + std::string(Bad) + "' is not a number")
        << Bad;
  EXPECT_DOUBLE_EQ(parseNumberIn("--reps", "3", 1, 1000), 3);
  EXPECT_EQ(usageError([] { parseNumberIn("--reps", "0", 1, 1000); }),
            "--reps: '0' is not a number in [1, 1000]");
}

TEST(CommandLine, WholeNumbers) {
  EXPECT_EQ(parseWhole("--np", "4", 2, 256), 4);
  EXPECT_EQ(parseWhole("--max-size", "1e6", 64, 1L << 30), 1000000);
  EXPECT_EQ(usageError([] { parseWhole("--np", "1", 2, 256); }),
            "--np: expected an integer in 2..256, got '1'");
  EXPECT_EQ(usageError([] { parseWhole("--np", "2.5", 2, 256); }),
            "--np: expected an integer in 2..256, got '2.5'");
  EXPECT_EQ(usageError([] { parseWhole("--np", "0", 1, 10, "positive number of processes"); }),
            "--np: '0' is not a positive number of processes");
  EXPECT_EQ(parseUnsigned("--levels", "3"), 3u);
  EXPECT_EQ(usageError([] { parseUnsigned("--levels", "-1"); }),
            "--levels: '-1' is not a whole number");
  EXPECT_EQ(parseCount("--tasks", "1e6"), 1000000u);
  EXPECT_EQ(usageError([] { parseCount("--tasks", "0"); }),
            "--tasks: the number of tasks must be a whole number >= 1, got '0'");
}

TEST(CommandLine, Times) {
  EXPECT_DOUBLE_EQ(parseTime("--te", "0.01"), 0.01);
  EXPECT_DOUBLE_EQ(parseTime("--te", "10ms"), 10e-3);
  EXPECT_DOUBLE_EQ(parseTime("--te", "250us"), 250e-6);
  EXPECT_DOUBLE_EQ(parseTime("--te", "250\xC2\xB5s"), 250e-6);
  EXPECT_DOUBLE_EQ(parseTime("--te", "40ns"), 40e-9);
  EXPECT_DOUBLE_EQ(parseTime("--te", "1e-3s"), 1e-3);
  EXPECT_EQ(usageError([] { parseTime("--te", "10xs"); }),
            "--te: unknown time unit 'xs' in '10xs' (use s, ms, us or ns)");
  EXPECT_EQ(usageError([] { parseTime("--te", "ms"); }),
            "--te: 'ms' is not a time (e.g. 0.01, 10ms, 250us)");
}

TEST(CommandLine, Lists) {
  EXPECT_EQ(splitList("--l", "a,b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(usageError([] { splitList("--grains", "1,,2"); }),
            "--grains: empty item in the list '1,,2'");
  EXPECT_EQ(splitList("--l", ",a,,b,", /*SkipEmpty=*/true), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(parseUnsignedList("--grains", "1,2,4"), (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(parseTimeList("--te", "1ms,2").size(), 2u);
}

TEST(CommandLine, Reader) {
  const char *Args[] = {"--machine", "t800", "-5", "--json", "--level"};
  ArgReader R(5, const_cast<char **>(Args));
  ASSERT_TRUE(R.next());
  EXPECT_TRUE(R.isOption());
  EXPECT_EQ(R.value(), "t800");
  ASSERT_TRUE(R.next());
  EXPECT_FALSE(R.isOption()); // a negative number is a value
  ASSERT_TRUE(R.next());
  EXPECT_TRUE(R.isOption());
  ASSERT_TRUE(R.next());
  EXPECT_EQ(usageError([&] { R.value(); }), "--level needs a value");
  EXPECT_FALSE(R.next());
  EXPECT_EQ(usageError([] { requireOptions("farm", {{true, "--te"}, {false, "--tasks"}}); }),
            "missing --tasks (see segtime farm --help)");
}
