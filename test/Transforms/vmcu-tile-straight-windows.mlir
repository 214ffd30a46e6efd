// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile=compact-kernels=depthwise_conv2d_0 --split-input-file | FileCheck %s --check-prefix=COMPACT

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [20], double_round = true, min = -128, max = 127>

// Windows whose requantization is not bounded (a shift of 20) have no
// vmcu.depthwise_block records: their 4-lane blocks are vmcu.mac_lanes.
// A depthwise window of one 32-byte segment has 8 blocks of 4 lanes: more
// than the 4 always emitted straight-line. Alone in the plan its stack
// buffers are the largest, so straight-line blocks (whose unpacked weights
// LLVM hoists onto the stack) would grow the stack: the blocks stay a loop.
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-NOT: vmcu.depthwise_block
// CHECK: affine.for %{{.*}} = 0 to 8 {
// CHECK: vector.load %{{.*}} : memref<32xi32>, vector<4xi32>
// CHECK: vmcu.mac_lanes
// CHECK: vmcu.requantize
func.func @main(%x: tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8> {
  %w = arith.constant dense<2> : tensor<3x3x32x1xi8>
  %b = arith.constant dense<10> : tensor<32xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x32xi8>, tensor<3x3x32x1xi8>, tensor<32xi32>) -> tensor<1x4x4x32xi8>
  return %y : tensor<1x4x4x32xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [20], double_round = true, min = -128, max = 127>

// Followed by a 7x7 window (49 x 32 bytes of buffers), the 3x3 kernel may
// spend 8 blocks x 9 taps x 8 bytes of stack without raising the plan's
// SRAM: its blocks are straight-line, each with constant channels.
// A compact kernel (a flash budget's choice) keeps the loop whatever the
// stack allows.
// CHECK-LABEL: vmcu.kernel "depthwise_conv2d_0"
// CHECK-NOT: affine.for %{{.*}} = 0 to 8 {
// CHECK-COUNT-8: vector.load %{{.*}}[%{{.*}}] : memref<32xi32>, vector<4xi32>
// COMPACT: vmcu.kernel "depthwise_conv2d_0"
// COMPACT: vmcu.kernel "depthwise_conv2d_0" {{.*}}compact
// COMPACT: affine.for %{{.*}} = 0 to 8 {
// COMPACT: vmcu.kernel "depthwise_conv2d_1"
// CHECK-NOT: vmcu.requant_block
// CHECK: vmcu.kernel "depthwise_conv2d_1"
func.func @main(%x: tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8> {
  %w = arith.constant dense<2> : tensor<3x3x32x1xi8>
  %b = arith.constant dense<10> : tensor<32xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x32xi8>, tensor<3x3x32x1xi8>, tensor<32xi32>) -> tensor<1x4x4x32xi8>
  %w7 = arith.constant dense<1> : tensor<7x7x32x1xi8>
  %z = vmcu.depthwise_conv2d %y, %w7, %b {stride = array<i64: 1, 1>, pad = array<i64: 3, 3, 3, 3>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x32xi8>, tensor<7x7x32x1xi8>, tensor<32xi32>) -> tensor<1x4x4x32xi8>
  return %z : tensor<1x4x4x32xi8>
}
