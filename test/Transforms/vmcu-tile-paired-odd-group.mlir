// RUN: vmcu-opt %s --vmcu-tile=widen-weights=false | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A pointwise conv 72 -> 34 over 3 pixels, int8 weights in channel pairs.
// 4 does not divide 34, yet the two-row pass takes 2 x 4 tiles (half steps
// over paired weights) in one odd group of the 34 channels: 8 tiles of 4
// and a last one of 2, not 17 tiles of 2. The 4-channel tiles run their 18
// steps straight (two 8-step blocks and one of 2); the group's narrow last
// tile and the last pixel (the odd one out of 3) do little of the work and
// run their 8-step blocks in a rolled loop (less code).
// CHECK: vmcu.segment_pool : !vmcu.pool<segments = {{[0-9]+}}, segment_bytes = 2>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK-NOT: scf.for
// CHECK: %{{.*}}:8 = vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 8 : i64, x_stride = 144 : i64} : memref<72xi32>, memref<2448xi8>
// CHECK-NOT: scf.for
// CHECK: %{{.*}}:8 = vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 8 : i64
// CHECK-NOT: scf.for
// CHECK: %{{.*}}:8 = vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 2 : i64
// CHECK: } {llvm.loop_annotation = #loop_annotation}
// CHECK: %{{.*}}:4 = scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 8 : i64
// CHECK: } {llvm.loop_annotation = #loop_annotation}
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 2 : i64
// The last pixel: 1 x 4 tiles, then the 1 x 2, each in a rolled loop.
// CHECK: %{{.*}}:4 = scf.for %{{.*}} iter_args
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, widened, words = 8 : i64
// CHECK: %{{.*}}:2 = scf.for %{{.*}} iter_args
// CHECK: %{{.*}}:2 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, widened, words = 8 : i64
func.func @main(%x: tensor<1x1x3x72xi8>) -> tensor<1x1x3x34xi8> {
  %w = arith.constant dense<1> : tensor<34x1x1x72xi8>
  %b = arith.constant dense<0> : tensor<34xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x1x3x72xi8>, tensor<34x1x1x72xi8>, tensor<34xi32>) -> tensor<1x1x3x34xi8>
  return %y : tensor<1x1x3x34xi8>
}
