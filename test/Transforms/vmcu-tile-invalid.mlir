// RUN: vmcu-opt %s --vmcu-tile --split-input-file -verify-diagnostics

// expected-error @+1 {{vmcu-tile: no entry function @main}}
module {
  func.func @other() {
    return
  }
}

// -----

// expected-error @+1 {{vmcu-tile needs static int8 tensor inputs and results (at least one of each)}}
func.func @main(%x: tensor<2x16xi8>, %y: tensor<2x16xf32>) -> tensor<2x16xi8> {
  return %x : tensor<2x16xi8>
}

// -----

// A result must be computed by a layer (not be a model input).
// expected-error @+1 {{result #1 must be the output of a layer}}
func.func @main(%x: tensor<1x2x2x16xi8>) -> (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) {
  %t = arith.constant dense<1> : tensor<256xi8>
  %y = vmcu.table %x, %t : (tensor<1x2x2x16xi8>, tensor<256xi8>) -> tensor<1x2x2x16xi8>
  return %y, %x : tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>
}

// -----

// expected-error @+1 {{result #1 returns a tensor already returned}}
func.func @main(%x: tensor<1x2x2x16xi8>) -> (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) {
  %t = arith.constant dense<1> : tensor<256xi8>
  %y = vmcu.table %x, %t : (tensor<1x2x2x16xi8>, tensor<256xi8>) -> tensor<1x2x2x16xi8>
  return %y, %y : tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>
}

// -----

// expected-error @+1 {{input #1 is never read}}
func.func @main(%x: tensor<1x2x2x16xi8>, %unused: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %t = arith.constant dense<1> : tensor<256xi8>
  %y = vmcu.table %x, %t : (tensor<1x2x2x16xi8>, tensor<256xi8>) -> tensor<1x2x2x16xi8>
  return %y : tensor<1x2x2x16xi8>
}

// -----

func.func @main(%x: tensor<2x16xi8>) -> tensor<2x16xi8> {
  // expected-error @+1 {{is not a vmcu layer; run --convert-tosa-to-vmcu before vmcu-tile}}
  %y = tosa.abs %x : (tensor<2x16xi8>) -> tensor<2x16xi8>
  return %y : tensor<2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<2x16xi8>) -> tensor<2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  // A layer nobody reads would stay live and unplaced.
  // expected-error @+1 {{has an output no layer reads; vmcu-tile places graphs whose every layer feeds a result}}
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<2x16xi8>, tensor<16x16xi8>, tensor<16xi32>) -> tensor<2x16xi8>
  %z = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<2x16xi8>, tensor<16x16xi8>, tensor<16xi32>) -> tensor<2x16xi8>
  return %z : tensor<2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// Only vmcu.add, vmcu.mul and vmcu.concat read two tensors; here a conv
// reads the model input, reshaped, as its weight.
func.func @main(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  %flat = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x4x4x16xi8> into tensor<256xi8>
  %xw = tensor.expand_shape %flat [[0, 1, 2, 3]] output_shape [16, 1, 1, 16] : tensor<256xi8> into tensor<16x1x1x16xi8>
  // expected-error @+1 {{reads a second activation tensor; only vmcu.add, vmcu.mul, vmcu.batch_matmul, vmcu.concat and a conv's residual read several}}
  %z = vmcu.conv2d %y, %xw, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %z : tensor<1x4x4x16xi8>
}

// -----

// A resize index map that does not repeat within 16 outputs has no kernel.
func.func @main(%x: tensor<1x17x1x8xi8>) -> tensor<1x18x1x8xi8> {
  // expected-error @+1 {{(layer 'resize_nearest_0') needs index maps that repeat with a period of at most 16 outputs, got rows [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] and cols [0]}}
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>, cols = array<i64: 0>} : (tensor<1x17x1x8xi8>) -> tensor<1x18x1x8xi8>
  return %y : tensor<1x18x1x8xi8>
}
