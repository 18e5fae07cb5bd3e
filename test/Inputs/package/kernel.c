/* A dot product: one loop of n iterations, 2n flop. */
double dot(int n, const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4};
  return dot(4, x, x) == 30 ? 0 : 1;
}
