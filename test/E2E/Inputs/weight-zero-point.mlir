// A conv (dilated 2), a depthwise and a matmul whose weights have non-zero
// zero points (7, -5, 9): vmcu folds them into the weights (before the
// dilation's zero taps). Checked against upstream
// MLIR's lowering by test/E2E/weight-zero-point.test.
func.func @main(%x: tensor<1x6x6x4xi8>) -> tensor<1x16x5xi8> {
  %w1 = "tosa.const"() {values = dense<[[[[97, 27, 40, 87], [17, 60, 73, -61], [-98, -44, -48, 82]], [[90, -109, -1, 70], [-82, 65, -84, -8], [69, -44, -35, -49]], [[48, -54, 107, -13], [-5, 1, 18, 11], [2, 109, 67, 64]]], [[[44, 26, -35, 107], [-8, -63, 75, -75], [78, 24, -85, -101]], [[-13, -103, -79, 3], [103, -8, 67, 91], [71, 28, -13, 3]], [[-52, -1, -27, -56], [108, -108, -89, -68], [103, 42, 84, -66]]], [[[48, -29, -3, -110], [25, 72, 36, -77], [7, -52, 102, 83]], [[-70, 2, 96, 76], [45, 30, -101, 53], [-6, -90, -57, 9]], [[49, 1, 24, 81], [40, -31, 31, 21], [-87, -97, 35, -25]]], [[[21, -39, -61, -77], [-27, 69, -22, -27], [16, 105, -24, 19]], [[-14, 23, -12, 30], [10, 38, 100, -77], [13, -14, -32, -58]], [[-99, -22, 71, -89], [-21, 102, 99, -63], [-109, 37, -107, -44]]], [[[-1, 82, -90, 35], [7, -82, 76, 75], [-4, 97, 23, 88]], [[101, 15, -49, -78], [13, -68, 55, 94], [-57, 11, -100, -71]], [[-28, 84, 103, 31], [18, 15, -97, -28], [106, -20, -64, -58]]], [[[46, -102, 103, 82], [14, -8, 57, 10], [-6, -40, -12, 55]], [[-98, -105, 48, -29], [66, -104, 89, -83], [-19, 102, -87, 34]], [[50, -16, -93, 5], [-15, 82, 40, -35], [-98, 19, -49, 40]]], [[[80, -32, 88, 4], [6, 58, 63, 90], [109, -77, -20, 95]], [[-43, -109, 16, 55], [53, 68, 31, -80], [76, -18, 76, 69]], [[103, -107, 80, 28], [-4, 64, 99, 2], [-91, 49, -60, -61]]], [[[-68, -67, 90, -31], [-87, -71, -24, -34], [-42, 98, 80, 16]], [[107, -36, -80, -51], [-91, 99, -62, -13], [-66, 105, -76, 3]], [[99, 4, 87, 87], [58, 53, 16, 17], [72, -17, 98, 83]]]]> : tensor<8x3x3x4xi8>} : () -> tensor<8x3x3x4xi8>
  %b1 = "tosa.const"() {values = dense<[-126, -89, 214, 422, -404, -432, -252, -71]> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp1 = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc1 = tosa.conv2d %x, %w1, %b1, %xzp, %wzp1 {acc_type = i32, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 2, 2>} : (tensor<1x6x6x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x8xi32>
  %m1 = "tosa.const"() {values = dense<[2040706727, 1990727080, 1090891260, 1128190891, 1695086071, 1437375319, 1977745949, 1415195157]> : tensor<8xi32>} : () -> tensor<8xi32>
  %s1 = "tosa.const"() {values = dense<[38, 38, 38, 39, 38, 39, 38, 38]> : tensor<8xi8>} : () -> tensor<8xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %yzp = "tosa.const"() {values = dense<4> : tensor<1xi8>} : () -> tensor<1xi8>
  %y1 = tosa.rescale %acc1, %m1, %s1, %zp32, %yzp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x6x6x8xi32>, tensor<8xi32>, tensor<8xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x6x8xi8>
  %w2 = "tosa.const"() {values = dense<[[[[-75], [4], [9], [99], [54], [-55], [63], [67]], [[39], [38], [-42], [47], [-81], [28], [92], [103]], [[-45], [-37], [26], [-23], [50], [-66], [-73], [-99]]], [[[-7], [-64], [-45], [91], [69], [74], [20], [-86]], [[54], [22], [89], [-5], [-72], [20], [-10], [35]], [[-28], [-43], [-83], [101], [56], [-8], [-59], [28]]], [[[-20], [29], [-91], [-70], [51], [-97], [39], [-20]], [[-110], [58], [43], [69], [87], [50], [75], [-86]], [[92], [90], [42], [66], [53], [83], [85], [5]]]]> : tensor<3x3x8x1xi8>} : () -> tensor<3x3x8x1xi8>
  %b2 = "tosa.const"() {values = dense<[316, 415, -203, -454, -330, -470, -66, -480]> : tensor<8xi32>} : () -> tensor<8xi32>
  %wzp2 = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc2 = tosa.depthwise_conv2d %y1, %w2, %b2, %yzp, %wzp2 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %m2 = "tosa.const"() {values = dense<[1785361398, 2000176184, 1541430916, 1929650328, 1401219352, 1212402632, 1963353193, 1897150572]> : tensor<8xi32>} : () -> tensor<8xi32>
  %s2 = "tosa.const"() {values = dense<[37, 37, 36, 36, 37, 37, 36, 37]> : tensor<8xi8>} : () -> tensor<8xi8>
  %y2 = tosa.rescale %acc2, %m2, %s2, %zp32, %yzp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<8xi32>, tensor<8xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  %shape = tosa.const_shape {values = dense<[1, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rows = tosa.reshape %y2, %shape : (tensor<1x4x4x8xi8>, !tosa.shape<3>) -> tensor<1x16x8xi8>
  %wf = "tosa.const"() {values = dense<[[[-54, -55, 45, -56, 98], [-69, 103, 14, -57, -102], [-43, 19, -87, -74, -85], [39, -91, -106, -10, -42], [15, 96, 78, 8, 31], [68, -14, 34, -63, 24], [-58, -68, 57, 16, -28], [-102, -58, 66, -8, 101]]]> : tensor<1x8x5xi8>} : () -> tensor<1x8x5xi8>
  %wzpf = "tosa.const"() {values = dense<9> : tensor<1xi8>} : () -> tensor<1xi8>
  %accf = tosa.matmul %rows, %wf, %yzp, %wzpf : (tensor<1x16x8xi8>, tensor<1x8x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x5xi32>
  %mf = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %sf = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-2> : tensor<1xi8>} : () -> tensor<1xi8>
  %yf = tosa.rescale %accf, %mf, %sf, %zp32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x16x5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x16x5xi8>
  return %yf : tensor<1x16x5xi8>
}
