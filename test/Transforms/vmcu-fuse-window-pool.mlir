// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(vmcu-fuse-window-pool)" | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(vmcu-fuse-window-pool{cores=2})" | FileCheck %s --check-prefix=TWO

// A LeNet-style stage: a 3x3 conv to 16 channels over 13x13 (11x11
// output), then a 2x2 average pool of stride 2 (5x5; the conv's last row
// and column are not averaged). The pool folds into the conv, whose
// result becomes the pooled plane: the 1,936-byte plane is never stored.
// On two cores it folds too: the folded conv still splits between them.
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK:         %[[P:.*]] = vmcu.conv2d %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>{{.*}}} : (tensor<1x13x13x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x5x5x16xi8>
// CHECK-NOT:     vmcu.avg_pool2d
// CHECK:         return %[[P]]
// TWO-LABEL:     func.func @main(
// TWO:           window_avg_pool
// TWO-NOT:       vmcu.avg_pool2d
func.func @main(%x: tensor<1x13x13x4xi8>) -> tensor<1x5x5x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x13x13x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x11x11x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = -128 : i32, output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, round_half_away} : (tensor<1x11x11x16xi8>) -> tensor<1x5x5x16xi8>
  return %p : tensor<1x5x5x16xi8>
}

// -----

// TOSA's average (zero points differ) over 2x1 windows of a padded conv.
#rq = #vmcu.requant<input_zp = 0, output_zp = 3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK:         vmcu.conv2d {{.*}}window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 1, input_zp = 3, output_zp = -7, min = -100, max = 100, round_half_away = false>{{.*}} -> tensor<1x4x8x16xi8>
// CHECK-NOT:     vmcu.avg_pool2d
// TWO-LABEL:     func.func @main(
// TWO:           window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 1,
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x8x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 1>, stride = array<i64: 2, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 3 : i32, output_zp = -7 : i32, min = -100 : i32, max = 100 : i32} : (tensor<1x8x8x16xi8>) -> tensor<1x4x8x16xi8>
  return %p : tensor<1x4x8x16xi8>
}

// -----

// Not folded: overlapping windows (stride 1).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     window_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x5x5x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x16xi8>) -> tensor<1x5x5x16xi8>
  return %p : tensor<1x5x5x16xi8>
}

// -----

// Not folded: windows 3 pixels wide, wider than an im2col block.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     window_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x16xi8>) -> tensor<1x2x2x16xi8>
  return %p : tensor<1x2x2x16xi8>
}

// -----

// Not folded: a padded pool.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     window_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x16xi8>) -> tensor<1x4x4x16xi8>
  return %p : tensor<1x4x4x16xi8>
}

// -----

// Not folded: a 1x1 conv (a GEMM, whose pixels do not run window by window).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     window_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x4xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<16x1x1x4xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
  return %p : tensor<1x4x4x16xi8>
}
