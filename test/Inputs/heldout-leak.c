/* A training kernel under another name and other identifiers: the held-out
 * separation check (scripts/heldout.py --check-separation) must find it. */
#define N 64
double p[N][N], q[N][N];
#define CLOBBER() __asm__ volatile("" ::: "memory")

void flip(long reps) {
  for (long r = 0; r < reps; r++) {
    for (long i = 0; i < N; i++)
      for (long j = 0; j < N; j++)
        q[j][i] = p[i][j];
    CLOBBER();
  }
}
