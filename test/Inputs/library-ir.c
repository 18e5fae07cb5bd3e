// Library calls left in the optimised code (-O2): memcpy of 8n bytes stays
// a call, one of 16 bytes is expanded inline; sin(x[i]) is a call per
// iteration; sqrt becomes the square-root instruction; malloc and free of a
// block nothing uses are removed by the optimiser.
typedef unsigned long size_t;
void *memcpy(void *, const void *, size_t);
void *malloc(size_t);
void free(void *);
double sin(double);
double sqrt(double);

void copy(double *d, const double *s, int n) { memcpy(d, s, 8L * n); }

void copy16(char *d, const char *s) { memcpy(d, s, 16); }

double sines(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]);
  return s;
}

double root(double x) { return sqrt(x); }

int unused(int n) {
  void *p = malloc(n);
  free(p);
  return n;
}
