// Input of test/tools/dot.test and show.test: a triangular nest, a branch, a call
// and an external call.
void ext(double);

double tri(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += a[j] * 2.0;
  return s;
}

double caller(int n, const double *a) {
  double r = tri(n, a);
  if (r > 1.0)
    ext(r);
  return r;
}
