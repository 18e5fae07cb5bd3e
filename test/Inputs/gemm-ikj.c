/* C += A B in i-k-j order: a row of B and of C per k, all of B per i. */
void gemm_ikj(int ni, int nj, int nk, double *c, const double *a, const double *b) {
  for (int i = 0; i < ni; i++)
    for (int k = 0; k < nk; k++) {
      double t = a[i * nk + k];
      for (int j = 0; j < nj; j++)
        c[i * nj + j] += t * b[k * nj + j];
    }
}
/* An indirect reference to an object of a size the code does not give: an
   estimated object (analysed by ECM). */
void gather(int n, double *y, const double *x, const int *idx) {
  for (int i = 0; i < n; i++)
    y[i] += x[idx[i]];
}
/* A non-affine address (i * i): no reference streams (not analysable by ECM). */
void squares(int n, double *y) {
  for (int i = 0; i < n; i++)
    y[i * i] += 1.0;
}
