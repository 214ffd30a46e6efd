// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(vmcu-select-segment-sizes,vmcu-fuse-global-pool)" | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(vmcu-select-segment-sizes,vmcu-fuse-global-pool{ram-kb=64})" | FileCheck %s --check-prefix=BUDGET
// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(vmcu-select-segment-sizes,vmcu-fuse-global-pool{cores=2 ram-kb=64})" | FileCheck %s --check-prefix=TWO

// A head: a 1x1 conv to 64 channels over 7x7, then a global average pool.
// The pool folds into the conv, whose result becomes the pooled pixel.
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK:         %[[P:.*]] = vmcu.conv2d %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}global_avg_pool = #vmcu.global_avg_pool<input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>{{.*}}} : (tensor<1x7x7x16xi8>, tensor<64x1x1x16xi8>, tensor<64xi32>) -> tensor<1x1x1x64xi8>
// CHECK-NOT:     vmcu.avg_pool2d
// CHECK:         return %[[P]]
func.func @main(%x: tensor<1x7x7x16xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x16xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x7x7x16xi8>, tensor<64x1x1x16xi8>, tensor<64xi32>) -> tensor<1x7x7x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 7, 7>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = -128 : i32, output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, round_half_away} : (tensor<1x7x7x64xi8>) -> tensor<1x1x1x64xi8>
  return %p : tensor<1x1x1x64xi8>
}

// -----

// A strided 3x3 conv over a non-square plane (5x3 output) into 64
// channels, TOSA's average (zero points differ).
#rq = #vmcu.requant<input_zp = 0, output_zp = 3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK:         vmcu.conv2d {{.*}}global_avg_pool = #vmcu.global_avg_pool<input_zp = 3, output_zp = -7, min = -100, max = 100, round_half_away = false>{{.*}} -> tensor<1x1x1x64xi8>
// CHECK-NOT:     vmcu.avg_pool2d
func.func @main(%x: tensor<1x11x7x4xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x3x3x4xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x11x7x4xi8>, tensor<64x3x3x4xi8>, tensor<64xi32>) -> tensor<1x5x3x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 5, 3>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 3 : i32, output_zp = -7 : i32, min = -100 : i32, max = 100 : i32} : (tensor<1x5x3x64xi8>) -> tensor<1x1x1x64xi8>
  return %p : tensor<1x1x1x64xi8>
}

// -----

// Not folded: a 2x2 plane (its sums, 4 bytes a channel, would take as
// many bytes as the plane).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x2x2x8xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x2x2x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x2x2x64xi8>) -> tensor<1x1x1x64xi8>
  return %p : tensor<1x1x1x64xi8>
}

// -----

// Not folded: a pool whose window is not the whole plane.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x6x6x8xi8>) -> tensor<1x3x3x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x6x6x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x64xi8>) -> tensor<1x3x3x64xi8>
  return %p : tensor<1x3x3x64xi8>
}

// -----

// Not folded: a padded pool.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x6x6x8xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x6x6x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 7, 7>, stride = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x64xi8>) -> tensor<1x1x1x64xi8>
  return %p : tensor<1x1x1x64xi8>
}

// -----

// Not folded: the conv's result has another use.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.avg_pool2d
func.func @main(%x: tensor<1x6x6x8xi8>) -> (tensor<1x1x1x64xi8>, tensor<1x6x6x64xi8>) {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x6x6x64xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 6, 6>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x6x6x64xi8>) -> tensor<1x1x1x64xi8>
  return %p, %y : tensor<1x1x1x64xi8>, tensor<1x6x6x64xi8>
}

// -----

// A head whose 3x3 x 256 plane (2,304 B) is not the arena's peak (the
// 24x24x8 tensors before it are): its sums would add 1 KB to the 744-byte
// stack bound of the segment sizes vmcu-select-segment-sizes picks, so
// without a budget it is not folded; within ram-kb=64 it is.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.avg_pool2d
// BUDGET-LABEL:  func.func @main(%{{.*}}: tensor<1x24x24x8xi8>)
// BUDGET:        global_avg_pool
// BUDGET-NOT:    vmcu.avg_pool2d
func.func @main(%x: tensor<1x24x24x8xi8>) -> tensor<1x1x1x256xi8> {
  %w3 = arith.constant dense<1> : tensor<8x3x3x8xi8>
  %b8 = arith.constant dense<0> : tensor<8xi32>
  %w1 = arith.constant dense<1> : tensor<256x1x1x8xi8>
  %b256 = arith.constant dense<0> : tensor<256xi32>
  %a = vmcu.conv2d %x, %w3, %b8 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x24x24x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x24x24x8xi8>
  %c = vmcu.conv2d %a, %w3, %b8 {stride = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x24x24x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  %y = vmcu.conv2d %c, %w1, %b256 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x8xi8>, tensor<256x1x1x8xi8>, tensor<256xi32>) -> tensor<1x3x3x256xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x256xi8>) -> tensor<1x1x1x256xi8>
  return %p : tensor<1x1x1x256xi8>
}

// -----

// TFLite's MEAN as the importer writes it: a depthwise conv of ones over
// the whole 6x6 plane, no bias, 1/36 folded into its requantization. It
// folds with that requantization.
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#mean = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [954437177], shift = [35], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK:         vmcu.conv2d {{.*}}global_avg_pool = #vmcu.global_avg_pool<input_zp = -128, output_zp = -3, min = -128, max = 127, round_half_away = false, requant = <input_zp = 0, output_zp = -3, multiplier = [954437177], shift = [35]{{.*}}>>{{.*}} -> tensor<1x1x1x64xi8>
// CHECK-NOT:     vmcu.depthwise_conv2d
func.func @main(%x: tensor<1x6x6x8xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %ones = arith.constant dense<1> : tensor<6x6x64x1xi8>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x6x6x64xi8>
  %m = vmcu.depthwise_conv2d %y, %ones, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = -128 : i32, requant = #mean} : (tensor<1x6x6x64xi8>, tensor<6x6x64x1xi8>, tensor<64xi32>) -> tensor<1x1x1x64xi8>
  return %m : tensor<1x1x1x64xi8>
}

// -----

// Not folded: a depthwise conv over the whole plane whose weights are not
// all ones (a conv, not a MEAN).
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     global_avg_pool
// CHECK:         vmcu.depthwise_conv2d
func.func @main(%x: tensor<1x6x6x8xi8>) -> tensor<1x1x1x64xi8> {
  %w = arith.constant dense<1> : tensor<64x1x1x8xi8>
  %b = arith.constant dense<0> : tensor<64xi32>
  %twos = arith.constant dense<2> : tensor<6x6x64x1xi8>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<64x1x1x8xi8>, tensor<64xi32>) -> tensor<1x6x6x64xi8>
  %m = vmcu.depthwise_conv2d %y, %twos, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = -128 : i32, requant = #rq} : (tensor<1x6x6x64xi8>, tensor<6x6x64x1xi8>, tensor<64xi32>) -> tensor<1x1x1x64xi8>
  return %m : tensor<1x1x1x64xi8>
}

// -----

// A head whose 3x3 x 8 plane is not the arena's peak and whose 32 bytes of
// sums fit under the stack the first conv already needs: folded, the SRAM
// is the same. On one core the fold saves the pool's cycles; on two it
// would keep the conv on one core (its iterations share the sums), so it
// is not made, even within ram-kb=64.
// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x24x24x8xi8>) -> tensor<1x1x1x8xi8>
// CHECK:         global_avg_pool
// CHECK-NOT:     vmcu.avg_pool2d
// TWO-LABEL:     func.func @main(%{{.*}}: tensor<1x24x24x8xi8>) -> tensor<1x1x1x8xi8>
// TWO-NOT:       global_avg_pool
// TWO:           vmcu.avg_pool2d
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x24x24x8xi8>) -> tensor<1x1x1x8xi8> {
  %w3 = arith.constant dense<1> : tensor<8x3x3x8xi8>
  %b8 = arith.constant dense<0> : tensor<8xi32>
  %w1 = arith.constant dense<1> : tensor<8x1x1x8xi8>
  %b8k = arith.constant dense<0> : tensor<8xi32>
  %a = vmcu.conv2d %x, %w3, %b8 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x24x24x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x24x24x8xi8>
  %c = vmcu.conv2d %a, %w3, %b8 {stride = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x24x24x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  %y = vmcu.conv2d %c, %w1, %b8k {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  %p = vmcu.avg_pool2d %y {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x8xi8>) -> tensor<1x1x1x8xi8>
  return %p : tensor<1x1x1x8xi8>
}
