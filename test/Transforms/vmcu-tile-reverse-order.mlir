// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// reverse_order: the output pixels run from (3, 3) down to (0, 0), each
// loop index mirrored (3 - i). Output row p reads expanded rows p - 1 .. p
// + 1, input rows 2p - 2 .. 2p + 2 (stride-2 expansion); before its first
// store, pixel (p, q) frees the rows no lower output reads, [2p + 1,
// 2p + 3), times the columns [2q + 1, 2q + 3). Row and column 0 lie below
// every such range: the pixels of column 0, of row 0 and (0, 0) free them,
// each under a single-trip loop where the index is 0.
// CHECK-DAG:   #[[MIRROR:.*]] = affine_map<(d0) -> (-d0 + 3)>
// CHECK-DAG:   #[[LO:.*]] = affine_map<(d0) -> (0, (d0 + 1) * 2 - 1)>
// CHECK-DAG:   #[[HI:.*]] = affine_map<(d0) -> (8, (d0 + 1) * 2 + 1)>
// CHECK-DAG:   #[[IF0:.*]] = affine_map<(d0) -> (d0 + 1, 1)>
// CHECK-LABEL: vmcu.kernel "bottleneck_0"
// CHECK:       affine.for %[[PR:.*]] = 0 to 4 {
// CHECK-NEXT:    %[[P:.*]] = affine.apply #[[MIRROR]](%[[PR]])
// CHECK-NEXT:    affine.for %[[QR:.*]] = 0 to 4 {
// CHECK-NEXT:      %[[Q:.*]] = affine.apply #[[MIRROR]](%[[QR]])
// CHECK:             affine.for %{{.*}} = max #[[LO]](%[[P]]) to min #[[HI]](%[[P]]) {
// CHECK-NEXT:          affine.for %{{.*}} = max #[[LO]](%[[Q]]) to min #[[HI]](%[[Q]]) {
// CHECK:                 vmcu.free
// CHECK:             affine.for %{{.*}} = #{{.*}}(%[[Q]]) to min #[[IF0]](%[[Q]]) {
// CHECK:               affine.for %{{.*}} = max #[[LO]](%[[P]]) to min #[[HI]](%[[P]]) {
// CHECK:                 vmcu.free
// CHECK:             affine.for %{{.*}} = #{{.*}}(%[[P]]) to min #[[IF0]](%[[P]]) {
// CHECK:                 vmcu.free
// CHECK:               affine.for %{{.*}} = #{{.*}}(%[[Q]]) to min #[[IF0]](%[[Q]]) {
// CHECK:                 vmcu.free
// CHECK:           vmcu.ring_store
// CHECK-NOT:   vmcu.free
// CHECK:       return
func.func @main(%a: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %w1 = arith.constant dense<1> : tensor<8x1x1x4xi8>
  %b1 = arith.constant dense<2> : tensor<8xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<2> : tensor<8xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<2> : tensor<4xi32>
  %e = vmcu.bottleneck %a {reverse_order} : tensor<1x8x8x4xi8> -> tensor<1x4x4x4xi8> {
  ^bb0(%in: tensor<1x8x8x4xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 1, 1, 1, 1>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
    vmcu.yield %d : tensor<1x4x4x4xi8>
  }
  return %e : tensor<1x4x4x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Without padding the windows never reach input row and column 7 (the last
// output reads expanded rows 1 .. 3, input rows 2 .. 6): they are freed
// before the output loops, the row whole, the column in every other row.
// CHECK-LABEL: vmcu.kernel "bottleneck_0"
// CHECK:       affine.for %{{.*}} = 7 to 8 {
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 8 {
// CHECK:           vmcu.free
// CHECK:       affine.for %{{.*}} = 0 to 7 {
// CHECK-NEXT:    affine.for %{{.*}} = 7 to 8 {
// CHECK:           vmcu.free
// CHECK:       affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:    affine.apply
func.func @main(%a: tensor<1x8x8x4xi8>) -> tensor<1x2x2x4xi8> {
  %w1 = arith.constant dense<1> : tensor<8x1x1x4xi8>
  %b1 = arith.constant dense<2> : tensor<8xi32>
  %w2 = arith.constant dense<1> : tensor<3x3x8x1xi8>
  %b2 = arith.constant dense<2> : tensor<8xi32>
  %w3 = arith.constant dense<1> : tensor<4x1x1x8xi8>
  %b3 = arith.constant dense<2> : tensor<4xi32>
  %e = vmcu.bottleneck %a {reverse_order} : tensor<1x8x8x4xi8> -> tensor<1x2x2x4xi8> {
  ^bb0(%in: tensor<1x8x8x4xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>} : (tensor<1x2x2x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x2x2x4xi8>
    vmcu.yield %d : tensor<1x2x2x4xi8>
  }
  return %e : tensor<1x2x2x4xi8>
}
