// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s --check-prefix=PAIRS
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=ARENA
// RUN: vmcu-opt %s --vmcu-tile=cores=2 --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=ARENA

// Pixel pairs across rows (5 wide, 3x3x24 -> 24: 5,184 MACs a pixel) free
// the first row's unread input columns (column 4, which the right padding
// leaves to no window's last use) once its last pixel is gathered, before
// the second row's first pixel: the placement proves safe and the pool is
// the size a row at a time needs (cores=2 tiles a row at a time).
// PAIRS-DAG: #[[CROSS_LO:.*]] = affine_map<(d0) -> (d0, 2)>
// PAIRS-DAG: #[[CROSS_HI:.*]] = affine_map<(d0) -> (d0 + 1, 3)>
// PAIRS: affine.for %{{.*}} = 0 to 3 {
// PAIRS: affine.for %[[B:.*]] = #{{.*}}(%{{.*}}) to min #{{.*}}(%{{.*}}) {
// Slot 0, first row, then second row.
// PAIRS: vmcu.ring_load
// PAIRS: vmcu.ring_load
// The first row's tail, in block 2 only, before slot 1's gathers.
// PAIRS: affine.for %{{.*}} = max #[[CROSS_LO]](%[[B]]) to min #[[CROSS_HI]](%[[B]]) {
// PAIRS: affine.for %{{.*}} = 4 to 5 {
// PAIRS: vmcu.free
// PAIRS: vmcu.ring_load
// PAIRS: vmcu.ring_load
// PAIRS: vmcu.dot_block {{.*}}pixels = 2
// ARENA: vmcu.pool<segments = 31, segment_bytes = 24>
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x5x5x24xi8>) -> tensor<1x5x5x24xi8> {
  %w = arith.constant dense<1> : tensor<24x3x3x24xi8>
  %b = arith.constant dense<2> : tensor<24xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = -7 : i32, requant = #rq} : (tensor<1x5x5x24xi8>, tensor<24x3x3x24xi8>, tensor<24xi32>) -> tensor<1x5x5x24xi8>
  return %y : tensor<1x5x5x24xi8>
}
