/* A column walk (b[k][j], k inner: 8 n B apart) and a row walk (a[i][k]). */
double colsum(int n, const double *b, double *out) {
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int k = 0; k < n; k++)
      s += b[k * n + j];
    out[j] = s;
  }
  return out[0];
}
double rowsum(int n, const double *a, double *out) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < n; k++)
      s += a[i * n + k];
    out[i] = s;
  }
  return out[0];
}
