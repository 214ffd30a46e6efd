// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --split-input-file | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Two fully connected layers (M = 2 rows, 8-byte segments). The paper's GEMM
// closed form: distance min(N, K) - 1 and footprint max(MN, MK) + min(N, K) - 1
// for K = 4, N = 2 (d = 1, 9 segments); for K = 2, N = 6 the output base goes
// far before the input: d = (N - K)(M - 1) + N - 1 = 9 and footprint
// MN + K - 1 = 13. The pool then grows to 18 so that the model's input and
// output are both contiguous.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 18, segment_bytes = 8>
// CHECK: vmcu.tensor_base {{.*}} {base = 10 : i64, name = "input", segments = 8 : i64
// CHECK: vmcu.tensor_base {{.*}} {base = 9 : i64, name = "fully_connected_0", segments = 4 : i64
// CHECK: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "fully_connected_1", segments = 12 : i64
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}distance = 1 : i64, {{.*}}footprint = 9 : i64
// CHECK: vmcu.kernel "fully_connected_1" {{.*}}distance = 9 : i64, {{.*}}footprint = 13 : i64
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
// max(HWC, HWK) + min(C, K) - seg = 2048 bytes, below the 3072 bytes of a
// tensor-level planner.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 128, segment_bytes = 16>
// CHECK: vmcu.kernel "conv2d_0" {{.*}}distance = 64 : i64, {{.*}}footprint = 128 : i64
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
