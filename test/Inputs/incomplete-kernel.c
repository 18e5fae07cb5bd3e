// For test/tools/predict-incomplete.test: g's IR-level blocks take the exact
// condition cmp_eq(n, 0), a name the source SEG does not declare; walk's
// loop runs a data-dependent number of times (N_walk_<line>); sum is
// predicted from n alone.
void a(void);
void b(void);
void g(int n) {
  if (n == 0)
    a();
  else
    b();
}
int walk(const int *next, int i) {
  int s = 0;
  while (i >= 0) {
    s += i;
    i = next[i];
  }
  return s;
}
double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
