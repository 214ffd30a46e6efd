// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s

// A conv folding a residual add reads two ring tensors (its input and the
// residual): per output segment its epilogue loads the residual's segment
// at the same index, adds it with the ADD's rescale table and
// requantization, frees it, then stores the sum, so the output may be
// placed over the residual.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
// CHECK-LABEL: vmcu.kernel "conv2d_1"
// CHECK-SAME: ins(%[[Y:.*]], %[[X:.*]]) outs(%[[Z:.*]])
// CHECK: memref.get_global @conv2d_1_add_requant
// CHECK: %[[SKIP:.*]] = affine.apply #{{.*}}({{.*}}%[[X]])
// CHECK-NEXT: vmcu.ring_load %{{.*}}[%[[SKIP]]]
// CHECK: memref.get_global @conv2d_1_rescale
// CHECK: %[[FREE:.*]] = affine.apply #{{.*}}({{.*}}%[[X]])
// CHECK-NEXT: vmcu.free %{{.*}}[%[[FREE]]]
// CHECK: %[[OUT:.*]] = affine.apply #{{.*}}({{.*}}%[[Z]])
// CHECK-NEXT: vmcu.ring_store %{{.*}}, %{{.*}}[%[[OUT]]]
func.func @main(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %w = arith.constant dense<1> : tensor<8x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  %z = vmcu.conv2d %y, %w, %b residual %x {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #rs, skip = #rs, requant = #rq>} : (tensor<1x4x4x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %z : tensor<1x4x4x8xi8>
}
