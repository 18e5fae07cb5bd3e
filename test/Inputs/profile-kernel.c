// Kernel for test/tools/predict-profile.test (line numbers are checked there).
static int a[64];
static volatile int sink;

void scan(void) {
  int i = 0;
  while (a[i] >= 0) {
    if (a[i] % 2)
      sink = sink + 1;
    if (a[i] > 10 && a[i] < 50)
      sink = sink + 2;
    i++;
  }
}

int main(void) {
  for (int i = 0; i < 64; i++)
    a[i] = i < 40 ? i : -1;
  for (int r = 0; r < 10; r++)
    scan();
  return 0;
}
