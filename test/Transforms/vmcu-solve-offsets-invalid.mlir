// RUN: vmcu-opt %s --vmcu-solve-offsets -split-input-file -verify-diagnostics

// A kernel without the segment size vmcu-tile declares on it.
!pool = !vmcu.pool<segments = 8, segment_bytes = 8>
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, vmcu.io = "input"} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, vmcu.io = "output"} : !pool
  // expected-error @+1 {{'vmcu.kernel' op has no segment_bytes; run vmcu-tile}}
  vmcu.kernel "k" ins(%x) outs(%y) {
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
