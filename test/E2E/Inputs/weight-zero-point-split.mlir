// A conv2d with weight zero point -128 (127 - -128 = 255 needs three int8
// parts) and a matmul with weight zero point 100 (-128 - 100 = -228 needs
// two): vmcu runs each over its input repeated along the channels, the
// differences split into int8 parts. Checked against upstream MLIR's
// lowering by test/E2E/weight-zero-point.test.
func.func @main(%x: tensor<1x5x6x5xi8>) -> tensor<1x6x7xi8> {
  %w1 = "tosa.const"() {values = dense<[[[[ 127,   78, -123,   78,   -8],
   [   3,   33,  -55,  122, -115],
   [ -57,  -30,   18,  -24,  -95]],

  [[-117, -128, -116,  -90,  127],
   [ -80,   39,   64,  -68,  -56],
   [ -17,  -61,  121,  -83,  101]],

  [[  76,   88,  -99,  -28,   32],
   [  -2,   42,   45,   41, -113],
   [ 117,   14,  103,  -59,  -36]]],


 [[[  97,  -81, -112,  -33,   45],
   [ -97,   94,  -41,  -70,   11],
   [ 101,   98,   95,  -50, -124]],

  [[  71,   53,   69, -128, -119],
   [   0, -128,  -17,  110,  -76],
   [   7,  -45,  -53,   78,  -89]],

  [[ -47,  -98,  -90,  -57,   50],
   [  20,  -14,  -85,   76,   76],
   [ -68, -113,  -47,  -91,   76]]],


 [[[   5,    1,  -54,    1,  119],
   [ -68,   68, -125,  -48,  110],
   [  95, -107,   87,   88,  -12]],

  [[ -34,  122,  115,   45,  -26],
   [ -75,  111,  -60,   14,   44],
   [ -67,  -48,   61,  -78,   44]],

  [[ 113,   47,   37,  -10,  119],
   [ -72,  -37,   36,   39, -101],
   [ -87,   49,   87,   34,  110]]],


 [[[ -32,  -44,   76, -118,  -79],
   [ -79,  -29,  -88,   76,   88],
   [ -31, -121,   54, -101,   28]],

  [[ -85,  112,   45,  125,   29],
   [  57,  -32,   79, -100,  -89],
   [ -36,   54,   -4,   88,  113]],

  [[ -26,  -20,   13,   37,   -6],
   [  26,  117,   59,  -47,  -20],
   [ -26,  -90, -128,   74,  -21]]],


 [[[ -38,   33,   16,  111,   29],
   [ 108,   20,  -45,  -46,  125],
   [  22,  -80,   84,   82, -126]],

  [[ -88,   49,  -25,  -41, -110],
   [ -80,   91,   85,   84,   18],
   [ -93,  -46,    6,  126,  -62]],

  [[  12,   -3,    0,   13,   52],
   [-101,  123,   93,   68,  -57],
   [ -16,  -14,  -49, -114,   62]]],


 [[[-128,   67,  -79,   36,  -41],
   [ -68,  109,   -7,   99,  -80],
   [  -5,  -40,  -12, -125,   42]],

  [[ -40,   91,  -74,  -42, -117],
   [  75,    8,  -26,  106,   24],
   [ 118,   60,   21,    0,  -77]],

  [[  48,   74,   50,  -23, -127],
   [  60, -118,   77,  -90,  -50],
   [ -74,   10,  -76,  -62, -116]]]]> : tensor<6x3x3x5xi8>} : () -> tensor<6x3x3x5xi8>
  %b1 = "tosa.const"() {values = dense<[ 481, -283, -309,  100, -359,  386]> : tensor<6xi32>} : () -> tensor<6xi32>
  %xzp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp1 = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc1 = tosa.conv2d %x, %w1, %b1, %xzp, %wzp1 {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x6x5xi8>, tensor<6x3x3x5xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6x6xi32>
  %m1 = "tosa.const"() {values = dense<[1913712776, 1449018679, 1503634124, 1467165980, 1863095244, 1521214852]> : tensor<6xi32>} : () -> tensor<6xi32>
  %s1 = "tosa.const"() {values = dense<40> : tensor<6xi8>} : () -> tensor<6xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %yzp = "tosa.const"() {values = dense<-7> : tensor<1xi8>} : () -> tensor<1xi8>
  %y1 = tosa.rescale %acc1, %m1, %s1, %zp32, %yzp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x5x6x6xi32>, tensor<6xi32>, tensor<6xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x5x6x6xi8>
  %shape = tosa.const_shape {values = dense<[1, 6, 30]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rows = tosa.reshape %y1, %shape : (tensor<1x5x6x6xi8>, !tosa.shape<3>) -> tensor<1x6x30xi8>
  %wf = "tosa.const"() {values = dense<[[[-128,   46,  -93,   73,  -19,  112,  -62],
  [ -32,  127,   52, -118,  -41, -124,   82],
  [ -22,  -69,   57,   94, -102,    1,  -35],
  [  57,  110,    8,   63,  -48,   20,   -2],
  [  59, -116,  -68, -117,  122,    7,   -3],
  [  -6, -120,   85,   88, -123,   31,   14],
  [ -31,   -3,   97,   25,   -3,   58,   49],
  [   6,   84,   16,   30,   -3,   23,   29],
  [ 102,  -65,  -35,   13,  -42,   44,   83],
  [ -80, -114,  125,    2,   63,   66,  116],
  [-120,  -53,  123,  -15,  -27,  -62, -123],
  [-117,  121, -124,  -93,  -65,  -56,   92],
  [ -45,  -87,  -28,   48,  -14,  -65,  -98],
  [-112,   -3,  -79,   21,   45,  -31,    0],
  [-114,   12,  -82,  -12, -100,  -58,  -22],
  [  -3, -121,  108,  -21,  -77,  -78,   59],
  [ -16,  -64,  -13,  -79,  -87,  -46,  118],
  [-105,   11,  111,  -10,  -35,   14,  -83],
  [  50, -128,   16, -113, -123,  -74,   56],
  [ -22,  -21,   26, -111,  123,   -4,   99],
  [  65,  -66,  -51,   28,   87,  107,   -4],
  [-102,  126,   90,   54,  -27,  -94,   72],
  [ -76,  -46,   93,   32,  -52,    1,   28],
  [-102,  -58,   66,   32,   82,   60,   -5],
  [ -52,  -29,  -77,  114, -121,  -33, -111],
  [  97,   39,  -21,   74,  -33,   -9,  -36],
  [  66, -113,   12,  -58,  121,  -70,  -26],
  [-113,   -1,   10,   64,  -15,  -65, -122],
  [ 105,  -89,   69,  107,  -46,  -94,   49],
  [ -33, -119,  115,  104,  -99,   58,  -24]]]> : tensor<1x30x7xi8>} : () -> tensor<1x30x7xi8>
  %wzpf = "tosa.const"() {values = dense<100> : tensor<1xi8>} : () -> tensor<1xi8>
  %accf = tosa.matmul %rows, %wf, %yzp, %wzpf : (tensor<1x6x30xi8>, tensor<1x30x7xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x7xi32>
  %mf = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %sf = "tosa.const"() {values = dense<44> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-2> : tensor<1xi8>} : () -> tensor<1xi8>
  %yf = tosa.rescale %accf, %mf, %sf, %zp32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x6x7xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x7xi8>
  return %yf : tensor<1x6x7xi8>
}
