// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile=widen-weights=false --split-input-file | FileCheck %s --check-prefix=INT8
// RUN: vmcu-opt %s --vmcu-tile=int8-weight-kernels=depthwise_conv2d_0 --split-input-file | FileCheck %s --check-prefix=INT8
// RUN: vmcu-opt %s --vmcu-tile="int8-weight-kernels=*" --split-input-file | FileCheck %s --check-prefix=INT8

// Whole 4-lane blocks of a bounded requantization are vmcu.depthwise_block
// ops; with more than one block per segment they run in an scf.for that
// LLVM must not unroll (a block is a long fixed sequence already). A
// stride-2 window does not slide, so its taps are the same offsets for
// every output: no phase switch.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-NOT: scf.index_switch
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: vmcu.depthwise_block %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}] {{{.*}}tap_offsets = array<i64: 0, 16, 32, 48, 64, 80, 96, 112, 128>} : memref<144xi8>, memref<136xi32>, memref<16xi8>
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK-NOT: vmcu.mac_lanes
// The records hold the weights as int16: with int8 weights (widen-weights
// off, or the layer among int8-weight-kernels, as a flash budget chooses)
// the lanes multiply int8 weights instead, and the kernel states what that
// costs: 8.53 cycles per output (CostModel.cpp) x 256 outputs.
// INT8-LABEL: vmcu.kernel "depthwise_conv2d_0"
// INT8-SAME: int8_weight_cycles = 2184 : i64
// INT8-NOT: vmcu.depthwise_block
// INT8: vmcu.mac_lanes
// INT8-NOT: vmcu.depthwise_block
// INT8-LABEL: vmcu.kernel "depthwise_conv2d_0"
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<2> : tensor<3x3x16x1xi8>
  %b = arith.constant dense<10> : tensor<16xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// A channel whose multiplier is 0 outputs the zero point whatever its sum:
// its bias near 2^31 does not bound the others, so the requantization
// stays bounded and the block a vmcu.depthwise_block.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [0, 1073741824, 1073741824, 1073741824], shift = [36, 36, 36, 36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK: vmcu.depthwise_block
// CHECK-NOT: vmcu.mac_lanes
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = arith.constant dense<2> : tensor<3x3x4x1xi8>
  %b = arith.constant dense<[2147000000, 10, 10, 10]> : tensor<4xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<3x3x4x1xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// The same bias on a channel it scales: the sums are not bounded below
// 2^30, so the lanes keep vmcu.mac_lanes and the generic requantization.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1, 1073741824, 1073741824, 1073741824], shift = [36, 36, 36, 36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-NOT: vmcu.depthwise_block
// CHECK: vmcu.mac_lanes
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = arith.constant dense<2> : tensor<3x3x4x1xi8>
  %b = arith.constant dense<[2147000000, 10, 10, 10]> : tensor<4xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<3x3x4x1xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// Depth multiplier 2 (8 input channels, 16 output): each in-bounds tap's
// input segment is stored into the window with every lane repeated twice
// (16 bytes per tap), output segment m of the pixel reads lanes m * 8 of
// each tap, and both output segments are stored after the input segment
// is freed.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-DAG: %[[WIN:.*]] = memref.alloca() : memref<144xi8>
// CHECK-DAG: %[[OUT:.*]] = memref.alloca() : memref<16xi8>
// CHECK: %[[SEG:.*]] = vmcu.ring_load %{{.*}}[%{{.*}}] : !vmcu.pool<segments = {{[0-9]+}}, segment_bytes = 8> -> vector<8xi8>
// CHECK: %[[REP:.*]] = vector.shuffle %[[SEG]], %[[SEG]] [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7] : vector<8xi8>, vector<8xi8>
// CHECK: vector.store %[[REP]], %[[WIN]][%{{.*}}] : memref<144xi8>, vector<16xi8>
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: vmcu.depthwise_block %[[WIN]][%{{.*}}], %{{.*}}[%{{.*}}] into %[[OUT]][%{{.*}}] {{{.*}}tap_offsets = array<i64: 0, 16, 32, 48, 64, 80, 96, 112, 128>}
// CHECK: vmcu.free
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: vector.load %[[OUT]][%{{.*}}] : memref<16xi8>, vector<8xi8>
// CHECK: vmcu.ring_store
func.func @main(%x: tensor<1x8x8x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<2> : tensor<3x3x16x1xi8>
  %b = arith.constant dense<10> : tensor<16xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq, segment_bytes = 8 : i64} : (tensor<1x8x8x8xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}
