// RUN: vmcu-opt %s --split-input-file --vmcu-tile=widen-cycles-per-byte=5 | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s --check-prefix=ALL

// widen-cycles-per-byte=5 widens a layer's weights only where the cost
// model's int8_weight_cycles (what int8 weights would add) reach 5 cycles
// per flash byte widening adds. A fully connected layer on one vector uses
// each of its 262,144 weights once: 0.226 cycles per MAC (CostModel.cpp),
// 59,245 cycles for 262,144 more bytes, so its weights stay int8. Without
// a price (0, vmcu-tile's default) they are widened to int16 pairs. The
// kernel records the choice (int8_weights, the memory report's).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: memref.global "private" constant @fully_connected_0_weights : memref<262144xi8>
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}int8_weight_cycles = 59245 : i64, int8_weights,
// ALL: memref.global "private" constant @fully_connected_0_weights : memref<131072xi32>
func.func @main(%x: tensor<1x4096xi8>) -> tensor<1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x4096xi8>
  %b = arith.constant dense<2> : tensor<64xi32>
  %z = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x4096xi8>, tensor<64x4096xi8>, tensor<64xi32>) -> tensor<1x64xi8>
  return %z : tensor<1x64xi8>
}

// -----

// A pointwise conv over 256 pixels reuses each of its 4,096 weights 256
// times: 236,978 cycles for 4,096 bytes, so it keeps widened weights.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: memref.global "private" constant @conv2d_0_weights : memref<2048xi32>
// CHECK: vmcu.kernel "conv2d_0" {{.*}}int8_weight_cycles = 236978 : i64, layer
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
