// RUN: vmcu-opt %s --vmcu-tile -verify-diagnostics

// A window pool 3 pixels wide over an im2col conv: a window row is one
// im2col block of at most 2 pixels, so the tiler reports it (the pass
// folds no such pool; hand-written IR can hold one).
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x8xi8>) -> tensor<1x2x2x8xi8> {
  %w = arith.constant dense<1> : tensor<8x3x3x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  // expected-error @+1 {{cannot tile a window_avg_pool 3 pixels wide over im2col blocks of 2}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 3, kernel_w = 3, input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>} : (tensor<1x8x8x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}
