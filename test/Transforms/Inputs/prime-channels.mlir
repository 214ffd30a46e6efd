// Five 1x1 convs over 13, 17 and 80 channels (test/Transforms/
// vmcu-select-segment-sizes.mlir): default segments 13, 1, 17, 1, 80, whose
// primes 13 and 17 have no SIMD-multiple divisor.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x6x6x13xi8>) -> tensor<1x6x6x80xi8> {
  %w0 = arith.constant dense<1> : tensor<13x1x1x13xi8>
  %b0 = arith.constant dense<0> : tensor<13xi32>
  %y0 = vmcu.conv2d %x, %w0, %b0 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x13xi8>, tensor<13x1x1x13xi8>, tensor<13xi32>) -> tensor<1x6x6x13xi8>
  %w1 = arith.constant dense<1> : tensor<17x1x1x13xi8>
  %b1 = arith.constant dense<0> : tensor<17xi32>
  %y1 = vmcu.conv2d %y0, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x13xi8>, tensor<17x1x1x13xi8>, tensor<17xi32>) -> tensor<1x6x6x17xi8>
  %w2 = arith.constant dense<1> : tensor<17x1x1x17xi8>
  %b2 = arith.constant dense<0> : tensor<17xi32>
  %y2 = vmcu.conv2d %y1, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x17xi8>, tensor<17x1x1x17xi8>, tensor<17xi32>) -> tensor<1x6x6x17xi8>
  %w3 = arith.constant dense<1> : tensor<80x1x1x17xi8>
  %b3 = arith.constant dense<0> : tensor<80xi32>
  %y3 = vmcu.conv2d %y2, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x17xi8>, tensor<80x1x1x17xi8>, tensor<80xi32>) -> tensor<1x6x6x80xi8>
  %w4 = arith.constant dense<1> : tensor<80x1x1x80xi8>
  %b4 = arith.constant dense<0> : tensor<80xi32>
  %y4 = vmcu.conv2d %y3, %w4, %b4 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x80xi8>, tensor<80x1x1x80xi8>, tensor<80xi32>) -> tensor<1x6x6x80xi8>
  return %y4 : tensor<1x6x6x80xi8>
}
