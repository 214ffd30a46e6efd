// RUN: vmcu-opt %s --vmcu-set-target | FileCheck %s
// RUN: vmcu-opt %s --vmcu-set-target=cpu=cortex-m7 | FileCheck %s --check-prefix=M7
// RUN: vmcu-opt %s --vmcu-set-target=cpu=cortex-m33 | FileCheck %s --check-prefix=M33

// The module gets the core's triple and the AAPCS data layout, every
// llvm.func its target_cpu and the DSP feature; other ops are untouched.

// CHECK:       module attributes {llvm.data_layout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64", llvm.target_triple = "thumbv7em-none-eabi"}
// CHECK:       llvm.mlir.global external constant @vmcu_arena_bytes(64 : i32)
// CHECK-NOT:   target_cpu
// CHECK-LABEL: llvm.func @vmcu_invoke() -> i32
// CHECK-SAME:  target_cpu = "cortex-m4"
// CHECK-SAME:  target_features = #llvm.target_features<["+dsp"]>
// CHECK-LABEL: llvm.func internal @vmcu_kernel_0_k()
// CHECK-SAME:  target_cpu = "cortex-m4"
// CHECK-SAME:  target_features = #llvm.target_features<["+dsp"]>

// M7:          module attributes {llvm.data_layout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64", llvm.target_triple = "thumbv7em-none-eabi"}
// M7-LABEL:    llvm.func @vmcu_invoke() -> i32
// M7-SAME:     target_cpu = "cortex-m7"
// M7-SAME:     target_features = #llvm.target_features<["+dsp"]>

// M33:         module attributes {llvm.data_layout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64", llvm.target_triple = "thumbv8m.main-none-eabi"}
// M33-LABEL:   llvm.func @vmcu_invoke() -> i32
// M33-SAME:    target_cpu = "cortex-m33"
// M33-SAME:    target_features = #llvm.target_features<["+dsp"]>
module {
  llvm.mlir.global external constant @vmcu_arena_bytes(64 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
  llvm.func @vmcu_invoke() -> i32 {
    llvm.call @vmcu_kernel_0_k() : () -> ()
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
  llvm.func internal @vmcu_kernel_0_k() {
    llvm.return
  }
}
