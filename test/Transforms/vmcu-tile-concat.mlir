// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring --split-input-file | FileCheck %s --check-prefix=PLACE

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A graph: the model input feeds two convs, a concat joins them. The first
// conv keeps x live (no frees: the second reads it too), the second frees
// it; the concat reads the most recent tensor as its input and the other
// as a further ring input, and copies each piece's row segment by segment,
// freeing what it copied.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input"
// CHECK: %[[P:.*]] = vmcu.tensor_base %[[POOL]] {name = "conv2d_0"
// CHECK: %[[Q:.*]] = vmcu.tensor_base %[[POOL]] {name = "conv2d_1"
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "concat_2"
// CHECK: vmcu.kernel "conv2d_0" ins(%[[X]]) outs(%[[P]]) attributes {{{.*}}tensor_level_bytes = 96 : i64
// CHECK-NOT: vmcu.free
// CHECK: vmcu.kernel "conv2d_1" ins(%[[X]]) outs(%[[Q]]) attributes {{{.*}}tensor_level_bytes = 128 : i64
// CHECK: vmcu.free
// CHECK: vmcu.kernel "concat_2" ins(%[[Q]], %[[P]]) outs(%[[Y]]) attributes {{{.*}}layer = "concat"{{.*}}tensor_level_bytes = 128 : i64
// CHECK: affine.for %[[ROW:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 1 {
// CHECK: %[[L0:.*]] = affine.apply #[[PIECE:.*]](%[[ROW]], %[[J]], %[[P]])
// CHECK: vmcu.ring_load %[[POOL]][%[[L0]]]
// CHECK: vmcu.free %[[POOL]]
// CHECK: %[[S0:.*]] = affine.apply #[[FIRST:.*]](%[[ROW]], %[[J]], %[[Y]])
// CHECK: vmcu.ring_store {{.*}}, %[[POOL]][%[[S0]]]
// CHECK: affine.for %[[J2:.*]] = 0 to 1 {
// CHECK: %[[L1:.*]] = affine.apply #[[PIECE]](%[[ROW]], %[[J2]], %[[Q]])
// CHECK: vmcu.ring_load %[[POOL]][%[[L1]]]
// CHECK: vmcu.free %[[POOL]]
// CHECK: %[[S1:.*]] = affine.apply #[[SECOND:.*]](%[[ROW]], %[[J2]], %[[Y]])
// CHECK: vmcu.ring_store {{.*}}, %[[POOL]][%[[S1]]]
// Placement (8-byte segments): p goes next to x, which stays live; q
// overwrites x in place; the concat's output overlaps both pieces. The
// static ring verifier replays every access.
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 15, segment_bytes = 8>
// PLACE: vmcu.tensor_base {{.*}} {base = 7 : i64, name = "input", segments = 8 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 3 : i64, name = "conv2d_0", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 7 : i64, name = "conv2d_1", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "concat_2", segments = 8 : i64
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<8x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %p = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  %q = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  %y = vmcu.concat %p, %q {axis = 3 : i32} : (tensor<1x2x2x8xi8>, tensor<1x2x2x8xi8>) -> tensor<1x2x2x16xi8>
  return %y : tensor<1x2x2x16xi8>
}

// -----

// The same tensor twice, along H: rows of 24 bytes, one row; only the
// second copy frees it.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "concat_0" {{.*}}segment_bytes = 24 : i64
// CHECK: vmcu.ring_load
// CHECK-NOT: vmcu.free
// CHECK: vmcu.ring_store
// CHECK: vmcu.ring_load
// CHECK: vmcu.free
// CHECK: vmcu.ring_store
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 2, segment_bytes = 24>
func.func @main(%x: tensor<1x2x3x4xi8>) -> tensor<1x4x3x4xi8> {
  %y = vmcu.concat %x, %x {axis = 1 : i32} : (tensor<1x2x3x4xi8>, tensor<1x2x3x4xi8>) -> tensor<1x4x3x4xi8>
  return %y : tensor<1x4x3x4xi8>
}
