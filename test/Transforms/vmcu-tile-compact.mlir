// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile="compact-kernels=conv2d_0,conv2d_1" | FileCheck %s --check-prefix=COMPACT
// RUN: vmcu-opt %s --vmcu-tile="compact-kernels=conv2d_1" | FileCheck %s --check-prefix=ONE
// `*` lists every kernel (a flash budget's trial of compact code everywhere).
// RUN: vmcu-opt %s --vmcu-tile="compact-kernels=*" | FileCheck %s --check-prefix=COMPACT

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Requantization tables (globals come first): by default 3 words per
// entry, the multiplier, the exponent 36 - 31 = 5 and the half term
// 16 - 3 * 2^5 = -80 (the output zero point folded in); in a compact
// kernel one global of bytes: the multiplier's word (2^30), the exponent's
// byte, padding to a word and the half terms' odd factor 1 + 2 * -3 = -5
// (5 bytes per channel where the 3 words take 12; the half term computed,
// -5 << (5 - 1) = -80). The scale is per tensor: one entry serves every
// channel.
// CHECK: memref.global "private" constant @conv2d_1_requant : memref<3xi32> = dense<[1073741824, 5, -80]>
// COMPACT: memref.global "private" constant @conv2d_1_requant : memref<12xi8> = dense<[0, 0, 0, 64, 5, 0, 0, 0, -5, -1, -1, -1]>

// Two pointwise convs: 16 -> 64 (rows of 4 steps of 4 inputs) and 64 -> 8
// (16 steps, two chunks of 8). By default the first one's tiles are
// vmcu.gemm_tile register blocks (weights, biases and requantization in
// one record), and the second one's rows run their two chunks
// straight-line.
// CHECK: vmcu.kernel "conv2d_0"
// CHECK-NOT: compact
// CHECK-SAME: {
// CHECK: vmcu.gemm_tile
// CHECK-NOT: vmcu.dot_block
// CHECK: vmcu.kernel "conv2d_1"
// CHECK-NOT: compact
// CHECK-SAME: {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: scf.for
// CHECK: vmcu.dot_block {{.*}} words = 8 : i64
// CHECK-NOT: scf.for
// CHECK: vmcu.dot_block {{.*}} words = 8 : i64

// Listed in compact-kernels (a flash budget's choice), a kernel is marked
// `compact`, its tiles are dot blocks and a requantization block instead
// of one gemm_tile, and its chunks run in a rolled loop: less code, for
// the loop's overhead.
// COMPACT: vmcu.kernel "conv2d_0" {{.*}} attributes {compact,
// COMPACT-NOT: vmcu.gemm_tile
// COMPACT: vmcu.dot_block {{.*}} words = 4 : i64
// COMPACT: vmcu.requant_block {{.*}} table %{{.*}}[%{{.*}}] exponents %{{.*}} half %{{.*}} {compact_table,
// COMPACT: vmcu.kernel "conv2d_1" {{.*}} attributes {compact,
// COMPACT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// COMPACT: scf.for {{.*}} iter_args
// COMPACT: vmcu.dot_block {{.*}} words = 8 : i64
// COMPACT-NOT: vmcu.dot_block
// COMPACT: scf.yield

// Only the listed kernel changes.
// ONE: vmcu.kernel "conv2d_0"
// ONE-NOT: compact
// ONE-SAME: {
// ONE: vmcu.gemm_tile
// ONE: vmcu.kernel "conv2d_1" {{.*}} attributes {compact,
func.func @main(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x8xi8> {
  %w1 = arith.constant dense<1> : tensor<64x1x1x16xi8>
  %b1 = arith.constant dense<2> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<64x1x1x16xi8>, tensor<64xi32>) -> tensor<1x4x4x64xi8>
  %w2 = arith.constant dense<1> : tensor<8x1x1x64xi8>
  %b2 = arith.constant dense<2> : tensor<8xi32>
  %z = vmcu.conv2d %y, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x64xi8>, tensor<8x1x1x64xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  return %z : tensor<1x4x4x8xi8>
}
