// RUN: vmcu-opt %s --vmcu-prefix-symbols=prefix=kws | FileCheck %s
// RUN: vmcu-opt %s --vmcu-prefix-symbols | FileCheck %s --check-prefix=DEFAULT
// RUN: not vmcu-opt %s --vmcu-prefix-symbols=prefix=9lives 2>&1 | FileCheck %s --check-prefix=BAD

// The C API the model defines takes the prefix, with every reference to
// it; its private tables, its internal kernels and the runtime's functions
// it calls (declarations) keep their names.
// CHECK: llvm.mlir.global external @kws_arena()
// CHECK: llvm.mlir.global external constant @kws_arena_bytes(64 : i32)
// CHECK: llvm.mlir.global private constant @conv_weights
// CHECK: llvm.func @vmcu_ring_check_init(i32)
// CHECK: llvm.func internal @vmcu_kernel_0_conv()
// CHECK: llvm.func @kws_invoke() -> i32
// CHECK:   llvm.call @vmcu_ring_check_init
// CHECK:   llvm.call @vmcu_kernel_0_conv()
// CHECK: llvm.func @kws_input() -> !llvm.ptr
// CHECK:   llvm.mlir.addressof @kws_arena : !llvm.ptr
// CHECK-NOT: @vmcu_arena
// CHECK-NOT: @vmcu_invoke

// The default prefix changes nothing.
// DEFAULT: llvm.mlir.global external @vmcu_arena()
// DEFAULT: llvm.func @vmcu_invoke() -> i32

// BAD: error: vmcu-prefix-symbols: symbol prefix '9lives' is not a C identifier

module {
  llvm.mlir.global external @vmcu_arena() {alignment = 8 : i64, section = ".vmcu_arena"} : !llvm.array<64 x i8>
  llvm.mlir.global external constant @vmcu_arena_bytes(64 : i32) : i32
  llvm.mlir.global private constant @conv_weights(dense<1> : tensor<4xi8>) : !llvm.array<4 x i8>
  llvm.func @vmcu_ring_check_init(i32)
  llvm.func internal @vmcu_kernel_0_conv() {
    llvm.return
  }
  llvm.func @vmcu_invoke() -> i32 {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.call @vmcu_ring_check_init(%0) : (i32) -> ()
    llvm.call @vmcu_kernel_0_conv() : () -> ()
    llvm.return %0 : i32
  }
  llvm.func @vmcu_input() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}
