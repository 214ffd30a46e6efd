// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// A 3x3 stride-2 max pool with SAME padding over 5x5x8: per output pixel
// the running maximum starts at -128, takes the in-bounds taps only (the
// clipped tap loops), is clamped, and the input pixels whose last reader
// this output is are freed before the output segment is stored.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "max_pool2d_0" {{.*}}layer = "max_pool2d"
// CHECK: affine.for %[[P:.*]] = 0 to 3 {
// CHECK:   affine.for %[[Q:.*]] = 0 to 3 {
// CHECK:     memref.store %c-128_i8
// CHECK:     affine.for %{{.*}} = max
// CHECK:       vmcu.ring_load
// CHECK:       arith.maxsi
// CHECK:     arith.maxsi {{.*}}, %c-20_i8
// CHECK:     arith.minsi {{.*}}, %c100_i8
// CHECK:     vmcu.free
// CHECK:     vmcu.ring_store
// The output (72 B) is placed over the input's (200 B) first segments.
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 25 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "max_pool2d_0", segments = 9 : i64
func.func @main(%x: tensor<1x5x5x8xi8>) -> tensor<1x3x3x8xi8> {
  %y = vmcu.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, min = -20 : i32, max = 100 : i32} : (tensor<1x5x5x8xi8>) -> tensor<1x3x3x8xi8>
  return %y : tensor<1x3x3x8xi8>
}
