// RUN: vmcu-opt %s --split-input-file --vmcu-tile="widen-weights=false widen-cycles-per-byte=5" | FileCheck %s

// With a flash price, a single row over paired weights takes 1 x 6 tiles
// only where the cycles they save (about one per 14 MACs) pay the code
// they add at that many cycles per byte: 18 bytes per channel and
// straight-line step of the tile bodies (GemmTiles::chooseShape). Without
// a price (vmcu-tile-one-row-tiles.mlir) they are always taken.

// 16 -> 27 (1-byte segments): 432 MACs save about 30 cycles; a 1 x 6 and
// a last 1 x 3 have 2 channels more than a 1 x 4 and a last 1 x 3, over 4
// straight steps: 144 bytes, 720 cycles at 5 per byte. 1 x 4 tiles.
// CHECK-LABEL: vmcu.kernel "fully_connected_0"
// CHECK-NOT: :6 = vmcu.dot_block
// CHECK: :4 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :6 = vmcu.dot_block
// CHECK: :3 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :6 = vmcu.dot_block
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x16xi8>) -> tensor<1x27xi8> {
  %w = arith.constant dense<1> : tensor<27x16xi8>
  %b = arith.constant dense<2> : tensor<27xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 1} : (tensor<1x16xi8>, tensor<27x16xi8>, tensor<27xi32>) -> tensor<1x27xi8>
  return %y : tensor<1x27xi8>
}

// -----

// 24 -> 18 (2-byte segments): three 1 x 6 tiles are no more code than
// four 1 x 4 and a last 1 x 2 (6 channels of tile bodies each): 1 x 6 at
// any price.
// CHECK-LABEL: vmcu.kernel "fully_connected_0"
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: :6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x24xi8>) -> tensor<1x18xi8> {
  %w = arith.constant dense<1> : tensor<18x24xi8>
  %b = arith.constant dense<2> : tensor<18xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 2} : (tensor<1x24xi8>, tensor<18x24xi8>, tensor<18xi32>) -> tensor<1x18xi8>
  return %y : tensor<1x18xi8>
}

// -----

// 640 -> 62 (2-byte segments): 39,680 MACs save about 2,834 cycles; the
// 1 x 6 and last 1 x 2 bodies have 2 channels more than the 1 x 4 and last
// 1 x 2, over 8 straight steps (one chunk in the rolled loop): 288 bytes,
// 1,440 cycles. 1 x 6 tiles.
// CHECK-LABEL: vmcu.kernel "fully_connected_0"
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: :6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: :2 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x640xi8>) -> tensor<1x62xi8> {
  %w = arith.constant dense<1> : tensor<62x640xi8>
  %b = arith.constant dense<2> : tensor<62xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 2} : (tensor<1x640xi8>, tensor<62x640xi8>, tensor<62xi32>) -> tensor<1x62xi8>
  return %y : tensor<1x62xi8>
}

// -----

// Over several rows the cycles saved count every row (GemmTiles'
// layerRows). A 1x1 conv 320 -> 27 over 2 x 2 pixels: its 320-byte rows
// are too long to pair, so its tiles take one row each. 4 rows of 8,640
// MACs save about 2,468 cycles; the 1 x 6 and last 1 x 3 bodies have 2
// channels more than the 1 x 4 and last 1 x 3, over 8 straight steps: 288
// bytes, 1,440 cycles. 1 x 6 tiles (a single row would take 1 x 4).
// CHECK-LABEL: vmcu.kernel "conv2d_0"
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: :6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64
// CHECK-NOT: :4 = vmcu.dot_block
// CHECK: return
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x2x2x320xi8>) -> tensor<1x2x2x27xi8> {
  %w = arith.constant dense<1> : tensor<27x1x1x320xi8>
  %b = arith.constant dense<2> : tensor<27xi32>
  %y = vmcu.conv2d %x, %w, %b {input_zp = 0 : i32, pad = array<i64: 0, 0, 0, 0>, requant = #rq, stride = array<i64: 1, 1>, segment_bytes = 1} : (tensor<1x2x2x320xi8>, tensor<27x1x1x320xi8>, tensor<27xi32>) -> tensor<1x2x2x27xi8>
  return %y : tensor<1x2x2x27xi8>
}
