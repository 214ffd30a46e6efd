// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s

// A softmax over one row (a classifier's scores) is emitted compact in
// every plan, with no compact_cycles to price: it runs once per inference,
// so its unrolled code buys almost nothing.
// CHECK: vmcu.kernel "softmax_0" {{.*}}attributes {compact, compact_cycles = 0 : i64, {{.*}}layer = "softmax"
func.func @main(%x: tensor<1x10xi8>) -> tensor<1x10xi8> {
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<1x10xi8>
  return %y : tensor<1x10xi8>
}
