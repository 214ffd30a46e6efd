// RUN: vmcu-opt %s --split-input-file --vmcu-estimate-reference-flash | FileCheck %s

// Each layer stores its int8 weights, an int32 bias per output channel,
// an int32 multiplier and shift per requantization pair, and a 256-byte
// call; each kernel family it uses links its code once:
//   conv 8x1x1x4:  32 + 8 * 4 + 8 * 8 + 256 = 384
//   depthwise 3x3x8x1: 72 + 8 * 4 + 8 * 8 + 256 = 424 (a pair per
//     channel, although the scale is per tensor)
//   conv 4x1x1x8:  32 + 4 * 4 + 4 * 8 + 256 = 336
//   fully connected 4x64, per tensor: 256 + 4 * 4 + 1 * 8 + 256 = 536
//   code: convolutions 7,612, depthwise 6,980, fully connected 8,152
// 384 + 424 + 336 + 536 + 22,744 = 24,424.
// CHECK: module attributes {vmcu.reference_flash_bytes = 24424 : i64}
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%in: tensor<1x4x4x4xi8>, %v: tensor<1x64xi8>) -> (tensor<1x4x4x4xi8>, tensor<1x4xi8>) {
  %w1 = arith.constant dense<1> : tensor<8x1x1x4xi8>
  %b1 = arith.constant dense<0> : tensor<8xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<0> : tensor<8xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<0> : tensor<4xi32>
  %w4 = arith.constant dense<1> : tensor<4x64xi8>
  %b4 = arith.constant dense<0> : tensor<4xi32>
  %b = vmcu.conv2d %in, %w1, %b1 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
  %y = vmcu.fully_connected %v, %w4, %b4 {input_zp = 0 : i32, requant = #rq} : (tensor<1x64xi8>, tensor<4x64xi8>, tensor<4xi32>) -> tensor<1x4xi8>
  return %d, %y : tensor<1x4x4x4xi8>, tensor<1x4xi8>
}

// -----

// A layer without weights adds its call and its family's code:
// softmax 256 + 3,704 = 3,960.
// CHECK: module attributes {vmcu.reference_flash_bytes = 3960 : i64}
func.func @main(%x: tensor<1x10xi8>) -> tensor<1x10xi8> {
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<1x10xi8>
  return %y : tensor<1x10xi8>
}

// -----

// A fully connected layer's scale repeated per channel is one per-tensor
// pair, as TFLite Micro keeps it; distinct scales are a pair per channel.
// 4x8 each: 32 + 4 * 4 + 256 = 304, then 1 and 4 pairs (8 and 32 bytes),
// and the fully connected functions once: 304 + 8 + 304 + 32 + 8,152 =
// 8,800.
// CHECK: module attributes {vmcu.reference_flash_bytes = 8800 : i64}
#same = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824, 1073741824, 1073741824, 1073741824], shift = [36, 36, 36, 36], double_round = true, min = -128, max = 127>
#each = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824, 1073741825, 1073741826, 1073741827], shift = [36, 36, 36, 36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8xi8>) -> (tensor<1x4xi8>, tensor<1x4xi8>) {
  %w = arith.constant dense<1> : tensor<4x8xi8>
  %b = arith.constant dense<0> : tensor<4xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #same} : (tensor<1x8xi8>, tensor<4x8xi8>, tensor<4xi32>) -> tensor<1x4xi8>
  %z = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #each} : (tensor<1x8xi8>, tensor<4x8xi8>, tensor<4xi32>) -> tensor<1x4xi8>
  return %y, %z : tensor<1x4xi8>, tensor<1x4xi8>
}
