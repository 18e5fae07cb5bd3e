/*===- BenchPoc.c - benchmark program: the POC flop-rate kernels (after the HLLC benchmarks) -===*/

/* POC kernels (PARKBENCH-93 RINF1 style), in cache: 4 arrays of 256 doubles. */
void poc_dot(long R) {
  for (long r = 0; r < R; r++) {
    double s = 0.0;
    for (int i = 0; i < NV; i++)
      s += pa[i] * pb[i];
    BF(s);
    CLOBBER();
  }
}

void poc_daxpy(long R) {
  double alpha = 1.0e-9;
  BF(alpha);
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++)
      pc[i] = pc[i] + alpha * pa[i];
    CLOBBER();
  }
}

void poc_horner(long R) {
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++) {
      double x = pa[i], p = pcoef[0];
      for (int k = 1; k < 16; k++)
        p = p * x + pcoef[k];
      pb[i] = p;
    }
    CLOBBER();
  }
}

void poc_rational(long R) {
  for (long r = 0; r < R; r++) {
    for (int i = 0; i < NV; i++)
      pb[i] = (1.5 * pa[i] + 0.5) / (0.25 * pa[i] + 2.0);
    CLOBBER();
  }
}
