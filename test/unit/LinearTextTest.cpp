//===- LinearTextTest.cpp - Integer-linear texts folded as GiNaC prints them -===//
#include "core/LinearText.h"
#include "predictor/ExprText.h"

#include <gtest/gtest.h>
#include <vector>

using namespace segtime;

// Every text foldLinearText answers is answered as the expression algebra
// (simplifyExprText) prints it; the forms below are those the plugin
// simplifies most (trip counts, call arguments, IR loop starts).
TEST(FoldLinearText, AgreesWithTheAlgebra) {
  for (const char *S :
       {"0", "1", "-9", "4294967286", "(-1)", "(1)", "(0)", "1 - 0", "3 - 0 + 1", "0 - 0 + 1",
        "(4) + 1", "(7) + 1", "7204045419352888441", "(-1200255719815589523)", "99999999999999999999", "-0", "(0)", "-13 - -20 + 1", "2 * -3 + 1", "5 - -(2 - 1) * 3", "2*3 - 4", "-(2 - 5)", "-(-3)", "i", "k_main_ir206",
        "platform_main_end.flag", "_n", "(0 + 1*k_main_ir206)", "((0) + (1)*k_main_ir288)",
        "nbytes - 0", "n - n + m", "2*n - n", "(n)", "1*(x)", "x*1 + 0*y",
        "999999999999999999", "123456789012345678", "-(999999999999999999)"}) {
    std::optional<std::string> F = foldLinearText(S);
    ASSERT_TRUE(F.has_value()) << S;
    EXPECT_EQ(*F, simplifyExprText(S)) << S;
  }
}

// What it does not fold is left to the algebra.
TEST(FoldLinearText, LeavesTheRestToTheAlgebra) {
  for (const char *S :
       {"", "n + 1", "2*n", "n*m", "n - m", "n/2", "max(n, 1)", "idiv(n, 4)", "1.5", "1e3", "0x10",
        "007", "10u", "n(", "(n", "n)", "n +", "*", "a.b(1)",
        "4611686018427387903 + 1", "200000000000000000*30", "x y", "(-)"}) {
    EXPECT_FALSE(foldLinearText(S).has_value()) << S;
  }
}

// Numbers only: the comparisons of trip counts give the algebra's answers.
TEST(FoldIntegerText, ComparesAsTheAlgebra) {
  EXPECT_EQ(foldIntegerText("(7) + 1"), 8);
  EXPECT_EQ(foldIntegerText("-13 - -20 + 1"), 8);
  EXPECT_FALSE(foldIntegerText("n - n + 1").has_value()); // (names a symbol)
  EXPECT_FALSE(foldIntegerText("9007199254740993").has_value()); // (not exact as a double)
  for (auto [A, B] : std::vector<std::pair<const char *, const char *>>{
           {"8", "(7) + 1"}, {"9", "(7) + 1"}, {"-3", "1 - 4"}, {"0", "5 - 5"}, {"12", "3*4"}}) {
    std::optional<int64_t> VA = foldIntegerText(A), VB = foldIntegerText(B);
    ASSERT_TRUE(VA && VB) << A << " " << B;
    EXPECT_EQ(sameValue(A, B, {}), *VA == *VB) << A << " " << B;
    EXPECT_EQ(valueRatio(A, B, {}), *VB == 0 ? 0 : double(*VA) / double(*VB)) << A << " " << B;
  }
}
