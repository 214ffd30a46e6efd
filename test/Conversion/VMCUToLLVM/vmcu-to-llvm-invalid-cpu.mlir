// RUN: vmcu-opt %s -verify-diagnostics --vmcu-outline-kernels --convert-vmcu-to-llvm=cpu=cortex-m0

// The cpu option accepts only the cores vmcu targets.

// expected-error @below {{unknown cpu 'cortex-m0' for convert-vmcu-to-llvm; expected cortex-m4, cortex-m7 or cortex-m33}}
module {
  func.func @vmcu_invoke() -> i32 {
    %c0 = arith.constant 0 : i32
    return %c0 : i32
  }
}
