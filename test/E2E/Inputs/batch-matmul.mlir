// Two tosa.matmul over activations (TFLite's BATCH_MATMUL): x times its own
// transpose (two pool tensors, odd sizes: segments of 1 byte), then the
// 7x7 result times itself (one tensor as both operands). Checked against
// upstream MLIR's lowering by test/E2E/batch-matmul.test.
func.func @main(%x: tensor<3x7x5xi8>) -> tensor<3x7x7xi8> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<3x7x5xi8>) -> tensor<3x5x7xi8>
  %azp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<11> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %x, %t, %azp, %bzp : (tensor<3x7x5xi8>, tensor<3x5x7xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x7x7xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<42> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<3x7x7xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<3x7x7xi8>
  %c = tosa.clamp %r {min_val = -100 : i8, max_val = 127 : i8} : (tensor<3x7x7xi8>) -> tensor<3x7x7xi8>
  %zp2 = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc2 = tosa.matmul %c, %c, %zp2, %zp2 : (tensor<3x7x7xi8>, tensor<3x7x7xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x7x7xi32>
  %m2 = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s2 = "tosa.const"() {values = dense<43> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp2 = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %r2 = tosa.rescale %acc2, %m2, %s2, %izp, %ozp2 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<3x7x7xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<3x7x7xi8>
  return %r2 : tensor<3x7x7xi8>
}
