//===- Install.cpp - Where segtime's files are, installed or in a build tree
//===//
///
/// \file
/// See Install.h. The layout below PREFIX is given by the build
/// (SEGTIME_INSTALL_DATADIR, SEGTIME_INSTALL_PLUGINDIR, SEGTIME_INSTALL_BINDIR:
/// paths relative to the prefix); no absolute path of the source or build
/// tree is compiled in.
///
//===----------------------------------------------------------------------===//
#include "predictor/Install.h"

#include <cstdlib>
#include <dlfcn.h>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

#ifndef SEGTIME_INSTALL_DATADIR
#define SEGTIME_INSTALL_DATADIR "share/segtime"
#endif
#ifndef SEGTIME_INSTALL_BINDIR
#define SEGTIME_INSTALL_BINDIR "bin"
#endif
#ifndef SEGTIME_INSTALL_PLUGINDIR
#define SEGTIME_INSTALL_PLUGINDIR "lib/segtime"
#endif

namespace segtime {

fs::path moduleDirectory() {
  static const fs::path Dir = [] {
    std::error_code EC;
    Dl_info Info;
    // The object file (executable or shared module) holding this function.
    if (dladdr(reinterpret_cast<void *>(&moduleDirectory), &Info) &&
        Info.dli_fname && *Info.dli_fname) {
      fs::path P = fs::canonical(Info.dli_fname, EC);
      if (!EC && fs::is_regular_file(P, EC))
        return P.parent_path();
    }
    // The main program's dli_fname may be argv[0] as typed.
    fs::path P = fs::canonical("/proc/self/exe", EC);
    return EC ? fs::path() : P.parent_path();
  }();
  return Dir;
}

fs::path installPrefix() {
  static const fs::path Prefix = [] {
    fs::path D = moduleDirectory();
    for (int Up = 0; Up <= 3 && !D.empty(); ++Up, D = D.parent_path()) {
      std::error_code EC;
      if (fs::is_directory(D / SEGTIME_INSTALL_DATADIR / "machines", EC))
        return D;
      if (D == D.root_path())
        break;
    }
    return fs::path();
  }();
  return Prefix;
}

fs::path dataDirectory() {
  fs::path P = installPrefix();
  return P.empty() ? P : P / SEGTIME_INSTALL_DATADIR;
}

fs::path userDataDirectory() {
  const char *X = std::getenv("XDG_DATA_HOME");
  if (X && *X && fs::path(X).is_absolute())
    return fs::path(X) / "segtime";
  const char *H = std::getenv("HOME");
  if (H && *H)
    return fs::path(H) / ".local" / "share" / "segtime";
  return fs::path();
}

fs::path userMachineDirectory() {
  fs::path U = userDataDirectory();
  return U.empty() ? U : U / "machines";
}

std::vector<fs::path> machineSearchPath() {
  std::vector<fs::path> R;
  if (const char *E = std::getenv("SEGTIME_MACHINE_PATH")) {
    std::istringstream In(E);
    for (std::string Dir; std::getline(In, Dir, ':');)
      if (!Dir.empty()) // "a::b" and a trailing ':' add nothing
        R.push_back(Dir);
  }
  if (fs::path U = userMachineDirectory(); !U.empty())
    R.push_back(U);
  if (fs::path D = dataDirectory(); !D.empty())
    R.push_back(D / "machines");
  return R;
}

fs::path pluginPath() {
  fs::path P = installPrefix();
  if (P.empty())
    return P;
  std::error_code EC;
  for (fs::path C :
       {P / SEGTIME_INSTALL_PLUGINDIR / "segtime.so", P / "lib" / "segtime.so"})
    if (fs::is_regular_file(C, EC))
      return C;
  return fs::path();
}

fs::path toolPath() {
  if (const char *E = std::getenv("SEGTIME"); E && *E)
    return E;
  std::vector<fs::path> Candidates;
  if (fs::path P = installPrefix(); !P.empty())
    Candidates.push_back(P / SEGTIME_INSTALL_BINDIR / "segtime");
  if (fs::path D = moduleDirectory(); !D.empty())
    Candidates.push_back(D.parent_path() / "bin" / "segtime");
  for (const fs::path &C : Candidates) {
    std::error_code EC;
    if (fs::is_regular_file(C, EC) && access(C.c_str(), X_OK) == 0)
      return C;
  }
  return fs::path();
}

DefaultMachine defaultMachine() {
  std::error_code EC;
  fs::path Mine = userMachineDirectory();
  if (!Mine.empty() && fs::is_regular_file(Mine / "default.yaml", EC)) {
    fs::path Target = fs::canonical(Mine / "default.yaml", EC);
    std::string Name = EC ? std::string("default") : Target.stem().string();
    return {(Mine / "default.yaml").string(), true,
            "segtime: machine " + Name + " (this machine, calibrated: " +
                (Mine / "default.yaml").string() + ")"};
  }
  std::string Path = "t800";
  for (const fs::path &D : machineSearchPath())
    if (fs::is_regular_file(D / "t800.yaml", EC)) {
      Path = (D / "t800.yaml").string();
      break;
    }
  return {Path, false,
          "segtime: machine t800 (default; run `segtime calibrate` to predict "
          "for this "
          "machine)"};
}

} // namespace segtime
