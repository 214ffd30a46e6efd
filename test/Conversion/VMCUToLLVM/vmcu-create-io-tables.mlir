// RUN: vmcu-opt %s -split-input-file --vmcu-create-io-tables | FileCheck %s

// Every model input and output in vmcu.io_index order: the count, the byte
// offset in the arena (base * segment_bytes) and the byte count. The tensor
// bases keep their markers for convert-vmcu-to-llvm.

!pool = !vmcu.pool<segments = 16, segment_bytes = 8>

// CHECK:       llvm.mlir.global external constant @vmcu_input_count(2 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
// CHECK-NEXT:  llvm.mlir.global external constant @vmcu_input_offsets(dense<[64, 32]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<2 x i32>
// CHECK-NEXT:  llvm.mlir.global external constant @vmcu_input_sizes(dense<[16, 24]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<2 x i32>
// CHECK-NEXT:  llvm.mlir.global external constant @vmcu_output_count(1 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
// CHECK-NEXT:  llvm.mlir.global external constant @vmcu_output_offsets(dense<0> : tensor<1xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<1 x i32>
// CHECK-NEXT:  llvm.mlir.global external constant @vmcu_output_sizes(dense<32> : tensor<1xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<1 x i32>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK:       vmcu.tensor_base {{.*}} vmcu.io = "input", vmcu.io_index = 1 : i64
// CHECK:       vmcu.tensor_base {{.*}} vmcu.io = "input"
// CHECK:       vmcu.tensor_base {{.*}} vmcu.io = "output"
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool : !pool
  %b = vmcu.tensor_base %pool {name = "b", segments = 3, base = 4, vmcu.io = "input", vmcu.io_index = 1 : i64} : !pool
  %a = vmcu.tensor_base %pool {name = "a", segments = 2, base = 8, vmcu.io = "input"} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 0, vmcu.io = "output"} : !pool
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// A module without an output (a test of single kernels) gets no tables.

!pool = !vmcu.pool<segments = 16, segment_bytes = 8>

// CHECK-NOT:   llvm.mlir.global
// CHECK-LABEL: func.func @no_output
func.func @no_output() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 2, base = 0, vmcu.io = "input"} : !pool
  return
}
