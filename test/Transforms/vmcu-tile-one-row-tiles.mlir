// RUN: vmcu-opt %s --split-input-file --vmcu-tile=widen-weights=false | FileCheck %s

// A single row (a fully connected layer on one vector) shares each input
// word only among a tile's channels. Over paired int8 weights its tiles
// are 6 channels wide (three pairs, the row's two halves and three weight
// words in 13 registers: 29 cycles per 24 MACs, against 20 per 16 for
// 1 x 4) wherever a group is one such tile, the segments dividing 6.
// 24 -> 18 with 6-byte segments (set here): three groups of one 1 x 6.
// CHECK: vmcu.kernel "fully_connected_0"
// CHECK: memref.alloca() : memref<6xi8>
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: %{{.*}}:6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x24xi8>) -> tensor<1x18xi8> {
  %w = arith.constant dense<1> : tensor<18x24xi8>
  %b = arith.constant dense<2> : tensor<18xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 6} : (tensor<1x24xi8>, tensor<18x24xi8>, tensor<18xi32>) -> tensor<1x18xi8>
  return %y : tensor<1x18xi8>
}

// -----

// Left to choose, the same layer takes 2-byte segments, not the 6 that
// gcd(24, 18) gives (segmentSizeCandidates: a one-row product's segments
// divide 4, the 1 x 4 tile's channels): three groups of one 1 x 6 tile,
// of three segments each.
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}segment_bytes = 2 : i64
// CHECK: memref.alloca() : memref<6xi8>
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: %{{.*}}:6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 24 : i64}
// CHECK-COUNT-3: vmcu.ring_store
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x24xi8>) -> tensor<1x18xi8> {
  %w = arith.constant dense<1> : tensor<18x24xi8>
  %b = arith.constant dense<2> : tensor<18xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x24xi8>, tensor<18x24xi8>, tensor<18xi32>) -> tensor<1x18xi8>
  return %y : tensor<1x18xi8>
}

// -----

// 16 -> 27 (1-byte segments): not groups of 9 (a 1 x 6 and a 1 x 3 each),
// but four groups of one 1 x 6 tile and a last 1 x 3.
// CHECK: vmcu.kernel "fully_connected_0"
// CHECK: memref.alloca() : memref<6xi8>
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: %{{.*}}:6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 16 : i64}
// CHECK: %{{.*}}:3 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 16 : i64}
// CHECK-NOT: vmcu.dot_block {{.*}}words = 8
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x16xi8>) -> tensor<1x27xi8> {
  %w = arith.constant dense<1> : tensor<27x16xi8>
  %b = arith.constant dense<2> : tensor<27xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x16xi8>, tensor<27x16xi8>, tensor<27xi32>) -> tensor<1x27xi8>
  return %y : tensor<1x27xi8>
}
