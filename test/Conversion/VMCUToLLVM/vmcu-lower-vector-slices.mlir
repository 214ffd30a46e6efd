// RUN: vmcu-opt %s --vmcu-lower-vector-slices | FileCheck %s

// 1-D strided slices become shuffles (an insert widens the slice, then
// blends it in); the other ops stay, even the unused tensor base that
// declares the model output.

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

// CHECK-LABEL: func.func @slices
// CHECK:       vmcu.tensor_base {{.*}} name = "y"{{.*}} vmcu.io = "output"
// CHECK:       %[[V:.*]] = vmcu.ring_load
// CHECK:       %[[S:.*]] = vector.shuffle %[[V]], %[[V]] [4, 5, 6, 7] : vector<16xi8>, vector<16xi8>
// CHECK:       %[[I:.*]] = vector.shuffle %[[S]], %[[S]] [0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<4xi8>, vector<4xi8>
// CHECK:       %[[R:.*]] = vector.shuffle %[[I]], %[[V]] [0, 1, 2, 3, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
// CHECK-NOT:   strided_slice
// CHECK:       return %[[R]]
func.func @slices() -> vector<16xi8> {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4, vmcu.io = "output"} : !pool
  %v = vmcu.ring_load %pool[%x] : !pool -> vector<16xi8>
  %s = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
  %r = vector.insert_strided_slice %s, %v {offsets = [0], strides = [1]} : vector<4xi8> into vector<16xi8>
  return %r : vector<16xi8>
}
