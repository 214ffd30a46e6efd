// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A fully connected layer is a GEMM (TileGemm.cpp): per block of 2 rows,
// both rows' segments are ring-loaded into a buffer and freed, and the
// short rows widened to int16 pairs; then per output segment, each 3 of
// its channels are one vmcu.gemm_tile 2 x 3 register tile (MACs over
// weights stored as int16 pairs, biases with the input zero point folded
// in, 6 requantizations) in an scf.for LLVM must not unroll; the segment's
// 2 channels left over are a 2 x 2 tile; both rows' segments are stored.
// Each tile's record: its 4 steps x 2 halves x 3 channels weight words,
// doubled (2 | 2 << 16 = 131074), its 3 biases doubled (4), its 3
// requantization entries (exponent 36 - 31 = 5, half term 16 - 3 * 2^5 =
// -80: the output zero point folded in, so the op carries output_zp = 0):
// 12 words a channel.
// CHECK: memref.global "private" constant @fully_connected_0_tiles : memref<96xi32> = dense<[131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 131074, 4, 4, 4, 1073741824, 5, -80, 1073741824, 5, -80, 1073741824, 5, -80, 131074,
// CHECK-LABEL: func.func @vmcu_invoke() -> i32
// CHECK: %[[POOL:.*]] = vmcu.segment_pool : !vmcu.pool<segments = 6, segment_bytes = 8>
// CHECK: %[[IN:.*]] = vmcu.tensor_base %[[POOL]] {name = "input", segments = 4 : i64, vmcu.io = "input"}
// CHECK: %[[OUT:.*]] = vmcu.tensor_base %[[POOL]] {name = "fully_connected_0", segments = 2 : i64, vmcu.io = "output"}
// The cost model counts 6 ring accesses: 2 segments of each of the 2 rows
// loaded, 1 of each stored.
// CHECK: vmcu.kernel "fully_connected_0" ins(%[[IN]]) outs(%[[OUT]]) attributes {compact_cycles = {{[0-9]+}} : i64, estimated_cycles = {{[0-9]+}} : i64, executed_macs = 256 : i64, int8_weight_cycles = 10 : i64, layer = "fully_connected", macs = 256 : i64, ring_accesses = 6 : i64, schedule = "gemm", segment_bytes = 8 : i64
// CHECK: %[[O:.*]] = memref.alloca() : memref<16xi8>
// CHECK: %[[XW:.*]] = memref.alloca() : memref<16xi32>
// CHECK: %[[REC:.*]] = memref.get_global @fully_connected_0_tiles : memref<96xi32>
// CHECK: %[[X:.*]] = memref.alloca() : memref<32xi8>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.ring_load %[[POOL]]
// CHECK:     vector.store %{{.*}}, %[[X]]
// CHECK:   affine.for %{{.*}} = 0 to 2 {
// CHECK:     vmcu.ring_load %[[POOL]]
// CHECK:     vector.store %{{.*}}, %[[X]]
// CHECK:   vmcu.free %[[POOL]]
// CHECK:   vmcu.free %[[POOL]]
// CHECK:   vmcu.widen_pairs
// CHECK:   vector.store %{{.*}}, %[[XW]]
// CHECK:   affine.for %{{.*}} = 0 to 1 {
// CHECK:     scf.for %{{.*}} = %{{.*}} to %[[TWO:.*]] step
// Rows 8 bytes (the output group) apart in the output buffer.
// CHECK:       vmcu.gemm_tile %[[XW]][%{{.*}}], %[[REC]][%{{.*}}] into %[[O]][%{{.*}}] {channels = 3 : i64, double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 8 : i64, output_zp = 0 : i32, pixels = 2 : i64, words = 4 : i64, x_stride = 32 : i64}
// CHECK-NOT:   vmcu.requantize
// CHECK:     } {llvm.loop_annotation = #{{.*}}}
// CHECK:     vmcu.gemm_tile %[[XW]][%{{.*}}], %[[REC]][%{{.*}}] into %[[O]][%{{.*}}] {channels = 2 : i64, {{.*}}pixels = 2 : i64, words = 4 : i64, x_stride = 32 : i64}
// CHECK:     vector.load %[[O]]
// CHECK:     vmcu.ring_store %{{.*}}, %[[POOL]]
// CHECK:     vector.load %[[O]]
// CHECK:     vmcu.ring_store %{{.*}}, %[[POOL]]
// CHECK: return
// CHECK-NOT: func.func @main
func.func @main(%x: tensor<2x16xi8>) -> tensor<2x8xi8> {
  %w = arith.constant dense<1> : tensor<8x16xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<2x16xi8>, tensor<8x16xi8>, tensor<8xi32>) -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// The GEMM's ragged edges: 3 rows are one 2-row block and a 1-row tail;
// 5-byte output segments are a 3-channel tile and a 2-channel rest; 40
// input channels are 10 steps of 4, an 8-step block and a 2-step rest.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: memref.get_global @fully_connected_0_weights : memref<100xi32>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   affine.for %{{.*}} = 0 to 1 {
// CHECK:     scf.for
// CHECK:       vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 80 : i64}
// CHECK:       vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 2 : i64, x_stride = 80 : i64}
// CHECK:       vmcu.requant_block {{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 5 : i64, output_zp = 0 : i32, pixels = 2 : i64, uniform_table}
// CHECK:     } {llvm.loop_annotation
// CHECK:     vmcu.dot_block %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 80 : i64}
// CHECK:     vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 2 : i64, x_stride = 80 : i64}
// CHECK:     vmcu.requant_block %{{.*}}#0, %{{.*}}#1, %{{.*}}#2, %{{.*}}#3 into {{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 5 : i64, output_zp = 0 : i32, pixels = 2 : i64, uniform_table}
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   scf.for
// CHECK:     vmcu.dot_block {{.*}} {pixels = 1 : i64, widened, widened_weights, words = 8 : i64, x_stride = 80 : i64}
// CHECK:     vmcu.dot_block {{.*}} {pixels = 1 : i64, widened, widened_weights, words = 2 : i64, x_stride = 80 : i64}
func.func @main(%x: tensor<3x40xi8>) -> tensor<3x5xi8> {
  %w = arith.constant dense<1> : tensor<5x40xi8>
  %b = arith.constant dense<2> : tensor<5xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 5 : i32, requant = #rq} : (tensor<3x40xi8>, tensor<5x40xi8>, tensor<5xi32>) -> tensor<3x5xi8>
  return %y : tensor<3x5xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// 64 input channels are 2 chunks of 8 steps: up to 4 run straight-line
// (two blocks, the second on the first's sums), no chunk loop. 160 input
// channels are 5 chunks (rows over 128 bytes stay raw where each weight
// serves fewer than 64 pixels, here 2): a rolled chunk loop carrying the
// sums of a 2 x 4 tile over paired int8 weights, then each pair's second
// sum recovered and the requantization: 8 sums and a block's scratch
// exceed the registers, so a block of 3 channels and one of the last, both
// rows in each (each channel's table entry loaded once).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "fully_connected_0"
// CHECK:     scf.for
// CHECK-NOT:   scf.for
// CHECK:       %[[A:.*]]:6 = vmcu.dot_block {{.*}} {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 128 : i64}
// CHECK:       %[[B:.*]]:6 = vmcu.dot_block %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %[[A]]#0, %[[A]]#1, %[[A]]#2, %[[A]]#3, %[[A]]#4, %[[A]]#5 {pixels = 2 : i64, widened, widened_weights, words = 8 : i64, x_stride = 128 : i64}
// CHECK:       vmcu.requant_block %[[B]]#0
// CHECK: vmcu.kernel "fully_connected_2"
// CHECK:     scf.for
// CHECK:       %[[S:.*]]:8 = scf.for {{.*}} iter_args
// CHECK:         vmcu.dot_block {{.*}} {paired_weights, pixels = 2 : i64, words = 8 : i64, x_stride = 160 : i64}
// CHECK:       } {llvm.loop_annotation
// CHECK:       vmcu.requant_block %[[S]]#0, %{{[0-9]+}}, %[[S]]#2, %[[S]]#4, %{{[0-9]+}}, %[[S]]#6 into {{.*}}pixels = 2
// CHECK:       vmcu.requant_block %{{[0-9]+}}, %{{[0-9]+}} into {{.*}}pixels = 2
func.func @main(%x: tensor<2x64xi8>) -> tensor<2x4xi8> {
  %w = arith.constant dense<1> : tensor<6x64xi8>
  %b = arith.constant dense<2> : tensor<6xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<2x64xi8>, tensor<6x64xi8>, tensor<6xi32>) -> tensor<2x6xi8>
  %w2 = arith.constant dense<1> : tensor<160x6xi8>
  %b2 = arith.constant dense<2> : tensor<160xi32>
  %z = vmcu.fully_connected %y, %w2, %b2 {input_zp = 0 : i32, requant = #rq} : (tensor<2x6xi8>, tensor<160x6xi8>, tensor<160xi32>) -> tensor<2x160xi8>
  %w3 = arith.constant dense<1> : tensor<4x160xi8>
  %b3 = arith.constant dense<2> : tensor<4xi32>
  %u = vmcu.fully_connected %z, %w3, %b3 {input_zp = 0 : i32, requant = #rq} : (tensor<2x160xi8>, tensor<4x160xi8>, tensor<4xi32>) -> tensor<2x4xi8>
  return %u : tensor<2x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A single row (a matrix-vector product) reuses no weight word: its weights
// are widened offline (i32 words) over the raw row (no `widened`). The row
// is read in place from the pool (vmcu.ring_view), not staged on the stack.
// Where it crosses the pool's end, its 50 steps go in two runs, before and
// past the end, each in 16-step chunks (a rolled loop) then single steps;
// else (known once the offsets are placed: LLVM folds the test) in one
// run, as a staged row: three straight 16-step chunks and a 2-step rest.
// The 12 outputs are one group (three 4-byte segments, one group loop step
// instead of three) of two 5-channel tiles and one of 2; the per-tensor
// scale is one requantization entry. The input is freed after the last
// tile, so the output cannot overlap it: the pool holds both (50 + 3
// segments).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK:   %[[POOL:.*]] = vmcu.segment_pool : !vmcu.pool<segments = 53, segment_bytes = 4>
// CHECK:   vmcu.kernel "fully_connected_0" {{.*}}stack_bytes = 12 : i64
// CHECK-NOT: memref.alloca() : memref<200xi8>
// CHECK:   %[[W:.*]] = memref.get_global @fully_connected_0_weights : memref<1200xi32>
// CHECK:   %[[RQ:.*]] = memref.get_global @fully_connected_0_requant : memref<3xi32>
// CHECK:   %[[VIEW:.*]], %[[OFF:.*]], %[[CONT:.*]] = vmcu.ring_view %[[POOL]][%{{.*}}] {alignment = 4 : i64, count = 50 : i64}
// CHECK-NOT: vmcu.ring_load
// The two runs' bounds are the same for every tile: computed once.
// CHECK:   %[[SPLIT:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:   %[[PAST:.*]] = arith.subi %{{.*}}, %[[CONT]] : index
// CHECK:   %[[WRAPS:.*]] = arith.cmpi ult, %[[SPLIT]], %{{.*}} : index
// CHECK:   affine.for %{{.*}} = 0 to 1 {
// CHECK-NOT: arith.minui
// CHECK:     scf.if %[[WRAPS]]
// CHECK:     scf.for %[[PART:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:       %[[FIRST:.*]] = arith.cmpi eq, %[[PART]]
// CHECK:       arith.select %[[FIRST]], %[[OFF]], %[[PAST]] : index
// CHECK:       arith.select %[[FIRST]], %{{.*}}, %[[SPLIT]] : index
// CHECK:       scf.for {{.*}} step %{{.*}} iter_args
// CHECK:         vmcu.dot_block %[[VIEW]][%{{.*}}], %[[W]][%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 1 : i64, widened_weights, words = 16 : i64, x_stride = 200 : i64}
// CHECK:       } {llvm.loop_annotation
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         vmcu.dot_block %[[VIEW]][%{{.*}}], %[[W]][%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 1 : i64, widened_weights, words = 1 : i64, x_stride = 200 : i64}
// CHECK-NOT:     llvm.loop_annotation
// CHECK:     } else {
// CHECK-COUNT-3: vmcu.dot_block %[[VIEW]][%{{.*}}], %[[W]][%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 1 : i64, widened_weights, words = 16 : i64, x_stride = 200 : i64}
// CHECK-NOT: scf.for
// CHECK: vmcu.dot_block %[[VIEW]][%{{.*}}], %[[W]][%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 1 : i64, widened_weights, words = 2 : i64, x_stride = 200 : i64}
// CHECK:     vmcu.requant_block {{.*}} table %[[RQ]][%{{.*}}] {{.*}}uniform_table
// CHECK:     vmcu.dot_block {{.*}} {pixels = 1 : i64, widened_weights, words = 16 : i64, x_stride = 200 : i64}
// CHECK:     vmcu.requant_block
// CHECK-COUNT-3: vmcu.ring_store
// CHECK:   affine.for %{{.*}} = 0 to 50 {
// CHECK:     vmcu.free %[[POOL]]
func.func @main(%x: tensor<1x200xi8>) -> tensor<1x12xi8> {
  %w = arith.constant dense<1> : tensor<12x200xi8>
  %b = arith.constant dense<2> : tensor<12xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x200xi8>, tensor<12x200xi8>, tensor<12xi32>) -> tensor<1x12xi8>
  return %y : tensor<1x12xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A single row into 2 channels keeps int8 weights: a 1 x 2 tile over
// widened weights would be no faster (kMinRowWideWeightChannels), and its
// 50 steps keep 8-step chunks in a rolled loop, read in place.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK:   memref.get_global @fully_connected_0_weights : memref<400xi8>
// CHECK:   vmcu.dot_block {{.*}} {paired_weights, pixels = 1 : i64, words = 8 : i64, x_stride = 200 : i64} : memref<?xi8>, memref<400xi8>
func.func @main(%x: tensor<1x200xi8>) -> tensor<1x2xi8> {
  %w = arith.constant dense<1> : tensor<2x200xi8>
  %b = arith.constant dense<2> : tensor<2xi32>
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq} : (tensor<1x200xi8>, tensor<2x200xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A strided 3x3 conv with SAME-style padding (paper Figure 5): clipped tap
// loops, and frees of the rows/columns whose last reader is the current
// output pixel, right before its last output segment is stored. Its window
// of 1,152 bytes is too large for an im2col row (kMaxIm2colWindowBytes):
// 4-lane dot rows.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "conv2d_0"
// CHECK: affine.for %[[P:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[Q:.*]] = 0 to 2 {
// CHECK:     affine.for %{{.*}} = max #[[TAPLO:.*]](%[[P]]) to min #[[TAPHI:.*]](%[[P]]) {
// CHECK-NEXT:  affine.for %{{.*}} = max #[[TAPLO]](%[[Q]]) to min #[[TAPHI]](%[[Q]]) {
// CHECK:         vmcu.ring_load
// CHECK:     vmcu.requantize
// CHECK:     affine.for %{{.*}} = max
// CHECK-NEXT:  affine.for %{{.*}} = max #[[FREELO:.*]](%[[P]]) to min #[[FREEHI:.*]](%[[P]]) {
// CHECK-NEXT:    affine.for %{{.*}} = max #[[FREELO]](%[[Q]]) to min #[[FREEHI]](%[[Q]]) {
// CHECK:           vmcu.free
// CHECK:     vmcu.ring_store
func.func @main(%x: tensor<1x4x4x128xi8>) -> tensor<1x2x2x8xi8> {
  %w = arith.constant dense<1> : tensor<8x3x3x128xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = -128 : i32, requant = #rq} : (tensor<1x4x4x128xi8>, tensor<8x3x3x128xi8>, tensor<8xi32>) -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}


// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A VALID 3x3 stride-2 conv on 8x8 (TOSA's sliced 7x7 with the slice folded):
// row and column 7 are never read. They are still freed, with row and column
// 6 (last read by the last window), by the tail loops after each output row
// and after the kernel, so every input pixel is freed exactly once (an
// im2col row here; 4-lane dot rows free the same way).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "conv2d_0"
// CHECK: affine.for %[[P:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK:     vmcu.ring_store
// CHECK:   affine.for %{{.*}} = max #{{.*}}(%[[P]]) to min #{{.*}}(%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = 6 to 8 {
// CHECK:         vmcu.free
// CHECK: affine.for %{{.*}} = 6 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK:       vmcu.free
// CHECK: return
func.func @main(%x: tensor<1x8x8x32xi8>) -> tensor<1x3x3x8xi8> {
  %w = arith.constant dense<1> : tensor<8x3x3x32xi8>
  %b = arith.constant dense<2> : tensor<8xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = -128 : i32, requant = #rq} : (tensor<1x8x8x32xi8>, tensor<8x3x3x32xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  return %y : tensor<1x3x3x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// Depthwise: the in-bounds window segments are ring-loaded (clipped tap
// loops, as for convs) into a window buffer whose padding taps hold the
// input zero point, so the zero point folds into the bias
// (10 - 3 * 9 taps * 2 = -44). With one channel segment and column stride
// 1 the window slides along the row: its 3 columns are a ring, a row starts
// with tap columns 1 and 2 of a virtual output column -1, and each output
// loads only its last tap column (t = 2), into window column (q + 2) mod 3.
// The block of 4 channels is one vmcu.depthwise_block (sums, requantization
// and one 4-byte store); the 2 leftover channels of the 6-byte segment form
// a narrower block whose sums go through iter_args of constant-bound tap
// loops. The requantization is bounded (|sum| < 2^30): one table interleaves each
// channel's multiplier, exponent e = 36 - 31 = 5 (the shift less the
// product's 31, added back as the op's shift operand, which the lowering's
// e = shift - 31 folds away) and half term 2^(e - 1) = 16, with the output
// zero point folded in (16 - 3 * 2^5 = -80), so the ops carry
// output_zp = 0.
// CHECK: #[[SLIDE:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 + d1) mod 3)>
// The block's record: per lane its bias doubled (-88), multiplier,
// exponent and half term, then the doubled weight pairs (4 | 4 << 16 =
// 262148).
// CHECK-LABEL: memref.global "private" constant @depthwise_conv2d_0_requant : memref<3xi32> = dense<[1073741824, 5, -80]>
// CHECK-LABEL: memref.global "private" constant @depthwise_conv2d_0_blocks : memref<34xi32> = dense<[-88, 1073741824, 5, -80, -88, 1073741824, 5, -80, -88, 1073741824, 5, -80, -88, 1073741824, 5, -80, 262148, 262148,
// CHECK-LABEL: memref.global "private" constant @depthwise_conv2d_0_bias : memref<6xi32> = dense<-44>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "depthwise_conv2d_0"
// CHECK-DAG: %[[W:.*]] = memref.get_global @depthwise_conv2d_0_weights : memref<54xi8>
// CHECK-DAG: %[[B:.*]] = memref.get_global @depthwise_conv2d_0_bias : memref<6xi32>
// CHECK-DAG: %[[REC:.*]] = memref.get_global @depthwise_conv2d_0_blocks : memref<34xi32>
// CHECK-DAG: %[[WIN:.*]] = memref.alloca() : memref<54xi8>
// CHECK-DAG: %[[OBUF:.*]] = memref.alloca() : memref<6xi8>
// CHECK-NOT: memref.alloca() : memref<6xi32>
// CHECK: affine.for %[[P:.*]] = 0 to 4 {
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[ZP:.*]] = arith.constant dense<3> : vector<6xi8>
// CHECK: affine.for %[[R0:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[T0:.*]] = 1 to 3 {
// CHECK-NEXT: affine.if #{{.*}}(%[[P]], %[[M1]], %[[R0]], %[[T0]]) {
// CHECK-NEXT: } else {
// CHECK: vector.store %[[ZP]], %[[WIN]]
// CHECK: affine.for %{{.*}} = max #[[TAPLO:.*]](%[[P]]) to min #[[TAPHI:.*]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[M1]]) to min #[[TAPHI]](%[[M1]]) {
// CHECK: vmcu.ring_load {{.*}} -> vector<6xi8>
// CHECK: affine.for %[[Q:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[CC:.*]] = 0 to 1 {
// CHECK: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[T:.*]] = 2 to 3 {
// CHECK-NEXT: affine.if #{{.*}}(%[[P]], %[[Q]], %[[R]], %[[T]]) {
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.apply #[[SLIDE]](%[[Q]], %[[T]])
// CHECK: affine.for %{{.*}} = max #[[TAPLO]](%[[P]]) to min #[[TAPHI]](%[[P]]) {
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[Q]]) to min #[[TAPHI]](%[[Q]]) {
// CHECK: %[[SEG:.*]] = vmcu.ring_load {{.*}} -> vector<6xi8>
// CHECK-NEXT: affine.apply #[[SLIDE]](%[[Q]], %{{.*}})
// CHECK: vector.store %[[SEG]], %[[WIN]]
// The window's phase q mod 3 selects one of 3 copies of the sums, in which
// every window column is a constant: the 4-lane block is one
// vmcu.depthwise_block reading its taps at constant offsets (tap column t
// from window column (phase + t) mod 3, 6 bytes per column) and its
// record (biases, requantization, weight pairs) from one table.
// CHECK: %[[PHASE:.*]] = affine.apply #{{.*}}(%[[Q]])
// CHECK-NEXT: scf.index_switch %[[PHASE]]
// CHECK-NEXT: case 0 {
// CHECK: vmcu.depthwise_block %[[WIN]][%{{.*}}], %[[REC]][%{{.*}}] into %[[OBUF]][%{{.*}}] {double_round = true, max = 127 : i32, min = -128 : i32, output_zp = 0 : i32, tap_offsets = array<i64: 0, 6, 12, 18, 24, 30, 36, 42, 48>} : memref<54xi8>, memref<34xi32>, memref<6xi8>
// The 2 leftover lanes: plain vector arithmetic.
// CHECK: vector.load %[[B]][%{{.*}}] : memref<6xi32>, vector<2xi32>
// CHECK: %[[X2:.*]] = vector.load %[[WIN]][%{{.*}}] : memref<54xi8>, vector<2xi8>
// CHECK: arith.extsi %[[X2]] : vector<2xi8> to vector<2xi32>
// CHECK: arith.muli
// CHECK: vmcu.requant_block %{{.*}}, %{{.*}} into %[[OBUF]]
// CHECK: case 1 {
// CHECK: vmcu.depthwise_block {{.*}}tap_offsets = array<i64: 6, 12, 0, 24, 30, 18, 42, 48, 36>}
// CHECK: default {
// CHECK: vmcu.depthwise_block {{.*}}tap_offsets = array<i64: 12, 0, 6, 30, 18, 24, 48, 36, 42>}
// CHECK: vmcu.free
// CHECK: vmcu.ring_store
func.func @main(%x: tensor<1x4x4x6xi8>) -> tensor<1x4x4x6xi8> {
  %w = arith.constant dense<2> : tensor<3x3x6x1xi8>
  %b = arith.constant dense<10> : tensor<6xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 3 : i32, requant = #rq} : (tensor<1x4x4x6xi8>, tensor<3x3x6x1xi8>, tensor<6xi32>) -> tensor<1x4x4x6xi8>
  return %y : tensor<1x4x4x6xi8>
}

// -----

// A shift of 61 (e = 30): the zero point's 3 * 2^30 does not fit the int32
// quotient, so the half term stays 2^29 and the ops keep output_zp.
#rq = #vmcu.requant<input_zp = 0, output_zp = -3, multiplier = [1073741824], shift = [61], double_round = true, min = -128, max = 127>
// CHECK-LABEL: memref.global "private" constant @depthwise_conv2d_0_requant : memref<3xi32> = dense<[1073741824, 30, 536870912]>
// CHECK: vmcu.depthwise_block {{.*}}output_zp = -3 : i32
func.func @main(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %w = arith.constant dense<2> : tensor<3x3x8x1xi8>
  %b = arith.constant dense<10> : tensor<8xi32>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 3 : i32, requant = #rq} : (tensor<1x4x4x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}
