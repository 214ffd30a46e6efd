// RUN: vmcu-opt %s --split-input-file --vmcu-tile=widen-weights=false | FileCheck %s

// Int8 weights in channel pairs (vmcu.dot_block's paired_weights): each
// half is the int16 256 * w[c + 1] + w[c], so a negative low weight borrows
// from the high byte: lane 0, 256 * 5 - 1 = 0x04FF (bytes -1, 4); lane 1,
// 256 * -6 + 2 = 0xFA02 (2, -6); lane 3, 256 * -128 + 4 = 0x8004 (4,
// -128). The words hold lanes (0, 2), then (1, 3). A pair's H starts
// from 7 + 256 * 11 = 2823, its table entry: B is (H - A) >> 8 whole.
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK: memref.global "private" constant @fully_connected_0_bias : memref<2xi32> = dense<[7, 2823]>
// CHECK: memref.global "private" constant @fully_connected_0_weights : memref<8xi8> = dense<[-1, 4, -3, 6, 2, -6, 4, -128]>
// CHECK: vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 1 : i64, x_stride = 4 : i64}
// CHECK: %[[D:.*]] = arith.subi %[[S:.*]]#1, %[[S]]#0
// CHECK: %[[B:.*]] = arith.shrsi %[[D]]
// CHECK-NOT: arith.addi
// CHECK: vmcu.requant_block %[[S]]#0, %[[B]]

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x4xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<[[-1, 2, -3, 4], [5, -6, 7, -128]]> : tensor<2x4xi8>
  %b = arith.constant dense<[7, 11]> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x4xi8>, tensor<2x4xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// 256 * -128 - 1 is below int16: the weights stay unpaired, each channel's
// 4 lanes as they are.
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK: memref.global "private" constant @fully_connected_0_weights : memref<8xi8> = dense<[-1, 0, 0, 0, -128, 0, 0, 0]>
// CHECK-NOT: paired_weights

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x4xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<[[-1, 0, 0, 0], [-128, 0, 0, 0]]> : tensor<2x4xi8>
  %b = arith.constant dense<0> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x4xi8>, tensor<2x4xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// The second channel's dot product B must stay below 2^23 = 8,388,608
// for any int8 input (|x| <= 128): 516 weights of 127, 128 * 65,532 =
// 8,388,096, pair. With its bias of 10^9, B does not stay below 2^23, so
// H starts from the first bias, as A does, and B's bias is added after
// (the table keeps it as it is).
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK: memref.global "private" constant @fully_connected_0_bias : memref<2xi32> = dense<[0, 1000000000]>
// CHECK: vmcu.dot_block {{.*}} {paired_weights,
// CHECK: %[[D:.*]] = arith.subi %[[S:.*]]#1, %[[S]]#0
// CHECK: %[[B:.*]] = arith.shrsi %[[D]]
// CHECK: %[[B1:.*]] = arith.addi %[[B]], %{{.*}} : i32
// CHECK: vmcu.requant_block %[[S]]#0, %[[B1]]

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x516xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<127> : tensor<2x516xi8>
  %b = arith.constant dense<[0, 1000000000]> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x516xi8>, tensor<2x516xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// ... 517 of them, 128 * 65,659 = 8,404,352, do not.
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK-NOT: paired_weights
// CHECK: return

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x517xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<127> : tensor<2x517xi8>
  %b = arith.constant dense<0> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x517xi8>, tensor<2x517xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// The edge of the bias in H: 8,388,096 + 511 < 2^23, so H starts from
// 0 + 256 * 511 = 130,816 ...
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK: memref.global "private" constant @fully_connected_0_bias : memref<2xi32> = dense<[0, 130816]>
// CHECK: vmcu.dot_block {{.*}} {paired_weights,
// CHECK: arith.shrsi
// CHECK-NOT: arith.addi
// CHECK: vmcu.requant_block

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x516xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<127> : tensor<2x516xi8>
  %b = arith.constant dense<[0, 511]> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x516xi8>, tensor<2x516xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

// ... and a bias of 512 reaches 2^23: added after.
// CHECK-LABEL: memref.global "private" constant @fully_connected_0_requant
// CHECK: memref.global "private" constant @fully_connected_0_bias : memref<2xi32> = dense<[0, 512]>
// CHECK: vmcu.dot_block {{.*}} {paired_weights,
// CHECK: arith.shrsi
// CHECK-NEXT: arith.addi

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

func.func @main(%x: tensor<1x516xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<127> : tensor<2x516xi8>
  %b = arith.constant dense<[0, 512]> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x516xi8>, tensor<2x516xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}
