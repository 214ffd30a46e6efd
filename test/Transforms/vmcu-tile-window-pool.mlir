// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// A conv folding a 2x2 window pool over its 5x5 plane (the last row and
// column not averaged). Its kernel does not `accumulate`: each window's
// sums are zeroed after its averages are stored, so two cores may share
// its window loops. It zeroes a sum per channel; for each of the 2x2 pooled pixels it runs the
// window's 2 rows of 2 conv pixels (one im2col block each) and adds each
// output segment into the sums instead of storing it; then it stores the
// window's averages (TFLite's: ties away from zero, a division by 4), the
// only ring stores, and zeroes the sums.
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-NOT:   accumulates
// CHECK:       %[[SUMS:[a-z0-9_]+]] = memref.alloca() : memref<8xi32>
// CHECK:       memref.store %{{.*}}, %[[SUMS]][
// CHECK:       affine.for %[[P:.*]] = 0 to 2 {
// CHECK:         affine.for %[[Q:.*]] = 0 to 2 {
// CHECK:           affine.for %{{.*}} = 0 to 2 {
// CHECK-NOT:         vmcu.ring_store
// CHECK:             vmcu.dot_block
// CHECK-NOT:         vmcu.ring_store
// CHECK:             %[[SUM:[0-9]+]] = memref.load %[[SUMS]][
// CHECK:             %[[ADDED:.*]] = arith.addi %[[SUM]]
// CHECK:             memref.store %[[ADDED]], %[[SUMS]][
// CHECK-NOT:         vmcu.ring_store
// CHECK:           arith.constant 4 : index
// CHECK:           arith.divsi
// CHECK:           memref.store %{{.*}}, %[[SUMS]][
// CHECK:           %[[AT:.*]] = affine.apply #{{.*}}(%[[P]], %[[Q]],
// CHECK:           vmcu.ring_store %{{.*}}, %{{.*}}[%[[AT]]]
// CHECK-NOT:   vmcu.ring_store
// CHECK:       return
func.func @main(%x: tensor<1x7x7x8xi8>) -> tensor<1x2x2x8xi8> {
  %w = arith.constant dense<1> : tensor<8x3x3x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>} : (tensor<1x7x7x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}
