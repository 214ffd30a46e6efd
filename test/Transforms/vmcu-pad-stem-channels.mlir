// RUN: vmcu-opt %s --vmcu-pad-stem-channels --split-input-file | FileCheck %s

// A stem of 6 expanded channels grows to 8: the expansion's weights,
// biases and per-channel scale, the depthwise weights and biases and the
// projection's weights over the two new channels are 0 (the scale repeats
// the last channel's), and the two inner results have 8 channels.
// CHECK-LABEL: func.func @narrow
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<{{\[\[\[\[1\], \[2\]\], \[\[3\], \[4\]\]\], }}{{.*}}{{, \[\[\[21\], \[22\]\], \[\[23\], \[24\]\]\], \[\[\[0\], \[0\]\], \[\[0\], \[0\]\]\], \[\[\[0\], \[0\]\], \[\[0\], \[0\]\]\]\]}}> : tensor<8x2x2x1xi8>
// CHECK-DAG: %[[B1:.*]] = arith.constant dense<[1, 2, 3, 4, 5, 6, 0, 0]> : tensor<8xi32>
// CHECK-DAG: %[[W2:.*]] = arith.constant dense<{{\[\[\[\[1\], \[2\], \[3\], \[4\], \[5\], \[6\], \[0\], \[0\]\]\]\]}}> : tensor<1x1x8x1xi8>
// CHECK-DAG: %[[B2:.*]] = arith.constant dense<[7, 8, 9, 10, 11, 12, 0, 0]> : tensor<8xi32>
// CHECK-DAG: %[[W3:.*]] = arith.constant dense<{{\[\[\[\[1, 1, 1, 1, 1, 1, 0, 0\]\]\], }}{{.*}}> : tensor<4x1x1x8xi8>
// CHECK-DAG: %[[B3:.*]] = arith.constant dense<6> : tensor<4xi32>
// CHECK: vmcu.bottleneck
// CHECK: %[[E:.*]] = vmcu.conv2d %{{.*}}, %[[W1]], %[[B1]] {{{.*}}multiplier = [1073741824, 1073741825, 1073741826, 1073741827, 1073741828, 1073741829, 1073741829, 1073741829], shift = [31, 32, 33, 34, 35, 36, 36, 36]{{.*}} -> tensor<1x3x3x8xi8>
// CHECK: %[[D:.*]] = vmcu.depthwise_conv2d %[[E]], %[[W2]], %[[B2]] {{{.*}}multiplier = [1073741824], shift = [35]{{.*}} -> tensor<1x3x3x8xi8>
// CHECK: vmcu.conv2d %[[D]], %[[W3]], %[[B3]] {{.*}} -> tensor<1x3x3x4xi8>
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#pc = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824, 1073741825, 1073741826, 1073741827, 1073741828, 1073741829], shift = [31, 32, 33, 34, 35, 36], double_round = true, min = -128, max = 127>
func.func @narrow(%x: tensor<1x6x6x1xi8>) -> tensor<1x3x3x4xi8> {
  %w1 = arith.constant dense<[[[[1], [2]], [[3], [4]]], [[[5], [6]], [[7], [8]]], [[[9], [10]], [[11], [12]]], [[[13], [14]], [[15], [16]]], [[[17], [18]], [[19], [20]]], [[[21], [22]], [[23], [24]]]]> : tensor<6x2x2x1xi8>
  %b1 = arith.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %w2 = arith.constant dense<[[[[1], [2], [3], [4], [5], [6]]]]> : tensor<1x1x6x1xi8>
  %b2 = arith.constant dense<[7, 8, 9, 10, 11, 12]> : tensor<6xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x6xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x {line_buffer} : tensor<1x6x6x1xi8> -> tensor<1x3x3x4xi8> {
  ^bb0(%in: tensor<1x6x6x1xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #pc} : (tensor<1x6x6x1xi8>, tensor<6x2x2x1xi8>, tensor<6xi32>) -> tensor<1x3x3x6xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = -3 : i32, requant = #rq} : (tensor<1x3x3x6xi8>, tensor<1x1x6x1xi8>, tensor<6xi32>) -> tensor<1x3x3x6xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x6xi8>, tensor<4x1x1x6xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
    vmcu.yield %d : tensor<1x3x3x4xi8>
  }
  return %e : tensor<1x3x3x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// 8 channels are already whole blocks of 4: nothing changes.
// CHECK-LABEL: func.func @whole_blocks
// CHECK-NOT: tensor<{{.*}}12xi8>
// CHECK: vmcu.depthwise_conv2d {{.*}} -> tensor<1x5x5x8xi8>
func.func @whole_blocks(%x: tensor<1x9x9x3xi8>) -> tensor<1x5x5x4xi8> {
  %w1 = arith.constant dense<1> : tensor<8x3x3x3xi8>
  %b1 = arith.constant dense<2> : tensor<8xi32>
  %w2 = arith.constant dense<3> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<4> : tensor<8xi32>
  %w3 = arith.constant dense<5> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x {line_buffer} : tensor<1x9x9x3xi8> -> tensor<1x5x5x4xi8> {
  ^bb0(%in: tensor<1x9x9x3xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi8>
    vmcu.yield %d : tensor<1x5x5x4xi8>
  }
  return %e : tensor<1x5x5x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// A pointwise block's expanded tensor is in ring segments, not only in
// its kernel: it keeps its 6 channels.
// CHECK-LABEL: func.func @pointwise_block
// CHECK-NOT: xi8> -> tensor<1x6x6x8xi8>
// CHECK: vmcu.depthwise_conv2d {{.*}} -> tensor<1x6x6x6xi8>
func.func @pointwise_block(%x: tensor<1x6x6x4xi8>) -> tensor<1x6x6x4xi8> {
  %w1 = arith.constant dense<1> : tensor<6x1x1x4xi8>
  %b1 = arith.constant dense<2> : tensor<6xi32>
  %w2 = arith.constant dense<3> : tensor<3x3x6x1xi8>
  %b2 = arith.constant dense<4> : tensor<6xi32>
  %w3 = arith.constant dense<5> : tensor<4x1x1x6xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x : tensor<1x6x6x4xi8> -> tensor<1x6x6x4xi8> {
  ^bb0(%in: tensor<1x6x6x4xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x4xi8>, tensor<6x1x1x4xi8>, tensor<6xi32>) -> tensor<1x6x6x6xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x6xi8>, tensor<3x3x6x1xi8>, tensor<6xi32>) -> tensor<1x6x6x6xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x6xi8>, tensor<4x1x1x6xi8>, tensor<4xi32>) -> tensor<1x6x6x4xi8>
    vmcu.yield %d : tensor<1x6x6x4xi8>
  }
  return %e : tensor<1x6x6x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// Weights that are not constants cannot be padded: the stem is left as it
// is (vmcu-tile then reports them).
// CHECK-LABEL: func.func @weights_not_constant
// CHECK: vmcu.conv2d {{.*}} -> tensor<1x3x3x6xi8>
// CHECK: vmcu.depthwise_conv2d {{.*}} -> tensor<1x3x3x6xi8>
func.func @weights_not_constant(%x: tensor<1x6x6x1xi8>, %w1: tensor<6x2x2x1xi8>) -> tensor<1x3x3x4xi8> {
  %b1 = arith.constant dense<1> : tensor<6xi32>
  %w2 = arith.constant dense<1> : tensor<1x1x6x1xi8>
  %b2 = arith.constant dense<7> : tensor<6xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x6xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x {line_buffer} : tensor<1x6x6x1xi8> -> tensor<1x3x3x4xi8> {
  ^bb0(%in: tensor<1x6x6x1xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x1xi8>, tensor<6x2x2x1xi8>, tensor<6xi32>) -> tensor<1x3x3x6xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x6xi8>, tensor<1x1x6x1xi8>, tensor<6xi32>) -> tensor<1x3x3x6xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x6xi8>, tensor<4x1x1x6xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
    vmcu.yield %d : tensor<1x3x3x4xi8>
  }
  return %e : tensor<1x3x3x4xi8>
}
