// RUN: vmcu-opt %s --vmcu-tile=widen-weights=false | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A pointwise conv over 5 channels: 5-byte segments, which neither 4- nor
// 2-channel tiles divide. The group is the one segment, in one 2 x 4
// register tile over paired int8 weights (a rolled loop of one trip) and
// one 2 x 1 tile of the channel left over, not five 2 x 1 tiles. The int8
// weights (channel c's are 5c + 1 to 5c + 5) are packed per tile, tile c0
// at byte c0 * 8: step by step, each pair of channels (c, c + 1) as two
// words of int16 halves 256 * w[c + 1] + w[c] (lanes 0 and 2, then 1 and
// 3; those past the 5 inputs zero), the lone channel 4 as its 4 lanes. A
// pair's H = A + 256 * B starts from bias[c] + 256 * bias[c + 1] = 514
// (its table entry), A from bias[c]; B is (H - A) >> 8, its bias in it. The
// 8 sums take a requantization block of 3 channels and one of the last,
// both rows in each.
// CHECK: memref.global "private" constant @conv2d_0_bias : memref<5xi32> = dense<[2, 514, 2, 514, 2]>
// CHECK: memref.global "private" constant @conv2d_0_weights : memref<40xi8> = dense<[1, 6, 3, 8, 2, 7, 4, 9, 11, 16, 13, 18, 12, 17, 14, 19, 5, 10, 0, 0, 0, 0, 0, 0, 15, 20, 0, 0, 0, 0, 0, 0, 21, 22, 23, 24, 25, 0, 0, 0]>
// CHECK: vmcu.kernel "conv2d_0"
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step %c1
// CHECK: %[[S:.*]]:8 = vmcu.dot_block {{.*}}, %[[A0:.*]], %[[H0:.*]], %[[A2:.*]], %[[H2:.*]], %[[A0]], %[[H0]], %[[A2]], %[[H2]] {paired_weights, pixels = 2 : i64, widened, words = 2 : i64, x_stride = 16 : i64}
// CHECK: %[[X0:.*]] = arith.subi %[[S]]#1, %[[S]]#0 : i32
// CHECK: %[[B0:.*]] = arith.shrsi %[[X0]], %c8_i32{{.*}} : i32
// CHECK-NOT: arith.addi
// CHECK: %[[X2:.*]] = arith.subi %[[S]]#3, %[[S]]#2 : i32
// CHECK: %[[B2:.*]] = arith.shrsi %[[X2]], %c8_i32{{.*}} : i32
// CHECK-NOT: arith.addi
// CHECK: vmcu.requant_block %[[S]]#0, %[[B0]], %[[S]]#2, %[[S]]#4, %{{.*}}, %[[S]]#6 into
// CHECK: vmcu.requant_block %[[B2]], %{{.*}} into
// CHECK: vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 2 : i64, x_stride = 16 : i64}
// CHECK: vmcu.requant_block %{{.*}}#0, %{{.*}}#1 into %{{.*}}[%c4]
func.func @main(%x: tensor<1x1x2x5xi8>) -> tensor<1x1x2x5xi8> {
  %w = arith.constant dense<[[[[1, 2, 3, 4, 5]]], [[[6, 7, 8, 9, 10]]], [[[11, 12, 13, 14, 15]]], [[[16, 17, 18, 19, 20]]], [[[21, 22, 23, 24, 25]]]]> : tensor<5x1x1x5xi8>
  %b = arith.constant dense<2> : tensor<5xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x1x2x5xi8>, tensor<5x1x1x5xi8>, tensor<5xi32>) -> tensor<1x1x2x5xi8>
  return %y : tensor<1x1x2x5xi8>
}
