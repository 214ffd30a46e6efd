// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// Per batch: the rhs [8, 4] staged transposed (each row's segment loaded
// and freed), then per lhs row its two segments loaded and freed, four
// sums of two 4-lane dots each (x_offset = -lhs_zp), the per-tensor
// requantization and one output segment stored.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "batch_matmul_0" ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) attributes {{{.*}}layer = "batch_matmul", macs = 192 : i64, ring_accesses = 34 : i64, schedule = "dot", segment_bytes = 4 : i64
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK: vmcu.ring_load
// CHECK: vmcu.free
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK: vmcu.ring_load
// CHECK: vmcu.free
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: vmcu.dot %{{.*}} {x_offset = 1 : i32} : vector<4xi8>
// CHECK: vmcu.requantize
// CHECK: vmcu.ring_store
// The output (6 segments) lands on the inputs already read: the pool is
// the two inputs' 28 segments, not 34.
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 28, segment_bytes = 4>
func.func @main(%a: tensor<2x3x8xi8>, %b: tensor<2x8x4xi8>) -> tensor<2x3x4xi8> {
  %y = vmcu.batch_matmul %a, %b {lhs_zp = -1 : i32, rhs_zp = 2 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x3x8xi8>, tensor<2x8x4xi8>) -> tensor<2x3x4xi8>
  return %y : tensor<2x3x4xi8>
}
