#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x30xi8>) -> tensor<1x6xi8> {
  %w = arith.constant dense<1> : tensor<9x30xi8>
  %b = arith.constant dense<2> : tensor<9xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 3} : (tensor<1x30xi8>, tensor<9x30xi8>, tensor<9xi32>) -> tensor<1x9xi8>
  %w2 = arith.constant dense<1> : tensor<6x9xi8>
  %b2 = arith.constant dense<2> : tensor<6xi32>
  %z = vmcu.fully_connected %y, %w2, %b2 {input_zp = 0 : i32, requant = #rq, segment_bytes = 3} : (tensor<1x9xi8>, tensor<6x9xi8>, tensor<6xi32>) -> tensor<1x6xi8>
  return %z : tensor<1x6xi8>
}
