//===- Process.cpp - Running child programs with time-outs; sample stats --===//
#include "tools/Process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/personality.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace segtime {

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string tail(const std::string &S, size_t Max) {
  return S.size() <= Max ? S : "[...]\n" + S.substr(S.size() - Max);
}


std::string ProcessResult::status() const {
  if (TimedOut) {
    std::ostringstream OS;
    OS << "timed out after " << TimeoutS << " s";
    return OS.str();
  }
  if (Signal)
    return "killed by signal " + std::to_string(Signal) + " (" + strsignal(Signal) + ")";
  return "exit status " + std::to_string(ExitCode);
}

ProcessResult runProcess(const std::vector<std::string> &Argv, const std::string &OutFile,
                         const std::string &ErrFile, double TimeoutS) {
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, OutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&FA, 2, ErrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attr, 0); // a group of its own: the time-out kills all of it
  std::vector<char *> A;
  for (const std::string &S : Argv)
    A.push_back(const_cast<char *>(S.c_str()));
  A.push_back(nullptr);
  pid_t Pid;
  int E = posix_spawn(&Pid, A[0], &FA, &Attr, A.data(), environ);
  posix_spawn_file_actions_destroy(&FA);
  posix_spawnattr_destroy(&Attr);
  if (E != 0)
    throw std::runtime_error("cannot run '" + Argv[0] + "': " + std::strerror(E));
  ProcessResult R;
  R.TimeoutS = TimeoutS;
  auto Start = std::chrono::steady_clock::now();
  auto Elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  };
  int St = 0;
  bool Termed = false;
  for (;;) {
    pid_t W = waitpid(Pid, &St, WNOHANG);
    if (W == Pid)
      break;
    if (W < 0 && errno != EINTR)
      throw std::runtime_error("waitpid: " + std::string(std::strerror(errno)));
    double El = Elapsed();
    if (El > TimeoutS && !Termed) {
      kill(-Pid, SIGTERM);
      Termed = true;
      R.TimedOut = true;
    } else if (El > TimeoutS + 2) {
      kill(-Pid, SIGKILL);
      waitpid(Pid, &St, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Ranks that outlived mpirun (they share its group) must not linger.
  if (R.TimedOut)
    kill(-Pid, SIGKILL);
  if (!R.TimedOut) {
    if (WIFSIGNALED(St))
      R.Signal = WTERMSIG(St);
    else if (WIFEXITED(St))
      R.ExitCode = WEXITSTATUS(St);
  }
  R.Out = slurp(OutFile);
  R.Err = slurp(ErrFile);
  return R;
}

std::optional<std::string> findInPath(const std::string &Name) {
  if (Name.find('/') != std::string::npos)
    return access(Name.c_str(), X_OK) == 0 ? std::optional<std::string>(Name) : std::nullopt;
  const char *P = std::getenv("PATH");
  std::stringstream SS(P ? P : "");
  for (std::string Dir; std::getline(SS, Dir, ':');) {
    std::string F = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (access(F.c_str(), X_OK) == 0)
      return F;
  }
  return std::nullopt;
}

std::string commandLine(const std::vector<std::string> &Argv) {
  std::string S;
  for (const std::string &A : Argv)
    S += (S.empty() ? "" : " ") + A;
  return S;
}



void fixAddressLayout(char **Argv) {
  int Current = personality(0xffffffff); // (a query: changes nothing)
  if (Current == -1 || (Current & ADDR_NO_RANDOMIZE))
    return;
  if (personality(static_cast<unsigned long>(Current) | ADDR_NO_RANDOMIZE) == -1)
    return;
  execv("/proc/self/exe", Argv);
  personality(static_cast<unsigned long>(Current)); // the exec failed: run as we are
}

} // namespace segtime
