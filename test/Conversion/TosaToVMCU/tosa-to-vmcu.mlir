// RUN: vmcu-opt %s --split-input-file --convert-tosa-to-vmcu | FileCheck %s

// A pointwise conv, per-tensor DOUBLE_ROUND rescale, no clamp: the int8
// range becomes the requant clamp and every TOSA op disappears.
// CHECK-LABEL: func.func @conv2d_1x1(
// CHECK-SAME:    %[[X:.*]]: tensor<1x4x4x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<3> : tensor<16x1x1x8xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi32>
// CHECK:         %[[Y:.*]] = vmcu.conv2d %[[X]], %[[W]], %[[B]] {input_zp = -128 : i32, pad = array<i64: 0, 0, 0, 0>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 5, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
// CHECK-NEXT:    return %[[Y]] : tensor<1x4x4x16xi8>
// CHECK-NOT:     tosa.
func.func @conv2d_1x1(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = "tosa.const"() {values = dense<3> : tensor<16x1x1x8xi8>} : () -> tensor<16x1x1x8xi8>
  %b = "tosa.const"() {values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi32>} : () -> tensor<16xi32>
  %xzp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x16xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}
// -----

// 3x3 stride 2 with TFLite SAME padding (0, 1, 0, 1); the one-element bias
// is broadcast to all 8 output channels; SINGLE_ROUND -> double_round false.
// CHECK-LABEL: func.func @conv2d_3x3_stride2_pad(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x8x4xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<8x3x3x4xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<-7> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.conv2d %[[X]], %[[W]], %[[B]] {input_zp = 3 : i32, pad = array<i64: 0, 1, 0, 1>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1518500250], shift = [38], double_round = false, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @conv2d_3x3_stride2_pad(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<8x3x3x4xi8>} : () -> tensor<8x3x3x4xi8>
  %b = "tosa.const"() {values = dense<-7> : tensor<1xi32>} : () -> tensor<1xi32>
  %xzp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// Per-channel requantisation: one multiplier and shift per output channel.
// CHECK-LABEL: func.func @conv2d_per_channel(
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
// CHECK:         vmcu.conv2d %{{.*}}, %{{.*}}, %[[B]] {input_zp = 0 : i32,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -1, multiplier = [1073741824, 1342177280, 2013265920], shift = [35, 36, 37], double_round = true, min = -128, max = 127>
func.func @conv2d_per_channel(%x: tensor<1x5x5x2xi8>) -> tensor<1x3x3x3xi8> {
  %w = "tosa.const"() {values = dense<2> : tensor<3x3x3x2xi8>} : () -> tensor<3x3x3x2xi8>
  %b = "tosa.const"() {values = dense<[10, 20, 30]> : tensor<3xi32>} : () -> tensor<3xi32>
  %xzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x5x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x3xi32>
  %m = "tosa.const"() {values = dense<[1073741824, 1342177280, 2013265920]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s = "tosa.const"() {values = dense<[35, 36, 37]> : tensor<3xi8>} : () -> tensor<3xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x3x3x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x3x3xi8>
  return %y : tensor<1x3x3x3xi8>
}

// -----

// A 16-bit multiplier (scale32 = false) has the exact 32-bit form
// m << 16, shift + 16.
// CHECK-LABEL: func.func @conv2d_scale16(
// CHECK:         vmcu.conv2d
// CHECK-SAME:      multiplier = [1073741824, 1610612736], shift = [31, 36], double_round = false
func.func @conv2d_scale16(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x2xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<2x1x1x4xi8>} : () -> tensor<2x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %xzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x2x4xi8>, tensor<2x1x1x4xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %m = "tosa.const"() {values = dense<[16384, 24576]> : tensor<2xi16>} : () -> tensor<2xi16>
  %s = "tosa.const"() {values = dense<[15, 20]> : tensor<2xi8>} : () -> tensor<2xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x2x2x2xi32>, tensor<2xi16>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// ReLU6-style clamps after the rescale fold into the requant range; two
// clamps intersect.
// CHECK-LABEL: func.func @conv2d_clamp(
// CHECK:         %[[Y:.*]] = vmcu.conv2d
// CHECK-SAME:      pad = array<i64: 1, 1, 1, 1>
// CHECK-SAME:      output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -120, max = 100>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     tosa.clamp
func.func @conv2d_clamp(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %xzp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  %c = tosa.clamp %r {min_val = -128 : i8, max_val = 100 : i8} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  %d = tosa.clamp %c {min_val = -120 : i8, max_val = 127 : i8} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %d : tensor<1x4x4x4xi8>
}

// -----

// Depthwise 3x3, stride 1.
// CHECK-LABEL: func.func @depthwise_3x3_stride1(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<3x3x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 1, 1, 1, 1>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x16x16x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_3x3_stride1(%x: tensor<1x16x16x8xi8>) -> tensor<1x16x16x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<3x3x8x1xi8>} : () -> tensor<3x3x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x16x16x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x16x16x8xi8>
  return %y : tensor<1x16x16x8xi8>
}

// -----

// Depthwise 3x3, stride 2.
// CHECK-LABEL: func.func @depthwise_3x3_stride2(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<3x3x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 0, 1, 0, 1>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x16x16x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_3x3_stride2(%x: tensor<1x16x16x8xi8>) -> tensor<1x8x8x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<3x3x8x1xi8>} : () -> tensor<3x3x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x8x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}

// -----

// Depthwise 5x5, stride 1.
// CHECK-LABEL: func.func @depthwise_5x5_stride1(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<5x5x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 2, 2, 2, 2>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<5x5x8x1xi8>, tensor<8xi32>) -> tensor<1x16x16x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_5x5_stride1(%x: tensor<1x16x16x8xi8>) -> tensor<1x16x16x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<5x5x8x1xi8>} : () -> tensor<5x5x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<5x5x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x16x16x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x16x16x8xi8>
  return %y : tensor<1x16x16x8xi8>
}

// -----

// Depthwise 5x5, stride 2.
// CHECK-LABEL: func.func @depthwise_5x5_stride2(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<5x5x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 1, 2, 1, 2>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x16x16x8xi8>, tensor<5x5x8x1xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_5x5_stride2(%x: tensor<1x16x16x8xi8>) -> tensor<1x8x8x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<5x5x8x1xi8>} : () -> tensor<5x5x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 1, 2, 1, 2>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<5x5x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x8x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}

// -----

// Depthwise 7x7, stride 1.
// CHECK-LABEL: func.func @depthwise_7x7_stride1(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<7x7x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 3, 3, 3, 3>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<7x7x8x1xi8>, tensor<8xi32>) -> tensor<1x16x16x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_7x7_stride1(%x: tensor<1x16x16x8xi8>) -> tensor<1x16x16x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<7x7x8x1xi8>} : () -> tensor<7x7x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 3, 3, 3, 3>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<7x7x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x16x16x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x16x16x8xi8>
  return %y : tensor<1x16x16x8xi8>
}

// -----

// Depthwise 7x7, stride 2.
// CHECK-LABEL: func.func @depthwise_7x7_stride2(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x16x8xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<7x7x8x1xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<8xi32>
// CHECK:         %[[Y:.*]] = vmcu.depthwise_conv2d %[[X]], %[[W]], %[[B]] {input_zp = -5 : i32, pad = array<i64: 2, 3, 2, 3>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 2, multiplier = [1073741824], shift = [33], double_round = true, min = -128, max = 127>,
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x16x16x8xi8>, tensor<7x7x8x1xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @depthwise_7x7_stride2(%x: tensor<1x16x16x8xi8>) -> tensor<1x8x8x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<7x7x8x1xi8>} : () -> tensor<7x7x8x1xi8>
  %b = "tosa.const"() {values = dense<4> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 2, 3, 2, 3>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xi8>, tensor<7x7x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x8x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}

// -----

// tosa.matmul with a constant B [1, K, N] and a constant bias add: B is
// transposed to vmcu's [N, K] layout, the bias flattened to [N], and
// reshapes give the 2-D [M, K] / [M, N] shapes.
// CHECK-LABEL: func.func @matmul_fc_bias(
// CHECK-SAME:    %[[A:.*]]: tensor<1x2x3xi8>)
// CHECK-DAG:     %[[ROWS:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<1x2x3xi8> into tensor<2x3xi8>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[}}[1, 3, 5], [2, 4, 6]]> : tensor<2x3xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[100, -100]> : tensor<2xi32>
// CHECK:         %[[FC:.*]] = vmcu.fully_connected %[[ROWS]], %[[W]], %[[B]] {input_zp = -128 : i32,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [34], double_round = true, min = 0, max = 127>}
// CHECK-SAME:      : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2xi32>) -> tensor<2x2xi8>
// CHECK:         %[[Y:.*]] = tensor.expand_shape %[[FC]] {{\[}}[0, 1], [2]] output_shape [1, 2, 2] : tensor<2x2xi8> into tensor<1x2x2xi8>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     tosa.
func.func @matmul_fc_bias(%a: tensor<1x2x3xi8>) -> tensor<1x2x2xi8> {
  %b = "tosa.const"() {values = dense<[[[1, 2], [3, 4], [5, 6]]]> : tensor<1x3x2xi8>} : () -> tensor<1x3x2xi8>
  %azp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  %bias = "tosa.const"() {values = dense<[[[100, -100]]]> : tensor<1x1x2xi32>} : () -> tensor<1x1x2xi32>
  %sum = tosa.add %bias, %acc : (tensor<1x1x2xi32>, tensor<1x2x2xi32>) -> tensor<1x2x2xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<34> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %sum, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2xi8>
  %c = tosa.clamp %r {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x2x2xi8>) -> tensor<1x2x2xi8>
  return %c : tensor<1x2x2xi8>
}

// -----

// tosa.matmul over two activations (TFLite's BATCH_MATMUL), per-tensor
// rescale and clamp: one vmcu.batch_matmul with both zero points.
// CHECK-LABEL: func.func @batch_matmul_activations(
// CHECK-SAME:    %[[A:.*]]: tensor<3x2x4xi8>, %[[B:.*]]: tensor<3x4x8xi8>)
// CHECK:         %[[Y:.*]] = vmcu.batch_matmul %[[A]], %[[B]] {lhs_zp = -128 : i32,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [34], double_round = true, min = -3, max = 127>, rhs_zp = 5 : i32}
// CHECK-SAME:      : (tensor<3x2x4xi8>, tensor<3x4x8xi8>) -> tensor<3x2x8xi8>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     tosa.
func.func @batch_matmul_activations(%a: tensor<3x2x4xi8>, %b: tensor<3x4x8xi8>) -> tensor<3x2x8xi8> {
  %azp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %azp, %bzp : (tensor<3x2x4xi8>, tensor<3x4x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x2x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<34> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<3x2x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<3x2x8xi8>
  %c = tosa.clamp %r {min_val = -3 : i8, max_val = 127 : i8} : (tensor<3x2x8xi8>) -> tensor<3x2x8xi8>
  return %c : tensor<3x2x8xi8>
}

// -----

// The TFLite shape: reshape [1, K] -> [1, 1, K], matmul, a bias given as a
// reshaped [N] constant, rescale, reshape back to [1, N].
// CHECK-LABEL: func.func @matmul_fc_reshapes(
// CHECK-SAME:    %[[X:.*]]: tensor<1x4xi8>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<3x4xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[7, 8, 9]> : tensor<3xi32>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[FC:.*]] = vmcu.fully_connected %[[X]], %[[W]], %[[B]] {input_zp = 0 : i32
// CHECK-SAME:      -> tensor<1x3xi8>
// CHECK-NEXT:    return %[[FC]] : tensor<1x3xi8>
func.func @matmul_fc_reshapes(%x: tensor<1x4xi8>) -> tensor<1x3xi8> {
  %s3 = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %a = tosa.reshape %x, %s3 : (tensor<1x4xi8>, !tosa.shape<3>) -> tensor<1x1x4xi8>
  %b = "tosa.const"() {values = dense<1> : tensor<1x4x3xi8>} : () -> tensor<1x4x3xi8>
  %azp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x1x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3xi32>
  %bias1 = "tosa.const"() {values = dense<[7, 8, 9]> : tensor<3xi32>} : () -> tensor<3xi32>
  %bs = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %bias = tosa.reshape %bias1, %bs : (tensor<3xi32>, !tosa.shape<3>) -> tensor<1x1x3xi32>
  %sum = tosa.add %acc, %bias : (tensor<1x1x3xi32>, tensor<1x1x3xi32>) -> tensor<1x1x3xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<34> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %sum, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x1x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x3xi8>
  %s2 = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %r, %s2 : (tensor<1x1x3xi8>, !tosa.shape<2>) -> tensor<1x3xi8>
  return %y : tensor<1x3xi8>
}

// -----

// TFLite FULLY_CONNECTED with a batch: a 1x1 conv2d on [M, 1, 1, K]
// becomes vmcu.fully_connected on [M, K].
// CHECK-LABEL: func.func @conv2d_batched_1x1_is_fc(
// CHECK-SAME:    %[[X:.*]]: tensor<4x1x1x8xi8>)
// CHECK-DAG:     %[[ROWS:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2, 3]] : tensor<4x1x1x8xi8> into tensor<4x8xi8>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<1> : tensor<2x8xi8>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK:         %[[FC:.*]] = vmcu.fully_connected %[[ROWS]], %[[W]], %[[B]]
// CHECK-SAME:      -> tensor<4x2xi8>
// CHECK:         %[[Y:.*]] = tensor.expand_shape %[[FC]] {{\[}}[0], [1, 2, 3]] output_shape [4, 1, 1, 2]
// CHECK-NEXT:    return %[[Y]]
func.func @conv2d_batched_1x1_is_fc(%x: tensor<4x1x1x8xi8>) -> tensor<4x1x1x2xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<2x1x1x8xi8>} : () -> tensor<2x1x1x8xi8>
  %b = "tosa.const"() {values = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %xzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<4x1x1x8xi8>, tensor<2x1x1x8xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x1x1x2xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<34> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4x1x1x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x1x1x2xi8>
  return %y : tensor<4x1x1x2xi8>
}

// -----

// The TOSA int8 add: both inputs rescaled to int32 (with their zero
// points), added, rescaled back and clamped.
// CHECK-LABEL: func.func @add_int8(
// CHECK-SAME:    %[[A:.*]]: tensor<1x4x4x8xi8>, %[[B:.*]]: tensor<1x4x4x8xi8>)
// CHECK-NEXT:    %[[Y:.*]] = vmcu.add %[[A]], %[[B]] {
// CHECK-SAME:      lhs_rescale = #vmcu.requant<input_zp = -1, output_zp = 0, multiplier = [1073741824], shift = [10], double_round = false, min = -2147483648, max = 2147483647>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [50], double_round = true, min = -3, max = 127>,
// CHECK-SAME:      rhs_rescale = #vmcu.requant<input_zp = 7, output_zp = 0, multiplier = [1431655765], shift = [11], double_round = false, min = -2147483648, max = 2147483647>}
// CHECK-SAME:      : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @add_int8(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %ma = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %sa = "tosa.const"() {values = dense<10> : tensor<1xi8>} : () -> tensor<1xi8>
  %mb = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %sb = "tosa.const"() {values = dense<11> : tensor<1xi8>} : () -> tensor<1xi8>
  %azp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %ma, %sa, %azp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rb = tosa.rescale %b, %mb, %sb, %bzp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %sum = tosa.add %ra, %rb : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<50> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %sum, %m, %s, %zero32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  %c = tosa.clamp %r {min_val = -3 : i8, max_val = 127 : i8} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %c : tensor<1x4x4x8xi8>
}

// The same form around tosa.sub (TFLite's SUB of two activations) is a
// vmcu.add with `subtract`, the operands in order.
// CHECK-LABEL: func.func @sub_int8(
// CHECK-SAME:    %[[A:.*]]: tensor<1x4x4x8xi8>, %[[B:.*]]: tensor<1x4x4x8xi8>)
// CHECK-NEXT:    %[[Y:.*]] = vmcu.add %[[A]], %[[B]] {
// CHECK-SAME:      lhs_rescale = #vmcu.requant<input_zp = -1, output_zp = 0, multiplier = [1073741824], shift = [10], double_round = false, min = -2147483648, max = 2147483647>,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [50], double_round = true, min = -3, max = 127>,
// CHECK-SAME:      rhs_rescale = #vmcu.requant<input_zp = 7, output_zp = 0, multiplier = [1431655765], shift = [11], double_round = false, min = -2147483648, max = 2147483647>, subtract}
// CHECK-SAME:      : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @sub_int8(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %ma = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %sa = "tosa.const"() {values = dense<10> : tensor<1xi8>} : () -> tensor<1xi8>
  %mb = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %sb = "tosa.const"() {values = dense<11> : tensor<1xi8>} : () -> tensor<1xi8>
  %azp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %ma, %sa, %azp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rb = tosa.rescale %b, %mb, %sb, %bzp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %sum = tosa.sub %ra, %rb : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<50> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %sum, %m, %s, %zero32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  %c = tosa.clamp %r {min_val = -3 : i8, max_val = 127 : i8} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %c : tensor<1x4x4x8xi8>
}

// -----

// -----

// avg_pool2d with its zero points and a folded clamp.
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-SAME:    %[[X:.*]]: tensor<1x6x6x16xi8>)
// CHECK-NEXT:    %[[Y:.*]] = vmcu.avg_pool2d %[[X]] {input_zp = -128 : i32, kernel = array<i64: 3, 3>, max = 127 : i32, min = -120 : i32, output_zp = -120 : i32, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>}
// CHECK-SAME:      : (tensor<1x6x6x16xi8>) -> tensor<1x3x3x16xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @avg_pool2d(%x: tensor<1x6x6x16xi8>) -> tensor<1x3x3x16xi8> {
  %izp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-120> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : (tensor<1x6x6x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x16xi8>
  %c = tosa.clamp %p {min_val = -120 : i8, max_val = 127 : i8} : (tensor<1x3x3x16xi8>) -> tensor<1x3x3x16xi8>
  return %c : tensor<1x3x3x16xi8>
}

// -----

// tosa.reshape: collapse, expand, and a general reshape.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[X:.*]]: tensor<1x2x2x4xi8>)
// CHECK-DAG:     %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2, 3]] : tensor<1x2x2x4xi8> into tensor<1x16xi8>
// CHECK-DAG:     %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 2, 2, 2, 2] : tensor<1x2x2x4xi8> into tensor<1x2x2x2x2xi8>
// CHECK-DAG:     %[[S:.*]] = arith.constant dense<4> : tensor<2xindex>
// CHECK:         %[[R:.*]] = tensor.reshape %[[C]](%[[S]]) : (tensor<1x16xi8>, tensor<2xindex>) -> tensor<4x4xi8>
// CHECK-NEXT:    return %[[C]], %[[E]], %[[R]]
// CHECK-NOT:     tosa.
func.func @reshape(%x: tensor<1x2x2x4xi8>) -> (tensor<1x16xi8>, tensor<1x2x2x2x2xi8>, tensor<4x4xi8>) {
  %s1 = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.reshape %x, %s1 : (tensor<1x2x2x4xi8>, !tosa.shape<2>) -> tensor<1x16xi8>
  %s2 = tosa.const_shape {values = dense<[1, 2, 2, 2, 2]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %b = tosa.reshape %x, %s2 : (tensor<1x2x2x4xi8>, !tosa.shape<5>) -> tensor<1x2x2x2x2xi8>
  %s3 = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.reshape %a, %s3 : (tensor<1x16xi8>, !tosa.shape<2>) -> tensor<4x4xi8>
  return %a, %b, %t : tensor<1x16xi8>, tensor<1x2x2x2x2xi8>, tensor<4x4xi8>
}

// -----

// An explicit zero-point tosa.pad (TFLite SAME) folds into the conv's
// padding.
// CHECK-LABEL: func.func @pad_folds_into_conv(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x8x4xi8>)
// CHECK-NOT:     tosa.pad
// CHECK:         vmcu.conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = -128 : i32, pad = array<i64: 1, 1, 1, 1>
// CHECK-SAME:      : (tensor<1x8x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
func.func @pad_folds_into_conv(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pc = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %xp = tosa.pad %x, %padding, %pc : (tensor<1x8x8x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x10x10x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %xzp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xp, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x10x10x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x4xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x8x8x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x4xi8>
  return %y : tensor<1x8x8x4xi8>
}

// -----

// A pad followed by a slice that takes some of the padding back off: the
// net padding (1 top, 2 bottom) folds into the depthwise conv.
// CHECK-LABEL: func.func @pad_slice_fold_into_depthwise(
// CHECK-SAME:    %[[X:.*]]: tensor<1x6x6x8xi8>)
// CHECK-NOT:     tosa.
// CHECK:         vmcu.depthwise_conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = 3 : i32, pad = array<i64: 1, 2, 1, 1>
// CHECK-SAME:      : (tensor<1x6x6x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x7x6x8xi8>
func.func @pad_slice_fold_into_depthwise(%x: tensor<1x6x6x8xi8>) -> tensor<1x7x6x8xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 2, 2, 0, 0, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pc = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %xp = tosa.pad %x, %padding, %pc : (tensor<1x6x6x8xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x10x6x8xi8>
  %start = tosa.const_shape {values = dense<[0, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 9, 6, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %xs = tosa.slice %xp, %start, %size : (tensor<1x10x6x8xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x9x6x8xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<3x3x8x1xi8>} : () -> tensor<3x3x8x1xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<8xi32>} : () -> tensor<8xi32>
  %xzp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %xs, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x9x6x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x6x8xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x7x6x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x7x6x8xi8>
  return %y : tensor<1x7x6x8xi8>
}

// -----

// A slice dropping the last row and column, then 2 rows/columns of conv
// padding: row/column 9 changes from padding to data but a 1x1 stride-2
// window never reads it, so the slice folds and the padding shrinks to 1.
// CHECK-LABEL: func.func @slice_folds_when_unread(
// CHECK-SAME:    %[[X:.*]]: tensor<1x10x10x4xi8>)
// CHECK-NOT:     tosa.slice
// CHECK:         vmcu.conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = 0 : i32, pad = array<i64: 0, 1, 0, 1>
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x10x10x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x6x6x4xi8>
func.func @slice_folds_when_unread(%x: tensor<1x10x10x4xi8>) -> tensor<1x6x6x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 9, 9, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %xs = tosa.slice %x, %start, %size : (tensor<1x10x10x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x9x9x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %xzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xs, %w, %b, %xzp, %wzp {acc_type = i32, pad = array<i64: 0, 2, 0, 2>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x9x9x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x6x6x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  return %y : tensor<1x6x6x4xi8>
}

// -----

// TFLite VALID 3x3 stride 2 on 8 rows: TOSA slices the unread last row and
// column off; vmcu.conv2d floors its output size, so the slice folds away
// and the layer reads the unsliced input.
// CHECK-LABEL: func.func @slice_unread_tail_folds(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x8x4xi8>)
// CHECK-NOT:     tosa.slice
// CHECK:         vmcu.conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>
// CHECK-SAME:      stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
func.func @slice_unread_tail_folds(%x: tensor<1x8x8x4xi8>) -> tensor<1x3x3x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %xs = tosa.slice %x, %start, %size : (tensor<1x8x8x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xs, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3x3x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x3x4xi8>
  return %y : tensor<1x3x3x4xi8>
}

// -----

// MCUNet B1's 1x1 stride-2 expansion on 16 rows: the sliced-off row 15 is
// unread (the slice keeps every column). Then a VALID 3x3 stride-2
// depthwise conv and a 2x2 stride-2 avg_pool on odd/even sizes, each behind
// the slice TOSA needs: all fold into layers over the unsliced tensors.
// CHECK-LABEL: func.func @slice_unread_tail_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<1x16x15x3xi8>)
// CHECK-NOT:     tosa.
// CHECK:         %[[C:.*]] = vmcu.conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = 5 : i32, pad = array<i64: 0, 0, 0, 0>
// CHECK-SAME:      : (tensor<1x16x15x3xi8>, tensor<16x1x1x3xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
// CHECK:         %[[D:.*]] = vmcu.depthwise_conv2d %[[C]], %{{.*}}, %{{.*}} {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>
// CHECK-SAME:      : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x3x3x16xi8>
// CHECK:         %[[P:.*]] = vmcu.avg_pool2d %[[D]] {input_zp = 0 : i32, kernel = array<i64: 2, 2>
// CHECK-SAME:      pad = array<i64: 0, 0, 0, 0>
// CHECK-SAME:      : (tensor<1x3x3x16xi8>) -> tensor<1x1x1x16xi8>
// CHECK:         return %[[P]]
func.func @slice_unread_tail_chain(%x: tensor<1x16x15x3xi8>) -> tensor<1x1x1x16xi8> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 15, 15, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %xs = tosa.slice %x, %start, %size : (tensor<1x16x15x3xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x15x15x3xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<16x1x1x3xi8>} : () -> tensor<16x1x1x3xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<16xi32>} : () -> tensor<16xi32>
  %xzp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xs, %w, %b, %xzp, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x15x15x3xi8>, tensor<16x1x1x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x8x8x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x16xi8>
  %size2 = tosa.const_shape {values = dense<[1, 7, 7, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ys = tosa.slice %y, %start, %size2 : (tensor<1x8x8x16xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x16xi8>
  %w2 = "tosa.const"() {values = dense<1> : tensor<3x3x16x1xi8>} : () -> tensor<3x3x16x1xi8>
  %acc2 = tosa.depthwise_conv2d %ys, %w2, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x16xi32>
  %z = tosa.rescale %acc2, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3x3x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x3x16xi8>
  %size3 = tosa.const_shape {values = dense<[1, 2, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zs = tosa.slice %z, %start, %size3 : (tensor<1x3x3x16xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x2x16xi8>
  %p = tosa.avg_pool2d %zs, %zp8, %zp8 {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x2x2x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x16xi8>
  return %p : tensor<1x1x1x16xi8>
}

// -----

// Two layers in a row: the second reads the first's vmcu result.
// CHECK-LABEL: func.func @chain(
// CHECK:         %[[C:.*]] = vmcu.conv2d
// CHECK:         %[[P:.*]] = vmcu.avg_pool2d %[[C]] {input_zp = 0 : i32, kernel = array<i64: 2, 2>
// CHECK-NEXT:    return %[[P]]
func.func @chain(%x: tensor<1x4x4x4xi8>) -> tensor<1x2x2x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<34> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  %p = tosa.avg_pool2d %y, %zp8, %zp8 {acc_type = i32, kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x4xi8>
  return %p : tensor<1x2x2x4xi8>
}

// -----

// A max pool with its RELU6-style clamp folded, and a tosa.pad of -128 (the
// lowest int8, which never wins the max) folded into its padding.
// CHECK-LABEL: func.func @max_pool2d_clamp_and_pad(
// CHECK-NOT: tosa.
// CHECK: vmcu.max_pool2d %{{.*}} {kernel = array<i64: 3, 3>, max = 100 : i32, min = -20 : i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x5x8xi8>) -> tensor<1x3x3x8xi8>
func.func @max_pool2d_clamp_and_pad(%x: tensor<1x5x5x8xi8>) -> tensor<1x3x3x8xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %low = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %xp = tosa.pad %x, %padding, %low : (tensor<1x5x5x8xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x7x7x8xi8>
  %p = tosa.max_pool2d %xp {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x7x7x8xi8>) -> tensor<1x3x3x8xi8>
  %y = tosa.clamp %p {min_val = -20 : i8, max_val = 100 : i8} : (tensor<1x3x3x8xi8>) -> tensor<1x3x3x8xi8>
  return %y : tensor<1x3x3x8xi8>
}

// -----

// A batched 3x3 conv runs image by image: a vmcu.slice of each image, the
// batch-1 vmcu.conv2d, a vmcu.concat along the batch. (A batched 1x1
// unpadded conv stays one vmcu.fully_connected.)
// CHECK-LABEL: func.func @conv2d_batch(
// CHECK-NOT: tosa.
// CHECK: %[[I0:.*]] = vmcu.slice %{{.*}} {start = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1>} : (tensor<2x6x6x4xi8>) -> tensor<1x6x6x4xi8>
// CHECK: %[[C0:.*]] = vmcu.conv2d %[[I0]], {{.*}} -> tensor<1x4x4x4xi8>
// CHECK: %[[I1:.*]] = vmcu.slice %{{.*}} {start = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1>} : (tensor<2x6x6x4xi8>) -> tensor<1x6x6x4xi8>
// CHECK: %[[C1:.*]] = vmcu.conv2d %[[I1]], {{.*}} -> tensor<1x4x4x4xi8>
// CHECK: vmcu.concat %[[C0]], %[[C1]] {axis = 0 : i32} : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<2x4x4x4xi8>
func.func @conv2d_batch(%x: tensor<2x6x6x4xi8>) -> tensor<2x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x6x6x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<2x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x4x4x4xi8>
  return %y : tensor<2x4x4x4xi8>
}

// -----

// A tosa.slice that no window layer folds is a vmcu.slice with unit
// strides; one feeding a conv folds into its padding as before.
// CHECK-LABEL: func.func @slice(
// CHECK-NOT: tosa.
// CHECK: %[[S:.*]] = vmcu.slice %{{.*}} {start = array<i64: 0, 2, 0, 4>, stride = array<i64: 1, 1, 1, 1>} : (tensor<1x6x5x8xi8>) -> tensor<1x3x5x4xi8>
// CHECK: vmcu.table %[[S]]
func.func @slice(%x: tensor<1x6x5x8xi8>) -> tensor<1x3x5x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 2, 0, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 3, 5, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %y = tosa.slice %x, %start, %size : (tensor<1x6x5x8xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x5x4xi8>
  %t = "tosa.const"() {values = dense<7> : tensor<256xi8>} : () -> tensor<256xi8>
  %z = tosa.table %y, %t : (tensor<1x3x5x4xi8>, tensor<256xi8>) -> tensor<1x3x5x4xi8>
  return %z : tensor<1x3x5x4xi8>
}

// -----

// An int8 tosa.transpose is a vmcu.transpose with the same perms.
// CHECK-LABEL: func.func @transpose(
// CHECK-NOT: tosa.
// CHECK: vmcu.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8>
func.func @transpose(%x: tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8> {
  %y = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8>
  return %y : tensor<1x4x5x3xi8>
}

// -----

// An int8 tosa.concat is a vmcu.concat on the same axis.
// CHECK-LABEL: func.func @concat(
// CHECK-NOT: tosa.
// CHECK: vmcu.concat %{{.*}}, %{{.*}} {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x12xi8>
func.func @concat(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x4xi8>) -> tensor<1x4x4x12xi8> {
  %y = tosa.concat %a, %b {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x12xi8>
  return %y : tensor<1x4x4x12xi8>
}

// -----

// An int8 tosa.table is a vmcu.table with the same constant.
// CHECK-LABEL: func.func @table(
// CHECK-NOT: tosa.
// CHECK: %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<256xi8>
// CHECK: vmcu.table %{{.*}}, %[[T]] : (tensor<1x4x4x8xi8>, tensor<256xi8>) -> tensor<1x4x4x8xi8>
func.func @table(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %t = "tosa.const"() {values = dense<[-128, -91, -54, -17, 20, 57, 94, -125, -88, -51, -14, 23, 60, 97, -122, -85, -48, -11, 26, 63, 100, -119, -82, -45, -8, 29, 66, 103, -116, -79, -42, -5, 32, 69, 106, -113, -76, -39, -2, 35, 72, 109, -110, -73, -36, 1, 38, 75, 112, -107, -70, -33, 4, 41, 78, 115, -104, -67, -30, 7, 44, 81, 118, -101, -64, -27, 10, 47, 84, 121, -98, -61, -24, 13, 50, 87, 124, -95, -58, -21, 16, 53, 90, 127, -92, -55, -18, 19, 56, 93, -126, -89, -52, -15, 22, 59, 96, -123, -86, -49, -12, 25, 62, 99, -120, -83, -46, -9, 28, 65, 102, -117, -80, -43, -6, 31, 68, 105, -114, -77, -40, -3, 34, 71, 108, -111, -74, -37, 0, 37, 74, 111, -108, -71, -34, 3, 40, 77, 114, -105, -68, -31, 6, 43, 80, 117, -102, -65, -28, 9, 46, 83, 120, -99, -62, -25, 12, 49, 86, 123, -96, -59, -22, 15, 52, 89, 126, -93, -56, -19, 18, 55, 92, -127, -90, -53, -16, 21, 58, 95, -124, -87, -50, -13, 24, 61, 98, -121, -84, -47, -10, 27, 64, 101, -118, -81, -44, -7, 30, 67, 104, -115, -78, -41, -4, 33, 70, 107, -112, -75, -38, -1, 36, 73, 110, -109, -72, -35, 2, 39, 76, 113, -106, -69, -32, 5, 42, 79, 116, -103, -66, -29, 8, 45, 82, 119, -100, -63, -26, 11, 48, 85, 122, -97, -60, -23, 14, 51, 88, 125, -94, -57, -20, 17, 54, 91]> : tensor<256xi8>} : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<1x4x4x8xi8>, tensor<256xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// Depth multiplier 2 over 4 channels: one vmcu.depthwise_conv2d of 8 output
// channels (channel c * 2 + m reads input c), its weight TOSA's [1, 1, 4, 2]
// relabelled [1, 1, 8, 1]; no repeated input.
// CHECK-LABEL: func.func @depthwise_multiplier(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x4x4xi8>
// CHECK-NOT:     vmcu.conv2d
// CHECK:         vmcu.depthwise_conv2d %[[X]], %{{.*}}, %{{.*}} {input_zp = -3 : i32{{.*}}} : (tensor<1x4x4x4xi8>, tensor<1x1x8x1xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
// CHECK-NOT:     vmcu.conv2d
func.func @depthwise_multiplier(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x8xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<1x1x4x2xi8>} : () -> tensor<1x1x4x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<8xi32>} : () -> tensor<8xi32>
  %zp8 = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %zp8, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<1x1x4x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}


// -----

// Depth multiplier 2 over 3 input channels: a dense conv2d, output channel
// c * 2 + m reading input channel c with the depthwise's tap and the other
// channels with 0; no repeated input.
// CHECK-LABEL: func.func @depthwise_multiplier_as_conv(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x4x3xi8>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[1, 0, 0]]], {{\[}}{{\[}}[2, 0, 0]]], {{\[}}{{\[}}[0, 3, 0]]], {{\[}}{{\[}}[0, 4, 0]]], {{\[}}{{\[}}[0, 0, 5]]], {{\[}}{{\[}}[0, 0, 6]]]]> : tensor<6x1x1x3xi8>
// CHECK-NOT:     vmcu.depthwise_conv2d
// CHECK:         vmcu.conv2d %[[X]], %[[W]], %{{.*}} {input_zp = -3 : i32{{.*}}} : (tensor<1x4x4x3xi8>, tensor<6x1x1x3xi8>, tensor<6xi32>) -> tensor<1x4x4x6xi8>
// CHECK-NOT:     vmcu.depthwise_conv2d
func.func @depthwise_multiplier_as_conv(%x: tensor<1x4x4x3xi8>) -> tensor<1x4x4x6xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, 2], [3, 4], [5, 6]]]]> : tensor<1x1x3x2xi8>} : () -> tensor<1x1x3x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<6xi32>} : () -> tensor<6xi32>
  %zp8 = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %zp8, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xi8>, tensor<1x1x3x2xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x6xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x6xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x6xi8>
  return %y : tensor<1x4x4x6xi8>
}

// -----

// Depth multiplier 4 over one input channel: exactly a conv2d 1 -> 4, its
// weight [4, 2, 2, 1] the depthwise's [2, 2, 1, 4] transposed.
// CHECK-LABEL: func.func @depthwise_one_channel(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[1], [5]], {{\[}}[9], [13]]], {{\[}}{{\[}}[2], [6]], {{\[}}[10], [14]]], {{\[}}{{\[}}[3], [7]], {{\[}}[11], [15]]], {{\[}}{{\[}}[4], [8]], {{\[}}[12], [16]]]]> : tensor<4x2x2x1xi8>
// CHECK:         vmcu.conv2d %{{.*}}, %[[W]], %{{.*}} : (tensor<1x5x5x1xi8>, tensor<4x2x2x1xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
func.func @depthwise_one_channel(%x: tensor<1x5x5x1xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, 2, 3, 4]], [[5, 6, 7, 8]]], [[[9, 10, 11, 12]], [[13, 14, 15, 16]]]]> : tensor<2x2x1x4xi8>} : () -> tensor<2x2x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x5x1xi8>, tensor<2x2x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// Dilation 2: the 3x3 kernel becomes a dense 5x5 one with zeros between the
// dilated taps (row 1 of the dense kernel is all zeros).
// CHECK-LABEL: func.func @conv2d_dilation(
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<4x5x5x4xi8>
// CHECK:         vmcu.conv2d %{{.*}}, %[[W]], %{{.*}}: (tensor<1x8x8x4xi8>, tensor<4x5x5x4xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
func.func @conv2d_dilation(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}


// -----

// A weight zero point that does not fold (-127 - 3 = -130 leaves int8):
// the conv runs over its input twice along the channels, with the
// differences split into int8 parts (-128 and -2).
// CHECK-LABEL: func.func @conv2d_weight_zero_point_split(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x4x4xi8>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[-128, -128, -128, -128, -2, -2, -2, -2]]]{{.*}}> : tensor<4x1x1x8xi8>
// CHECK-DAG:     %[[XX:.*]] = vmcu.concat %[[X]], %[[X]] {axis = 3 : i32} : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x8xi8>
// CHECK:         vmcu.conv2d %[[XX]], %[[W]], %{{.*}} : (tensor<1x4x4x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
func.func @conv2d_weight_zero_point_split(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<-127> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// A matmul's weight zero point -128 under a weight 127 (a difference of 255,
// past two int8 parts): the rows run three times, the [N, K] weights split
// into 127, 127 and 1.
// CHECK-LABEL: func.func @matmul_weight_zero_point_split(
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[}}[127, 127, 127, 127, 127, 127, 127, 127, 1, 1, 1, 1]{{.*}}> : tensor<3x12xi8>
// CHECK-DAG:     %[[ROWS:.*]] = vmcu.concat %[[A:.*]], %[[A]], %[[A]] {axis = 1 : i32} : (tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi8>) -> tensor<2x12xi8>
// CHECK:         vmcu.fully_connected %[[ROWS]], %[[W]], %{{.*}} : (tensor<2x12xi8>, tensor<3x12xi8>, tensor<3xi32>) -> tensor<2x3xi8>
func.func @matmul_weight_zero_point_split(%a: tensor<1x2x4xi8>) -> tensor<1x2x3xi8> {
  %b = "tosa.const"() {values = dense<127> : tensor<1x4x3xi8>} : () -> tensor<1x4x3xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %zp8, %bzp : (tensor<1x2x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x3xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x3xi8>
  return %y : tensor<1x2x3xi8>
}

// -----

// A weight zero point folds into the weights when every difference stays
// int8: (x - xzp) * (w - wzp) with w - wzp = 1 - 3 = -2.
// CHECK-LABEL: func.func @conv2d_weight_zero_point(
// CHECK:         %[[W:.*]] = arith.constant dense<-2> : tensor<4x1x1x4xi8>
// CHECK:         vmcu.conv2d %{{.*}}, %[[W]], %{{.*}}
func.func @conv2d_weight_zero_point(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}


// -----

// The int8 multiply form: both operands rescaled by exactly 1 (2^30 *
// 2^-30, their zero points subtracted), tosa.mul with shift 0 broadcasting
// a [1, 1, 1, C] gate, the output rescale and clamp: one vmcu.mul carrying
// the zero points.
// CHECK-LABEL: func.func @mul_gate(
// CHECK-SAME:    %[[X:.*]]: tensor<1x4x4x8xi8>, %[[S:.*]]: tensor<1x1x1x8xi8>)
// CHECK-NEXT:    %[[Y:.*]] = vmcu.mul %[[X]], %[[S]] {lhs_zp = -1 : i32,
// CHECK-SAME:      requant = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1518500250], shift = [38], double_round = true, min = -3, max = 127>, rhs_zp = -128 : i32}
// CHECK-SAME:      : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:    return %[[Y]]
func.func @mul_gate(%x: tensor<1x4x4x8xi8>, %s: tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %thirty = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %xzp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %szp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %rx = tosa.rescale %x, %one, %thirty, %xzp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rs = tosa.rescale %s, %one, %thirty, %szp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x1x1x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x8xi32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = tosa.mul %rx, %rs, %shift : (tensor<1x4x4x8xi32>, tensor<1x1x1x8xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %sh = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %p, %m, %sh, %zero32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  %c = tosa.clamp %r {min_val = -3 : i8, max_val = 127 : i8} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %c : tensor<1x4x4x8xi8>
}

// -----

// TOSA broadcasting (an operand dimension of 1 stretches) carries over to
// vmcu.add, activation and constant operands alike.
// CHECK-LABEL: func.func @add_broadcast(
// CHECK: %[[S:.*]] = vmcu.add %{{.*}}, %{{.*}} {{.*}} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK: %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<1x4x1x1xi8>
// CHECK: vmcu.add %[[C]], %[[S]] {{.*}}subtract{{.*}} : (tensor<1x4x1x1xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NOT: tosa.
func.func @add_broadcast(%a: tensor<1x4x4x8xi8>, %b: tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rb = tosa.rescale %b, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x1x1x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x8xi32>
  %sum = tosa.add %ra, %rb : (tensor<1x4x4x8xi32>, tensor<1x1x1x8xi32>) -> tensor<1x4x4x8xi32>
  %y = tosa.rescale %sum, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  %c = "tosa.const"() {values = dense<[[[[1]], [[-2]], [[3]], [[-4]]]]> : tensor<1x4x1x1xi8>} : () -> tensor<1x4x1x1xi8>
  %rc = tosa.rescale %c, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x1x1xi32>
  %ry = tosa.rescale %y, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %d = tosa.sub %rc, %ry : (tensor<1x4x1x1xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %z = tosa.rescale %d, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %z : tensor<1x4x4x8xi8>
}


// -----

// tosa.resize NEAREST_NEIGHBOR (int8) is vmcu.resize_nearest with TOSA's
// index maps: 2x up with the half-pixel parameters (scale 4/2, offset -1,
// border 1) reads rows and columns 0, 0, 1, 1, 2, 2.
// CHECK-LABEL: func.func @resize_nearest(
// CHECK: vmcu.resize_nearest %{{.*}} {cols = array<i64: 0, 0, 1, 1, 2, 2>, rows = array<i64: 0, 0, 1, 1, 2, 2>} : (tensor<1x3x3x4xi8>) -> tensor<1x6x6x4xi8>
// CHECK-NOT: tosa.resize
func.func @resize_nearest(%x: tensor<1x3x3x4xi8>) -> tensor<1x6x6x4xi8> {
  %scale = tosa.const_shape { values = dense<[4, 2, 4, 2]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<-1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x3x3x4xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x6x4xi8>
  return %y : tensor<1x6x6x4xi8>
}
