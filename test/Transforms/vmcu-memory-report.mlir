// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets=memory-report=%t.json > /dev/null
// RUN: FileCheck %s < %t.json
// RUN: not vmcu-opt %s --vmcu-tile --vmcu-solve-offsets=max-arena-kb=1 2>&1 | FileCheck %s --check-prefix=RAM
// RUN: not vmcu-opt %s --vmcu-tile --vmcu-solve-offsets=memory-report=%t.missing/dir/r.json 2>&1 | FileCheck %s --check-prefix=IO

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A 1x1 conv 8x8x16 -> 8x8x32 with 16-byte segments: the arena is
// max(HWC, HWK) + min(C, K) - seg = 2048 bytes, below the 3072 bytes a
// tensor-level planner needs.
// CHECK: "layers": [
// CHECK:     "distance_segments": 62,
// CHECK:     "footprint_bytes": 2048,
// CHECK:     "in_bytes": 1024,
// CHECK:     "name": "conv2d_0",
// CHECK:     "op": "conv2d",
// CHECK:     "out_bytes": 2048,
// CHECK:     "segment_bytes": 16,
// CHECK:     "tensor_level_bytes": 3072,
// CHECK: "lower_bound_bytes": 2048,
// CHECK: "peak_ram_bytes": 2048,
// CHECK: "pool_segments": 128,
// CHECK: "pool_unit_bytes": 16,
// CHECK: "tensor_level_bytes": 3072
// RAM: error: model needs 2048 bytes of arena, more than max-arena-kb=1 (1024 bytes); layer 'conv2d_0' alone needs 2048 bytes
// IO: error: cannot write memory report
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> {
  %w = arith.constant dense<1> : tensor<32x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<32xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
  return %y : tensor<1x8x8x32xi8>
}
