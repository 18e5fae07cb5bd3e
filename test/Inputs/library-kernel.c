// n allocations of 8*n bytes, each freed; a call to snprintf (no library
// cost in machine-library.yaml).
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
int snprintf(char *, size_t, const char *, ...);

double kernel(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *p = malloc(8 * n);
    s += p != 0;
    free(p);
  }
  return s;
}

int report(char *buf, double x) { return snprintf(buf, 32, "%g", x); }
