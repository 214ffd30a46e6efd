func.func @main(%arg0: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  return %arg0 : tensor<1x4x4x4xi32>
}
