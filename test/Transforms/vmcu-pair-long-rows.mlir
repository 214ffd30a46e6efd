// RUN: vmcu-opt %s --split-input-file --vmcu-pair-long-rows | FileCheck %s --check-prefix=DEFAULT
// RUN: vmcu-opt %s --split-input-file --vmcu-pair-long-rows="ram-kb=11" | FileCheck %s --check-prefix=KB11
// RUN: vmcu-opt %s --split-input-file --vmcu-pair-long-rows="ram-kb=10" | FileCheck %s --check-prefix=KB10
// RUN: vmcu-opt %s --split-input-file --vmcu-pair-long-rows --vmcu-tile | FileCheck %s --check-prefix=TILE
// RUN: vmcu-opt %s --split-input-file --vmcu-pair-long-rows --vmcu-tile=widen-weights=false | FileCheck %s --check-prefix=RAW

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A 3x3 32 -> 32 conv: 288-byte windows, one raw row at a time unless
// paired. Its arena (about 34 KB) takes the pair's 1,792 bytes of stack
// within 1/8 more SRAM, so it pairs by default (an 11 KiB budget is below
// the plan's SRAM already: no pair there). Two widened windows
// (288 words of int16 pairs), 2 x 3 tiles over widened weights and a
// 2 x 2 tile of the rest, or 2 x 2 tiles over int8 weights.
// DEFAULT:     vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, paired_rows, requant = {{.*}} -> tensor<1x32x32x32xi8>
// KB11:        vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, requant = {{.*}} -> tensor<1x32x32x32xi8>
// TILE:        memref.alloca() : memref<288xi32>
// TILE:        vmcu.widen_pairs
// TILE:        vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 576 : i64}
// TILE:        vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 576 : i64}
// RAW:         vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, widened, words = 8 : i64, x_stride = 576 : i64}
func.func @main(%x: tensor<1x32x32x32xi8>) -> tensor<1x32x32x32xi8> {
  %w = arith.constant dense<1> : tensor<32x3x3x32xi8>
  %b = arith.constant dense<2> : tensor<32xi32>
  %y = vmcu.conv2d %x, %w, %b {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x32x32x32xi8>, tensor<32x3x3x32xi8>, tensor<32xi32>) -> tensor<1x32x32x32xi8>
  return %y : tensor<1x32x32x32xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// The same conv over 16 x 16 pixels: SRAM 9,056 bytes (an arena of
// 8,736), which pairing would raise to 10,528, over 1/8 more: not by
// default, nor within 10 KiB; within 11 KiB it pairs.
// DEFAULT:     vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, requant = {{.*}} -> tensor<1x16x16x32xi8>
// KB11:        vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, paired_rows, requant = {{.*}} -> tensor<1x16x16x32xi8>
// KB10:        vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, requant = {{.*}} -> tensor<1x16x16x32xi8>
// TILE:        vmcu.dot_block {{.*}} {pixels = 1 : i64, widened_weights, words = 16 : i64, x_stride = 288 : i64}
func.func @main(%x: tensor<1x16x16x32xi8>) -> tensor<1x16x16x32xi8> {
  %w = arith.constant dense<1> : tensor<32x3x3x32xi8>
  %b = arith.constant dense<2> : tensor<32xi32>
  %y = vmcu.conv2d %x, %w, %b {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xi8>, tensor<32x3x3x32xi8>, tensor<32xi32>) -> tensor<1x16x16x32xi8>
  return %y : tensor<1x16x16x32xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// 144-byte windows pair anyway, and a pointwise conv's 1,028-byte input
// rows are too long to pair: neither is a candidate, whatever the budget.
// KB11:        vmcu.conv2d {{.*}} pad = array<i64: 1, 1, 1, 1>, requant = {{.*}} -> tensor<1x8x8x1028xi8>
// KB11:        vmcu.conv2d {{.*}} pad = array<i64: 0, 0, 0, 0>, requant = {{.*}} -> tensor<1x8x8x8xi8>
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x8xi8> {
  %w = arith.constant dense<1> : tensor<1028x3x3x16xi8>
  %b = arith.constant dense<2> : tensor<1028xi32>
  %y = vmcu.conv2d %x, %w, %b {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xi8>, tensor<1028x3x3x16xi8>, tensor<1028xi32>) -> tensor<1x8x8x1028xi8>
  %w2 = arith.constant dense<1> : tensor<8x1x1x1028xi8>
  %b2 = arith.constant dense<2> : tensor<8xi32>
  %z = vmcu.conv2d %y, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x8x8x1028xi8>, tensor<8x1x1x1028xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %z : tensor<1x8x8x8xi8>
}
