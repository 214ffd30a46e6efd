// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s

// An im2col conv fills with the input zero point only the taps of a window
// that lie over the padding (WindowGemm::fillPadding): window rows above
// and below the input, then the taps left and right of it in the rows
// inside. An interior pixel's bounds leave every loop empty.
// CHECK-DAG: #[[ABOVE:.*]] = affine_map<(d0) -> (3, -d0 + 1)>
// CHECK-DAG: #[[BELOW:.*]] = affine_map<(d0) -> (0, -d0 + 9)>
// CHECK-DAG: #[[INSIDE_LO:.*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK-DAG: #[[INSIDE_HI:.*]] = affine_map<(d0) -> (3, -d0 + 9)>
// The column rows of the two pixels (2 x 144 bytes) are word-aligned.
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK: memref.alloca() {alignment = 4 : i64} : memref<288xi8>
// CHECK: %[[ZP:.*]] = arith.constant -7 : i8
// CHECK: affine.for %[[P:.*]] = 0 to 8 {
// CHECK: %[[Q:.*]] = affine.apply
// CHECK: affine.for %[[R:.*]] = #{{.*}}(%[[P]]) to min #[[ABOVE]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 48 {
// CHECK: memref.store %[[ZP]]
// CHECK: affine.for %{{.*}} = max #[[BELOW]](%[[P]]) to #{{.*}}(%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 48 {
// CHECK: memref.store %[[ZP]]
// CHECK: affine.for %{{.*}} = #{{.*}}(%[[Q]]) to min #[[ABOVE]](%[[Q]]) {
// CHECK-NEXT: affine.for %{{.*}} = max #[[INSIDE_LO]](%[[P]]) to min #[[INSIDE_HI]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 16 {
// CHECK: memref.store %[[ZP]]
// CHECK: affine.for %{{.*}} = max #[[BELOW]](%[[Q]]) to #{{.*}}(%[[Q]]) {
// CHECK-NEXT: affine.for %{{.*}} = max #[[INSIDE_LO]](%[[P]]) to min #[[INSIDE_HI]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 16 {
// CHECK: memref.store %[[ZP]]
// CHECK-NOT: affine.for %{{.*}} = 0 to 144 {
// CHECK: vmcu.ring_load
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
