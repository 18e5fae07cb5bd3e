// A bisection's table (passes/IRMemBisect.h; docs/models.md "Bisections"):
// the load of a lower-bound search, table[lo + (hi - lo) / 2] with lo and
// hi steered by the comparison, is a stream of its own: the pseudo-loop of
// the table's elements (hi - lo as they enter the search loop: n), then the
// search loop (its steps) and the key loop (each iteration a search). Its
// footprint and traffic: 4 B per step, at most the table. A walk down an
// implicit tree (i = 2 i + 1 + (t[i] < key)) halves no interval: no
// bisection.
// RUN: %clang -target x86_64-linux-gnu -O2 \
// RUN:   -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-targets=compile -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json --ir | FileCheck %s

// CHECK-LABEL: function lower_bounds
// CHECK: memory: footprint=4*q + 4*min(n, N_lower_bounds_{{[0-9]+}}*q) B
// CHECK: stream table: load 4 B, stride B x trip: 4 x n 0 x N_lower_bounds_{{[0-9]+}} 0 x q
// CHECK: memory note: estimated: table: bisection of (n) elements: the lines of its levels
long lower_bounds(int n, int q, const int *table, const int *keys) {
  long found = 0;
  for (int t = 0; t < q; t++) {
    int key = keys[t], lo = 0, hi = n;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (table[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    found += lo;
  }
  return found;
}

// CHECK-LABEL: function tree_walks
// CHECK-NOT: bisection
// CHECK: stream tree: load 4 B, stride B x trip: 0 x N_tree_walks_{{[0-9]+}} 0 x q
// CHECK-NOT: bisection
long tree_walks(int n, int q, const int *tree, const int *keys) {
  long found = 0;
  for (int t = 0; t < q; t++) {
    int key = keys[t], i = 0;
    while (i < n)
      i = 2 * i + 1 + (tree[i] < key);
    found += i;
  }
  return found;
}
