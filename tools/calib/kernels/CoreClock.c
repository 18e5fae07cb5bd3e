/*===- CoreClock.c - core clock from a chain of dependent integer adds (whole program) -===*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
  int reps = atoi(argv[1]); long n = atol(argv[2]); long x = 1, y = 3;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    for (long i = 0; i < n; i++) {
#define A x += y; __asm__ volatile("" : "+r"(x));
      A A A A A A A A A A A A A A A A
    }
    printf("%.6f\n", 16.0 * n / (now() - t0) / 1e9);
  }
  if (x == 0)
    puts(""); /* keeps x alive */
  return 0;
}
