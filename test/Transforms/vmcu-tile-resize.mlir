// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring --split-input-file | FileCheck %s --check-prefix=PLACE

// 2x up: per input row (d1) its two output rows (d2), per input column
// (d3) one load and two stores (d5); the input row is freed after both
// output rows, so the output grows over it.
// CHECK-DAG: #[[LOAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5 + (d0 * 2 + d1) * 3 + d3 + d4)>
// CHECK-DAG: #[[STORE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6 + (d0 * 4 + d1 * 2 + d2) * 6 + d3 * 2 + d5 + d4)>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "resize_nearest_0"
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 1 {
// CHECK-NEXT: affine.apply #[[LOAD]](%[[N]], %[[I]], %[[R]], %[[J]], %[[C]],
// CHECK-NEXT: vmcu.ring_load
// CHECK: affine.for %[[Q:.*]] = 0 to 2 {
// CHECK: affine.apply #[[STORE]](%[[N]], %[[I]], %[[R]], %[[J]], %[[C]], %[[Q]],
// CHECK-NEXT: vmcu.ring_store
// CHECK: affine.for %{{.*}} = #{{.*}}(%[[N]], %[[I]]) to min #{{.*}}(%[[N]], %[[I]]) {
// CHECK: vmcu.free
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "resize_nearest_0" {{.*}}footprint = 27 : i64
func.func @main(%x: tensor<1x2x3x8xi8>) -> tensor<1x4x6x8xi8> {
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1>, cols = array<i64: 0, 0, 1, 1, 2, 2>} : (tensor<1x2x3x8xi8>) -> tensor<1x4x6x8xi8>
  return %y : tensor<1x4x6x8xi8>
}

// -----

// 2x down with half-pixel centres (rows and columns 1, 3, 5): row 0 is
// freed first, then after each sample the rows up to the next one.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "resize_nearest_0"
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[N]]) to min #{{.*}}(%[[N]]) {
// CHECK: vmcu.free
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK: vmcu.ring_load
// CHECK: vmcu.ring_store
// CHECK: affine.for %{{.*}} = #{{.*}}(%[[N]], %[[I]]) to min #{{.*}}(%[[N]], %[[I]]) {
// CHECK: vmcu.free
// CHECK-NOT: vmcu.free
// CHECK: return
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "resize_nearest_0"
func.func @main(%x: tensor<1x6x4x8xi8>) -> tensor<1x3x2x8xi8> {
  %y = vmcu.resize_nearest %x {rows = array<i64: 1, 3, 5>, cols = array<i64: 1, 3>} : (tensor<1x6x4x8xi8>) -> tensor<1x3x2x8xi8>
  return %y : tensor<1x3x2x8xi8>
}

// -----

// 3 -> 5 rows (TFLite's floor(o * 0.6): 0, 0, 1, 1, 2): two whole periods
// of two output rows reading one input row, then a partial period of one
// (the last output row, input row 2), unrolled after the period loop; the
// input rows are freed one per period, the last at the end.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "resize_nearest_0"
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK: vmcu.ring_store
// CHECK: vmcu.free
// CHECK: }
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK: vmcu.ring_load
// CHECK: vmcu.ring_store
// CHECK: vmcu.free
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "resize_nearest_0"
func.func @main(%x: tensor<1x3x1x8xi8>) -> tensor<1x5x1x8xi8> {
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1, 2>, cols = array<i64: 0>} : (tensor<1x3x1x8xi8>) -> tensor<1x5x1x8xi8>
  return %y : tensor<1x5x1x8xi8>
}
