// RUN: vmcu-opt %s --split-input-file --convert-tosa-to-vmcu --verify-diagnostics

func.func @conv2d_dynamic(%x: tensor<1x?x6x4xi8>) -> tensor<1x?x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op requires static shapes}}
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x?x6x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x?x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x?x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x?x4x4xi8>
  return %y : tensor<1x?x4x4xi8>
}

// -----

func.func @conv2d_float(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<4x1x1x4xf32>} : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.conv2d' op expected int8 input and weight with an int32 accumulator, got tensor<1x4x4x4xf32>, tensor<4x1x1x4xf32> -> tensor<1x4x4x4xf32>}}
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

func.func @conv2d_weight_not_constant(%x: tensor<1x4x4x4xi8>, %w: tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8> {
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op weight must be a constant}}
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @rescale_inexact_round(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  // expected-error @+1 {{'tosa.rescale' op rounding_mode INEXACT_ROUND is not supported}}
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = INEXACT_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @rescale_scale16_shift_too_large(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<16384> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<50> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  // expected-error @+1 {{'tosa.rescale' op 16-bit multiplier with shift 50 has no exact 32-bit form (shift + 16 > 62)}}
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @rescale_scale16_double_round(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<16384> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<20> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  // expected-error @+1 {{'tosa.rescale' op DOUBLE_ROUND requires scale32 = true}}
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = false, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @rescale_unsigned(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op unsigned rescale (input_unsigned/output_unsigned) is not supported}}
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = true, output_unsigned = false} : (tensor<1x4x4x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @rescale_standalone_int8(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op standalone int8 to int8 rescale cannot be folded into a layer}}
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @clamp_standalone(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  // expected-error @+1 {{'tosa.clamp' op cannot be folded: a clamp must directly follow the rescale of a layer}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 100 : i8} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// The rescale has a second user, so the clamp after it is not folded.
func.func @clamp_not_sole_user(%x: tensor<1x4x4x4xi8>) -> (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  // expected-error @+1 {{'tosa.clamp' op cannot be folded}}
  %c = tosa.clamp %y {min_val = 0 : i8, max_val = 100 : i8} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %y, %c : tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>
}

// -----

// The int32 accumulator must feed exactly one rescale.
func.func @accumulator_returned(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi32> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op int32 accumulator must have exactly one user, a tosa.rescale to int8}}
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  return %acc : tensor<1x4x4x4xi32>
}

// -----

func.func @pad_value_not_zero_point(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pc = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op pads with 0 but the consumer's input zero point is -128; only zero-point padding folds exactly}}
  %xp = tosa.pad %x, %padding, %pc : (tensor<1x4x4x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %xzp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xp, %w, %b, %xzp, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// A slice of 2 trailing rows before a 3x3 stride-2 conv: the windows of the
// unsliced input would read one of them (an extra output row).
func.func @slice_trims_read_rows(%x: tensor<1x9x9x4xi8>) -> tensor<1x3x3x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.slice' op cannot be folded into the consumer's padding: it trims 2 trailing rows, but at most 1 can stay unread by the stride-2 windows}}
  %xs = tosa.slice %x, %start, %size : (tensor<1x9x9x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x4xi8>
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

// A trailing slice before a stride-1 conv: every row is read, no fold.
func.func @slice_trims_stride1(%x: tensor<1x8x8x4xi8>) -> tensor<1x5x6x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.slice' op cannot be folded into the consumer's padding: it trims 1 trailing rows, but at most 0 can stay unread by the stride-1 windows}}
  %xs = tosa.slice %x, %start, %size : (tensor<1x8x8x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x8x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xs, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x5x6x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x5x6x4xi8>
  return %y : tensor<1x5x6x4xi8>
}

// -----

// The slice drops the top row, which the padded conv then reads as data.
func.func @slice_not_exact(%x: tensor<1x5x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %start = tosa.const_shape {values = dense<[0, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.slice' op cannot be folded exactly: padded row 0 is read and would hold input data instead of padding}}
  %xs = tosa.slice %x, %start, %size : (tensor<1x5x4x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x4xi8>
  %w = "tosa.const"() {values = dense<1> : tensor<4x3x3x4xi8>} : () -> tensor<4x3x3x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %xs, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// avg_pool2d excludes its own padding from the divisor but counts the
// elements of a tosa.pad, so the pad cannot become avg_pool2d padding.
func.func @pad_changes_avg_pool_divisor(%x: tensor<1x4x4x4xi8>) -> tensor<1x3x3x4xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op cannot be folded exactly: padded row 0 is read and would change tosa.avg_pool2d's divisor}}
  %xp = tosa.pad %x, %padding, %zp : (tensor<1x4x4x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  %y = tosa.avg_pool2d %xp, %zp, %zp {acc_type = i32, kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x6x6x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi8>
  return %y : tensor<1x3x3x4xi8>
}

// -----

func.func @pad_standalone(%x: tensor<1x4x4x4xi8>) -> tensor<1x6x6x4xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op is only supported when folded into the padding of the input of tosa.conv2d, tosa.depthwise_conv2d, tosa.avg_pool2d or tosa.max_pool2d, and must feed nothing else}}
  %xp = tosa.pad %x, %padding, %zp : (tensor<1x4x4x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  return %xp : tensor<1x6x6x4xi8>
}

// -----

func.func @batch_matmul_per_channel(%a: tensor<2x2x4xi8>, %b: tensor<2x4x3xi8>) -> tensor<2x2x3xi8> {
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<3xi32>} : () -> tensor<3xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<3xi8>} : () -> tensor<3xi8>
  // expected-error @+1 {{'tosa.matmul' op a matmul over two activations needs a per-tensor output rescale}}
  %acc = tosa.matmul %a, %b, %zp8, %zp8 : (tensor<2x2x4xi8>, tensor<2x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x2x3xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x2x3xi8>
  return %y : tensor<2x2x3xi8>
}

// -----

func.func @matmul_batch(%a: tensor<2x2x4xi8>) -> tensor<2x2x3xi8> {
  %b = "tosa.const"() {values = dense<1> : tensor<2x4x3xi8>} : () -> tensor<2x4x3xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op with a constant B (a weight), batch must be 1, got 2}}
  %acc = tosa.matmul %a, %b, %zp8, %zp8 : (tensor<2x2x4xi8>, tensor<2x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x2x3xi32>
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x2x3xi8>
  return %y : tensor<2x2x3xi8>
}

// -----

func.func @matmul_bias_not_constant(%a: tensor<1x2x4xi8>, %bias: tensor<1x1x3xi32>) -> tensor<1x2x3xi8> {
  %b = "tosa.const"() {values = dense<1> : tensor<1x4x3xi8>} : () -> tensor<1x4x3xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %zp8, %zp8 : (tensor<1x2x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x3xi32>
  // expected-error @+1 {{'tosa.add' op bias of a tosa.matmul must be a constant}}
  %sum = tosa.add %acc, %bias : (tensor<1x2x3xi32>, tensor<1x1x3xi32>) -> tensor<1x2x3xi32>
  %y = tosa.rescale %sum, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x3xi8>
  return %y : tensor<1x2x3xi8>
}

// -----

// Two constant operands: nothing for the kernel to read from the ring.
func.func @add_two_constants() -> tensor<1x4x4x8xi8> {
  %a = "tosa.const"() {values = dense<3> : tensor<1x4x4x8xi8>} : () -> tensor<1x4x4x8xi8>
  %b = "tosa.const"() {values = dense<5> : tensor<1x1x1x8xi8>} : () -> tensor<1x1x1x8xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rb = tosa.rescale %b, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x1x1x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x8xi32>
  // expected-error @+1 {{'tosa.add' op has two constant operands}}
  %sum = tosa.add %ra, %rb : (tensor<1x4x4x8xi32>, tensor<1x1x1x8xi32>) -> tensor<1x4x4x8xi32>
  %y = tosa.rescale %sum, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

func.func @add_float(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'tosa.add' op floating-point add is not supported, got tensor<1x4xf32>}}
  %y = tosa.add %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @add_int32_without_rescales(%a: tensor<1x4xi32>, %b: tensor<1x4xi32>) -> tensor<1x4xi32> {
  // expected-error @+1 {{'tosa.add' op expected the int8 add form: both operands tosa.rescale from int8 to int32 (or the bias add of a tosa.matmul)}}
  %y = tosa.add %a, %b : (tensor<1x4xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
  return %y : tensor<1x4xi32>
}

// -----

// An int8 -> int32 rescale must only feed the int8 add form.
func.func @rescale_to_int32_alone(%x: tensor<1x4xi8>) -> tensor<1x4xi32> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.rescale' op rescale from int8 to int32 is only supported as an input rescale of the int8 tosa.add form}}
  %y = tosa.rescale %x, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4xi32>
  return %y : tensor<1x4xi32>
}

// -----

func.func @unsupported_op(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  // expected-error @+1 {{'tosa.reverse' op is not supported by --convert-tosa-to-vmcu}}
  %y = tosa.reverse %x {axis = 1 : i32} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @reshape_float(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %s = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.reshape' op only integer tensors are supported, got tensor<4xf32>}}
  %y = tosa.reshape %x, %s : (tensor<1x4xf32>, !tosa.shape<1>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Every unsupported op is reported, not just the first.
func.func @several_errors(%x: tensor<1x4x4x4xi8>, %f: tensor<1x4xf32>) -> (tensor<1x4x4x4xi8>, tensor<1x4xf32>) {
  // expected-error @+1 {{'tosa.clamp' op cannot be folded}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 100 : i8} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  // expected-error @+1 {{'tosa.add' op floating-point add is not supported}}
  %g = tosa.add %f, %f : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %y, %g : tensor<1x4x4x4xi8>, tensor<1x4xf32>
}

// -----

// A pad with the zero point would win the max where the data is lower: it
// cannot become max_pool2d padding.
func.func @pad_value_changes_max(%x: tensor<1x4x4x4xi8>) -> tensor<1x3x3x4xi8> {
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op pads with 0 but the consumer's input zero point is -128; only zero-point padding folds exactly}}
  %xp = tosa.pad %x, %padding, %zp : (tensor<1x4x4x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x4xi8>
  %y = tosa.max_pool2d %xp {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x6x6x4xi8>) -> tensor<1x3x3x4xi8>
  return %y : tensor<1x3x3x4xi8>
}

// -----

// Found by vmcu-fuzz-compile: a rescale shift outside TOSA's [2, 62] used to
// reach vmcu-tile (a 64-bit shift by 72 there).
func.func @rescale_shift_out_of_range(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<4x1x1x4xi8>} : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<73> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp8, %zp8 {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  // expected-error @+1 {{'tosa.rescale' op shift 73 is outside TOSA's [2, 62]}}
  %y = tosa.rescale %acc, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// Only the int8 table (the int16 one interpolates) converts.
func.func @table_int16(%x: tensor<1x4xi16>, %t: tensor<513xi16>) -> tensor<1x4xi32> {
  // expected-error @+1 {{'tosa.table' op only the int8 table is supported, got tensor<1x4xi16> -> tensor<1x4xi32>}}
  %y = tosa.table %x, %t : (tensor<1x4xi16>, tensor<513xi16>) -> tensor<1x4xi32>
  return %y : tensor<1x4xi32>
}

// -----

// An operand rescaled by other than 1 is not the int8 multiply form.
func.func @mul_scaled_operand(%x: tensor<1x4x4x8xi8>, %y: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %half = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %thirty = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.rescale' op an operand of the int8 mul form must be rescaled by exactly 1 (multiplier 2^30, shift 30, output_zp 0)}}
  %rx = tosa.rescale %x, %one, %half, %zp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %ry = tosa.rescale %y, %one, %thirty, %zp, %zero32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = tosa.mul %rx, %ry, %shift : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %sh = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %p, %m, %sh, %zero32, %zp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %r : tensor<1x4x4x8xi8>
}

// -----

func.func @concat_i16(%a: tensor<1x4xi16>, %b: tensor<1x4xi16>) -> tensor<1x8xi16> {
  // expected-error @+1 {{'tosa.concat' op only int8 tensors of static shape are supported, got tensor<1x4xi16>}}
  %y = tosa.concat %a, %b {axis = 1 : i32} : (tensor<1x4xi16>, tensor<1x4xi16>) -> tensor<1x8xi16>
  return %y : tensor<1x8xi16>
}

// -----

func.func @slice_i16(%x: tensor<1x8xi16>) -> tensor<1x4xi16> {
  %start = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op only int8 tensors of static shape are supported, got tensor<1x8xi16>}}
  %y = tosa.slice %x, %start, %size : (tensor<1x8xi16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4xi16>
  return %y : tensor<1x4xi16>
}

// -----

func.func @resize_bilinear(%x: tensor<1x3x3x4xi8>) -> tensor<1x6x6x4xi32> {
  %scale = tosa.const_shape { values = dense<[4, 2, 4, 2]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<-1> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<1> : tensor<2xindex> } : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' op only NEAREST_NEIGHBOR resize is supported (a bilinear int8 resize widens to int32)}}
  %y = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x3x3x4xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x6x4xi32>
  return %y : tensor<1x6x6x4xi32>
}

// -----

// A dynamic operand is refused by the add, before the broadcast check.
func.func @add_dynamic_rhs(%a: tensor<1x4x4x8xi8>, %b: tensor<1x?x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x8xi32>
  %rb = tosa.rescale %b, %m, %s, %zp8, %zp32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x?x4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x?x4x8xi32>
  // expected-error @+1 {{'tosa.add' op requires static shapes}}
  %sum = tosa.add %ra, %rb : (tensor<1x4x4x8xi32>, tensor<1x?x4x8xi32>) -> tensor<1x4x4x8xi32>
  %y = tosa.rescale %sum, %m, %s, %zp32, %zp8 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x4x4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}
