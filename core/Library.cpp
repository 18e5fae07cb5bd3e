//===- Library.cpp - C library functions costed per call ------------------===//
///
/// \file
/// The table of library functions (Library.h).
///
//===----------------------------------------------------------------------===//
#include "core/Library.h"

#include <map>

namespace segtime {

const std::vector<LibraryFunction> &libraryFunctions() {
  static const std::vector<LibraryFunction> L = {
      {"malloc", true, "n, bytes allocated", "malloc(n)+free pairs less free, blocks untouched"},
      {"calloc", true, "n*size, bytes allocated and zeroed", "calloc(1, n)+free pairs less free"},
      {"realloc", true, "n, the new size in bytes", "realloc(malloc(n/2), n)+free less malloc(n/2)+free"},
      {"free", false, "", "free of a batch of 64 blocks of 64 B"},
      {"memcpy", true, "n, bytes copied", "memcpy(d, s, n), both in cache"},
      {"memmove", true, "n, bytes moved", "memmove(d, s, n), both in cache"},
      {"memset", true, "n, bytes set", "memset(d, c, n), in cache"},
      {"memcmp", true, "n, bytes compared (equal buffers)", "memcmp of two equal buffers of n bytes"},
      {"strlen", true, "the string's length, B", "strlen of a string of n bytes"},
      {"strcmp", true, "the strings' length, B (equal strings)", "strcmp of two equal strings of n bytes"},
      {"strcpy", true, "the source string's length, B", "strcpy of a string of n bytes"},
      {"snprintf", false, "", "snprintf(buf, 64, \"%.15g\", x) of varying doubles"},
      {"sin", false, "", "sin(x), x in [0.1, 10)"},
      {"cos", false, "", "cos(x), x in [0.1, 10)"},
      {"exp", false, "", "exp(x), x in [0.1, 10)"},
      {"log", false, "", "log(x), x in [0.1, 10)"},
      {"sqrt", false, "", "sqrt(x) called in libm (-fno-builtin), x in [0.1, 10)"},
      {"pow", false, "", "pow(x, 1.7), x in [0.1, 10)"},
      {"clock_gettime", false, "", "clock_gettime(CLOCK_MONOTONIC, &ts)"},
      {"gettimeofday", false, "", "gettimeofday(&tv, NULL)"},
  };
  return L;
}

const LibraryFunction *libraryFunction(const std::string &Callee) {
  // Formatted output of a number: printf and fprintf write into stdio's
  // buffer, as snprintf does into its own (the write(2) of a full buffer
  // is not included).
  static const std::map<std::string, std::string> Alias = {
      {"printf", "snprintf"}, {"fprintf", "snprintf"}, {"sprintf", "snprintf"}};
  auto A = Alias.find(Callee);
  const std::string &Name = A == Alias.end() ? Callee : A->second;
  for (const LibraryFunction &F : libraryFunctions())
    if (F.Name == Name)
      return &F;
  return nullptr;
}

bool libraryCallInIR(const std::string &Callee) {
  return Callee != "sqrt" && libraryFunction(Callee);
}

std::string libraryKey(const LibraryFunction &F, const char *Entry) {
  return "library." + F.Name + "." + Entry;
}

std::vector<unsigned> librarySizeArgs(const std::string &Callee,
                                      std::vector<unsigned> *StringArgs) {
  static const std::map<std::string, std::vector<unsigned>> Bytes = {
      {"malloc", {0}},  {"calloc", {0, 1}}, {"realloc", {1}},
      {"memcpy", {2}},  {"memmove", {2}},   {"memset", {2}}, {"memcmp", {2}}};
  static const std::map<std::string, std::vector<unsigned>> Strings = {
      {"strlen", {0}}, {"strcmp", {0, 1}}, {"strcpy", {1}}};
  if (StringArgs) {
    auto S = Strings.find(Callee);
    *StringArgs = S == Strings.end() ? std::vector<unsigned>{} : S->second;
  }
  auto B = Bytes.find(Callee);
  return B == Bytes.end() ? std::vector<unsigned>{} : B->second;
}

} // namespace segtime
