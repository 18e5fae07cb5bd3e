// memcpy/memset: a loop node over the bytes moved (the size argument), one
// mem.copy.byte per byte.
// RUN: %clang -target x86_64-linux-gnu -O0 -fplugin=%segtime_plugin -fplugin-arg-segtime-quiet \
// RUN:   -fplugin-arg-segtime-out=%t.json -c %s -o %t.o
// RUN: %segtime show %t.json | FileCheck %s
// RUN: %segtime predict %t.json --machine t800 --function copy -p nbytes=100 --level hllc --json \
// RUN:   | FileCheck %s --check-prefix=JSON

typedef unsigned long size_t;
void *memcpy(void *, const void *, size_t);
void *memset(void *, int, size_t);

void copy(char *dst, const char *src, size_t nbytes) {
  memcpy(dst, src, nbytes);
}

void clear(char *dst, size_t nbytes) {
  memset(dst, 0, nbytes + 16);
}

// Hand count (copy): v1 reads dst, src, nbytes; v2 loop over nbytes bytes.
// CHECK: function copy
// CHECK-NEXT: T_copy(dst, src, nbytes) = t(v1) + nbytes·t(v3)
// CHECK-NOT: param
// CHECK:      v1 Stage
// CHECK-NEXT:   HLLC: mem.local.read=3{{$}}
// CHECK-NEXT: v2 Loop @14 memcpy trip=nbytes
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: mem.copy.byte=1{{$}}
// (clear): reads dst, nbytes, one i64 add (size_t); the constant 0 converted
// to int is folded.
// CHECK: function clear
// CHECK-NEXT: T_clear(dst, nbytes) = t(v1) + (nbytes + 16)·t(v3)
// CHECK-NEXT: v1 Stage
// CHECK-NEXT:   HLLC: i64.add=1 mem.local.read=2{{$}}
// CHECK-NEXT: v2 Loop @18 memset trip=nbytes + 16
// CHECK-NEXT:   v3 Stage
// CHECK-NEXT:     HLLC: mem.copy.byte=1{{$}}

// JSON: "mem.copy.byte": 100.0,
// JSON-NEXT: "mem.local.read": 3.0
