//===- VocabularyTest.cpp - HLLC vocabulary and McMahon weights -----------===//
#include "core/Vocabulary.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace segtime;

// McMahon flop weight of every construct, from docs/vocabulary.md (POC
// table): floating add/sub/mul/compare 1, divide and sqrt 4, the libm
// transcendental functions 8; fabs, conversions, integer operations, memory
// references and control 0.
static const std::map<std::string, double> &expectedWeights() {
  static const std::map<std::string, double> W = [] {
    std::map<std::string, double> M;
    for (const char *T : {"f32", "f64"}) {
      std::string P = std::string(T) + ".";
      M[P + "add"] = 1;
      M[P + "sub"] = 1;
      M[P + "mul"] = 1;
      M[P + "cmp"] = 1;
      M[P + "div"] = 4;
      M[P + "sqrt"] = 4;
      M[P + "exp"] = 8;
      M[P + "log"] = 8;
      M[P + "trig"] = 8;
      M[P + "pow"] = 8;
      M[P + "libm"] = 8;
      M[P + "abs"] = 0;
    }
    for (const char *T : {"i32", "i64"})
      for (const char *Op : {"add", "sub", "mul", "div", "rem", "cmp", "abs", "shift", "bit"})
        M[std::string(T) + "." + Op] = 0;
    for (const char *C : {"cvt.i2f", "cvt.f2i", "cvt.f2f", "cvt.i2i", "loop", "if", "switch",
                          "call", "mem.local.read", "mem.local.write", "mem.global.read",
                          "mem.global.write", "mem.array.read", "mem.array.write",
                          "mem.copy.byte"})
      M[C] = 0;
    return M;
  }();
  return W;
}

TEST(Mcmahon, NamedWeights) {
  EXPECT_EQ(mcmahonWeight("f64.add"), 1);
  EXPECT_EQ(mcmahonWeight("f64.sub"), 1);
  EXPECT_EQ(mcmahonWeight("f64.mul"), 1);
  EXPECT_EQ(mcmahonWeight("f64.div"), 4);
  EXPECT_EQ(mcmahonWeight("f64.sqrt"), 4);
  EXPECT_EQ(mcmahonWeight("f64.exp"), 8);
  EXPECT_EQ(mcmahonWeight("f64.cmp"), 1);
  EXPECT_EQ(mcmahonWeight("f64.abs"), 0);
  EXPECT_EQ(mcmahonWeight("f32.div"), 4);
  EXPECT_EQ(mcmahonWeight("f32.sqrt"), 4);
  for (const char *Op : {"add", "sub", "mul", "div", "rem", "cmp", "abs", "shift", "bit"})
    EXPECT_EQ(mcmahonWeight(std::string("i32.") + Op), 0) << Op;
  for (const char *C : {"cvt.i2f", "cvt.f2i", "cvt.f2f", "cvt.i2i"})
    EXPECT_EQ(mcmahonWeight(C), 0) << C;
  EXPECT_EQ(mcmahonWeight("not-a-construct"), 0);
  EXPECT_EQ(mcmahonWeight(""), 0);
}

TEST(Mcmahon, EveryVocabularyEntry) {
  for (const Construct &C : hllcVocabulary()) {
    auto It = expectedWeights().find(C.Name);
    if (It == expectedWeights().end()) {
      ADD_FAILURE() << "construct '" << C.Name
                    << "' is not in the test's weight table (docs/vocabulary.md)";
      continue;
    }
    EXPECT_EQ(mcmahonWeight(C.Name), It->second) << C.Name;
  }
}

TEST(Vocabulary, SizeNamesAndDescriptions) {
  const auto &V = hllcVocabulary();
  EXPECT_GE(V.size(), 28u);
  std::set<std::string> Seen;
  for (const Construct &C : V) {
    EXPECT_TRUE(Seen.insert(C.Name).second) << "duplicate construct " << C.Name;
    EXPECT_FALSE(C.Description.empty()) << C.Name;
    EXPECT_TRUE(isHllcConstruct(C.Name)) << C.Name;
  }
  // Every construct docs/vocabulary.md names is in the vocabulary.
  for (auto &[Name, W] : expectedWeights())
    EXPECT_TRUE(isHllcConstruct(Name)) << Name;
  EXPECT_FALSE(isHllcConstruct("flop"));
  EXPECT_FALSE(isHllcConstruct("f64.frobnicate"));
}

TEST(MathLibrary, Constructs) {
  EXPECT_EQ(mathLibraryConstruct("sqrtf"), "f32.sqrt");
  EXPECT_EQ(mathLibraryConstruct("fabs"), "f64.abs");
  EXPECT_EQ(mathLibraryConstruct("printf"), "");
  EXPECT_EQ(mathLibraryConstruct("sqrt"), "f64.sqrt");
  EXPECT_EQ(mathLibraryConstruct("sqrtl"), "f64.sqrt"); // long double is f64
  EXPECT_EQ(mathLibraryConstruct("exp"), "f64.exp");
  EXPECT_EQ(mathLibraryConstruct("expf"), "f32.exp");
  EXPECT_EQ(mathLibraryConstruct("exp2"), "f64.exp");
  EXPECT_EQ(mathLibraryConstruct("log10"), "f64.log");
  EXPECT_EQ(mathLibraryConstruct("sin"), "f64.trig");
  EXPECT_EQ(mathLibraryConstruct("atan2f"), "f32.trig");
  EXPECT_EQ(mathLibraryConstruct("pow"), "f64.pow");
  EXPECT_EQ(mathLibraryConstruct("tanh"), "f64.libm");
  EXPECT_EQ(mathLibraryConstruct("fmodf"), "f32.libm");
  EXPECT_EQ(mathLibraryConstruct("fabsf"), "f32.abs");
  EXPECT_EQ(mathLibraryConstruct("abs"), "i32.abs");
  EXPECT_EQ(mathLibraryConstruct("labs"), "i64.abs");
  EXPECT_EQ(mathLibraryConstruct("__builtin_sqrt"), "f64.sqrt");
  EXPECT_EQ(mathLibraryConstruct("malloc"), "");
  EXPECT_EQ(mathLibraryConstruct("memcpy"), "");
  EXPECT_EQ(mathLibraryConstruct(""), "");
  EXPECT_EQ(mathLibraryConstruct("f"), "");
}

// The 8-flop functions of docs/vocabulary.md, with their f and l forms.
TEST(MathLibrary, TranscendentalsWeighEight) {
  for (const char *F : {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
                        "tan", "asin", "acos", "atan", "atan2", "pow", "tanh", "sinh", "cosh",
                        "cbrt", "erf", "erfc", "hypot", "fmod"})
    for (const std::string &Suffix : {"", "f", "l"}) {
      std::string Name = F + Suffix;
      std::string C = mathLibraryConstruct(Name);
      EXPECT_TRUE(isHllcConstruct(C)) << Name << " -> '" << C << "'";
      EXPECT_EQ(mcmahonWeight(C), 8) << Name << " -> " << C;
      EXPECT_EQ(C.substr(0, 4), Suffix == "f" ? "f32." : "f64.") << Name;
    }
}

TEST(Levels, KeysRoundTrip) {
  for (Level L : {Level::DBC, Level::POC, Level::HLLC, Level::IntCC, Level::ICC, Level::CT}) {
    Level Back;
    ASSERT_TRUE(parseLevel(levelKey(L), Back)) << levelKey(L);
    EXPECT_EQ(Back, L);
  }
  Level L;
  EXPECT_TRUE(parseLevel("poc", L));
  EXPECT_EQ(L, Level::POC);
  EXPECT_TRUE(parseLevel("Hllc", L));
  EXPECT_EQ(L, Level::HLLC);
  EXPECT_FALSE(parseLevel("bogus", L));
  EXPECT_STREQ(pocFlop(), "flop");
}

TEST(IntccKeys, OperationAndQualifier) {
  EXPECT_EQ(intccKey("fadd", "f64"), "fadd.f64");
  EXPECT_EQ(intccKey("load", "v4f64"), "load.v4f64");
  EXPECT_EQ(intccKey("call", "sqrt"), "call.sqrt");
  EXPECT_EQ(intccKey("call", intccKey("fmuladd", "v4f64")), "call.fmuladd.v4f64");
  EXPECT_EQ(intccKey("br", "cond"), "br.cond");
  EXPECT_EQ(intccKey("br", ""), "br");
}
