// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-pad-stem-channels --vmcu-tile | FileCheck %s --check-prefix=PAD

// A stem of 6 expanded channels. Tiled as it is, its depthwise part works
// in groups of 2 channels (the largest that divides 6): a line buffer of
// 3 rows x 5 pixels x 6 channels and a window of 3 x 3 taps x 2 channels.
// Padded to 8 first (vmcu-pad-stem-channels), one group of 8: a line
// buffer of 3 x 5 x 8 bytes and a window of 3 x 3 x 8.
// CHECK: vmcu.kernel "bottleneck_0" {{.*}}schedule = "fused-stem"
// CHECK: memref.alloca() : memref<90xi8>
// CHECK-NEXT: memref.alloca() : memref<18xi8>
// CHECK: vector.store %{{.*}} : memref<90xi8>, vector<2xi8>
// PAD: vmcu.kernel "bottleneck_0" {{.*}}schedule = "fused-stem"
// PAD: memref.alloca() : memref<120xi8>
// PAD-NEXT: memref.alloca() : memref<72xi8>
// PAD: vector.store %{{.*}} : memref<120xi8>, vector<8xi8>
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x9x9x3xi8>) -> tensor<1x5x5x4xi8> {
  %w1 = arith.constant dense<1> : tensor<6x3x3x3xi8>
  %b1 = arith.constant dense<2> : tensor<6xi32>
  %w2 = arith.constant dense<3> : tensor<3x3x6x1xi8>
  %b2 = arith.constant dense<4> : tensor<6xi32>
  %w3 = arith.constant dense<5> : tensor<4x1x1x6xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x {line_buffer, segment_bytes = 1} : tensor<1x9x9x3xi8> -> tensor<1x5x5x4xi8> {
  ^bb0(%in: tensor<1x9x9x3xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<6x3x3x3xi8>, tensor<6xi32>) -> tensor<1x5x5x6xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x6xi8>, tensor<3x3x6x1xi8>, tensor<6xi32>) -> tensor<1x5x5x6xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x6xi8>, tensor<4x1x1x6xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi8>
    vmcu.yield %d : tensor<1x5x5x4xi8>
  }
  return %e : tensor<1x5x5x4xi8>
}
