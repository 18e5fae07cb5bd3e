//===- InstallTest.cpp - Where segtime finds its files and machines -------===//
///
/// \file
/// predictor/Install.h: the prefix found from the test binary's own location
/// (build/bin, a build tree with build/share/segtime/machines), the XDG data
/// directory, the machine search order, and the default machine.
///
//===----------------------------------------------------------------------===//
#include "predictor/Install.h"
#include "predictor/Machine.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace segtime;
namespace fs = std::filesystem;

namespace {

/// A fresh empty directory under the system's temporary directory.
fs::path freshDir(const std::string &Name) {
  fs::path D = fs::temp_directory_path() / ("segtime-install-test-" + Name);
  fs::remove_all(D);
  fs::create_directories(D);
  return D;
}

TEST(Install, PrefixFromTheBinarysLocation) {
  fs::path P = installPrefix();
  ASSERT_FALSE(P.empty()) << "module directory " << moduleDirectory();
  EXPECT_TRUE(fs::exists(dataDirectory() / "machines" / "t800.yaml")) << dataDirectory();
  EXPECT_EQ(dataDirectory(), P / "share" / "segtime");
  // The module directory is inside the prefix, at most three levels down.
  std::string M = moduleDirectory().string();
  EXPECT_EQ(M.rfind(P.string(), 0), 0u) << M << " not under " << P;
}

TEST(Install, XdgDataHome) {
  setenv("XDG_DATA_HOME", "/x/data", 1);
  setenv("HOME", "/h", 1);
  EXPECT_EQ(userDataDirectory(), fs::path("/x/data/segtime"));
  EXPECT_EQ(userMachineDirectory(), fs::path("/x/data/segtime/machines"));
  // A relative XDG_DATA_HOME is ignored (XDG Base Directory Specification).
  setenv("XDG_DATA_HOME", "relative", 1);
  EXPECT_EQ(userDataDirectory(), fs::path("/h/.local/share/segtime"));
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(userDataDirectory(), fs::path("/h/.local/share/segtime"));
  unsetenv("HOME");
  EXPECT_TRUE(userDataDirectory().empty());
}

TEST(Install, SearchOrder) {
  setenv("SEGTIME_MACHINE_PATH", "/a::/b", 1);
  setenv("XDG_DATA_HOME", "/x", 1);
  std::vector<fs::path> S = machineSearchPath();
  ASSERT_EQ(S.size(), 4u);
  EXPECT_EQ(S[0], fs::path("/a"));
  EXPECT_EQ(S[1], fs::path("/b"));
  EXPECT_EQ(S[2], fs::path("/x/segtime/machines"));
  EXPECT_EQ(S[3], dataDirectory() / "machines");
  unsetenv("SEGTIME_MACHINE_PATH");
}

TEST(Install, FirstDirectoryWins) {
  fs::path A = freshDir("a"), X = freshDir("x");
  fs::create_directories(X / "segtime" / "machines");
  std::ofstream(A / "t800.yaml") << "a\n";
  std::ofstream(X / "segtime" / "machines" / "t800.yaml") << "x\n";
  std::ofstream(X / "segtime" / "machines" / "mine.yaml") << "x\n";
  setenv("XDG_DATA_HOME", X.c_str(), 1);
  setenv("SEGTIME_MACHINE_PATH", A.c_str(), 1);
  EXPECT_EQ(fs::path(findMachine("t800")), A / "t800.yaml");
  EXPECT_EQ(fs::path(findMachine("mine")), X / "segtime" / "machines" / "mine.yaml");
  unsetenv("SEGTIME_MACHINE_PATH");
  EXPECT_EQ(fs::path(findMachine("t800")), X / "segtime" / "machines" / "t800.yaml");
  fs::remove_all(A);
  fs::remove_all(X);
}

TEST(Install, DefaultMachine) {
  fs::path X = freshDir("default");
  setenv("XDG_DATA_HOME", X.c_str(), 1);
  unsetenv("SEGTIME_MACHINE_PATH");
  DefaultMachine D = defaultMachine();
  EXPECT_FALSE(D.ThisMachine);
  EXPECT_EQ(fs::path(D.Path), dataDirectory() / "machines" / "t800.yaml");
  EXPECT_EQ(D.Note, "segtime: machine t800 (default; run `segtime calibrate` to predict for "
                    "this machine)");
  fs::path M = X / "segtime" / "machines";
  fs::create_directories(M);
  std::ofstream(M / "box.yaml") << "name: box\n";
  fs::create_symlink("box.yaml", M / "default.yaml");
  D = defaultMachine();
  EXPECT_TRUE(D.ThisMachine);
  EXPECT_EQ(fs::path(D.Path), M / "default.yaml");
  EXPECT_EQ(D.Note, "segtime: machine box (this machine, calibrated: " +
                        (M / "default.yaml").string() + ")");
  // A link to nothing is no machine.
  fs::remove(M / "box.yaml");
  EXPECT_FALSE(defaultMachine().ThisMachine);
  fs::remove_all(X);
}

} // namespace
