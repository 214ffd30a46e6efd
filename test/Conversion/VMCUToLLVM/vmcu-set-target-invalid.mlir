// RUN: vmcu-opt %s -verify-diagnostics --vmcu-set-target=cpu=cortex-m0

// The cpu option accepts only the cores vmcu targets.

// expected-error @below {{unknown cpu 'cortex-m0' for vmcu-set-target; expected cortex-m4, cortex-m7 or cortex-m33}}
module {
  llvm.func @vmcu_invoke() -> i32 {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
}
