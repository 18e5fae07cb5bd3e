// Kernel for test/tools/predict-profile-ir.test (line numbers are checked there).
static double x[100], y[100];
static volatile double sink;

__attribute__((noinline)) void clip(int n, const double *a, double *b) {
  for (int i = 0; i < n; i++)
    if (a[i] > 0.5)
      b[i] = a[i];
}

int main(void) {
  for (int i = 0; i < 100; i++)
    x[i] = i % 4 == 0 ? 1.0 : 0.0;
  clip(100, x, y);
  sink = y[4];
  return 0;
}
