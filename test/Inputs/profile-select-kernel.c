// Kernel for test/tools/predict-profile-select.test (line numbers are checked there).
static float x[100];
static int count[10];

__attribute__((noinline)) void clamp_hist(int n, int nbins, const float *v, int *c) {
  float scale = (float)nbins;
  for (int i = 0; i < n; i++) {
    int b = (int)(v[i] * scale);
    c[b < nbins ? b : nbins - 1]++;
  }
}

int main(void) {
  for (int i = 0; i < 100; i++)
    x[i] = i % 10 == 0 ? 1.5f : 0.25f;
  clamp_hist(100, 10, x, count);
  return count[9] == 10 ? 0 : 1;
}
