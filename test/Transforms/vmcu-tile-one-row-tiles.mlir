// RUN: vmcu-opt %s --split-input-file --vmcu-tile=widen-weights=false | FileCheck %s

// A single row (a fully connected layer on one vector) shares each input
// word only among a tile's channels, so its int8 tiles are 4 channels wide
// wherever groups of a tile, the last one short, allow it. 24 -> 18 with
// 6-byte segments (set here): groups of 12 (three 1 x 4 tiles), then a
// last one of 6 (a 1 x 4 tile and a 1 x 2), not 1 x 2 tiles throughout.
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: vmcu.kernel "fully_connected_0"
// CHECK: memref.alloca() : memref<12xi8>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK: %{{.*}}:2 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
func.func @main(%x: tensor<1x24xi8>) -> tensor<1x18xi8> {
  %w = arith.constant dense<1> : tensor<18x24xi8>
  %b = arith.constant dense<2> : tensor<18xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 6} : (tensor<1x24xi8>, tensor<18x24xi8>, tensor<18xi32>) -> tensor<1x18xi8>
  return %y : tensor<1x18xi8>
}

// -----

// Left to choose, the same layer takes 2-byte segments, not the 6 that
// gcd(24, 18) gives: a segment size that does not divide the 4-channel
// tile makes groups of several tiles, whose extra loop LLVM spills around
// the register block (segmentSizeCandidates). Groups of one 1 x 4 tile,
// then a last 1 x 2.
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}segment_bytes = 2 : i64
// CHECK: memref.alloca() : memref<4xi8>
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: }
// CHECK: %{{.*}}:2 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
func.func @main(%x: tensor<1x24xi8>) -> tensor<1x18xi8> {
  %w = arith.constant dense<1> : tensor<18x24xi8>
  %b = arith.constant dense<2> : tensor<18xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x24xi8>, tensor<18x24xi8>, tensor<18xi32>) -> tensor<1x18xi8>
  return %y : tensor<1x18xi8>
}

// -----

// 16 -> 27 (1-byte segments): not groups of 9 (two 1 x 4 tiles and a
// 1 x 1 each), but six groups of one 1 x 4 tile and a last 1 x 3.
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK: vmcu.kernel "fully_connected_0"
// CHECK: memref.alloca() : memref<4xi8>
// CHECK: affine.for %{{.*}} = 0 to 6 {
// CHECK: %{{.*}}:4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 16 : i64}
// CHECK: %{{.*}}:3 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 16 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
func.func @main(%x: tensor<1x16xi8>) -> tensor<1x27xi8> {
  %w = arith.constant dense<1> : tensor<27x16xi8>
  %b = arith.constant dense<2> : tensor<27xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x16xi8>, tensor<27x16xi8>, tensor<27xi32>) -> tensor<1x27xi8>
  return %y : tensor<1x27xi8>
}
