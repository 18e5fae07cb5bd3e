// Calls to C library functions (core/Library.h): Call nodes with the size in
// bytes from the arguments (malloc's n, calloc's count*size, memcmp's n, a
// string literal's length); a size the arguments do not give is a parameter
// B_<fn>_<line>; other external functions stay Unknown.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o 2> %t.err
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime show %t.json --json | FileCheck %s --check-prefix=JSON

typedef unsigned long size_t;
void *malloc(size_t);
void *calloc(size_t, size_t);
void free(void *);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
int printf(const char *, ...);
int clock_gettime(int, void *);
void external(int);

double work(int n, const char *s) {
  double *a = malloc(n * sizeof(double));
  double *b = calloc(n, 8);
  int same = memcmp(a, b, 8 * n);
  size_t k = strlen("hello") + strlen(s);
  printf("%d\n", same);
  long ts[2];
  clock_gettime(1, ts);
  external(n);
  free(a);
  free(b);
  return (double)k;
}

// CHECK: function work
// CHECK: Call @21 malloc bytes=8*n
// CHECK: Call @22 calloc bytes=8*n
// CHECK: Call @23 memcmp bytes=8*n
// CHECK: Call @24 strlen bytes=5
// CHECK: Call @24 strlen bytes=B_work_24
// CHECK: Call @25 printf
// CHECK-NOT: bytes
// CHECK: Call @27 clock_gettime
// CHECK: Unknown @28 reason: call to external function 'external'
// CHECK: Call @29 free
// CHECK: Call @30 free

// JSON: "kind": "library",
// JSON-NEXT: "meaning": "bytes of strlen (the string's length, B)",
// JSON-NEXT: "name": "B_work_24",
// JSON-NEXT: "source": "none",
// JSON: "bytes": "8*n",
// JSON-NEXT: "callee": "malloc",
