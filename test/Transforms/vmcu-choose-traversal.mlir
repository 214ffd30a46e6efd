// RUN: vmcu-opt %s --split-input-file --vmcu-choose-traversal | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-choose-traversal --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=POOL

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A stride-2 expansion reads only the even rows and columns of its input.
// Row-major, the kernel frees the odd ones a row behind their even
// neighbours; in reverse (the last output pixel first) the output grows
// down from above the input and the arena is the input alone: 256 bytes
// instead of 276 (bench/table2.sh's B1: 93,814 -> 93,281).
// CHECK-LABEL: func.func @main
// CHECK:       vmcu.bottleneck %{{.*}} {reverse_order} : tensor<1x8x8x4xi8>
// POOL:        vmcu.segment_pool : !vmcu.pool<segments = 64, segment_bytes = 4>
func.func @main(%a: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %w1 = arith.constant dense<1> : tensor<8x1x1x4xi8>
  %b1 = arith.constant dense<2> : tensor<8xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<2> : tensor<8xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<2> : tensor<4xi32>
  %e = vmcu.bottleneck %a : tensor<1x8x8x4xi8> -> tensor<1x4x4x4xi8> {
  ^bb0(%in: tensor<1x8x8x4xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
    vmcu.yield %d : tensor<1x4x4x4xi8>
  }
  return %e : tensor<1x4x4x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Stride 1 with symmetric padding: both orders need 344 bytes, and a tie
// keeps row-major.
// CHECK-LABEL: func.func @main
// CHECK-NOT:   reverse_order
// CHECK:       vmcu.bottleneck %{{.*}} : tensor<1x6x6x8xi8>
// POOL:        vmcu.segment_pool : !vmcu.pool<segments = 43, segment_bytes = 8>
func.func @main(%a: tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8> {
  %w1 = arith.constant dense<1> : tensor<16x1x1x8xi8>
  %b1 = arith.constant dense<2> : tensor<16xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x16x1xi8>
  %b2 = arith.constant dense<2> : tensor<16xi32>
  %w3 = arith.constant dense<1> : tensor<8x1x1x16xi8>
  %b3 = arith.constant dense<2> : tensor<8xi32>
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x6x6x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x6x6x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x6x6x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return %e : tensor<1x6x6x8xi8>
}
