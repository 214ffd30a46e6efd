// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-tile=cores=2 | FileCheck %s --check-prefix=TWO

// An im2col conv over a map of odd width (7) whose pixels carry enough MACs
// (3x3x16 x 64 = 9,216 per pixel, at least 1,000 per output column) pairs
// its pixels across rows (WindowGemm::emitRowPairs): rows two at a time, 7
// blocks of two pixels each, the first row's last pixel with the second
// row's first; the last row (7 is odd) has 3 blocks, then its last pixel
// alone.
// CHECK-DAG: #[[TWICE:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[BLOCKS:.*]] = affine_map<(d0) -> (7, d0 * -14 + 45)>
// CHECK-DAG: #[[SELF:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[FIRST_ROW0:.*]] = affine_map<(d0) -> (d0 + 1, 4)>
// CHECK-DAG: #[[SECOND_ROW0:.*]] = affine_map<(d0) -> (d0, 4)>
// CHECK-DAG: #[[FIRST_ROW1:.*]] = affine_map<(d0) -> (d0 + 1, 3)>
// CHECK-DAG: #[[SECOND_ROW1:.*]] = affine_map<(d0) -> (d0, 3)>
// CHECK-DAG: #[[COLUMN0:.*]] = affine_map<(d0) -> (d0 * 2 - 7)>
// CHECK-DAG: #[[COLUMN1:.*]] = affine_map<(d0) -> (d0 * 2 - 6)>
// Output pixel 2b + i of row pair pp, 64 channels in 4 segments of 16.
// CHECK-DAG: #[[OUT0:.*]] = affine_map<(d0, d1, d2, d3) -> (d3 + (d0 * 14 + d1 * 2) * 4 + d2)>
// CHECK-DAG: #[[OUT1:.*]] = affine_map<(d0, d1, d2, d3) -> (d3 + (d0 * 14 + d1 * 2 + 1) * 4 + d2)>
// CHECK-DAG: #[[LAST:.*]] = affine_map<(d0, d1) -> (d1 + d0 + 192)>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: affine.for %[[PP:.*]] = 0 to 4 {
// CHECK: %[[P0:.*]] = affine.apply #[[TWICE]](%[[PP]])
// CHECK: affine.for %[[B:.*]] = #{{.*}}(%[[PP]]) to min #[[BLOCKS]](%[[PP]]) {
// Slot 0: in the first row for b < 4, else the second row's column 2b - 7.
// CHECK: affine.for %[[B0:.*]] = #[[SELF]](%[[B]]) to min #[[FIRST_ROW0]](%[[B]]) {
// CHECK-NEXT: affine.apply #[[TWICE]](%[[B0]])
// CHECK: vmcu.ring_load
// CHECK: affine.for %[[B1:.*]] = max #[[SECOND_ROW0]](%[[B]]) to #[[NEXT]](%[[B]]) {
// CHECK-NEXT: affine.apply #[[COLUMN0]](%[[B1]])
// CHECK: vmcu.ring_load
// Slot 1: in the first row for b < 3.
// CHECK: affine.for %{{.*}} = #[[SELF]](%[[B]]) to min #[[FIRST_ROW1]](%[[B]]) {
// CHECK: vmcu.ring_load
// CHECK: affine.for %[[B3:.*]] = max #[[SECOND_ROW1]](%[[B]]) to #[[NEXT]](%[[B]]) {
// CHECK-NEXT: affine.apply #[[COLUMN1]](%[[B3]])
// CHECK: vmcu.ring_load
// One copy of the two-pixel tiles, then both outputs at their flat index.
// CHECK: vmcu.dot_block {{.*}}pixels = 2
// CHECK: affine.apply #[[OUT0]](%[[PP]], %[[B]],
// CHECK-NEXT: vmcu.ring_store
// CHECK: affine.apply #[[OUT1]](%[[PP]], %[[B]],
// CHECK-NEXT: vmcu.ring_store
// The last row's last pixel (48 = 6 * 7 + 6), alone, after the loop.
// CHECK: arith.constant 6 : index
// CHECK: vmcu.dot_block {{.*}}pixels = 1
// CHECK: affine.apply #[[LAST]](%{{.*}}, %{{.*}})
// CHECK-NEXT: vmcu.ring_store
// CHECK: return
// On two cores the split shares out whole rows: no pairs across rows.
// TWO-LABEL: vmcu.kernel "conv2d_0"
// TWO: affine.for %{{.*}} = 0 to 7 {
// TWO-NEXT: affine.for %{{.*}} = 0 to 3 {
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x7x7x16xi8>) -> tensor<1x7x7x64xi8> {
  %w = arith.constant dense<1> : tensor<64x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x7x7x16xi8>, tensor<64x3x3x16xi8>, tensor<64xi32>) -> tensor<1x7x7x64xi8>
  return %y : tensor<1x7x7x64xi8>
}

// -----

// With 16 output channels (2,304 MACs a pixel, 329 per column) the guards
// cost more than the one-pixel blocks: a row at a time, each ending in a
// block of one pixel.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: affine.for %{{.*}} = 0 to 7 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK: vmcu.dot_block {{.*}}pixels = 2
// CHECK: vmcu.dot_block {{.*}}pixels = 1
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x7x7x16xi8>) -> tensor<1x7x7x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x7x7x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x7x7x16xi8>
  return %y : tensor<1x7x7x16xi8>
}
