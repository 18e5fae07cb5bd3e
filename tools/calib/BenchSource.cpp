//===- BenchSource.cpp - C benchmarks for `segtime calibrate` -------------===//
///
/// \file
/// The generator of the calibration program (see BenchSource.h). One Spec
/// per HLLC construct says which locals a benchmark declares and which
/// statement(s) it repeats; the statements of a Spec are used in turn over
/// the Unroll repetitions of the loop body. The fixed parts of the program
/// (prologue, POC kernels, training kernels, main) are the files
/// kernels/Bench*.c and kernels/Training.c (KernelSources.h).
///
/// USAGE:
///   std::vector<BenchInfo> B;
///   std::string C = generateBenchSource(16, B);
///
//===----------------------------------------------------------------------===//
#include "tools/calib/BenchSource.h"
#include "tools/calib/KernelSources.h"
#include "tools/calib/TrainingSource.h"

#include "core/Vocabulary.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace segtime {
namespace {

/// How one benchmark is built.
struct Spec {
  std::string Decls;              ///< locals, declared before the loop
  std::string Setup;              ///< before the loop: barriers that hide initial values
  std::vector<std::string> Reps;  ///< statements used in turn, Unroll in all
  unsigned Unroll = 0;            ///< 0: the global Unroll
};

/// A C type of one HLLC type prefix, its barrier macro and the initial
/// values of the operands y and z (the i64 dividend needs more than 32 bits,
/// so that -O2 code takes its 64-bit division path).
struct CType {
  const char *Key, *C, *Bar, *Y, *Z;
};
const CType Types[] = {{"i32", "int", "B", "12345", "678"},
                       {"i64", "long", "B", "123456789012L", "1009L"},
                       {"f32", "float", "BF", "0.7f", "1.3f"},
                       {"f64", "double", "BF", "0.7", "1.3"}};

std::string decls(const CType &T, bool WithC = false) {
  return std::string(T.C) + " x = 0, y = " + T.Y + ", z = " + T.Z + ";" +
         (WithC ? " int c = 0;" : "");
}

/// Statement "x = EXPR;" plus the barriers that consume x and refresh y.
std::string assign(const CType &T, const std::string &Expr, const char *Dst = "x",
                   const char *DstBar = nullptr, bool RefreshZ = false) {
  std::string S = std::string(Dst) + " = " + Expr + "; " + (DstBar ? DstBar : T.Bar) + "(" +
                  Dst + "); " + T.Bar + "(y);";
  if (RefreshZ)
    S += std::string(" ") + T.Bar + "(z);";
  return S;
}

std::map<std::string, Spec> buildSpecs() {
  std::map<std::string, Spec> M;
  for (const CType &T : Types) {
    std::string K = T.Key;
    bool Int = K[0] == 'i';
    std::string Setup = std::string(T.Bar) + "(y); " + T.Bar + "(z);";
    auto Arith = [&](const std::string &Op, std::vector<std::string> Exprs) {
      Spec S{decls(T), Setup, {}};
      for (const std::string &E : Exprs)
        S.Reps.push_back(assign(T, E));
      M[K + "." + Op] = S;
    };
    Arith("add", {"y + z"});
    Arith("sub", {"y - z"});
    Arith("mul", {"y * z"});
    Arith("div", {"y / z"});
    {
      Spec S{decls(T, true), Setup, {}};
      for (const char *Rel : {"<", "==", ">"})
        S.Reps.push_back(assign(T, std::string("y ") + Rel + " z", "c", "B"));
      M[K + ".cmp"] = S;
    }
    if (Int) {
      Arith("abs", {K == "i32" ? "abs(y)" : "labs(y)"});
      Arith("rem", {"y % z"});
      Arith("shift", {"y << 3", "y >> 2"});
      Arith("bit", {"y & z", "y | z", "y ^ z"});
      continue;
    }
    std::string F = K == "f32" ? "f" : "";
    auto Fn = [&](const std::string &Op, std::vector<std::string> Calls) {
      Spec S{decls(T), Setup, {}};
      for (const std::string &C : Calls)
        S.Reps.push_back(assign(T, C, "x", nullptr, C.find('z') != std::string::npos));
      M[K + "." + Op] = S;
    };
    Fn("abs", {"fabs" + F + "(y)"});
    Fn("sqrt", {"sqrt" + F + "(y)"});
    Fn("exp", {"exp" + F + "(y)"});
    Fn("log", {"log" + F + "(z)"});
    {
      // sin and cos at arguments from the fast path (|x| < pi/4) to ones that
      // need argument reduction, as in sin(2*pi*k*t/n).
      Spec S{std::string(T.C) + " x = 0, y = 0.7" + F + ", z = 1.9" + F + ", u = 4.1" + F +
                 ", v = 313.7" + F + ";",
             "BF(y); BF(z); BF(u); BF(v);",
             {}};
      const char *Args[] = {"y", "z", "u", "v"};
      for (int I = 0; I < 8; ++I) {
        std::string A = Args[I % 4];
        std::string Call = ((I + I / 4) % 2 ? "cos" : "sin") + F + "(" + A + ")";
        S.Reps.push_back("x = " + Call + "; BF(x); BF(" + A + ");");
      }
      M[K + ".trig"] = S;
    }
    Fn("pow", {"pow" + F + "(z, y)"});
    Fn("libm", {"tanh" + F + "(y)", "cbrt" + F + "(z)", "erf" + F + "(y)",
                "hypot" + F + "(y, z)"});
  }
  // Conversions, both directions of each kind in turn. Sources (i, l, f, d)
  // are only read and destinations (j, m, g, e) only written, so no chain of
  // dependences runs through memory at -O0.
  const std::string CvtDecls = "int i = 12345, j = 0; long l = 678, m = 0; "
                               "float f = 0.7f, g = 0; double d = 1.3, e = 0;";
  const std::string CvtSetup = "B(i); B(l); BF(f); BF(d);";
  M["cvt.i2f"] = {CvtDecls, CvtSetup, {"e = i; BF(e); B(i);", "g = l; BF(g); B(l);"}};
  M["cvt.f2i"] = {CvtDecls, CvtSetup, {"j = d; B(j); BF(d);", "m = f; B(m); BF(f);"}};
  M["cvt.f2f"] = {CvtDecls, CvtSetup, {"e = f; BF(e); BF(f);", "g = d; BF(g); BF(d);"}};
  M["cvt.i2i"] = {CvtDecls, CvtSetup, {"m = i; B(m); B(i);", "j = l; B(j); B(l);"}};
  // Control. Branch arms count nothing, so the branch probabilities drop out
  // of the counts; each branch goes the same way every time (predicted).
  M["loop"] = {"", "",
               {"long m = 16; B(m);\n    for (long j = 0; j < m; j++) { B0(); }"}, 1};
  M["if"] = {"int y = 1, z = 2, a = 0, b = 0;", "B(y); B(z);",
             {"if (y < z) { B(a); } else { B(b); } B(y);"}};
  {
    std::string Sw = "switch (y) {";
    for (int C = 0; C < 8; ++C)
      Sw += " case " + std::to_string(C) + ": B(a" + std::to_string(C) + "); break;";
    Sw += " default: B(a8); break; } B(y);";
    M["switch"] = {"int y = 3, a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, "
                   "a7 = 0, a8 = 0;",
                   "B(y);", {Sw}};
  }
  M["call"] = {"", "", {"nop0();"}};
  // Memory references. Global and array accesses are kept by a "memory"
  // clobber; memcpy copies 1024 bytes between two global arrays.
  M["mem.local.read"] = {"int x = 0, y = 12345;", "B(y);", {"x = y; B(x); B(y);"}};
  M["mem.local.write"] = {"int x = 0;", "", {"x = 5; B(x);"}};
  M["mem.global.read"] = {"int x = 0;", "", {"x = g_int; B(x); CLOBBER();"}};
  M["mem.global.write"] = {"", "", {"g_int = 5; CLOBBER();"}};
  M["mem.array.read"] = {"int x = 0, i = 3;", "B(i);", {"x = g_arr[i]; B(x); CLOBBER();"}};
  M["mem.array.write"] = {"int i = 3;", "B(i);", {"g_arr[i] = 5; CLOBBER();"}};
  M["mem.copy.byte"] = {"long n = 1024;", "", {"memcpy(g_dst, g_src, n); CLOBBER();"}};
  return M;
}

/// C identifier part of a construct name: "mem.local.read" -> "mem_local_read".
std::string ident(const std::string &Construct) {
  std::string S = Construct;
  for (char &C : S)
    if (C == '.')
      C = '_';
  return S;
}

/// S on one line, runs of spaces collapsed (for BenchInfo::What).
std::string collapse(const std::string &S) {
  std::string R;
  for (char C : S)
    R += C == '\n' ? ' ' : C;
  size_t P;
  while ((P = R.find("  ")) != std::string::npos)
    R.erase(P, 1);
  return R;
}

} // namespace

std::string generateBenchSource(unsigned Unroll, std::vector<BenchInfo> &Benches) {
  static const std::map<std::string, Spec> Specs = buildSpecs();
  Benches.clear();
  std::ostringstream OS;
  OS << kernel::benchPrologue();
  auto Emit = [&](const std::string &Name, const std::string &Comment, const Spec &S) {
    OS << "\n/* " << Comment << " */\nvoid " << Name << "(long R) {\n";
    if (!S.Decls.empty())
      OS << "  " << S.Decls << "\n";
    if (!S.Setup.empty())
      OS << "  " << S.Setup << "\n";
    OS << "  for (long r = 0; r < R; r++) {\n";
    unsigned U = S.Unroll ? S.Unroll : Unroll;
    for (unsigned I = 0; I < U; ++I)
      OS << "    " << S.Reps[I % S.Reps.size()] << "\n";
    OS << "  }\n}\n";
  };
  // Baseline: the loop alone (Saavedra-Barrera's loop-overhead benchmark).
  Spec Base{"", "", {"B0();"}, 1};
  Emit("bench_baseline", "baseline: loop overhead alone", Base);
  Benches.push_back({"bench_baseline", "loop", false, "for (...) { }"});
  for (const Construct &C : hllcVocabulary()) {
    auto It = Specs.find(C.Name);
    if (It == Specs.end())
      throw std::logic_error("calibrate: no benchmark for HLLC construct '" + C.Name + "'");
    std::string Fn = "bench_" + ident(C.Name);
    Emit(Fn, C.Name + ": " + C.Description, It->second);
    std::string What;
    for (const std::string &R : It->second.Reps)
      What += (What.empty() ? "" : " | ") + collapse(R);
    Benches.push_back({Fn, C.Name, false, What});
  }
  OS << kernel::benchPoc();
  for (const char *K : {"poc_dot", "poc_daxpy", "poc_horner", "poc_rational"})
    Benches.push_back({K, "", true, K});
  OS << kernel::training();
  for (const BenchInfo &B : trainingBenches())
    Benches.push_back(B);
  OS << "\ntypedef void (*bench_fn)(long);\nstatic const struct {\n  const char *name;\n"
        "  bench_fn fn;\n  int kind;\n} benches[] = {\n";
  for (const BenchInfo &B : Benches)
    OS << "    {\"" << B.Function << "\", " << B.Function << ", "
       << (B.Poc ? MaskPoc : B.Train ? MaskTrain : MaskHllc) << "},\n";
  OS << "};\n" << kernel::benchMain();
  return OS.str();
}

} // namespace segtime
