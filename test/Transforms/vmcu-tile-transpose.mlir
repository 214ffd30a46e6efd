// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring --split-input-file | FileCheck %s --check-prefix=PLACE

// NCHW to NHWC: the channels move, so a segment is one byte. The output is
// written in order; once an output row h is done, input row h of every
// channel plane is dead and freed, so the output grows over it.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 24 + d1 * 4 + d2 + d3 * 8)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 24 + d1 * 12 + d2 * 3 + d3)>
// CHECK-DAG: #[[FREE:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 4 + d1 * 24 + d2 * 8 + d3)>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input"
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "transpose_0"
// CHECK: vmcu.kernel "transpose_0" ins(%[[X]]) outs(%[[Y]]) attributes {{{.*}}layer = "transpose"{{.*}}segment_bytes = 1 : i64
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK: %[[A:.*]] = affine.apply #[[IN]](%[[N]], %[[H]], %[[W]], %[[C]], %[[X]])
// CHECK: vmcu.ring_load %[[POOL]][%[[A]]]
// CHECK: %[[B:.*]] = affine.apply #[[OUT]](%[[N]], %[[H]], %[[W]], %[[C]], %[[Y]])
// CHECK: vmcu.ring_store {{.*}}, %[[POOL]][%[[B]]]
// CHECK: affine.for %[[FN:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[FC:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[FW:.*]] = 0 to 4 {
// CHECK: %[[F:.*]] = affine.apply #[[FREE]](%[[H]], %[[FN]], %[[FC]], %[[FW]], %[[X]])
// CHECK: vmcu.free %[[POOL]][%[[F]]]
// The output overlaps the input: 44 bytes, not 48.
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 44, segment_bytes = 1>
func.func @main(%x: tensor<1x3x2x4xi8>) -> tensor<1x2x4x3xi8> {
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x2x4xi8>) -> tensor<1x2x4x3xi8>
  return %y : tensor<1x2x4x3xi8>
}

// -----

// H and W swapped: the channels stay innermost, so segments are the 8
// channels of a pixel.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "transpose_0" {{.*}}segment_bytes = 8 : i64
// CHECK: vmcu.ring_load {{.*}} -> vector<8xi8>
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 11, segment_bytes = 8>
func.func @main(%x: tensor<1x3x2x8xi8>) -> tensor<1x2x3x8xi8> {
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x8xi8>) -> tensor<1x2x3x8xi8>
  return %y : tensor<1x2x3x8xi8>
}
