// RUN: vmcu-opt %s --split-input-file --vmcu-tile=widen-cycles-per-byte=5 | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s --check-prefix=ALL

// widen-cycles-per-byte=5 widens a layer's weights only where the cost
// model's int8_weight_cycles (what int8 weights would add) reach 5 cycles
// per flash byte widening adds. A fully connected layer on one vector uses
// each of its 262,144 weights once: 0.039 cycles per MAC (CostModel.cpp),
// 10,224 cycles for 262,144 more bytes, so its weights stay int8. Without
// a price (0, vmcu-tile's default) they are widened to int16 pairs. The
// kernel records the choice (int8_weights, the memory report's).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: memref.global "private" constant @fully_connected_0_weights : memref<262144xi8>
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}int8_weight_cycles = 10224 : i64, int8_weights,
// ALL: memref.global "private" constant @fully_connected_0_weights : memref<131072xi32>
func.func @main(%x: tensor<1x4096xi8>) -> tensor<1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x4096xi8>
  %b = arith.constant dense<2> : tensor<64xi32>
  %z = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x4096xi8>, tensor<64x4096xi8>, tensor<64xi32>) -> tensor<1x64xi8>
  return %z : tensor<1x64xi8>
}

// -----

// A pointwise conv over 256 pixels reuses each of its 4,096 weights 256
// times: 40,894 cycles for 4,096 bytes, so it keeps widened weights.
// On flash with wait states, widened weights' extra reads stall the core
// (0.016 cycles per GEMM MAC per wait state, CostModel.cpp): its 1,048,576
// MACs cost 24,117 cycles with int8 weights at 1 wait state (5.9 per
// byte: widened) and 7,340 at 2 (1.8 per byte: int8).
// RUN: vmcu-opt %s --split-input-file --vmcu-tile="widen-cycles-per-byte=5 flash-wait-states=1" | FileCheck %s --check-prefix=WS1
// RUN: vmcu-opt %s --split-input-file --vmcu-tile="widen-cycles-per-byte=5 flash-wait-states=2" | FileCheck %s --check-prefix=WS2
// WS1: memref.global "private" constant @conv2d_0_weights : memref<2048xi32>
// WS1: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 24117 : i64, layer
// WS2: memref.global "private" constant @conv2d_0_weights : memref<4096xi8>
// WS2: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 7340 : i64, int8_weights,
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: memref.global "private" constant @conv2d_0_weights : memref<2048xi32>
// CHECK: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 40894 : i64, layer
// ALL: memref.global "private" constant @conv2d_0_weights : memref<2048xi32>
func.func @main(%x: tensor<1x16x16x64xi8>) -> tensor<1x16x16x64xi8> {
  %wc = arith.constant dense<1> : tensor<64x1x1x64xi8>
  %bc = arith.constant dense<2> : tensor<64xi32>
  %y = vmcu.conv2d %x, %wc, %bc {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x16x16x64xi8>, tensor<64x1x1x64xi8>, tensor<64xi32>) -> tensor<1x16x16x64xi8>
  return %y : tensor<1x16x16x64xi8>
}

// -----

// Under 2,048 bytes widening is not priced (the kernels' code differs by as
// much): a fully connected layer of 1,024 weights keeps widened weights.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: memref.global "private" constant @fully_connected_0_weights : memref<512xi32>
func.func @main(%x: tensor<1x64xi8>) -> tensor<1x16xi8> {
  %w = arith.constant dense<1> : tensor<16x64xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %z = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x64xi8>, tensor<16x64xi8>, tensor<16xi32>) -> tensor<1x16xi8>
  return %z : tensor<1x16xi8>
}

// -----

// flash-slowdown-percent keeps int8 weights in more layers, fewest cycles
// per flash byte first, while their int8_weight_cycles stay within that
// share of the model's estimated cycles (here 1,440,901 + 387,487). The
// pointwise conv's int8 weights add 40,894 cycles (2.2%, 10 per byte), the
// strided conv's 56,361 (14 per byte): at 3% only the pointwise conv
// keeps int8 weights, at 6% both do, at 2% neither.
// RUN: vmcu-opt %s --split-input-file --vmcu-tile=flash-slowdown-percent=2 | FileCheck %s --check-prefix=SHARE2
// RUN: vmcu-opt %s --split-input-file --vmcu-tile=flash-slowdown-percent=3 | FileCheck %s --check-prefix=SHARE3
// RUN: vmcu-opt %s --split-input-file --vmcu-tile=flash-slowdown-percent=6 | FileCheck %s --check-prefix=SHARE6
// SHARE2-NOT: int8_weights,
// SHARE3: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 40894 : i64, int8_weights,
// SHARE3: vmcu.kernel "conv2d_1" {{.*}}int8_weight_cycles = 56361 : i64, layer
// SHARE6: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 40894 : i64, int8_weights,
// SHARE6: vmcu.kernel "conv2d_1" {{.*}}int8_weight_cycles = 56361 : i64, int8_weights,
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x16x16x64xi8>) -> tensor<1x8x8x64xi8> {
  %w0 = arith.constant dense<1> : tensor<64x1x1x64xi8>
  %b0 = arith.constant dense<2> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w0, %b0 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x16x16x64xi8>, tensor<64x1x1x64xi8>, tensor<64xi32>) -> tensor<1x16x16x64xi8>
  %w1 = arith.constant dense<1> : tensor<64x1x1x64xi8>
  %b1 = arith.constant dense<2> : tensor<64xi32>
  %z = vmcu.conv2d %y, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x16x16x64xi8>, tensor<64x1x1x64xi8>, tensor<64xi32>) -> tensor<1x8x8x64xi8>
  return %z : tensor<1x8x8x64xi8>
}

// -----

// A conv whose long im2col rows (216 bytes) stay int8 whatever widen-weights
// says (each weight serves 16 output pixels, under widensLongRows' 64) adds
// no widened bytes: even a share of 100% does not mark it int8_weights.
// RUN: vmcu-opt %s --split-input-file --vmcu-tile=flash-slowdown-percent=100 | FileCheck %s --check-prefix=LONG
// LONG: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 11889 : i64, layer
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x6x6x24xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x24xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<16x3x3x24xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

