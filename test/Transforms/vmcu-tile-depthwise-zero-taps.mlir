// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s

// A dilated depthwise reaches vmcu as a dense kernel with zero taps
// between its own. Its window buffer holds only the taps off which the
// weights are not all 0 (gatheredTaps): here every second row and column
// of a 3 x 3 window, 2 x 2 taps of an 8-byte segment (32 bytes). Tap i of
// output o sits at input position o - 1 + 2i: the rows of taps before
// (pos < 0) or after (pos > 7) the input and then the taps left or right
// of it read the zero point, under loops of at most one trip; those
// inside are ring-loaded under loops of at most one trip too (bounds
// max(0, -pos) to min(1, 8 - pos)). The tables and the depthwise block's
// record hold those 4 taps (32 int8 weights); 2,048 of the dense window's
// 4,608 MACs.
// CHECK-DAG: #[[BEFORE:.*]] = affine_map<(d0, d1) -> (1, -(d0 + d1 * 2 - 1))>
// CHECK-DAG: #[[AFTER:.*]] = affine_map<(d0, d1) -> (1, d0 + d1 * 2 - 8)>
// CHECK-DAG: #[[LO:.*]] = affine_map<(d0, d1) -> (0, -(d0 + d1 * 2 - 1))>
// CHECK-DAG: #[[HI:.*]] = affine_map<(d0, d1) -> (1, -(d0 + d1 * 2 - 1) + 8)>
// CHECK: memref.global "private" constant @depthwise_conv2d_0_weights : memref<32xi8>
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-SAME: executed_macs = 2048
// CHECK-SAME: macs = 4608
// CHECK: %[[WIN:.*]] = memref.alloca() : memref<32xi8>
// CHECK: affine.for %[[FR:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%{{.*}}, %[[FR]]) to min #[[BEFORE]](%{{.*}}, %[[FR]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK: vector.store %{{.*}}, %[[WIN]]
// CHECK: affine.for %{{.*}} = #{{.*}}(%{{.*}}, %[[FR]]) to min #[[AFTER]](%{{.*}}, %[[FR]]) {
// CHECK: vector.store %{{.*}}, %[[WIN]]
// Then the taps before or after the input along the row, in every row.
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %[[FT:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%{{.*}}, %[[FT]]) to min #[[BEFORE]](%{{.*}}, %[[FT]]) {
// CHECK: vector.store %{{.*}}, %[[WIN]]
// CHECK: affine.for %{{.*}} = #{{.*}}(%{{.*}}, %[[FT]]) to min #[[AFTER]](%{{.*}}, %[[FT]]) {
// CHECK: vector.store %{{.*}}, %[[WIN]]
// CHECK: affine.for %{{.*}} = max #[[LO]](%{{.*}}, %[[R:[a-z0-9]+]]) to min #[[HI]](%{{.*}}, %[[R]]) {
// CHECK: affine.for %{{.*}} = max #[[LO]](%{{.*}}, %[[T:[a-z0-9]+]]) to min #[[HI]](%{{.*}}, %[[T]]) {
// CHECK-NOT: vector.store
// CHECK: vmcu.ring_load
// CHECK: vmcu.depthwise_block %[[WIN]]{{.*}}tap_offsets = array<i64: 0, 8, 16, 24>
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x8xi8>) -> tensor<1x8x8x8xi8> {
  %w = arith.constant dense<[[[[13],[-16],[-1],[-16],[9],[-10],[-12],[-6]],[[0],[0],[0],[0],[0],[0],[0],[0]],[[-1],[-1],[-3],[19],[-4],[13],[15],[5]]],[[[0],[0],[0],[0],[0],[0],[0],[0]],[[0],[0],[0],[0],[0],[0],[0],[0]],[[0],[0],[0],[0],[0],[0],[0],[0]]],[[[3],[8],[12],[-10],[-13],[13],[-13],[-2]],[[0],[0],[0],[0],[0],[0],[0],[0]],[[8],[13],[-3],[-17],[7],[5],[11],[-18]]]]> : tensor<3x3x8x1xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}
