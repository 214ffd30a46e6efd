// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// Rows 1 and 3 of H, channels 4..7: 4-byte segments (the gcd of 8, 4 and
// the channel start 4). Per output row and segment one load from the
// selected input row and one store. The input rows are freed as slabs of
// H: row 0 before the copy, rows 1-2 after output row 0, rows 3-4 after
// output row 1 (min(2h + 3, 5)), so the output can grow over them.
// CHECK-DAG: #[[FREE:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 8 + d1 * 40 + d2 * 2 + d3)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 40 + (d1 * 2 + 1) * 8 + d2 * 2 + d3 + 1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4 + d0 * 8 + d1 * 4 + d2 + d3)>
// CHECK-DAG: #[[LO:.*]] = affine_map<(d0) -> (d0 * 2 + 1)>
// CHECK-DAG: #[[HI:.*]] = affine_map<(d0) -> (d0 * 2 + 3, 5)>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input", segments = 40
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "slice_0", segments = 8
// CHECK: vmcu.kernel "slice_0" ins(%[[X]]) outs(%[[Y]]) attributes {{{.*}}layer = "slice"{{.*}}segment_bytes = 4 : i64
// CHECK: affine.for %[[R0:.*]] = 0 to 1 {
// CHECK: vmcu.free %[[POOL]]
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 1 {
// CHECK: %[[A:.*]] = affine.apply #[[IN]](%[[N]], %[[H]], %[[W]], %[[J]], %[[X]])
// CHECK: vmcu.ring_load %[[POOL]][%[[A]]]
// CHECK-NOT: vmcu.free
// CHECK: %[[B:.*]] = affine.apply #[[OUT]](%[[N]], %[[H]], %[[W]], %[[J]], %[[Y]])
// CHECK: vmcu.ring_store {{.*}}, %[[POOL]][%[[B]]]
// CHECK: affine.for %[[R:.*]] = #[[LO]](%[[H]]) to min #[[HI]](%[[H]]) {
// CHECK: %[[F:.*]] = affine.apply #[[FREE]](%[[R]], %{{.*}}, %{{.*}}, %{{.*}}, %[[X]])
// CHECK: vmcu.free %[[POOL]][%[[F]]]
// The output overlaps the freed rows: 40 segments, the input's size.
// PLACE: vmcu.segment_pool : !vmcu.pool<segments = 40, segment_bytes = 4>
func.func @main(%x: tensor<1x5x4x8xi8>) -> tensor<1x2x4x4xi8> {
  %y = vmcu.slice %x {start = array<i64: 0, 1, 0, 4>, stride = array<i64: 1, 2, 1, 1>} : (tensor<1x5x4x8xi8>) -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}
