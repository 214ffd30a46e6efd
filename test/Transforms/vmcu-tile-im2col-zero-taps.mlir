// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s

// A dilated conv reaches vmcu as a dense kernel with zero taps between its
// own (convert-tosa-to-vmcu: (k - 1) * d + 1 taps per dimension). An
// im2col conv gathers only the taps off which the weights are not all 0
// (gatheredTaps): here every second row and column of a 3 x 3 window, a
// 2 x 2 dilation-2 kernel, so each pixel's column row holds 4 taps x 4
// channels (16 bytes; two pixels, 32) and the kernel executes 4,096 of
// the dense window's 9,216 MACs. Tap i of a row or column sits at input
// position o - 1 + 2i; where a window leaves the input, a loop of at most
// one trip (bounds max(0, -pos) to min(1, 8 - pos)) takes the tap only
// inside it.
// CHECK-DAG: #[[LO:.*]] = affine_map<(d0, d1) -> (0, -(d0 + d1 * 2 - 1))>
// CHECK-DAG: #[[HI:.*]] = affine_map<(d0, d1) -> (1, -(d0 + d1 * 2 - 1) + 8)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1, d2) -> ((d0 * 2 + d1) * 4 + d2 * 4)>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-SAME: executed_macs = 4096
// CHECK-SAME: macs = 9216
// CHECK: memref.alloca() {alignment = 4 : i64} : memref<32xi8>
// CHECK: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[LO]](%{{.*}}, %[[R]]) to min #[[HI]](%{{.*}}, %[[R]]) {
// CHECK: affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[LO]](%{{.*}}, %[[T]]) to min #[[HI]](%{{.*}}, %[[T]]) {
// CHECK: affine.apply #[[COL]](%[[R]], %[[T]], %{{.*}})
// CHECK: vmcu.ring_load
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  %w = arith.constant dense<[[[[16,2,-4,-5],[0,0,0,0],[-15,6,7,13]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[-12,13,10,18],[0,0,0,0],[12,17,-13,-8]]],[[[-4,-16,17,12],[0,0,0,0],[-13,-14,-17,6]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[-18,4,-12,12],[0,0,0,0],[-18,10,8,-3]]],[[[-1,-2,7,9],[0,0,0,0],[-18,-1,-2,19]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[5,-6,10,15],[0,0,0,0],[5,-14,-16,6]]],[[[-12,10,6,4],[0,0,0,0],[18,-6,-3,-6]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[-6,14,-13,-5],[0,0,0,0],[-12,17,-3,6]]]]> : tensor<4x3x3x4xi8>
  %b = arith.constant dense<2> : tensor<4xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
  return %y : tensor<1x8x8x4xi8>
}

// -----

// Rows and columns are stepped apart: one nonzero weight in window row 1
// (output 3, tap (1, 2)) keeps every row, and columns 0 and 2 only: 3 x 2
// taps x 4 channels per column row (24 bytes; two pixels, 48), 6,144 MACs.
// Rows take every tap (position o - 1 + r), columns every second.
// CHECK-DAG: #[[ROW_LO:.*]] = affine_map<(d0, d1) -> (0, -(d0 + d1 - 1))>
// CHECK-DAG: #[[ROW_HI:.*]] = affine_map<(d0, d1) -> (1, -(d0 + d1 - 1) + 8)>
// CHECK-DAG: #[[COL_LO:.*]] = affine_map<(d0, d1) -> (0, -(d0 + d1 * 2 - 1))>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-SAME: executed_macs = 6144
// CHECK: memref.alloca() {alignment = 4 : i64} : memref<48xi8>
// CHECK: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[ROW_LO]](%{{.*}}, %[[R]]) to min #[[ROW_HI]](%{{.*}}, %[[R]]) {
// CHECK: affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[COL_LO]](%{{.*}}, %[[T]])
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  %w = arith.constant dense<[[[[16,2,-4,-5],[0,0,0,0],[-15,6,7,13]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[-12,13,10,18],[0,0,0,0],[12,17,-13,-8]]],[[[-4,-16,17,12],[0,0,0,0],[-13,-14,-17,6]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[-18,4,-12,12],[0,0,0,0],[-18,10,8,-3]]],[[[-1,-2,7,9],[0,0,0,0],[-18,-1,-2,19]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[5,-6,10,15],[0,0,0,0],[5,-14,-16,6]]],[[[-12,10,6,4],[0,0,0,0],[18,-6,-3,-6]],[[0,0,0,0],[0,0,0,0],[5,0,0,0]],[[-6,14,-13,-5],[0,0,0,0],[-12,17,-3,6]]]]> : tensor<4x3x3x4xi8>
  %b = arith.constant dense<2> : tensor<4xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
  return %y : tensor<1x8x8x4xi8>
}
