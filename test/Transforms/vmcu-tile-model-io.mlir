// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring --split-input-file | FileCheck %s --check-prefix=PLACE
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --lower-affine --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target --split-input-file | FileCheck %s --check-prefix=LLVM

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Two inputs, two outputs: each marked with its position (vmcu.io_index,
// absent for 0). The concat's output is also read by the conv, but as a
// model output it stays live to the end.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[A:.*]] = vmcu.tensor_base %{{.*}} {name = "input_0", segments = 4 : i64, vmcu.io = "input"}
// CHECK: %[[B:.*]] = vmcu.tensor_base %{{.*}} {name = "input_1", segments = 4 : i64, vmcu.io = "input", vmcu.io_index = 1 : i64}
// CHECK: %[[C:.*]] = vmcu.tensor_base %{{.*}} {name = "concat_0", segments = 8 : i64, vmcu.io = "output"}
// CHECK: %[[Y:.*]] = vmcu.tensor_base %{{.*}} {name = "conv2d_1", segments = 4 : i64, vmcu.io = "output", vmcu.io_index = 1 : i64}
// CHECK: vmcu.kernel "concat_0" ins(%[[B]], %[[A]]) outs(%[[C]])
// CHECK: vmcu.kernel "conv2d_1" ins(%[[C]]) outs(%[[Y]])
// CHECK-NOT: vmcu.free
// CHECK: return
// The inputs start side by side; every input and output is contiguous.
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 12, segment_bytes = 8>
// PLACE: {base = 3 : i64, name = "input_0"
// PLACE: {base = 7 : i64, name = "input_1"
// PLACE: {base = 0 : i64, name = "concat_0"
// PLACE: {base = 8 : i64, name = "conv2d_1"
// The tables of every input and output: counts, byte offsets, byte counts.
// LLVM-DAG: llvm.mlir.global external constant @vmcu_input_count(2 : i32)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_input_offsets(dense<[24, 56]> : tensor<2xi32>)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_input_sizes(dense<32> : tensor<2xi32>)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_output_count(2 : i32)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_output_offsets(dense<[0, 64]> : tensor<2xi32>)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_output_sizes(dense<[64, 32]> : tensor<2xi32>)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_input_bytes(32 : i32)
// LLVM-DAG: llvm.mlir.global external constant @vmcu_output_bytes(64 : i32)
func.func @main(%a: tensor<1x2x2x8xi8>, %b: tensor<1x2x2x8xi8>) -> (tensor<1x2x2x16xi8>, tensor<1x2x2x8xi8>) {
  %w = arith.constant dense<1> : tensor<8x1x1x16xi8>
  %bias = arith.constant dense<2> : tensor<8xi32>
  %c = vmcu.concat %a, %b {axis = 3 : i32} : (tensor<1x2x2x8xi8>, tensor<1x2x2x8xi8>) -> tensor<1x2x2x16xi8>
  %y = vmcu.conv2d %c, %w, %bias {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  return %c, %y : tensor<1x2x2x16xi8>, tensor<1x2x2x8xi8>
}
