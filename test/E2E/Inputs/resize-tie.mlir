// tosa.resize where twice the remainder equals the numerator (scale 2/2,
// offset 1, border -1): position 2o + 1 over 2 leaves remainder 1, and
// TOSA rounds that tie up, so rows and columns 1, 2, 3, 4 are copied
// (rounding it down would copy 0, 1, 2, 3). Used by resize.test.
func.func @main(%x: tensor<1x5x5x4xi8>) -> tensor<1x4x4x4xi8> {
  %scale = tosa.const_shape { values = dense<[2, 2, 2, 2]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<-1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x5x5x4xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}
