//===- ExprTest.cpp - Formula algebra: sums, integer functions, parsing ---===//
#include "predictor/Expr.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace segtime;
using namespace GiNaC;

namespace {

/// True if A and B are the same polynomial (their difference expands to 0).
::testing::AssertionResult samePoly(const ex &A, const ex &B) {
  ex D = expand(A - B);
  if (D.is_zero())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << toString(A, 17) << " != " << toString(B, 17)
                                       << " (difference " << toString(D, 17) << ")";
}

double eval(const std::string &S, const std::map<std::string, double> &V = {}) {
  return evaluate(parseExpr(S), V);
}

const symbol K = sym("k"), N = sym("n");

} // namespace

// Faulhaber: sum_{k=0}^{n-1} k = n(n-1)/2.
TEST(SumOver, Linear) {
  EXPECT_TRUE(samePoly(sumOver(K, K, N), N * N / 2 - N / 2));
}

// sum_{k=0}^{n-1} k^2 = n^3/3 - n^2/2 + n/6.
TEST(SumOver, Square) {
  EXPECT_TRUE(samePoly(sumOver(pow(K, 2), K, N),
                       pow(N, 3) / 3 - pow(N, 2) / 2 + N / 6));
}

// sum_{k=0}^{n-1} k^3 = (n(n-1)/2)^2 = n^4/4 - n^3/2 + n^2/4.
TEST(SumOver, Cube) {
  EXPECT_TRUE(samePoly(sumOver(pow(K, 3), K, N),
                       pow(N, 4) / 4 - pow(N, 3) / 2 + pow(N, 2) / 4));
}

// A body without the index: n * body.
TEST(SumOver, ConstantBody) {
  EXPECT_TRUE(samePoly(sumOver(ex(3) * sym("m"), K, N), 3 * N * sym("m")));
}

// The triangular nest: sum_{i=0}^{n-1} 2(i + 1) = n^2 + n.
TEST(SumOver, Triangular) {
  symbol I = sym("i");
  EXPECT_TRUE(samePoly(sumOver(2 * (I + 1), I, N), N * N + N));
  EXPECT_DOUBLE_EQ(evaluate(sumOver(2 * (I + 1), I, N), {{"n", 10}}), 110);
}

// Numeric bounds sum at once.
TEST(SumOver, NumericBound) {
  EXPECT_TRUE(samePoly(sumOver(pow(K, 2), K, 4), 14)); // 0 + 1 + 4 + 9
  EXPECT_TRUE(samePoly(sumOver(K, K, 0), 0));          // empty range
}

// A non-polynomial body stays a seg_sum while the bound is symbolic, and
// evaluates to the exact sum once numbers are substituted.
TEST(SumOver, NonPolynomialBody) {
  ex Pow2 = sumOver(pow(2, K), K, N);
  EXPECT_EQ(freeSymbols(Pow2), std::set<std::string>{"n"});
  EXPECT_DOUBLE_EQ(evaluate(Pow2, {{"n", 10}}), 1023); // 2^0 + ... + 2^9

  ex Div3 = sumOver(idiv(K, 3), K, N);
  // 0,0,0,1,1,1,2,2,2,3
  EXPECT_DOUBLE_EQ(evaluate(Div3, {{"n", 10}}), 12);

  // A body with another symbol: exact once both are known.
  ex DivM = sumOver(idiv(K, sym("m")), K, N);
  EXPECT_EQ(freeSymbols(DivM), (std::set<std::string>{"m", "n"}));
  EXPECT_DOUBLE_EQ(evaluate(DivM, {{"n", 10}, {"m", 3}}), 12);

  // sum_{k=0}^{3} 1/(k+1) = 25/12
  EXPECT_NEAR(evaluate(sumOver(1 / (K + 1), K, N), {{"n", 4}}), 25.0 / 12.0, 1e-12);

  // log-trip inner loops summed over an outer index: sum_{k=0}^{9} ltrip(1, k, 2)
  // = 0 (k=0), 0 (1), 1 (2), 2 (3,4), 3 (5..8), 4 (9) -> 0+0+1+2+2+3+3+3+3+4 = 21.
  EXPECT_DOUBLE_EQ(evaluate(sumOver(ltrip(1, K, 2), K, N), {{"n", 10}}), 21);
}

// Numeric sums of bodies with the integer functions (evaluated in double
// arithmetic per term) and of bodies with non-integer operands of a
// comparison (those terms take GiNaC's exact arithmetic). Hand sums over
// k = 0..9.
TEST(SumOver, NumericBodyWithIntegerFunctions) {
  auto Sum = [](const ex &Body) {
    return evaluate(sumOver(Body, K, N), {{"n", 10}});
  };
  EXPECT_DOUBLE_EQ(Sum(cmp_lt(K, 4) * (2 * K + 1)), 16); // 1 + 3 + 5 + 7
  EXPECT_DOUBLE_EQ(Sum(cmp_le(K, 4) + cmp_eq(K, 9)), 6); // k = 0..4, and 9
  EXPECT_DOUBLE_EQ(Sum(umod(K - 5, 4)), 15);             // 3 0 1 2 3 0 1 2 3 0
  EXPECT_DOUBLE_EQ(Sum(imod(K - 5, 4)), -1); // -1 0 -3 -2 -1 0 1 2 3 0
  EXPECT_DOUBLE_EQ(Sum(idiv(K - 5, 2)), -2); // -2 -2 -1 -1 0 0 0 1 1 2
  EXPECT_DOUBLE_EQ(Sum(min(K, 3) + max(K, 7) - pow(K, 2)), 24 + 73 - 285);
  EXPECT_DOUBLE_EQ(Sum(cmp_lt(K / 2, 2)), 4);          // k/2 < 2: k = 0..3
  EXPECT_DOUBLE_EQ(Sum(cmp_lt(K, 4) * pow(2, K)), 15); // 2^k: not compiled
}

// The index of a seg_sum is bound: it is not a free symbol.
TEST(FreeSymbols, BoundIndexExcluded) {
  ex S = seg_sum(pow(2, K) * sym("a"), K, 0, N - 1);
  EXPECT_EQ(freeSymbols(S), (std::set<std::string>{"a", "n"}));
}

TEST(IntegerFunctions, Idiv) {
  EXPECT_EQ(eval("idiv(7, 2)"), 3);
  EXPECT_EQ(eval("idiv(-7, 2)"), -3); // C truncates toward zero
  EXPECT_EQ(eval("idiv(6, 3)"), 2);
  EXPECT_EQ(eval("idiv(n + 1, 2)", {{"n", 10}}), 5);
  EXPECT_EQ(eval("idiv(n + 1, 2)", {{"n", 11}}), 6);
  EXPECT_EQ(eval("idiv(n, 1)", {{"n", 9}}), 9);
}

TEST(IntegerFunctions, Imod) {
  EXPECT_EQ(eval("imod(7, 3)"), 1);
  EXPECT_EQ(eval("imod(-7, 3)"), -1); // C: sign of the dividend
  EXPECT_EQ(eval("imod(n, 4)", {{"n", 10}}), 2);
}

TEST(IntegerFunctions, MinMax) {
  EXPECT_EQ(eval("min(3, 5)"), 3);
  EXPECT_EQ(eval("max(3, 5)"), 5);
  EXPECT_EQ(eval("min(n, m)", {{"n", 8}, {"m", 2}}), 2);
  EXPECT_EQ(eval("max(n, m) + 1", {{"n", 8}, {"m", 2}}), 9);
  EXPECT_TRUE(samePoly(parseExpr("min(n, n)"), N)); // min(x, x) = x
}

// ltrip(a, b, c): iterations of for (i = a; i < b; i *= c).
TEST(IntegerFunctions, Ltrip) {
  EXPECT_EQ(eval("ltrip(1, 100, 2)"), 7);  // 1 2 4 8 16 32 64
  EXPECT_EQ(eval("ltrip(1, 1, 2)"), 0);
  EXPECT_EQ(eval("ltrip(1, 2, 2)"), 1);
  EXPECT_EQ(eval("ltrip(3, 100, 3)"), 4);  // 3 9 27 81
  EXPECT_EQ(eval("ltrip(1, n, 2)", {{"n", 1024}}), 10);
  EXPECT_EQ(eval("ltrip(1, n + 1, 2)", {{"n", 1024}}), 11);
}

TEST(ParseExpr, Arithmetic) {
  EXPECT_EQ(eval("2 + 3*4 - 6/3"), 12);
  EXPECT_EQ(eval("2^10"), 1024);
  EXPECT_EQ(eval("(n - 1)*(n + 1)", {{"n", 5}}), 24);
  EXPECT_TRUE(samePoly(parseExpr("n - 0 + 1"), N + 1));
  // Symbols come from the one registry: parsed n is sym("n").
  EXPECT_TRUE(parseExpr("n").is_equal(N));
  // Parameter names with digits and underscores.
  EXPECT_EQ(eval("N_f_12*P_f_13", {{"N_f_12", 4}, {"P_f_13", 0.25}}), 1);
}

// log is the natural logarithm (GiNaC's): the min-update idiom's H_N/N
// (docs/models.md) is (log(N) + gamma + 1/(2N) - 1/(12N^2))/N.
TEST(ParseExpr, NaturalLogarithm) {
  EXPECT_DOUBLE_EQ(eval("log(1)"), 0);
  EXPECT_NEAR(eval("log(8)"), 2.0794415416798357, 1e-15);
  EXPECT_NEAR(eval("log(n)*2", {{"n", 10}}), 4.605170185988091, 1e-14);
  // H_24 = 1 + 1/2 + ... + 1/24 = 3.7759581778..., H_200 = 5.8780309481...
  const char *HN = "(log(max(n, 1)) + 0.5772156649 + 1/(2*max(n, 1)) - 1/(12*max(n, 1)^2))/max(n, 1)";
  EXPECT_NEAR(eval(HN, {{"n", 24}}), 3.7759581778 / 24, 1e-8);
  EXPECT_NEAR(eval(HN, {{"n", 200}}), 5.8780309481 / 200, 1e-8);
  EXPECT_NEAR(eval(HN, {{"n", 1}}), 0.9939, 1e-4); // H_1 = 1: still a probability
  // Printed back in a form the parser reads.
  ex E = parseExpr("log(n)/n");
  EXPECT_NEAR(evaluate(parseExpr(toString(E, 17)), {{"n", 5}}), std::log(5.0) / 5, 1e-14);
  // log(0) is an error, not a number.
  EXPECT_ANY_THROW(eval("log(n)", {{"n", 0}}));
}

TEST(ParseExpr, ErrorsThrowNamingTheExpression) {
  for (const char *Bad : {"n +", "(n", "n )", "2 ** 3", "idiv(n)", "n $ 2"}) {
    try {
      parseExpr(Bad);
      ADD_FAILURE() << "no exception for '" << Bad << "'";
    } catch (const std::invalid_argument &E) {
      EXPECT_NE(std::string(E.what()).find(Bad), std::string::npos) << E.what();
    } catch (const std::exception &E) {
      ADD_FAILURE() << "'" << Bad << "' threw a non-invalid_argument: " << E.what();
    }
  }
}

TEST(Evaluate, MissingSymbolThrowsAndNamesIt) {
  ex E = parseExpr("n*m + q");
  try {
    evaluate(E, {{"n", 2}});
    FAIL() << "no exception";
  } catch (const std::runtime_error &E) {
    std::string W = E.what();
    EXPECT_NE(W.find("m"), std::string::npos) << W;
    EXPECT_NE(W.find("q"), std::string::npos) << W;
    EXPECT_EQ(W.find("n,"), std::string::npos) << "n has a value: " << W;
  }
  EXPECT_THROW(evaluate(parseExpr("x"), {}), std::runtime_error);
  EXPECT_EQ(evaluate(E, {{"n", 2}, {"m", 3}, {"q", 1}}), 7);
  // Values for symbols that do not occur are ignored.
  EXPECT_EQ(evaluate(parseExpr("n"), {{"n", 2}, {"unused", 5}}), 2);
}

TEST(ToString, HumanForm) {
  EXPECT_EQ(toString(parseExpr("n + 1")), "n + 1");
  EXPECT_EQ(toString(parseExpr("2*n^2")), "2*n^2");
  EXPECT_EQ(toString(parseExpr("idiv(n, 2)")), "idiv(n, 2)");
  EXPECT_EQ(toString(numeric(1.5e-6) * N), "1.5e-06*n");
}

namespace {
/// A product as GiNaC leaves it, without mul::eval: eval strips the sign of
/// each sum factor by the term it happens to list first (hash order, which
/// changes between runs), so (a - b)*(c - d) may be held as either of
/// these. Factors with coefficient C.
ex heldProduct(const ex &A, const ex &B, const ex &C = 1) {
  return (new mul(A, B, C))->setflag(status_flags::dynallocated | status_flags::evaluated);
}
} // namespace

// The sign of a sum factor is chosen by its text, not by GiNaC: the four
// ways of writing (a - b)*(c - d) print alike. Of a - b ("-b + a": terms of
// one degree by text) and b - a ("-a + b"), both start with '-', so the
// smaller text "-a + b" is written; likewise "-c + d"; the coefficient
// takes (-1)^(flips).
TEST(ToString, SignOfSumFactorsIsCanonical) {
  symbol A = sym("a"), B = sym("b"), C = sym("c"), D = sym("d");
  const std::string Want = "(-a + b)*(-c + d)";
  EXPECT_EQ(toString(heldProduct(A - B, C - D)), Want);
  EXPECT_EQ(toString(heldProduct(B - A, D - C)), Want);
  EXPECT_EQ(toString(heldProduct(A - B, D - C, -1)), Want);
  EXPECT_EQ(toString(heldProduct(B - A, C - D, -1)), Want);
  EXPECT_EQ(toString(heldProduct(A - B, D - C)), "-" + Want);
  EXPECT_EQ(toString(heldProduct(B - A, C - D, 3)), "-3*" + Want);
  // A sum that can be written without a leading '-' is: n - 1, not -n + 1
  // (factors in text order: '-' before 'n').
  EXPECT_EQ(toString(heldProduct(1 - N, C - D)), "(-c + d)*(n - 1)");
  EXPECT_EQ(toString(heldProduct(N - 1, D - C)), "(-c + d)*(n - 1)");
  // In a sum the flipped sign is the term's: n + (1 - n)*(d - c) =
  // n - (d - c)*(n - 1), the degree-2 term first.
  ex P = heldProduct(1 - N, D - C);
  EXPECT_EQ(toString((new add(N, P))->setflag(status_flags::dynallocated | status_flags::evaluated)),
            "-(-c + d)*(n - 1) + n");
  // Integer powers: an odd one takes the sign, an even one does not;
  // below a '/' too.
  ex Cube = (new power(A - B, 3))->setflag(status_flags::dynallocated | status_flags::evaluated);
  EXPECT_EQ(toString(Cube), "-(-a + b)^3");
  EXPECT_EQ(toString(heldProduct(pow(A - B, 2), C)), "(-a + b)^2*c");
  EXPECT_EQ(toString(heldProduct(pow(A - B, -1), C)), "-c/(-a + b)");
  // The text parses back to the value.
  std::map<std::string, double> V{{"a", 2}, {"b", 7}, {"c", 3}, {"d", 11}, {"n", 5}};
  for (const ex &E : {heldProduct(A - B, D - C), heldProduct(pow(A - B, -1), C), Cube})
    EXPECT_DOUBLE_EQ(evaluate(parseExpr(toString(E, 17)), V), evaluate(E, V)) << toString(E);
}

namespace {
/// Value of T: its definitions evaluated in order, each parsed back.
double evalText(const FormulaText &T, std::map<std::string, double> V) {
  for (const FormulaDef &D : T.Defs)
    V[D.Name] = evaluate(parseExpr(D.Expr), V);
  return evaluate(parseExpr(T.Formula), V);
}

/// A sum of 6 products: 63 characters printed ("alpha*beta + ...").
ex longSum() {
  return sym("alpha") * sym("beta") + sym("gamma") * sym("delta") +
         sym("epsilon") * sym("zeta") + sym("eta") * sym("theta") + sym("iota") * sym("kappa") +
         sym("lambda") * sym("mu");
}
} // namespace

// A subexpression written twice and longer than 60 characters is printed
// once, as _s1; the formula refers to it.
TEST(FormulaText, SharedSubexpressionIsOneDefinition) {
  ex X = longSum();
  ASSERT_EQ(toString(X), "alpha*beta + delta*gamma + epsilon*zeta + eta*theta + iota*kappa + "
                         "lambda*mu");
  ex E = N * X + pow(X, 2) * sym("m");
  FormulaText T = toFormulaText(E);
  ASSERT_EQ(T.Defs.size(), 1u);
  EXPECT_EQ(T.Defs[0].Name, "_s1");
  EXPECT_EQ(T.Defs[0].Expr, toString(X));
  EXPECT_EQ(T.Formula, "_s1^2*m + _s1*n");
  // Parsed back, the definitions and the formula give E's value.
  std::map<std::string, double> V;
  int I = 1;
  for (const std::string &S : freeSymbols(E))
    V[S] = 0.5 + I++;
  FormulaText T17 = toFormulaText(E, 17);
  EXPECT_DOUBLE_EQ(evalText(T17, V), evaluate(E, V));
}

// A named sum is defined with the sign a sum factor is printed with (no
// leading '-' if possible): -(alpha*beta + ...) is _s1 = alpha*beta + ...,
// used as -_s1; the value is unchanged.
TEST(FormulaText, NamedSumTakesTheCanonicalSign) {
  ex X = -longSum();
  ex E = N * X + pow(X, 2) * sym("m");
  FormulaText T = toFormulaText(E);
  ASSERT_EQ(T.Defs.size(), 1u);
  EXPECT_EQ(T.Defs[0].Expr, toString(longSum()));
  EXPECT_EQ(T.Formula, "_s1^2*m - _s1*n");
  std::map<std::string, double> V;
  int I = 1;
  for (const std::string &S : freeSymbols(E))
    V[S] = 0.5 + I++;
  EXPECT_DOUBLE_EQ(evalText(toFormulaText(E, 17), V), evaluate(E, V));
}

// Without a repeated long subexpression the text is toString's, byte for
// byte: nothing shared, shared but short (n + 1, 5 characters), or long but
// written once.
TEST(FormulaText, NoSharingPrintsAsBefore) {
  ex Short = N + 1;
  for (const ex &E : {parseExpr("1.17e-06*n^2 + 1.85e-06*n + 4e-08"),
                      parseExpr("idiv(n, 2)*m - 3*min(n, m)/q"), pow(Short, 2) * K + Short * sym("m"),
                      N * longSum() + 1, ex(numeric(3, 2)), ex(N)}) {
    FormulaText T = toFormulaText(E);
    EXPECT_EQ(T.Formula, toString(E));
    EXPECT_TRUE(T.Defs.empty()) << T.Formula;
  }
}

// A shared subexpression inside another: the inner one is defined first and
// the outer definition uses its name; each is written once.
TEST(FormulaText, NestedDefinitionsComeInOrder) {
  ex X = longSum();
  ex Y = max(X * N, sym("m") + sym("q") * sym("r") + sym("s") * sym("u") + sym("v") * sym("w") +
                        sym("x") * sym("y") + sym("aa") * sym("bb") + sym("cc") * sym("dd")) +
         X * sym("m");
  ex E = sym("p") * Y + pow(Y, 3);
  FormulaText T = toFormulaText(E);
  ASSERT_EQ(T.Defs.size(), 2u);
  EXPECT_EQ(T.Defs[0].Name, "_s1");
  EXPECT_EQ(T.Defs[0].Expr, toString(X));
  EXPECT_EQ(T.Defs[1].Name, "_s2");
  EXPECT_EQ(T.Defs[1].Expr, "_s1*m + max(_s1*n, aa*bb + cc*dd + q*r + s*u + v*w + x*y + m)");
  EXPECT_EQ(T.Formula, "_s2^3 + _s2*p");
  std::map<std::string, double> V;
  int I = 1;
  for (const std::string &S : freeSymbols(E))
    V[S] = 0.25 * I++;
  EXPECT_DOUBLE_EQ(evalText(toFormulaText(E, 17), V), evaluate(E, V));
}

// Inside seg_sum(body, k, lo, hi) a subexpression with k free has a value
// per term: it is not named, though written twice; the whole sum (k bound)
// may be.
TEST(FormulaText, SumIndexIsNotNamedOutsideItsSum) {
  ex Y = 0;
  for (const char *C : {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"})
    Y += sym(C) * K;
  ex S = seg_sum(min(Y, N) + max(Y, N), K, 0, N - 1).hold();
  FormulaText One = toFormulaText(S);
  EXPECT_TRUE(One.Defs.empty()) << One.Defs[0].Expr;
  EXPECT_EQ(One.Formula, toString(S));
  FormulaText T = toFormulaText(S * sym("m") + S * sym("q"));
  ASSERT_EQ(T.Defs.size(), 1u);
  EXPECT_EQ(T.Defs[0].Expr, toString(S));
  EXPECT_EQ(T.Formula, "_s1*m + _s1*q");
}

// A parameter named like a definition: the names take another prefix.
TEST(FormulaText, NamesDoNotClashWithSymbols) {
  ex X = longSum();
  FormulaText T = toFormulaText(sym("_s1") * X + N * X);
  ASSERT_EQ(T.Defs.size(), 1u);
  EXPECT_EQ(T.Defs[0].Name, "_s_1");
  EXPECT_EQ(T.Formula, "_s1*_s_1 + _s_1*n");
}

// Names starting with '_' parse (GiNaC's own parser reads none).
TEST(ParseExpr, LeadingUnderscore) {
  EXPECT_EQ(eval("_s1*2 + _x - U1", {{"_s1", 3}, {"_x", 1}, {"U1", 4}}), 3);
  EXPECT_TRUE(parseExpr("_n").is_equal(sym("_n")));
}

// The text table's cut form: at a term boundary, with the definitions'
// count; a short formula with definitions says so.
TEST(FormulaText, CutForText) {
  FormulaText T{"a + b + c", {}};
  EXPECT_EQ(cutFormula(T, 100, "in --json"), "a + b + c");
  EXPECT_EQ(cutFormula(T, 6, "in --json"),
            "a + b + \u2026 (9 characters; the whole closed form is in --json)");
  T.Defs = {{"_s1", "x + y"}, {"_s2", "_s1^2"}};
  EXPECT_EQ(cutFormula(T, 100, "in --json"), "a + b + c (2 definitions, _s1 .. _s2, in --json)");
  EXPECT_EQ(cutFormula(T, 4, "in --json"),
            "a + \u2026 (9 characters and 2 definitions, _s1 .. _s2; the whole closed form "
            "is in --json)");
}

// A DAG whose tree has 2^40 leaves (each level uses the one below twice)
// prints in a few lines and evaluates: both work once per shared object.
TEST(FormulaText, DeepSharingPrintsAndEvaluatesOncePerObject) {
  ex X = sym("alpha") + sym("beta");
  for (int I = 0; I < 40; ++I)
    X = X * N + X * sym("m");
  std::map<std::string, double> V = {{"alpha", 1}, {"beta", 2}, {"n", 0.5}, {"m", 0.75}};
  EXPECT_NEAR(evaluate(X, V), 3 * std::pow(1.25, 40), 1e-9 * 3 * std::pow(1.25, 40));
  FormulaText T = toFormulaText(X, 17);
  EXPECT_GE(T.Defs.size(), 10u);
  EXPECT_LT(T.Formula.size() + T.Defs.size() * 200, 20000u);
  EXPECT_NEAR(evalText(T, V), evaluate(X, V), 1e-9 * evaluate(X, V));
}

// The bound of expand()'s terms: sums add, products multiply, powers of sums
// count monomials; expandWithin leaves a larger form factored.
TEST(Expr, ExpandWithinBudget) {
  using namespace GiNaC;
  ex A = sym("a"), B = sym("b"), C = sym("c");
  EXPECT_EQ(expandedTermsBound((A + B) * (A + C), 100), 4u);
  EXPECT_EQ(expandedTermsBound(pow(A + B + C, 2), 100), 6u);
  ex P = 1;
  for (int I = 0; I < 20; ++I)
    P *= 1 - sym("p" + std::to_string(I)); // 2^20 terms expanded
  EXPECT_EQ(expandedTermsBound(P, 1000), 1001u);
  bool Expanded = true;
  ex F = expandWithin(P, 1000, &Expanded);
  EXPECT_FALSE(Expanded);
  EXPECT_TRUE(F.is_equal(P));
  EXPECT_TRUE(expandWithin((A + B) * C, 1000, &Expanded).is_equal(A * C + B * C));
  EXPECT_TRUE(Expanded);
  std::map<std::string, double> V;
  for (int I = 0; I < 20; ++I)
    V["p" + std::to_string(I)] = 0.5;
  EXPECT_DOUBLE_EQ(evaluate(F, V), std::pow(0.5, 20));
}

// dropTermsWith removes the terms of every sum that have the names.
TEST(Expr, DropTermsWith) {
  using namespace GiNaC;
  ex X = sym("x"), Y = sym("y");
  ex E = 2 * Y + numeric(1e-22) * X + max(Y, 3 + numeric(1e-22) * X * Y);
  ex D = dropTermsWith(E, {"x"});
  EXPECT_EQ(freeSymbols(D), std::set<std::string>{"y"});
  EXPECT_DOUBLE_EQ(evaluate(D, {{"y", 4}}), 12);
  EXPECT_TRUE(dropTermsWith(E, {}).is_equal(E));
}

// An indicator (Pov_...) with a probability: the mean over its 0/1 values, not
// the form at the probability. A loop run (1 - x) times with a trip of
// n*(1 - x) (the vector loop) and one run x times with a trip of n*x (the
// scalar loop): n at either value, n/2 + n/2 = n in the mean, not the n/2 that
// x = 1/2 substituted gives. Other names keep their values; at most 10 mixed.
TEST(Expr, IndicatorsAreMixedOverTheirTwoValues) {
  ex E = parseExpr("(1 - Pov_f_3_5)*(1 - Pov_f_3_5)*n + Pov_f_3_5*Pov_f_3_5*n");
  EXPECT_DOUBLE_EQ(evaluate(E, {{"n", 100}, {"Pov_f_3_5", 0}}), 100);
  EXPECT_DOUBLE_EQ(evaluate(E, {{"n", 100}, {"Pov_f_3_5", 0.5}}), 100);
  EXPECT_DOUBLE_EQ(evaluate(E, {{"n", 100}, {"Pov_f_3_5", 0.25}}), 100);
  // A probability that is not an indicator's is substituted as it is.
  ex P = parseExpr("p*p*n");
  EXPECT_DOUBLE_EQ(evaluate(P, {{"n", 100}, {"p", 0.5}}), 25);
  // Two indicators: the four corners weighted by their probabilities.
  ex T = parseExpr("Pov_a_1_1*Pov_b_2_1");
  EXPECT_DOUBLE_EQ(evaluate(T, {{"Pov_a_1_1", 0.5}, {"Pov_b_2_1", 0.25}}), 0.125);
  EXPECT_TRUE(isIndicator("Pov_a_1_1"));
  EXPECT_FALSE(isIndicator("Pir_a_1_1"));
}

// A callee's parameter named as in its caller's formulas (the IR level of
// inlined code): "kernel.n" is one symbol, the one Formula binds.
TEST(Expr, ParsesCalleeParameterNames) {
  ex E = parseExpr("(-2 + kernel.n)*kernel.t + max(kernel.n, 4)");
  EXPECT_TRUE(E.has(sym("kernel.n")));
  EXPECT_TRUE(E.has(sym("kernel.t")));
  EXPECT_EQ(E.subs(lst{sym("kernel.n") == 10, sym("kernel.t") == 3}), ex(34));
}

// A unary minus after a binary operator negates its operand only (GiNaC's
// parser alone reads "-13 - -20 + 1" as -13 - (-20 + 1)).
TEST(ParseExpr, UnaryMinusAfterAnOperator) {
  EXPECT_EQ(eval("-13 - -20 + 1"), 8);
  EXPECT_EQ(eval("2 * -3 + 1"), -5);
  EXPECT_EQ(eval("5 - -(2 - 1) * 3"), 8);
  EXPECT_EQ(eval("n - -m*2 + 1", {{"n", 10}, {"m", 3}}), 17);
  EXPECT_EQ(eval("2^-1 + 1"), 1.5);
  EXPECT_EQ(eval("- -3 + 1"), 4);
  EXPECT_EQ(eval("max(-2, 4 - -1) - 1"), 4);
  EXPECT_EQ(eval("1e-05*2 - -1"), 1.00002);
}
