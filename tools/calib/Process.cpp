//===- Process.cpp - Running programs for `segtime calibrate` -------------===//
///
/// \file
/// posix_spawn with redirected output and a polling time limit (see Process.h).
///
//===----------------------------------------------------------------------===//
#include "tools/calib/Process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>

extern char **environ;

namespace fs = std::filesystem;

namespace segtime {

std::string RunResult::status() const {
  if (TimedOut)
    return "timed out";
  if (Signal)
    return std::string("killed by signal ") + std::to_string(Signal) + " (" + strsignal(Signal) +
           ")";
  return "exit status " + std::to_string(ExitCode);
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string tail(const std::string &S, size_t Max) {
  return S.size() <= Max ? S : "[...]\n" + S.substr(S.size() - Max);
}

std::string commandLine(const std::vector<std::string> &Argv) {
  std::string S;
  for (const std::string &A : Argv)
    S += (S.empty() ? "" : " ") + A;
  return S;
}

RunResult runProgram(const std::vector<std::string> &Argv, const fs::path &Dir,
                     const std::string &Tag, double TimeoutS) {
  std::string OutP = (Dir / (Tag + ".out")).string(), ErrP = (Dir / (Tag + ".err")).string();
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, OutP.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&FA, 2, ErrP.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char *> A;
  for (const std::string &S : Argv)
    A.push_back(const_cast<char *>(S.c_str()));
  A.push_back(nullptr);
  pid_t Pid;
  int E = posix_spawn(&Pid, A[0], &FA, nullptr, A.data(), environ);
  posix_spawn_file_actions_destroy(&FA);
  RunResult R;
  if (E != 0)
    throw CalibError("cannot run '" + Argv[0] + "': " + std::strerror(E));
  auto Start = std::chrono::steady_clock::now();
  int St = 0;
  for (;;) {
    pid_t W = waitpid(Pid, &St, WNOHANG);
    if (W == Pid)
      break;
    if (W < 0 && errno != EINTR)
      throw CalibError("waitpid: " + std::string(std::strerror(errno)));
    double El = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    if (El > TimeoutS) {
      kill(Pid, SIGKILL);
      waitpid(Pid, &St, 0);
      R.TimedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!R.TimedOut) {
    if (WIFSIGNALED(St))
      R.Signal = WTERMSIG(St);
    else if (WIFEXITED(St))
      R.ExitCode = WEXITSTATUS(St);
  }
  R.Out = slurp(OutP);
  R.Err = slurp(ErrP);
  return R;
}

} // namespace segtime
