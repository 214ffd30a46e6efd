// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// A softmax over 3 rows of 8: each row is ring-loaded whole (segments of at
// most a word: 4 bytes) and freed, then normalised with the flash table of
// exp (each exp's share of the sum is a rounding shift of it, not a second
// table), the reciprocal of the row's sum (math.ctlz normalises it), and
// stored back.
// CHECK-NOT: softmax_exp_sum
// exp(0) is One (2^31 - 1, little-endian in the hex form).
// CHECK: memref.global "private" constant @softmax_0_softmax_exp : memref<256xi32> = dense<"0xFFFFFF7F
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool {{.*}}segment_bytes = 4>
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input", segments = 6
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "softmax_0", segments = 6
// Over several rows the kernel keeps full optimization (not `compact`).
// CHECK: vmcu.kernel "softmax_0" ins(%[[X]]) outs(%[[Y]]) attributes {compact_cycles = {{[1-9][0-9]*}} : i64, {{.*}}layer = "softmax"{{.*}}segment_bytes = 4 : i64
// CHECK: %[[ROW:.*]] = memref.alloca() : memref<8xi8>
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK:   affine.for %[[J:.*]] = 0 to 2 {
// CHECK:     vmcu.ring_load %[[POOL]]
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.free %[[POOL]]
// CHECK:   %[[MAX:.*]] = affine.for {{.*}} = 0 to 8 iter_args
// CHECK:     arith.maxsi
// CHECK:   %[[SUM:.*]] = affine.for {{.*}} = 0 to 8 iter_args
// Each exp from the one table, rescaled by a rounding shift of 12 bits
// (RoundingDivideByPOT: the remainder against half, the sign's nudge).
// CHECK:     %[[EXP:.*]] = memref.load %{{.*}} : memref<256xi32>
// CHECK:     %[[TWELVE:.*]] = arith.constant 12 : i32
// CHECK:     arith.andi %[[EXP]]
// CHECK:     arith.cmpi sgt
// CHECK:     arith.shrsi %[[EXP]], %[[TWELVE]] : i32
// CHECK:   math.ctlz %[[SUM]] : i32
// CHECK:   affine.for {{.*}} = 0 to 8 {
// CHECK:     arith.divsi {{.*}} : i64
// CHECK:     memref.store {{.*}}, %[[ROW]]
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.ring_store {{.*}}, %[[POOL]]
// The row is freed before it is written: the output overwrites it in place.
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 6 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "softmax_0", segments = 6 : i64
func.func @main(%x: tensor<3x8xi8>) -> tensor<3x8xi8> {
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<3x8xi8>
  return %y : tensor<3x8xi8>
}
