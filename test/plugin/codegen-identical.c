// The plugin never changes the generated code: the object files built with
// and without it are byte-identical, at -O0 and at -O2.
// RUN: %clang -target x86_64-linux-gnu -O0 -c %s -o %t0-1.o
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t0.json -c %s -o %t0-2.o
// RUN: cmp %t0-1.o %t0-2.o
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t2-1.o
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t2.json -c %s -o %t2-2.o
// RUN: cmp %t2-1.o %t2-2.o
// All levels, ICC for this and another target: still the same object code.
// RUN: %clang -target x86_64-linux-gnu -O2 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile,znver4,leon3 -fplugin-arg-segtime-out=%t3.json -c %s -o %t2-3.o
// RUN: cmp %t2-1.o %t2-3.o
// RUN: %segtime show %t2.json | FileCheck %s
// C99 gives loops no llvm.loop node of their own; the line tables the plugin
// turns on give each one its locations, and SimplifyCFG then keeps the empty
// latch of the outer while loops in packet_start (other block order and
// registers): the plugin removes those nodes before the optimiser runs.
// RUN: %clang -target x86_64-linux-gnu -std=c99 -O2 -c %s -o %t4-1.o
// RUN: %clang -target x86_64-linux-gnu -std=c99 -O2 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-out=%t4.json -c %s -o %t4-2.o
// RUN: cmp %t4-1.o %t4-2.o
// RUN: %clang -target x86_64-linux-gnu -std=c99 -Os -c %s -o %t5-1.o
// RUN: %clang -target x86_64-linux-gnu -std=c99 -Os -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t5.json -c %s -o %t5-2.o
// RUN: cmp %t5-1.o %t5-2.o
// The IR level still finds the loops' source lines (the do loops' trip
// parameters are named after their `do`, as at the source level).
// RUN: %segtime show %t4.json | FileCheck %s --check-prefix=LOOPS

double sqrt(double);
void ext(int);
static int calls;

static double norm(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

double kernel(int n, double *x, int mode) {
  double r = 0;
  calls++;
  switch (mode) {
  case 0:
    r = norm(n, x);
    break;
  default:
    for (int i = n - 1; i >= 0 && x[i] > 0; i--)
      r += x[i] / 2.0;
  }
  if (r > 1e3)
    ext(mode);
  return r < 0 ? -r : r;
}

long fail(const char *why);

/* Start of the n-th packet after (n > 0), before (n < 0) or around (n == 0)
   byte pos of a stream whose follow-on bytes are tagged 10xxxxxx. */
long packet_start(const unsigned char *buf, long len, long pos, long n) {
  if (pos < 0 || pos > len)
    return fail("position outside the stream");
  if (n == 0) {
    while (pos > 0 && (buf[pos] & 0xC0) == 0x80)
      pos--;
    return pos;
  }
  if ((buf[pos] & 0xC0) == 0x80)
    return fail("position inside a packet");
  if (n < 0) {
    while (n < 0 && pos > 0) {
      do {
        pos--;
      } while (pos > 0 && (buf[pos] & 0xC0) == 0x80);
      n++;
    }
  } else {
    n--;
    while (n > 0 && pos < len) {
      do {
        pos++;
      } while ((buf[pos] & 0xC0) == 0x80);
      n--;
    }
  }
  return n == 0 ? pos : -1;
}

// CHECK: function norm
// CHECK: function kernel
// CHECK: Call {{.*}} norm

// LOOPS: function packet_start
// LOOPS-NOT: iterations of the optimised loop
// LOOPS: Loop @[[#]] do trip=N_packet_start_[[#]]
