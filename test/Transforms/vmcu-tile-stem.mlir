// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// A stem bottleneck (3x3 stride-2 conv, 3x3 depthwise, 1x1 projection):
// its line buffer of 3 rows x 5 pixels x 8 channels is on the stack, not a
// pool workspace, and is written and read in groups of 8 channels although
// the ring's segments are 1 byte. The input rows are freed as the conv's
// rows are computed, so the output needs no room beyond the input.
// CHECK-NOT: line_buffer
// CHECK: vmcu.kernel "bottleneck_0" ins(%{{.*}}) outs(%{{.*}}) attributes {{{.*}}schedule = "fused-stem"
// CHECK: memref.alloca() : memref<120xi8>
// CHECK: vmcu.ring_load
// CHECK: vmcu.free
// CHECK: vector.store %{{.*}} : memref<120xi8>, vector<8xi8>
// CHECK: vector.load %{{.*}} : memref<120xi8>, vector<8xi8>
// CHECK: vmcu.ring_store
// PLACE: vmcu.kernel "bottleneck_0" {{.*}}distance = 0 : i64{{.*}}footprint = 243 : i64

// RUN: vmcu-opt %s --vmcu-tile=cores=2 | FileCheck %s --check-prefix=TWO
// On two cores both cores expand rows into the line buffer and read them:
// it is a global (.bss), not a stack buffer. A row of B (5 columns, im2col
// blocks of 2) ends in a shorter block, computed in a loop of one trip
// with column rows and tile buffers of its own, so that the blocks' loop
// hands it nothing through one core's stack.
// TWO: memref.global "private" @bottleneck_0_line_buffer : memref<120xi8> = uninitialized
// TWO-NOT: memref.alloca() : memref<120xi8>
// TWO: vmcu.kernel "bottleneck_0"
// TWO: memref.get_global @bottleneck_0_line_buffer : memref<120xi8>
// TWO: affine.for %{{.*}} = 0 to 2 {
// TWO: affine.for %{{.*}} = 4 to 5 {
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x9x9x3xi8>) -> tensor<1x5x5x4xi8> {
  %w1 = arith.constant dense<1> : tensor<8x3x3x3xi8>
  %b1 = arith.constant dense<2> : tensor<8xi32>
  %w2 = arith.constant dense<3> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<4> : tensor<8xi32>
  %w3 = arith.constant dense<5> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<6> : tensor<4xi32>
  %e = vmcu.bottleneck %x {line_buffer, segment_bytes = 1} : tensor<1x9x9x3xi8> -> tensor<1x5x5x4xi8> {
  ^bb0(%in: tensor<1x9x9x3xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi8>
    vmcu.yield %d : tensor<1x5x5x4xi8>
  }
  return %e : tensor<1x5x5x4xi8>
}
