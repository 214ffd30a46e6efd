// tosa.resize with an odd scale numerator (3/3, offset 1, border -2): TOSA
// rounds up where twice the remainder reaches the numerator (here never),
// so rows and columns 0..3 are copied. Used by resize.test.
func.func @main(%x: tensor<1x5x5x4xi8>) -> tensor<1x4x4x4xi8> {
  %scale = tosa.const_shape { values = dense<[3, 3, 3, 3]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<-2> : tensor<2xindex> } : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x5x5x4xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}
