// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --split-input-file | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Two fully connected layers (M = 2 rows, 8-byte segments). The GEMM kernel
// reads a block of two rows before it writes their outputs, so each output
// may overwrite all of its input: distance 0 and footprint max(MN, MK), 8
// and 12 segments, below the paper's closed form for a GEMM that writes
// while it reads, max(MN, MK) + min(N, K) - 1 (9 and 13). Input and output
// are then both contiguous in a 12-segment pool.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 12, segment_bytes = 8>
// CHECK: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 8 : i64
// CHECK: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "fully_connected_0", segments = 4 : i64
// CHECK: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "fully_connected_1", segments = 12 : i64
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}distance = 0 : i64, {{.*}}footprint = 8 : i64
// CHECK: vmcu.kernel "fully_connected_1" {{.*}}distance = 0 : i64, {{.*}}footprint = 12 : i64
func.func @main(%x: tensor<2x32xi8>) -> tensor<2x48xi8> {
  %w = arith.constant dense<1> : tensor<16x32xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 8} : (tensor<2x32xi8>, tensor<16x32xi8>, tensor<16xi32>) -> tensor<2x16xi8>
  %w2 = arith.constant dense<1> : tensor<48x16xi8>
  %b2 = arith.constant dense<2> : tensor<48xi32>
  %z = vmcu.fully_connected %y, %w2, %b2 {input_zp = 0 : i32, requant = #rq, segment_bytes = 8} : (tensor<2x16xi8>, tensor<48x16xi8>, tensor<48xi32>) -> tensor<2x48xi8>
  return %z : tensor<2x48xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A 1x1 conv 8x8x16 -> 8x8x32 with 16-byte segments: the arena is
// max(HWC, HWK) = 2048 bytes, below the 3072 bytes of a tensor-level
// planner. The output starts 62 segments before the input: the two-pixel
// block reads 2 pixels (2 segments) before it writes their 4.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 128, segment_bytes = 16>
// CHECK: vmcu.kernel "conv2d_0" {{.*}}distance = 62 : i64, {{.*}}footprint = 128 : i64
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> {
  %w = arith.constant dense<1> : tensor<32x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<32xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
  return %y : tensor<1x8x8x32xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A 3x3 depthwise with padding 1 on 6x6x16 (one segment per pixel): the
// output trails the input by the halo, pad * (W + 1) = 7 segments.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "depthwise_conv2d_0" {{.*}}distance = 7 : i64, {{.*}}footprint = 43 : i64
func.func @main(%x: tensor<1x6x6x16xi8>) -> tensor<1x6x6x16xi8> {
  %w = arith.constant dense<1> : tensor<3x3x16x1xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
  return %y : tensor<1x6x6x16xi8>
}
