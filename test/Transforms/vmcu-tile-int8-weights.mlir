// RUN: vmcu-opt %s --vmcu-tile=widen-weights=false | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// With widen-weights=false the GEMM keeps int8 weights (half the flash of
// the default's int16 pairs, see vmcu-tile.mlir). A fully connected layer
// is a GEMM (TileGemm.cpp): per block of 2 rows,
// both rows' segments are ring-loaded into a buffer and freed, and the
// short rows widened to int16 pairs; then per output segment, each 4 of
// its channels are one vmcu.dot_block 2 x 4 register tile over paired int8
// weights (biases with the input zero point folded in; each pair's H starts
// from bias[c] + 256 * bias[c + 1]) and requantization blocks of 3 channels
// and of the last, both rows in each, in an
// scf.for LLVM must not unroll, and both rows' segments are stored.
// CHECK-LABEL: func.func @vmcu_invoke() -> i32
// CHECK: %[[POOL:.*]] = vmcu.segment_pool : !vmcu.pool<segments = 6, segment_bytes = 8>
// CHECK: %[[IN:.*]] = vmcu.tensor_base %[[POOL]] {name = "input", segments = 4 : i64, vmcu.io = "input"}
// CHECK: %[[OUT:.*]] = vmcu.tensor_base %[[POOL]] {name = "fully_connected_0", segments = 2 : i64, vmcu.io = "output"}
// CHECK: vmcu.kernel "fully_connected_0" ins(%[[IN]]) outs(%[[OUT]]) attributes {compact_cycles = {{[0-9]+}} : i64, estimated_cycles = {{[0-9]+}} : i64, executed_macs = 256 : i64, int8_weight_cycles = 10 : i64, int8_weights, layer = "fully_connected", macs = 256 : i64, ring_accesses = 6 : i64, schedule = "gemm", segment_bytes = 8 : i64
// CHECK: %[[O:.*]] = memref.alloca() : memref<16xi8>
// CHECK: %[[XW:.*]] = memref.alloca() : memref<16xi32>
// CHECK-DAG: %[[W:.*]] = memref.get_global @fully_connected_0_weights : memref<128xi8>
// CHECK-DAG: memref.get_global @fully_connected_0_bias : memref<8xi32>
// CHECK: %[[X:.*]] = memref.alloca() : memref<32xi8>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.ring_load %[[POOL]]
// CHECK:     vector.store %{{.*}}, %[[X]]
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.ring_load %[[POOL]]
// CHECK:     vector.store %{{.*}}, %[[X]]
// CHECK:   vmcu.free %[[POOL]]
// CHECK:   vmcu.free %[[POOL]]
// CHECK:   vmcu.widen_pairs
// CHECK:   vector.store %{{.*}}, %[[XW]]
// CHECK:   affine.for %{{.*}} = 0 to 1 {
// CHECK:     scf.for
// CHECK:       %[[S:.*]]:8 = vmcu.dot_block %[[XW]][%{{.*}}], %[[W]][%{{.*}}], %[[B0:.*]], %[[H0:.*]], %[[B2:.*]], %[[H2:.*]], %[[B0]], %[[H0]], %[[B2]], %[[H2]] {paired_weights, pixels = 2 : i64, widened, words = 4 : i64, x_stride = 32 : i64}
// CHECK:       vmcu.requant_block %[[S]]#0, %{{[0-9]+}}, %[[S]]#2, %[[S]]#4, %{{[0-9]+}}, %[[S]]#6 into {{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 8 : i64, output_zp = 0 : i32, pixels = 2 : i64, uniform_table}
// CHECK:       vmcu.requant_block %{{[0-9]+}}, %{{[0-9]+}} into {{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 8 : i64, output_zp = 0 : i32, pixels = 2 : i64, uniform_table}
// CHECK:     } {llvm.loop_annotation = #{{.*}}}
// CHECK:     vector.load %[[O]]
// CHECK:     vmcu.ring_store %{{.*}}, %[[POOL]]
// CHECK:     vector.load %[[O]]
// CHECK:     vmcu.ring_store %{{.*}}, %[[POOL]]
// CHECK: return
// CHECK-NOT: func.func @main
func.func @main(%x: tensor<2x16xi8>) -> tensor<2x8xi8> {
  %w = arith.constant dense<1> : tensor<8x16xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<2x16xi8>, tensor<8x16xi8>, tensor<8xi32>) -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}

