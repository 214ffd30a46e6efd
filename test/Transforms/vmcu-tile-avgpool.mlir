// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s

// A 3x3 average pool over 6 channels, one 6-byte segment: each tap's
// staged segment adds its whole word of 4 lanes into two words of int16
// pairs (9 taps stay within int16, so nothing widens to int32) and its
// last 2 lanes into int32 sums. The averages take the word's 4 lanes in a
// loop, then the 2 others; the input zero point (5) comes off the sums
// once, 5 per tap.
// CHECK-LABEL: vmcu.kernel "avg_pool2d_0"
// CHECK:      %[[PAIRS:.*]] = memref.alloca() : memref<2xi32>
// CHECK-NEXT: %[[TAIL:.*]] = memref.alloca() : memref<2xi32>
// CHECK-NEXT: memref.alloca() : memref<1xindex>
// CHECK-NEXT: %[[X:.*]] = memref.alloca() : memref<6xi8>
// CHECK:      vmcu.ring_load
// CHECK:      affine.for %{{.*}} = 0 to 1 {
// CHECK:        vector.load %[[X]]{{.*}} : memref<6xi8>, vector<4xi8>
// CHECK:        vmcu.add_pairs
// CHECK:      }
// CHECK:      memref.load %[[X]][%c4
// CHECK:      memref.store %{{.*}}, %[[TAIL]][%c0
// CHECK:      memref.load %[[X]][%c5
// CHECK:      memref.store %{{.*}}, %[[TAIL]][%c1
// CHECK-NOT:  scf.if
// CHECK:      affine.for %{{.*}} = 0 to 1 {
// CHECK-COUNT-4: arith.muli %{{.*}}, %c5_i32
// CHECK:      }
// CHECK-COUNT-2: arith.muli %{{.*}}, %c5_i32
// CHECK:      vmcu.ring_store
func.func @main(%x: tensor<1x4x4x6xi8>) -> tensor<1x2x2x6xi8> {
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, input_zp = 5 : i32, output_zp = -3 : i32, min = -128 : i32, max = 127 : i32, segment_bytes = 6 : i64} : (tensor<1x4x4x6xi8>) -> tensor<1x2x2x6xi8>
  return %y : tensor<1x2x2x6xi8>
}

// -----

// A global pool of 20 x 25 = 500 taps: int16 pairs hold at most 256, so
// they widen into an int32 sum per lane after every 256 / 25 = 10 window
// rows (the row index r, where (r + 1) mod 10 is 0), and the averages add
// the pairs still held to those sums.
// CHECK: #[[PHASE:.*]] = affine_map<(d0) -> ((d0 + 1) mod 10)>
// CHECK-LABEL: vmcu.kernel "avg_pool2d_0"
// CHECK-DAG:  memref.alloca() : memref<2xi32>
// CHECK-DAG:  %[[WIDE:.*]] = memref.alloca() : memref<4xi32>
// The window lies inside the input: constant tap bounds.
// CHECK:      affine.for %[[R:.*]] = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) {
// CHECK:        affine.for %{{.*}} = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) {
// CHECK:          vmcu.add_pairs
// CHECK:        }
// CHECK:        %[[P:.*]] = affine.apply #[[PHASE]](%[[R]])
// CHECK:        %[[DUE:.*]] = arith.cmpi eq, %[[P]], %c0
// CHECK:        scf.if %[[DUE]] {
// CHECK:          memref.load %[[WIDE]]
// CHECK:          memref.store %{{.*}}, %[[WIDE]]
// CHECK:      arith.addi %{{.*}} : i32
// CHECK:      vmcu.ring_store
func.func @main(%x: tensor<1x20x25x4xi8>) -> tensor<1x1x1x4xi8> {
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 20, 25>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, round_half_away, segment_bytes = 4 : i64} : (tensor<1x20x25x4xi8>) -> tensor<1x1x1x4xi8>
  return %y : tensor<1x1x1x4xi8>
}

// -----

// A 1 x 300 window: one row already passes 256 taps, so the pairs widen
// into the int32 sums inside the tap loop, after every tap (before the
// tap count is read for the averages), and no row-end check remains.
// CHECK-LABEL: vmcu.kernel "avg_pool2d_0"
// CHECK-DAG:  memref.alloca() : memref<2xi32>
// CHECK-DAG:  %[[WIDE:.*]] = memref.alloca() : memref<4xi32>
// CHECK:      affine.for %{{.*}} = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) {
// CHECK:        vmcu.add_pairs
// CHECK:        memref.store %{{.*}}, %[[WIDE]]
// CHECK:      memref.load %{{.*}} : memref<1xindex>
// CHECK-NOT:  scf.if
// CHECK:      vmcu.ring_store
func.func @main(%x: tensor<1x1x300x4xi8>) -> tensor<1x1x1x4xi8> {
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 1, 300>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, round_half_away, segment_bytes = 4 : i64} : (tensor<1x1x300x4xi8>) -> tensor<1x1x1x4xi8>
  return %y : tensor<1x1x1x4xi8>
}
