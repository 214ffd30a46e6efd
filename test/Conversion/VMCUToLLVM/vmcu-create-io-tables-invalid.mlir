// RUN: vmcu-opt %s -split-input-file -verify-diagnostics --vmcu-create-io-tables

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @two_outputs() {
  %pool = vmcu.segment_pool : !pool
  // expected-note @below {{first output here}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "output"} : !pool
  // expected-error @below {{'vmcu.tensor_base' op is a second model output #0 tensor}}
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4, vmcu.io = "output"} : !pool
  return
}

// -----

// Outputs are numbered from 0 without gaps.
!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
// expected-error @below {{the model has no output #1 but a later one}}
module {
  func.func @vmcu_invoke() {
    %pool = vmcu.segment_pool : !pool
    %x = vmcu.tensor_base %pool {name = "x", segments = 2, base = 0, vmcu.io = "input"} : !pool
    %y = vmcu.tensor_base %pool {name = "y", segments = 2, base = 2, vmcu.io = "output"} : !pool
    %z = vmcu.tensor_base %pool {name = "z", segments = 2, base = 4, vmcu.io = "output", vmcu.io_index = 2 : i64} : !pool
    return
  }
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @io_without_base() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.tensor_base' op tensor 'x' has no base segment; run --vmcu-solve-offsets first}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, vmcu.io = "input"} : !pool
  return
}

// -----

// expected-error @below {{'llvm.mlir.global' op defines 'vmcu_output_sizes', which the vmcu lowering reserves}}
llvm.mlir.global external @vmcu_output_sizes() : i32
