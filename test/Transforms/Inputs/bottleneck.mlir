#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
func.func @main(%a: tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8> {
  %w1 = arith.constant dense<1> : tensor<24x1x1x8xi8>
  %b1 = arith.constant dense<0> : tensor<24xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x24x1xi8>
  %b2 = arith.constant dense<0> : tensor<24xi32>
  %w3 = arith.constant dense<1> : tensor<8x1x1x24xi8>
  %b3 = arith.constant dense<0> : tensor<8xi32>
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  %e = vmcu.add %d, %a {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
  return %e : tensor<1x6x6x8xi8>
}
