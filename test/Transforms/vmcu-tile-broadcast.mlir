// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring --split-input-file | FileCheck %s --check-prefix=PLACE

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// A column [1,3,1,16] plus a row [1,1,4,16]: one pixel loop per output
// dimension (each operand spans one and broadcasts over the other), each
// operand's segment at its own linear pixel, both freed after the loops
// (every segment is read several times), so the output overlaps neither.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1, d2, d3) -> (d3 + d0 + d2)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2, d3) -> (d3 + d1 + d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d3 + d0 * 4 + d1 + d2)>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[A:.*]] = vmcu.tensor_base %{{.*}} {name = "input_0"
// CHECK: %[[B:.*]] = vmcu.tensor_base %{{.*}} {name = "input_1"
// CHECK: %[[Y:.*]] = vmcu.tensor_base %{{.*}} {name = "add_0"
// CHECK: vmcu.kernel "add_0" ins(%[[B]], %[[A]]) outs(%[[Y]])
// CHECK: affine.for %[[H:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 1 {
// CHECK: affine.apply #[[COL]](%[[H]], %[[W]], %[[C]], %[[A]])
// CHECK: affine.apply #[[ROW]](%[[H]], %[[W]], %[[C]], %[[B]])
// CHECK-NOT: vmcu.free
// CHECK: affine.apply #[[OUT]](%[[H]], %[[W]], %[[C]], %[[Y]])
// CHECK-NEXT: vmcu.ring_store
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: vmcu.free
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: vmcu.free
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "add_0" {{.*}}footprint = 19 : i64
func.func @main(%a: tensor<1x3x1x16xi8>, %b: tensor<1x1x4x16xi8>) -> tensor<1x3x4x16xi8> {
  %z = vmcu.add %a, %b {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x3x1x16xi8>, tensor<1x1x4x16xi8>) -> tensor<1x3x4x16xi8>
  return %z : tensor<1x3x4x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// A constant [1,2,3,1] minus x [1,2,3,16]: the constant is a flash table
// read at its pixel (broadcast over the channels); x is read and freed
// segment by segment, so the output overwrites it in place.
// CHECK-LABEL: memref.global "private" constant @sub_0_lhs_constant : memref<6xi8> = dense<[1, 2, 3, 4, 5, 6]>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "sub_0" ins(%[[X:.*]]) outs
// CHECK: %[[T:.*]] = memref.get_global @sub_0_lhs_constant
// CHECK: affine.for %[[P:.*]] = 0 to 6 {
// CHECK: vmcu.ring_load
// CHECK: affine.for %{{.*}} = 0 to 16 {
// CHECK: %[[I:.*]] = affine.apply #{{.*}}(%[[P]],
// CHECK: memref.load %[[T]][%[[I]]]
// CHECK: arith.subi
// CHECK: vmcu.free
// CHECK-NOT: vmcu.ring_load
// CHECK: vmcu.ring_store
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "sub_0" {{.*}}distance = 0 : i64
func.func @main(%x: tensor<1x2x3x16xi8>) -> tensor<1x2x3x16xi8> {
  %c = arith.constant dense<[[[[1], [2], [3]], [[4], [5], [6]]]]> : tensor<1x2x3x1xi8>
  %z = vmcu.add %c, %x {lhs_rescale = #in, rhs_rescale = #in, requant = #rq, subtract} : (tensor<1x2x3x1xi8>, tensor<1x2x3x16xi8>) -> tensor<1x2x3x16xi8> loc("sub_0")
  return %z : tensor<1x2x3x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// x [1,2,2,8] times a one-channel map m [1,2,2,1]: m's innermost extent 1
// makes the segment 1 byte; each output byte reads m's byte at its pixel.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "mul_0" {{.*}}segment_bytes = 1 : i64
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool {{.*}}segment_bytes = 1>
func.func @main(%x: tensor<1x2x2x8xi8>, %m: tensor<1x2x2x1xi8>) -> tensor<1x2x2x8xi8> {
  %z = vmcu.mul %x, %m {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x8xi8>, tensor<1x2x2x1xi8>) -> tensor<1x2x2x8xi8>
  return %z : tensor<1x2x2x8xi8>
}
