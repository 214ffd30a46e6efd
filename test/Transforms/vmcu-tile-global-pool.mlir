// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s

// A conv folding a global average pool: its kernel `accumulates` (one
// core runs it). It zeroes a sum per channel, adds each output segment
// into them instead of storing it, and after the last input segment is
// read stores the averages (TFLite's: ties away from zero, a division by
// the plane's 16 pixels), the only ring stores.
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-SAME:  accumulates
// CHECK:       %[[SUMS:[a-z0-9_]+]] = memref.alloca() : memref<8xi32>
// CHECK:       memref.store %{{.*}}, %[[SUMS]][
// CHECK:       vmcu.ring_load
// CHECK-NOT:   vmcu.ring_store
// CHECK:       vmcu.gemm_tile
// CHECK-NOT:   vmcu.ring_store
// CHECK:       %[[SUM:[0-9]+]] = memref.load %[[SUMS]][
// CHECK:       %[[ADDED:.*]] = arith.addi %[[SUM]]
// CHECK:       memref.store %[[ADDED]], %[[SUMS]][
// CHECK-NOT:   vmcu.ring_store
// CHECK:       arith.constant 16 : index
// CHECK:       arith.divsi
// CHECK:       vmcu.ring_store
// CHECK-NOT:   vmcu.ring_store
// CHECK:       return
func.func @main(%x: tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8> {
  %w = arith.constant dense<1> : tensor<8x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>} : (tensor<1x4x4x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>) -> tensor<1x1x1x8xi8>
  return %y : tensor<1x1x1x8xi8>
}
