// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s

// An im2col conv fills with the input zero point only the taps of a window
// that lie over the padding (WindowGemm::fillPadding): window rows above
// and below the input, then the taps left and right of it in the rows
// inside. An interior pixel's bounds leave every loop empty.
// CHECK-DAG: #[[ABOVE:.*]] = affine_map<(d0) -> (3, -d0 + 1)>
// CHECK-DAG: #[[BELOW:.*]] = affine_map<(d0) -> (0, -d0 + 9)>
// CHECK-DAG: #[[INSIDE_LO:.*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK-DAG: #[[INSIDE_HI:.*]] = affine_map<(d0) -> (3, -d0 + 9)>
// Rows of 3 taps x 16 channels; the second pixel's column row 144 bytes on.
// CHECK-DAG: #[[ROW_BYTE:.*]] = affine_map<(d0, d1) -> (d0 * 48 + d1)>
// CHECK-DAG: #[[TAP_BYTE:.*]] = affine_map<(d0, d1, d2) -> (d0 * 48 + d1 * 16 + d2)>
// CHECK-DAG: #[[ROW_BYTE2:.*]] = affine_map<(d0, d1) -> (d0 * 48 + d1 + 144)>
// CHECK-DAG: #[[TAP_BYTE2:.*]] = affine_map<(d0, d1, d2) -> (d0 * 48 + d1 * 16 + d2 + 144)>
// The column rows of the two pixels (2 x 144 bytes) are word-aligned.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: memref.alloca() {alignment = 4 : i64} : memref<288xi8>
// CHECK: %[[ZP:.*]] = arith.constant -7 : i8
// CHECK: affine.for %[[P:.*]] = 0 to 8 {
// CHECK: %[[Q:.*]] = affine.apply
// CHECK-NOT: affine.for %{{.*}} = 0 to 144 {
// CHECK: affine.for %[[R:.*]] = #{{.*}}(%[[P]]) to min #[[ABOVE]](%[[P]]) {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 48 {
// CHECK-NEXT: %[[AT:.*]] = affine.apply #[[ROW_BYTE]](%[[R]], %[[K]])
// CHECK-NEXT: memref.store %[[ZP]], %{{.*}}[%[[AT]]]
// CHECK: affine.for %{{.*}} = max #[[BELOW]](%[[P]]) to #{{.*}}(%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 48 {
// CHECK-NEXT: affine.apply #[[ROW_BYTE]]
// CHECK-NEXT: memref.store %[[ZP]]
// CHECK: affine.for %[[T:.*]] = #{{.*}}(%[[Q]]) to min #[[ABOVE]](%[[Q]]) {
// CHECK-NEXT: affine.for %[[R2:.*]] = max #[[INSIDE_LO]](%[[P]]) to min #[[INSIDE_HI]](%[[P]]) {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 16 {
// CHECK-NEXT: %[[AT2:.*]] = affine.apply #[[TAP_BYTE]](%[[R2]], %[[T]], %[[C]])
// CHECK-NEXT: memref.store %[[ZP]], %{{.*}}[%[[AT2]]]
// CHECK: affine.for %{{.*}} = max #[[BELOW]](%[[Q]]) to #{{.*}}(%[[Q]]) {
// CHECK-NEXT: affine.for %{{.*}} = max #[[INSIDE_LO]](%[[P]]) to min #[[INSIDE_HI]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT: affine.apply #[[TAP_BYTE]]
// CHECK-NEXT: memref.store %[[ZP]]
// CHECK: vmcu.ring_load
// The block's second pixel fills its own column row.
// CHECK: affine.apply #[[ROW_BYTE2]]
// CHECK-NEXT: memref.store %[[ZP]]
// CHECK: affine.apply #[[TAP_BYTE2]]
// CHECK-NEXT: memref.store %[[ZP]]
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}

// -----

// A window of at most 128 bytes (3x3x8 = 72) is filled whole before each
// gather: cheaper than the bound tests.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: %[[ZP:.*]] = arith.constant -7 : i8
// CHECK: affine.for %{{.*}} = 0 to 72 {
// CHECK-NEXT: affine.apply
// CHECK-NEXT: memref.store %[[ZP]]
// CHECK-NOT: memref.store %[[ZP]]
// CHECK: vmcu.ring_load
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x8xi8>) -> tensor<1x8x8x8xi8> {
  %w = arith.constant dense<1> : tensor<8x3x3x8xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}

// -----

// On a 4x4 map a quarter of the windows lie inside the input, fewer than a
// third: the 144-byte window is filled whole.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: %[[ZP:.*]] = arith.constant -7 : i8
// CHECK: affine.for %{{.*}} = 0 to 144 {
// CHECK-NEXT: affine.apply
// CHECK-NEXT: memref.store %[[ZP]]
// CHECK-NOT: memref.store %[[ZP]]
// CHECK: vmcu.ring_load
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// A VALID conv: every window lies inside the input, nothing is filled.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-NOT: memref.store %c-7_i8
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x6x6x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = -7 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
  return %y : tensor<1x6x6x16xi8>
}

// -----

// Stride 2 with TFLite's SAME padding (none before, one after): the last
// output's window covers one padding row and column, so the rows below and
// the taps right of the input are filled; bottom = 16 + 0 - 2p.
// CHECK-DAG: #[[BELOW:.*]] = affine_map<(d0) -> (0, d0 * -2 + 16)>
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: %[[ZP:.*]] = arith.constant -7 : i8
// CHECK: affine.for %[[P:.*]] = 0 to 8 {
// CHECK: affine.for %{{.*}} = max #[[BELOW]](%[[P]]) to #{{.*}}(%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 48 {
// CHECK-NEXT: affine.apply
// CHECK-NEXT: memref.store %[[ZP]]
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x16x16x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x16x16x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}
