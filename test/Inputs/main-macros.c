/* A program shaped like a benchmark suite: static kernels called from main
 * with sizes fixed by macros (inlined at -O2), and a size read from the
 * command line. */
#include <stdio.h>
#include <stdlib.h>
#define N 200
#define T 10
static double A[N][N], B[N][N];
static void init(int n, double a[N][N]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] = i * 0.5 + j;
}
static void kernel(int t, int n, double a[N][N], double b[N][N]) {
  for (int s = 0; s < t; s++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i][j] = 0.2 * (a[i][j] + a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);
}
int main(int argc, char **argv) {
  init(N, A);
  kernel(T, N, A, B);
  int m = argc > 1 ? atoi(argv[1]) : 5;
  for (int k = 0; k < m; k++)
    kernel(2, N, A, B);
  printf("%f\n", B[5][5]);
  return 0;
}
