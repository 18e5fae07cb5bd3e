// A kernel inlined into main (test/tools/predict-profile-inlined.test): its
// data-dependent branch is measured by the instrumented build, where it is
// still a function of its own, and applied to its call site in main.
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) void clip(int n, double *a)
{
    for (int i = 0; i < n; i++)
        if (a[i] > 0.5)
            a[i] = 0.5;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double *a = malloc((size_t)n * sizeof *a);
    double sum = 0;
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < n; i++)
            a[i] = i % 4 == 0 ? 1.0 : 0.25;
        clip(n, a);
        sum += a[r];
    }
    printf("%g\n", sum);
    free(a);
    return 0;
}
