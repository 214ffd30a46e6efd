// RUN: vmcu-opt %s --split-input-file --vmcu-tile="widen-cycles-per-byte=5" | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-tile | FileCheck %s --check-prefix=FAST

// With a flash price, a fully connected layer on one vector runs compact
// (one straight 8-step chunk, then a rolled loop) where the straight-line
// code of its tiles costs more flash than even doubling its cycles would
// pay at that price (Tile.cpp, compactByDefault): it runs once per
// inference. It is then already compact, so no compact_cycles are left
// for a flash budget to price. Without a price every kernel keeps full
// speed.

// 130 -> 27: 33 steps, all straight at full speed, 9 compact; a 1 x 4 and
// a last 1 x 3 tile, 18 bytes per channel and step: 3,024 bytes, worth
// 15,120 cycles at 5 per byte, against 4,787 estimated.
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}attributes {compact, compact_cycles = 0 : i64, estimated_cycles = 4787 : i64
// FAST: vmcu.kernel "fully_connected_0" {{.*}}attributes {compact_cycles = 382 : i64, estimated_cycles = 4787 : i64
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x130xi8>) -> tensor<1x27xi8> {
  %w = arith.constant dense<1> : tensor<27x130xi8>
  %b = arith.constant dense<2> : tensor<27xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 1} : (tensor<1x130xi8>, tensor<27x130xi8>, tensor<27xi32>) -> tensor<1x27xi8>
  return %y : tensor<1x27xi8>
}

// -----

// 640 -> 62: 160 steps, already one chunk in a rolled loop at full speed;
// compact code would save no straight step. Full speed.
// CHECK: vmcu.kernel "fully_connected_0" {{.*}}attributes {compact_cycles = 3837 : i64, estimated_cycles = 47969 : i64
// FAST: vmcu.kernel "fully_connected_0" {{.*}}attributes {compact_cycles = 3837 : i64, estimated_cycles = 47969 : i64
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x640xi8>) -> tensor<1x62xi8> {
  %w = arith.constant dense<1> : tensor<62x640xi8>
  %b = arith.constant dense<2> : tensor<62xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 2} : (tensor<1x640xi8>, tensor<62x640xi8>, tensor<62xi32>) -> tensor<1x62xi8>
  return %y : tensor<1x62xi8>
}
