// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s --check-prefix=WIDE
// RUN: vmcu-opt %s --vmcu-tile=widen-weights=false | FileCheck %s --check-prefix=RAW

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A fully connected layer into 53 outputs (a prime) of 1-byte segments: no
// group of whole segments both divides 53 and holds a tile, so Cout's last
// group is short. Widened weights (1 x 5 tiles; a single row into more
// than 48 outputs groups at most two tiles): 5 groups of 10 (a loop over
// two 1 x 5 tiles), then one of 3 (a 1 x 3). Int8 weights: 8 groups of
// one 1 x 6 tile (three pairs of channels whose second sums come out of
// their H = A + 256 * B), then one of a 1 x 5 tile. The group buffer holds
// one group.
// WIDE: vmcu.kernel "fully_connected_0"
// WIDE: memref.alloca() : memref<10xi8>
// WIDE: affine.for %{{.*}} = 0 to 5 {
// WIDE: scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step
// WIDE: %{{.*}}:5 = vmcu.dot_block {{.*}} {pixels = 1 : i64, widened_weights, words = 8 : i64, x_stride = 8 : i64}
// WIDE: vmcu.requant_block %{{.*}}#0, %{{.*}}#1, %{{.*}}#2, %{{.*}}#3, %{{.*}}#4 into
// WIDE-COUNT-10: vmcu.ring_store
// WIDE: %{{.*}}:3 = vmcu.dot_block {{.*}} {pixels = 1 : i64, widened_weights, words = 8 : i64, x_stride = 8 : i64}
// WIDE: vmcu.requant_block %{{.*}}#0, %{{.*}}#1, %{{.*}}#2 into %alloca[%c0
// WIDE-COUNT-3: vmcu.ring_store
// WIDE-NOT: vmcu.dot_block
// RAW: vmcu.kernel "fully_connected_0"
// RAW: memref.alloca() : memref<6xi8>
// RAW: affine.for %{{.*}} = 0 to 8 {
// RAW: %{{.*}}:6 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 8 : i64}
// RAW: vmcu.requant_block %{{.*}}#0, %{{[0-9]+}}, %{{.*}}#2, %{{[0-9]+}}, %{{.*}}#4, %{{[0-9]+}} into
// RAW-COUNT-6: vmcu.ring_store
// RAW: }
// RAW: %{{.*}}:5 = vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 8 : i64}
// RAW: vmcu.requant_block %{{.*}}#0, %{{[0-9]+}}, %{{.*}}#2, %{{[0-9]+}}, %{{.*}}#4 into
// RAW-COUNT-5: vmcu.ring_store
// RAW-NOT: vmcu.dot_block
func.func @main(%x: tensor<1x8xi8>) -> tensor<1x53xi8> {
  %w = arith.constant dense<1> : tensor<53x8xi8>
  %b = arith.constant dense<2> : tensor<53xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x8xi8>, tensor<53x8xi8>, tensor<53xi32>) -> tensor<1x53xi8>
  return %y : tensor<1x53xi8>
}
