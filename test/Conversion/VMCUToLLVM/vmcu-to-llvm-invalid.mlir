// RUN: vmcu-opt %s -split-input-file -verify-diagnostics --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @tensor_base_without_base() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.tensor_base' op tensor 'x' has no base segment; run --vmcu-solve-offsets first}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4} : !pool
  %v = vmcu.ring_load %pool[%x] : !pool -> vector<16xi8>
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @two_pools() {
  // expected-note @below {{first pool here}}
  %a = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.segment_pool' op is a second segment pool; a model has exactly one arena}}
  %b = vmcu.segment_pool : !pool
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @two_inputs() {
  %pool = vmcu.segment_pool : !pool
  // expected-note @below {{first input here}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "input"} : !pool
  // expected-error @below {{'vmcu.tensor_base' op is a second model input #0 tensor}}
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4, vmcu.io = "input"} : !pool
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

func.func @untiled_layer(%x: tensor<4x64xi8>, %w: tensor<32x64xi8>, %b: tensor<32xi32>) -> tensor<4x32xi8> {
  // expected-error @below {{'vmcu.fully_connected' op must be tiled before lowering to LLVM; run --vmcu-tile first}}
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<4x64xi8>, tensor<32x64xi8>, tensor<32xi32>) -> tensor<4x32xi8>
  return %y : tensor<4x32xi8>
}

// -----

func.func @tosa_left(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @below {{'tosa.abs' op must be converted to vmcu before lowering to LLVM; run --convert-tosa-to-vmcu first}}
  %y = tosa.abs %x : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// expected-error @below {{'llvm.mlir.global' op defines 'vmcu_arena', which the vmcu lowering reserves}}
llvm.mlir.global external @vmcu_arena() : i32

// -----

// Inputs are numbered from 0 without gaps.
!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
// expected-error @below {{the model has no input #0 but a later one}}
module {
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool : !pool
    %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "input", vmcu.io_index = 1 : i64} : !pool
    %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4, vmcu.io = "output"} : !pool
    %c0 = arith.constant 0 : i32
    return %c0 : i32
  }
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @io_index_too_large() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{is model output #4000000000; vmcu lowers up to 256 of each}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "output", vmcu.io_index = 4000000000 : i64} : !pool
  return
}
