// Nests whose references the memory term used to leave out (passes/IRMemStream.cpp
// memoryOf): no references at all, calls to math library functions (errno
// only), masked vector stores, and a row counter that ScalarEvolution leaves
// as an opaque phi once the vectoriser versions the row.
// RUN: %clang -target x86_64-linux-gnu -O2 -march=znver3 -fplugin=%segtime_plugin \
// RUN:   -fplugin-arg-segtime-quiet -fplugin-arg-segtime-targets=compile \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function ramp -p n=1000 --breakdown 2>&1 | FileCheck --check-prefix=RAMP %s


// No load or store: footprint 0, and the ECM model counts no lines.
// CHECK: function ramp
// CHECK: ir-loop
// CHECK-NEXT: memory: footprint=0 B traffic=0 B
// RAMP: loop nest ir{{[0-9]+}} at line {{[0-9]+}}: {{.*}} bound: core (100 %)
// RAMP: lines: L1 0 L2 0 L3 0 memory 0
double ramp(int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a * i * i;
  return s;
}

// sin writes only errno: y is still a stream.
// CHECK: function waves
// CHECK: stream y: store 8 B, stride B x trip: 64 x
double sin(double);
void waves(int n, double *y) {
  for (int i = 0; i < n; i++)
    y[i] = sin(0.1 * i);
}

// The if becomes a masked store of d: a stream like an unmasked one.
// CHECK: function relax
// CHECK: [vectorised]
// CHECK: stream d: load store 32 B, stride B x trip: 128 x
void relax(int n, double *d, const double *r) {
  for (int j = 0; j < n; j++)
    if (r[j] < d[j])
      d[j] = r[j];
}

// The row loop's counter is a phi of the versions' increments: the rows
// still move by 8 nx B per row (before: stride 0, one row). ScalarEvolution
// cannot count the row loop; its source loop's count ny - 2 is taken (the
// row loop is not itself vectorised: its inner loop is).
// CHECK: function lap
// CHECK: ir-loop trip=ny - 2 index=k_lap_ir{{[0-9]+}} freq=
// CHECK: stream u: load 32 B, stride B x trip: 64 x {{.*}} 8*nx x ny - 2, offsets
void lap(int ny, int nx, const double *u, double *v) {
  for (int i = 1; i < ny - 1; i++)
    for (int j = 1; j < nx - 1; j++)
      v[i * nx + j] = -0.8 * u[i * nx + j] + 0.2 * (u[(i - 1) * nx + j] + u[(i + 1) * nx + j] +
                                                    u[i * nx + j - 1] + u[i * nx + j + 1]);
}

// The bins are cleared by a memset of 4 nbins B before the counting loop:
// the increments hist[data[i]]++ are one stream of that object (an
// estimate: its lines touched once), and the nest keeps the ECM model.
// CHECK: function bins
// CHECK: stream hist: load store 4 B, stride B x trip: 64 x 1/16*nbins 0 x
// RUN: %segtime predict %t.json --machine %inputs/machine-strided.yaml --level icc \
// RUN:   --function bins -p n=100000 -p nbins=256 --breakdown 2>&1 | FileCheck --check-prefix=BINS %s
// BINS: note: memory term, loop nest at line {{[0-9]+}}: estimated: hist: indirect load, its object's 4*nbins B taken as a stream
// BINS: loop nest ir{{[0-9]+}} at line {{[0-9]+}}: {{.*}}
// BINS-NOT: not analysed
void bins(int n, int nbins, const int *data, int *hist) {
  for (int b = 0; b < nbins; b++)
    hist[b] = 0;
  for (int i = 0; i < n; i++)
    hist[data[i]]++;
}
