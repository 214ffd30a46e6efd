// RUN: vmcu-opt %s -split-input-file --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target | FileCheck %s
// RUN: vmcu-opt %s -split-input-file --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target=cpu=cortex-m7 | FileCheck %s --check-prefix=M7

// A power-of-two pool: the wrap is one `and`; the arena is one zeroed,
// aligned byte array in .vmcu_arena; frees vanish.

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>

// CHECK-DAG: llvm.mlir.global external constant @vmcu_arena_bytes(1024 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
// CHECK-DAG: llvm.mlir.global external @vmcu_arena() {addr_space = 0 : i32, alignment = 16 : i64, section = ".vmcu_arena"} : !llvm.array<1024 x i8> {
// CHECK-DAG:   llvm.mlir.zero : !llvm.array<1024 x i8>
// CHECK-LABEL: llvm.func @ring_pow2
// CHECK-SAME: (%[[SEG:.*]]: i32, %[[OFF:.*]]: i32)
// CHECK-SAME: target_cpu = "cortex-m4"
// CHECK-SAME: target_features = #llvm.target_features<["+dsp"]>
// CHECK:       %[[ARENA:.*]] = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
// CHECK:       %[[X:.*]] = llvm.mlir.constant(3 : index) : i32
// CHECK:       %[[Y:.*]] = llvm.mlir.constant(40 : index) : i32
// CHECK-NOT:   vmcu.
// CHECK:       %[[A:.*]] = llvm.add %[[X]], %[[SEG]] : i32
// CHECK:       %[[MASK:.*]] = llvm.mlir.constant(63 : index) : i32
// CHECK:       %[[W:.*]] = llvm.and %[[A]], %[[MASK]] : i32
// CHECK:       %[[S:.*]] = llvm.mlir.constant(16 : index) : i32
// CHECK:       %[[B:.*]] = llvm.mul %[[W]], %[[S]] overflow<nsw, nuw> : i32
// CHECK:       %[[P:.*]] = llvm.getelementptr inbounds %[[ARENA]][%[[B]]] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK:       %[[V:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr -> vector<16xi8>
// CHECK:       llvm.add %[[Y]], %[[SEG]] : i32
// CHECK:       llvm.and
// CHECK:       %[[B2:.*]] = llvm.mul
// CHECK:       %[[B3:.*]] = llvm.add %[[B2]], %[[OFF]] overflow<nsw, nuw> : i32
// CHECK:       %[[P2:.*]] = llvm.getelementptr inbounds %[[ARENA]][%[[B3]]]
// CHECK:       llvm.store %{{.*}}, %[[P2]] {alignment = 1 : i64} : vector<4xi8>, !llvm.ptr
// CHECK:       llvm.getelementptr inbounds %[[ARENA]]
// CHECK:       llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xi8>
// CHECK-NOT:   vmcu.
// CHECK:       llvm.return
// M7-LABEL: llvm.func @ring_pow2
// M7-SAME: target_cpu = "cortex-m7"
// M7-SAME: target_features = #llvm.target_features<["+dsp"]>
func.func @ring_pow2(%seg: index, %off: index) {
  %pool = vmcu.segment_pool {alignment = 16} : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 8, base = 3} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 8, base = 40} : !pool
  vmcu.kernel "copy" ins(%x) outs(%y) {
    %a = arith.addi %x, %seg : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
    %s = vector.extract_strided_slice %v {offsets = [0], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
    %b = arith.addi %y, %seg : index
    vmcu.ring_store %s, %pool[%b, %off] : vector<4xi8>, !pool
    %c4 = arith.constant 4 : index
    %l = vmcu.ring_load %pool[%b, %c4] : !pool -> vector<4xi8>
    vmcu.free %pool[%a] : !pool
  }
  return
}

// -----

// A pool of 40 segments: the wrap is one compare and select (segments lie
// in [0, 80)), never a division.

!pool = !vmcu.pool<segments = 40, segment_bytes = 8>

// CHECK-LABEL: llvm.func @ring_wrap_select
// CHECK-SAME: (%[[SEG:.*]]: i32)
// CHECK:       %[[N:.*]] = llvm.mlir.constant(40 : index) : i32
// CHECK:       %[[GE:.*]] = llvm.icmp "uge" %[[SEG]], %[[N]] : i32
// CHECK:       %[[SUB:.*]] = llvm.sub %[[SEG]], %[[N]] : i32
// CHECK:       %[[W:.*]] = llvm.select %[[GE]], %[[SUB]], %[[SEG]] : i1, i32
// CHECK:       llvm.mul %[[W]], %{{.*}} overflow<nsw, nuw> : i32
// CHECK:       llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<8xi8>
// CHECK-NOT:   llvm.udiv
// CHECK-NOT:   llvm.urem
// CHECK:       llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<8xi8>, !llvm.ptr
func.func @ring_wrap_select(%seg: index) {
  %pool = vmcu.segment_pool : !pool
  %v = vmcu.ring_load %pool[%seg] : !pool -> vector<8xi8>
  vmcu.ring_store %v, %pool[%seg] : vector<8xi8>, !pool
  return
}

// -----

// dot: SXTB16 of each operand and of it rotated by 8, SADD16 of the packed
// offset (128 in both halves = 0x00800080), two SMLADs.

// CHECK-LABEL: llvm.func @dot_offset
// CHECK-SAME: (%[[ACC:.*]]: i32, %[[X:.*]]: vector<4xi8>, %[[W:.*]]: vector<4xi8>)
// CHECK:       %[[WI:.*]] = llvm.bitcast %[[W]] : vector<4xi8> to i32
// CHECK:       %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       %[[WR:.*]] = llvm.intr.fshr(%[[WI]], %[[WI]], %[[C8]]) : (i32, i32, i32) -> i32
// CHECK:       %[[WE:.*]] = llvm.call_intrinsic "llvm.arm.sxtb16"(%[[WI]]) : (i32) -> i32
// CHECK:       %[[WO:.*]] = llvm.call_intrinsic "llvm.arm.sxtb16"(%[[WR]]) : (i32) -> i32
// CHECK:       %[[OFF:.*]] = llvm.mlir.constant(8388736 : i32) : i32
// CHECK:       %[[XI:.*]] = llvm.bitcast %[[X]] : vector<4xi8> to i32
// CHECK:       %[[C8X:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       %[[XR:.*]] = llvm.intr.fshr(%[[XI]], %[[XI]], %[[C8X]]) : (i32, i32, i32) -> i32
// CHECK:       %[[XE:.*]] = llvm.call_intrinsic "llvm.arm.sxtab16"(%[[OFF]], %[[XI]]) : (i32, i32) -> i32
// CHECK:       %[[XO:.*]] = llvm.call_intrinsic "llvm.arm.sxtab16"(%[[OFF]], %[[XR]]) : (i32, i32) -> i32
// CHECK:       %[[A1:.*]] = llvm.call_intrinsic "llvm.arm.smlad"(%[[XE]], %[[WE]], %[[ACC]]) : (i32, i32, i32) -> i32
// CHECK:       %[[A2:.*]] = llvm.call_intrinsic "llvm.arm.smlad"(%[[XO]], %[[WO]], %[[A1]]) : (i32, i32, i32) -> i32
// CHECK:       llvm.return %[[A2]] : i32
func.func @dot_offset(%acc: i32, %x: vector<4xi8>, %w: vector<4xi8>) -> i32 {
  %r = vmcu.dot %acc, %x, %w {x_offset = 128 : i32} : vector<4xi8>
  return %r : i32
}

// A negative offset packs its 16-bit two's complement into both halves
// (-5 = 0xfffb -> 0xfffbfffb); a zero offset needs no SXTAB16.
// CHECK-LABEL: llvm.func @dot_negative_and_zero_offset
// CHECK:       llvm.mlir.constant(-262149 : i32) : i32
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.arm.sxtab16"
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.arm.smlad"
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.arm.sxtb16"
// CHECK-NOT:   llvm.arm.sxtab16
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.arm.smlad"
// CHECK:       llvm.return
func.func @dot_negative_and_zero_offset(%acc: i32, %x: vector<4xi8>, %w: vector<4xi8>) -> i32 {
  %a = vmcu.dot %acc, %x, %w {x_offset = -5 : i32} : vector<4xi8>
  %b = vmcu.dot %a, %x, %w : vector<4xi8>
  return %b : i32
}

// -----

// dot_block 2 pixels x 2 channels over 2 steps: one inline-assembly block.
// Operands $0-$3 are the accumulators (tied to inputs 13-16), $4-$7 the
// pixels' input halves, $8-$9 the weight words, $10 the scratch half, $11
// and $12 the x and w pointers (base + index). Per step: the loads (pixel 1
// at x_stride = 16 bytes, the channels' weight words side by side), the
// splits, and each weight half times each pixel.
// CHECK-LABEL: llvm.func @dot_block
// CHECK:       %[[XP:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK:       %[[WP:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK:       %[[ASM:.*]] = llvm.inline_asm "ldr $5, [$11, #0]\0A\09ldr $7, [$11, #16]\0A\09ldr $8, [$12, #0]\0A\09ldr $9, [$12, #4]\0A\09sxtb16 $4, $5\0A\09sxtb16 $5, $5, ror #8\0A\09sxtb16 $6, $7\0A\09sxtb16 $7, $7, ror #8\0A\09sxtb16 $10, $8\0A\09sxtb16 $8, $8, ror #8\0A\09smlad $0, $4, $10, $0\0A\09smlad $0, $5, $8, $0\0A\09smlad $2, $6, $10, $2\0A\09smlad $2, $7, $8, $2\0A\09sxtb16 $10, $9\0A\09sxtb16 $9, $9, ror #8\0A\09smlad $1, $4, $10, $1\0A\09smlad $1, $5, $9, $1\0A\09smlad $3, $6, $10, $3\0A\09smlad $3, $7, $9, $3\0A\09ldr $5, [$11, #4]\0A\09ldr $7, [$11, #20]\0A\09ldr $8, [$12, #8]\0A\09ldr $9, [$12, #12]
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,3,~{memory}" %[[XP]], %[[WP]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK:       llvm.extractvalue %[[ASM]][0]
// CHECK:       llvm.extractvalue %[[ASM]][3]
func.func @dot_block(%x: memref<32xi8>, %w: memref<64xi8>, %i: index,
                     %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %b, %a, %b {pixels = 2 : i64, words = 2 : i64, x_stride = 16 : i64} : memref<32xi8>, memref<64xi8>
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// A single pixel of two channels: 7 outputs, pointers $7 and $8.
// CHECK-LABEL: llvm.func @dot_block_one_pixel
// CHECK:       llvm.inline_asm "ldr $3, [$7, #0]\0A\09ldr $4, [$8, #0]\0A\09ldr $5, [$8, #4]\0A\09sxtb16 $2, $3\0A\09
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,~{memory}"
func.func @dot_block_one_pixel(%x: memref<32xi8>, %w: memref<64xi8>, %i: index,
                               %a: i32, %b: i32) -> (i32, i32) {
  %r:2 = vmcu.dot_block %x[%i], %w[%i], %a, %b {pixels = 1 : i64, words = 1 : i64, x_stride = 4 : i64} : memref<32xi8>, memref<64xi8>
  return %r#0, %r#1 : i32, i32
}

// Paired weights on one widened row of 3 channels: the row's two words
// ($3, $4), then the step's three weight words back to back ($5-$7). Each
// of the pair's words (one per half of the row) goes whole into channel
// 1's sum $1, is unpacked in place (its low bytes: channel 0's weights)
// and goes into channel 0's $0; the lone channel 2's word is split into $5
// (whose word was used) and itself. $8 and $9 are the pointers.
// CHECK-LABEL: llvm.func @dot_block_paired
// CHECK:       llvm.inline_asm "ldr $3, [$8, #0]\0A\09ldr $4, [$8, #4]\0A\09ldr $5, [$9, #0]\0A\09ldr $6, [$9, #4]\0A\09ldr $7, [$9, #8]\0A\09smlad $1, $3, $5, $1\0A\09sxtb16 $5, $5\0A\09smlad $0, $3, $5, $0\0A\09smlad $1, $4, $6, $1\0A\09sxtb16 $6, $6\0A\09smlad $0, $4, $6, $0\0A\09sxtb16 $5, $7\0A\09sxtb16 $7, $7, ror #8\0A\09smlad $2, $3, $5, $2\0A\09smlad $2, $4, $7, $2\0A\09"
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,~{memory}"
func.func @dot_block_paired(%x: memref<16xi32>, %w: memref<64xi8>, %i: index,
                            %a: i32, %b: i32, %c: i32) -> (i32, i32, i32) {
  %r:3 = vmcu.dot_block %x[%i], %w[%i], %a, %b, %c {pixels = 1 : i64, words = 1 : i64, x_stride = 8 : i64, widened, paired_weights} : memref<16xi32>, memref<64xi8>
  return %r#0, %r#1, %r#2 : i32, i32, i32
}

// Paired weights on one int8 row of 6 channels (1 x 6): the row's word
// split into its even and odd lanes ($6, $7) after the first round of
// weight loads; the step's six words in two rounds of three ($8-$10, as
// many as the 13 registers leave), each round's loads back to back.
// CHECK-LABEL: llvm.func @dot_block_paired_row
// CHECK:       llvm.inline_asm "ldr $7, [$11, #0]\0A\09ldr $8, [$12, #0]\0A\09ldr $9, [$12, #4]\0A\09ldr $10, [$12, #8]\0A\09sxtb16 $6, $7\0A\09sxtb16 $7, $7, ror #8\0A\09smlad $1, $6, $8, $1\0A\09sxtb16 $8, $8\0A\09smlad $0, $6, $8, $0\0A\09smlad $1, $7, $9, $1\0A\09sxtb16 $9, $9\0A\09smlad $0, $7, $9, $0\0A\09smlad $3, $6, $10, $3\0A\09sxtb16 $10, $10\0A\09smlad $2, $6, $10, $2\0A\09ldr $8, [$12, #12]\0A\09ldr $9, [$12, #16]\0A\09ldr $10, [$12, #20]\0A\09smlad $3, $7, $8, $3\0A\09sxtb16 $8, $8\0A\09smlad $2, $7, $8, $2\0A\09smlad $5, $6, $9, $5\0A\09sxtb16 $9, $9\0A\09smlad $4, $6, $9, $4\0A\09smlad $5, $7, $10, $5\0A\09sxtb16 $10, $10\0A\09smlad $4, $7, $10, $4\0A\09"
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,3,4,5,~{memory}"
func.func @dot_block_paired_row(%x: memref<16xi8>, %w: memref<64xi8>,
                                %i: index, %a: i32) -> (i32, i32) {
  %r:6 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a, %a, %a {pixels = 1 : i64, words = 1 : i64, x_stride = 4 : i64, paired_weights} : memref<16xi8>, memref<64xi8>
  return %r#0, %r#5 : i32, i32
}

// Paired weights over two widened rows of 4 channels work a half step at a
// time in all 14 registers: each pixel's word of the half ($8, $9; pixel 1
// at x_stride = 8 bytes) and each pair's word of the half ($10, $11), back
// to back; then per pair its word whole into the second channel's sums ($1
// and $5, $3 and $7), unpacked in place and into the first's ($0 and $4,
// $2 and $6). Half 1 takes the rows' odd words (byte 4) and each pair's
// second word.
// CHECK-LABEL: llvm.func @dot_block_paired_half_steps
// CHECK:       llvm.inline_asm "ldr $8, [$12, #0]\0A\09ldr $9, [$12, #8]\0A\09ldr $10, [$13, #0]\0A\09ldr $11, [$13, #8]\0A\09smlad $1, $8, $10, $1\0A\09smlad $5, $9, $10, $5\0A\09sxtb16 $10, $10\0A\09smlad $0, $8, $10, $0\0A\09smlad $4, $9, $10, $4\0A\09smlad $3, $8, $11, $3\0A\09smlad $7, $9, $11, $7\0A\09sxtb16 $11, $11\0A\09smlad $2, $8, $11, $2\0A\09smlad $6, $9, $11, $6\0A\09ldr $8, [$12, #4]\0A\09ldr $9, [$12, #12]\0A\09ldr $10, [$13, #4]\0A\09ldr $11, [$13, #12]\0A\09
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,3,4,5,6,7,~{memory}"
func.func @dot_block_paired_half_steps(%x: memref<16xi32>, %w: memref<64xi8>,
                                       %i: index, %a: i32) -> (i32, i32) {
  %r:8 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a, %a, %a, %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 8 : i64, widened, paired_weights} : memref<16xi32>, memref<64xi8>
  return %r#0, %r#7 : i32, i32
}

// A widened block (x already split into int16 pairs, i32 words): two loads
// per pixel and step, no SXTB16 of x, only of the weights.
// CHECK-LABEL: llvm.func @dot_block_widened
// CHECK:       llvm.inline_asm "ldr $4, [$11, #0]\0A\09ldr $5, [$11, #4]\0A\09ldr $6, [$11, #32]\0A\09ldr $7, [$11, #36]\0A\09ldr $8, [$12, #0]\0A\09ldr $9, [$12, #4]\0A\09sxtb16 $10, $8\0A\09
func.func @dot_block_widened(%x: memref<16xi32>, %w: memref<64xi8>, %i: index,
                             %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %b, %a, %b {pixels = 2 : i64, words = 2 : i64, x_stride = 32 : i64, widened} : memref<16xi32>, memref<64xi8>
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// Widened weights too (int16 pairs packed per step and half, channel by
// channel): no SXTB16 at all. Per half step, the pixels' words ($6, $7;
// pixel 1 at x_stride = 32 bytes), the 3 channels' words ($8-$10, side by
// side) back to back, then the 6 SMLADs; $11 and $12 are the pointers.
// CHECK-LABEL: llvm.func @dot_block_widened_weights
// CHECK:       llvm.inline_asm "ldr $6, [$11, #0]\0A\09ldr $7, [$11, #32]\0A\09ldr $8, [$12, #0]\0A\09ldr $9, [$12, #4]\0A\09ldr $10, [$12, #8]\0A\09smlad $0, $6, $8, $0\0A\09smlad $3, $7, $8, $3\0A\09smlad $1, $6, $9, $1\0A\09smlad $4, $7, $9, $4\0A\09smlad $2, $6, $10, $2\0A\09smlad $5, $7, $10, $5\0A\09ldr $6, [$11, #4]\0A\09ldr $7, [$11, #36]\0A\09ldr $8, [$12, #12]
// CHECK-NOT:   sxtb16
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,3,4,5,~{memory}"
func.func @dot_block_widened_weights(%x: memref<16xi32>, %w: memref<64xi32>,
                                     %i: index, %a: i32, %b: i32, %c: i32)
    -> (i32, i32, i32) {
  %r:6 = vmcu.dot_block %x[%i], %w[%i], %a, %b, %c, %a, %b, %c {pixels = 2 : i64, words = 2 : i64, x_stride = 32 : i64, widened, widened_weights} : memref<16xi32>, memref<64xi32>
  return %r#0, %r#4, %r#5 : i32, i32, i32
}

// Widened weights over one raw row (a matrix-vector product): per half
// step the row's raw word ($3) is loaded again with the 3 channels' words
// ($4-$6) and unpacked in place to that half's lanes, the even ones (no
// rotation) for half 0, the odd ones (ROR #8) for half 1; the next step's
// word is at byte 4 of the row. $7 and $8 are the pointers.
// CHECK-LABEL: llvm.func @dot_block_widened_weights_raw_row
// CHECK:       llvm.inline_asm "ldr $3, [$7, #0]\0A\09ldr $4, [$8, #0]\0A\09ldr $5, [$8, #4]\0A\09ldr $6, [$8, #8]\0A\09sxtb16 $3, $3\0A\09smlad $0, $3, $4, $0\0A\09smlad $1, $3, $5, $1\0A\09smlad $2, $3, $6, $2\0A\09ldr $3, [$7, #0]\0A\09ldr $4, [$8, #12]\0A\09ldr $5, [$8, #16]\0A\09ldr $6, [$8, #20]\0A\09sxtb16 $3, $3, ror #8\0A\09smlad $0, $3, $4, $0\0A\09smlad $1, $3, $5, $1\0A\09smlad $2, $3, $6, $2\0A\09ldr $3, [$7, #4]\0A\09ldr $4, [$8, #24]
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,0,1,2,~{memory}"
func.func @dot_block_widened_weights_raw_row(%x: memref<16xi8>,
                                             %w: memref<64xi32>, %i: index,
                                             %a: i32, %b: i32, %c: i32)
    -> (i32, i32, i32) {
  %r:3 = vmcu.dot_block %x[%i], %w[%i], %a, %b, %c {pixels = 1 : i64, words = 2 : i64, x_stride = 8 : i64, widened_weights} : memref<16xi8>, memref<64xi32>
  return %r#0, %r#1, %r#2 : i32, i32, i32
}

// widen_pairs: two SXTB16 (the second of the word rotated by 8) into a
// vector<2xi32>.
// CHECK-LABEL: llvm.func @widen_pairs
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.arm.sxtb16"
// CHECK-COUNT-2: llvm.insertelement
func.func @widen_pairs(%x: vector<4xi8>) -> vector<2xi32> {
  %p = vmcu.widen_pairs %x : vector<4xi8> -> vector<2xi32>
  return %p : vector<2xi32>
}

// -----

// An scf.for annotated for LLVM (vmcu-tile rolls its GEMM loops) keeps the
// annotation as the back edge's own loop_annotation, which the translation
// to LLVM IR writes as !llvm.loop.
// CHECK-LABEL: llvm.func @rolled_loop
// CHECK:       llvm.br ^{{.*}} {loop_annotation = #{{.*}}}
// CHECK-NOT:   llvm.loop_annotation =
#noUnroll = #llvm.loop_annotation<unroll = <disable = true>>
func.func @rolled_loop(%n: index, %a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> i32 {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  } {llvm.loop_annotation = #noUnroll}
  return %r : i32
}

// -----

// add_pairs: the word's bytes (0, 2) added into `even`'s int16 halves,
// those of the word rotated right by 8, (1, 3), into `odd`'s.
// CHECK-LABEL: llvm.func @add_pairs
// CHECK-SAME: (%[[E:.*]]: i32, %[[O:.*]]: i32, %[[X:.*]]: vector<4xi8>)
// CHECK:       %[[W:.*]] = llvm.bitcast %[[X]] : vector<4xi8> to i32
// CHECK:       %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       %[[R:.*]] = llvm.intr.fshr(%[[W]], %[[W]], %[[EIGHT]])
// CHECK:       %[[E2:.*]] = llvm.call_intrinsic "llvm.arm.sxtab16"(%[[E]], %[[W]])
// CHECK:       %[[O2:.*]] = llvm.call_intrinsic "llvm.arm.sxtab16"(%[[O]], %[[R]])
// CHECK:       llvm.insertvalue %[[E2]]
// CHECK:       llvm.insertvalue %[[O2]]
func.func @add_pairs(%even: i32, %odd: i32, %x: vector<4xi8>) -> (i32, i32) {
  %e, %o = vmcu.add_pairs %even, %odd, %x : vector<4xi8>
  return %e, %o : i32, i32
}

// -----

// mac_lanes: each word split into lanes (0, 2) and, rotated by 8, (1, 3);
// SMLABB accumulates lanes 0 and 1 (bottom halves), SMLATT lanes 2 and 3.
// CHECK-LABEL: llvm.func @mac_lanes
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.arm.sxtb16"
// CHECK:       %[[L0:.*]] = llvm.call_intrinsic "llvm.arm.smlabb"
// CHECK:       llvm.insertelement %[[L0]]
// CHECK:       %[[L1:.*]] = llvm.call_intrinsic "llvm.arm.smlabb"
// CHECK:       llvm.insertelement %[[L1]]
// CHECK:       %[[L2:.*]] = llvm.call_intrinsic "llvm.arm.smlatt"
// CHECK:       llvm.insertelement %[[L2]]
// CHECK:       %[[L3:.*]] = llvm.call_intrinsic "llvm.arm.smlatt"
// CHECK:       %[[R:.*]] = llvm.insertelement %[[L3]]
// CHECK:       llvm.return %[[R]] : vector<4xi32>
func.func @mac_lanes(%acc: vector<4xi32>, %x: vector<4xi8>, %w: vector<4xi8>) -> vector<4xi32> {
  %r = vmcu.mac_lanes %acc, %x, %w : vector<4xi32>, vector<4xi8>
  return %r : vector<4xi32>
}

// -----

// requantize: TOSA apply_scale_32 in i64, double rounding only for
// shift > 31, then the output zero point and SSAT #8 for the int8 range.

// CHECK-LABEL: llvm.func @requantize_i8
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[SH:.*]]: i32)
// CHECK:       %[[SH64:.*]] = llvm.zext %[[SH]] : i32 to i64
// CHECK:       %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:       %[[SHM1:.*]] = llvm.sub %[[SH64]], %[[ONE]] : i64
// CHECK:       %[[ROUND:.*]] = llvm.shl %[[ONE]], %[[SHM1]] : i64
// CHECK:       %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK:       %[[WIDE:.*]] = llvm.icmp "sgt" %[[SH]], %[[C31]] : i32
// CHECK:       %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       %[[NONNEG:.*]] = llvm.icmp "sge" %[[V]], %[[C0]] : i32
// CHECK-DAG:   %[[NEG:.*]] = llvm.mlir.constant(-1073741824 : i64) : i64
// CHECK-DAG:   %[[POS:.*]] = llvm.mlir.constant(1073741824 : i64) : i64
// CHECK:       %[[ADJ:.*]] = llvm.select %[[NONNEG]], %[[POS]], %[[NEG]] : i1, i64
// CHECK:       %[[ROUND2:.*]] = llvm.add %[[ROUND]], %[[ADJ]] : i64
// CHECK:       %[[R:.*]] = llvm.select %[[WIDE]], %[[ROUND2]], %[[ROUND]] : i1, i64
// CHECK:       %[[V64:.*]] = llvm.sext %[[V]] : i32 to i64
// CHECK:       %[[M64:.*]] = llvm.sext %[[M]] : i32 to i64
// CHECK:       %[[PROD:.*]] = llvm.mul %[[V64]], %[[M64]] : i64
// CHECK:       %[[SUM:.*]] = llvm.add %[[PROD]], %[[R]] : i64
// CHECK:       %[[SHR:.*]] = llvm.ashr %[[SUM]], %[[SH64]] : i64
// CHECK:       %[[T:.*]] = llvm.trunc %[[SHR]] : i64 to i32
// CHECK:       %[[ZP:.*]] = llvm.mlir.constant(-128 : i32) : i32
// CHECK:       %[[O:.*]] = llvm.add %[[T]], %[[ZP]] : i32
// CHECK:       %[[BITS:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       %[[SAT:.*]] = llvm.call_intrinsic "llvm.arm.ssat"(%[[O]], %[[BITS]]) : (i32, i32) -> i32
// CHECK:       %[[Q:.*]] = llvm.trunc %[[SAT]] : i32 to i8
// CHECK:       llvm.return %[[Q]] : i8
func.func @requantize_i8(%v: i32, %m: i32, %s: i32) -> i8 {
  %q = vmcu.requantize %v, %m, %s {output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  return %q : i8
}

// Single rounding, an input zero point, a narrower clamp (smax/smin) and an
// i32 result with the full range (no clamp at all).
// CHECK-LABEL: llvm.func @requantize_variants
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[SH:.*]]: i32)
// CHECK:       %[[IZP:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:       %[[VZ:.*]] = llvm.sub %[[V]], %[[IZP]] : i32
// CHECK-NOT:   llvm.select
// CHECK:       llvm.sext %[[VZ]] : i32 to i64
// CHECK:       llvm.ashr
// CHECK:       %[[T:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK-NOT:   llvm.add %[[T]]
// CHECK:       %[[LO:.*]] = llvm.mlir.constant(-100 : i32) : i32
// CHECK:       %[[MAX:.*]] = llvm.intr.smax(%[[T]], %[[LO]]) : (i32, i32) -> i32
// CHECK:       %[[HI:.*]] = llvm.mlir.constant(50 : i32) : i32
// CHECK:       %[[MIN:.*]] = llvm.intr.smin(%[[MAX]], %[[HI]]) : (i32, i32) -> i32
// CHECK:       llvm.trunc %[[MIN]] : i32 to i8
// CHECK:       llvm.ashr
// CHECK:       %[[T2:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK-NOT:   llvm.intr.smax
// CHECK-NOT:   llvm.intr.smin
// CHECK-NOT:   llvm.arm.ssat
// CHECK:       llvm.return
func.func @requantize_variants(%v: i32, %m: i32, %s: i32) -> (i8, i32) {
  %a = vmcu.requantize %v, %m, %s {input_zp = 3 : i32, output_zp = 0 : i32, min = -100 : i32, max = 50 : i32, double_round = false} : i8
  %b = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false} : i32
  return %a, %b : i8, i32
}

// -----

// narrow_value (an int8 operand less its zero point, shift in [9, 31]):
// hi32((v << (32 - shift)) * m + 2^31), the form the ARM backend selects
// one SMMULR for; no 64-bit shift by the shift.
// CHECK-LABEL: llvm.func @requantize_narrow
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[SH:.*]]: i32)
// CHECK:       %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK:       %[[UP:.*]] = llvm.sub %[[C32]], %[[SH]] : i32
// CHECK:       %[[X:.*]] = llvm.shl %[[V]], %[[UP]] : i32
// CHECK:       %[[X64:.*]] = llvm.sext %[[X]] : i32 to i64
// CHECK:       %[[M64:.*]] = llvm.sext %[[M]] : i32 to i64
// CHECK:       %[[P:.*]] = llvm.mul %[[X64]], %[[M64]] : i64
// CHECK:       %[[HALF:.*]] = llvm.mlir.constant(2147483648 : i64) : i64
// CHECK:       %[[S:.*]] = llvm.add %[[P]], %[[HALF]] : i64
// CHECK:       %[[W:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK:       %[[HI:.*]] = llvm.lshr %[[S]], %[[W]] : i64
// CHECK:       %[[R:.*]] = llvm.trunc %[[HI]] : i64 to i32
// CHECK-NOT:   llvm.ashr
// CHECK:       llvm.return %[[R]]
func.func @requantize_narrow(%v: i32, %m: i32, %s: i32) -> i32 {
  %r = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false, narrow_value} : i32
  return %r : i32
}

// -----

// The model I/O: accessors returning &arena[base * segment_bytes], the byte
// counts, and the target triple and data layout of the module.

!pool = !vmcu.pool<segments = 40, segment_bytes = 16>

// CHECK:       module attributes {llvm.data_layout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64", llvm.target_triple = "thumbv7em-none-eabi"}
// CHECK-DAG:   llvm.mlir.global external constant @vmcu_output_bytes(256 : i32)
// CHECK-DAG:   llvm.mlir.global external constant @vmcu_input_bytes(128 : i32)
// CHECK-DAG:   llvm.mlir.global external constant @vmcu_arena_bytes(640 : i32)
// CHECK-DAG:   llvm.mlir.global external @vmcu_arena() {addr_space = 0 : i32, alignment = 8 : i64, section = ".vmcu_arena"} : !llvm.array<640 x i8>
// CHECK-LABEL: llvm.func @vmcu_invoke() -> i32
// CHECK-SAME:  target_cpu = "cortex-m4"
// CHECK:       %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       llvm.return %[[ZERO]] : i32
// CHECK-LABEL: llvm.func @vmcu_input() -> !llvm.ptr
// CHECK-SAME:  target_cpu = "cortex-m4"
// CHECK:       %[[A:.*]] = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
// CHECK:       %[[OFF:.*]] = llvm.mlir.constant(320 : index) : i32
// CHECK:       %[[P:.*]] = llvm.getelementptr inbounds %[[A]][%[[OFF]]] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK:       llvm.return %[[P]] : !llvm.ptr
// CHECK-LABEL: llvm.func @vmcu_output() -> !llvm.ptr
// CHECK:       %[[A:.*]] = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
// CHECK-NOT:   llvm.getelementptr
// CHECK:       llvm.return %[[A]] : !llvm.ptr
// M7-LABEL: llvm.func @vmcu_input
// M7-SAME:  target_cpu = "cortex-m7"
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 8, base = 20, vmcu.io = "input"} : !pool
  %y = vmcu.tensor_base %pool {name = "out", segments = 16, base = 0, vmcu.io = "output"} : !pool
  vmcu.kernel "k" ins(%x) outs(%y) {
  }
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// The tiler's form end to end: weights in a constant global, an scf loop
// inside the kernel, a strided slice of a segment, dot, requantize and the
// output segment built with vector.insert. Nothing but LLVM remains.

!pool = !vmcu.pool<segments = 40, segment_bytes = 16>

// CHECK:       llvm.mlir.global private constant @conv1_weights(dense<{{.*}}> : tensor<16xi8>) {addr_space = 0 : i32} : !llvm.array<16 x i8>
// CHECK-LABEL: llvm.func @vmcu_invoke() -> i32
// CHECK:       llvm.mlir.addressof @conv1_weights
// CHECK:       llvm.br ^bb1
// CHECK:       ^bb1(%{{.*}}: i32):
// CHECK:       llvm.cond_br
// CHECK:       llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<16xi8>
// CHECK:       llvm.shufflevector %{{.*}}, %{{.*}} [4, 5, 6, 7] : vector<16xi8>
// CHECK:       llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> vector<4xi8>
// CHECK:       llvm.call_intrinsic "llvm.arm.smlad"
// CHECK:       llvm.call_intrinsic "llvm.arm.ssat"
// CHECK:       llvm.insertelement
// CHECK:       llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<16xi8>, !llvm.ptr
// CHECK-NOT:   {{vmcu\.|scf\.|cf\.|arith\.|vector\.|memref\.|builtin.unrealized_conversion_cast}}
// CHECK:       llvm.func @vmcu_input
memref.global "private" constant @conv1_weights : memref<16xi8> = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]>
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 16, base = 20, vmcu.io = "input"} : !pool
  %y = vmcu.tensor_base %pool {name = "conv1", segments = 16, base = 5, vmcu.io = "output"} : !pool
  vmcu.kernel "conv1" ins(%x) outs(%y) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c0_i32 = arith.constant 0 : i32
    %m = arith.constant 1073741824 : i32
    %sh = arith.constant 35 : i32
    %wts = memref.get_global @conv1_weights : memref<16xi8>
    scf.for %i = %c0 to %c16 step %c1 {
      %a = arith.addi %x, %i : index
      %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
      %s = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
      %w = vector.load %wts[%c0] : memref<16xi8>, vector<4xi8>
      %acc = vmcu.dot %c0_i32, %s, %w {x_offset = 128 : i32} : vector<4xi8>
      %q = vmcu.requantize %acc, %m, %sh {output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
      %o = vector.insert %q, %v [0] : i8 into vector<16xi8>
      %b = arith.addi %y, %i : index
      vmcu.ring_store %o, %pool[%b] : vector<16xi8>, !pool
      vmcu.free %pool[%a] : !pool
    }
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// wide_shift: no 64-bit variable shift; the high word of the 64-bit sum is
// shifted by shift - 32 in 32 bits.
// CHECK-LABEL: llvm.func @requantize_wide
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[S:.*]]: i32)
// CHECK:       %[[S2:.*]] = llvm.sub %[[S]], %{{.*}} : i32
// CHECK:       llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:       %[[HI:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i64
// CHECK:       %[[T:.*]] = llvm.trunc %[[HI]] : i64 to i32
// CHECK:       llvm.ashr %[[T]], %[[S2]] : i32
// CHECK-NOT:   llvm.ashr {{.*}} : i64
// CHECK:       llvm.return
func.func @requantize_wide(%v: i32, %m: i32, %s: i32) -> i8 {
  %q = vmcu.requantize %v, %m, %s {output_zp = 3 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift} : i8
  return %q : i8
}

// -----

// bounded_value: e = shift - 31; hi32(2v * m + 2^(e-1) * 2^32 + 2^31) (the
// form the ARM backend selects SMMLAR for), minus 1 for a negative value,
// then >> e. No 64-bit shift by a variable amount.
// CHECK-LABEL: llvm.func @requantize_bounded
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[S:.*]]: i32)
// CHECK:       %[[TWICE:.*]] = llvm.shl %[[V]], %{{.*}} : i32
// CHECK:       %[[E:.*]] = llvm.sub %[[S]], %{{.*}} : i32
// CHECK:       llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:       %[[HI:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i64
// CHECK:       %[[Q:.*]] = llvm.trunc %[[HI]] : i64 to i32
// CHECK:       %[[SIGN:.*]] = llvm.ashr %[[V]], %{{.*}} : i32
// CHECK:       %[[QS:.*]] = llvm.add %[[Q]], %[[SIGN]] : i32
// CHECK:       llvm.ashr %[[QS]], %[[E]] : i32
// CHECK-NOT:   llvm.ashr {{.*}} : i64
// CHECK:       llvm.return
func.func @requantize_bounded(%v: i32, %m: i32, %s: i32) -> i8 {
  %q = vmcu.requantize %v, %m, %s {output_zp = 3 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift, bounded_value} : i8
  return %q : i8
}

// -----

// bounded_value with a half operand: 2^(e-1) comes from it, the only
// 32-bit shifts left are 2v and the final >> e.
// CHECK-LABEL: llvm.func @requantize_bounded_half
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[S:.*]]: i32, %[[H:.*]]: i32)
// CHECK:       llvm.shl %[[V]], %{{.*}} : i32
// CHECK-NOT:   llvm.shl %{{.*}} : i32
// CHECK:       %[[HW:.*]] = llvm.sext %[[H]] : i32 to i64
// CHECK:       llvm.shl %[[HW]], %{{.*}} : i64
// CHECK-NOT:   llvm.shl %{{.*}} : i32
// CHECK:       llvm.return
func.func @requantize_bounded_half(%v: i32, %m: i32, %s: i32, %h: i32) -> i8 {
  %q = vmcu.requantize %v, %m, %s half %h {output_zp = 3 : i32, min = -128 : i32, max = 127 : i32, double_round = false, wide_shift, bounded_value} : i8
  return %q : i8
}

// -----

// Each kernel becomes an internal function vmcu_kernel_<i>_<name>, called in
// order: its scratch buffers are allocas in that function's entry block
// (LLVM inlines it back with lifetime markers, so kernels share stack).
// Constants, the pool and tensor bases are cloned into the kernel; other
// values it uses are passed.

!pool = !vmcu.pool<segments = 8, segment_bytes = 4>

// CHECK-LABEL: llvm.func @two_kernels
// CHECK-SAME:  (%[[N:.*]]: i32)
// CHECK-NOT:   llvm.alloca
// CHECK:       llvm.call @vmcu_kernel_0_first(%[[N]]) : (i32) -> ()
// CHECK-NEXT:  llvm.call @vmcu_kernel_1_second() : () -> ()
// CHECK-LABEL: llvm.func internal @vmcu_kernel_0_first
// CHECK-SAME:  (%[[ARG:.*]]: i32)
// CHECK-SAME:  passthrough = ["noinline"]
// CHECK:       llvm.alloca {{.*}} x i32
// CHECK:       llvm.store %[[ARG]]
// CHECK-LABEL: llvm.func internal @vmcu_kernel_1_second()
// CHECK:       llvm.mlir.addressof @vmcu_arena
// CHECK:       llvm.alloca {{.*}} x vector<4xi8>
// CHECK:       llvm.return
func.func @two_kernels(%n: i32) {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4} : !pool
  %c0 = arith.constant 0 : index
  vmcu.kernel "first" ins(%x) outs(%y) {
    %acc = memref.alloca() : memref<4xi32>
    memref.store %n, %acc[%c0] : memref<4xi32>
  }
  vmcu.kernel "second" ins(%y) outs(%x) {
    %buf = memref.alloca() : memref<1xvector<4xi8>>
    %v = vmcu.ring_load %pool[%y] : !pool -> vector<4xi8>
    memref.store %v, %buf[%c0] : memref<1xvector<4xi8>>
    vmcu.ring_store %v, %pool[%x] : vector<4xi8>, !pool
  }
  return
}

// -----

// requant_block of 2 pixels x 1 channel: $0-$3 scratch (m, e, h, t), $4
// the output pointer, $5 the table pointer, $6 and $7 the sums. The
// channel's table words once, then per pixel SMMLAR (double rounding),
// the sign term, the shift by e, the output zero point (-3), SSAT and the
// clamp to [-3, 100] (ReLU-like bounds), and the byte at i * 8.
// CHECK-LABEL: llvm.func @requant_block
// CHECK:       %[[OP:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK:       %[[TP:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, i32
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$5, #0]\0A\09ldr $1, [$5, #4]\0A\09ldr $2, [$5, #8]\0A\09lsl $3, $6, #1\0A\09smmlar $3, $3, $0, $2\0A\09add $3, $3, $6, asr #31\0A\09asr $3, $3, $1\0A\09sub $3, $3, #3\0A\09ssat $3, #8, $3\0A\09cmn $3, #3\0A\09it lt\0A\09mvnlt $3, #2\0A\09cmp $3, #100\0A\09it gt\0A\09movgt $3, #100\0A\09strb $3, [$4, #0]\0A\09lsl $3, $7, #1
// CHECK-SAME:  strb $3, [$4, #8]
// CHECK-SAME:  "=&r,=&r,=&r,=&r,r,r,r,r,~{memory},~{cc}" %[[OP]], %[[TP]], %{{.*}}, %{{.*}} : (!llvm.ptr, !llvm.ptr, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
func.func @requant_block(%o: memref<16xi8>, %t: memref<24xi32>, %i: index,
                         %a: i32, %b: i32) {
  vmcu.requant_block %a, %b into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 8 : i64, double_round = true, output_zp = -3 : i32, min = -3 : i32, max = 100 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// Without double rounding: SMMLA and no sign term.
// CHECK-LABEL: llvm.func @requant_block_single_round
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$5, #0]\0A\09ldr $1, [$5, #4]\0A\09ldr $2, [$5, #8]\0A\09lsl $3, $6, #1\0A\09smmla $3, $3, $0, $2\0A\09asr $3, $3, $1\0A\09ssat $3, #8, $3\0A\09strb $3, [$4, #0]\0A\09"
func.func @requant_block_single_round(%o: memref<16xi8>, %t: memref<24xi32>,
                                      %i: index, %a: i32) {
  vmcu.requant_block %a into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 0 : i64, double_round = false, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// A compact table: per channel the multiplier's word ($5) and the
// exponent's byte ($6); the half term is half_odd ($7) << (e - 1).
// CHECK-LABEL: llvm.func @requant_block_compact_table
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$5, #0]\0A\09ldrb $1, [$6, #0]\0A\09sub $3, $1, #1\0A\09lsl $2, $7, $3\0A\09lsl $3, $8, #1\0A\09smmla $3, $3, $0, $2\0A\09asr $3, $3, $1\0A\09ssat $3, #8, $3\0A\09strb $3, [$4, #0]\0A\09ldr $0, [$5, #4]\0A\09ldrb $1, [$6, #1]\0A\09sub $3, $1, #1\0A\09lsl $2, $7, $3\0A\09lsl $3, $9, #1
// CHECK-SAME:  "=&r,=&r,=&r,=&r,r,r,r,r,r,r,~{memory},~{cc}" %{{.*}}, %{{.*}}, %{{.*}}, %[[ODD:.*]], %{{.*}}, %{{.*}} : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32)
func.func @requant_block_compact_table(%o: memref<16xi8>, %t: memref<8xi32>,
                                       %x: memref<8xi8>, %odd: i32,
                                       %i: index, %a: i32, %b: i32) {
  vmcu.requant_block %a, %b into %o[%i] table %t[%i] exponents %x half %odd {pixels = 1 : i64, out_stride = 0 : i64, double_round = false, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, compact_table} : memref<16xi8>, memref<8xi32>, memref<8xi8>
  return
}

// A uniform table (a per-tensor scale): the one entry is loaded once, for
// both channels; the second channel's byte follows without a load.
// CHECK-LABEL: llvm.func @requant_block_uniform_table
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$5, #0]\0A\09ldr $1, [$5, #4]\0A\09ldr $2, [$5, #8]\0A\09lsl $3, $6, #1\0A\09smmla $3, $3, $0, $2\0A\09asr $3, $3, $1\0A\09ssat $3, #8, $3\0A\09strb $3, [$4, #0]\0A\09lsl $3, $7, #1\0A\09smmla $3, $3, $0, $2\0A\09asr $3, $3, $1\0A\09ssat $3, #8, $3\0A\09strb $3, [$4, #1]\0A\09"
func.func @requant_block_uniform_table(%o: memref<16xi8>, %t: memref<3xi32>,
                                       %i: index, %a: i32, %b: i32) {
  vmcu.requant_block %a, %b into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 0 : i64, double_round = false, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, uniform_table} : memref<16xi8>, memref<3xi32>
  return
}

// -----

// depthwise_block of 3 taps: $0-$3 the sums, $4-$9 scratch, $10 the window,
// $11 the record, $12 the output pointer. The biases from the record
// (16 bytes per lane), the pair of taps 0 and 1 (window bytes 0 and 16)
// against weight words 16-19 (lanes 0, 2, then 1, 3: PKHBT/PKHTB pair each
// lane's two taps, one SMLAD each), the odd tap 2 against words 20-21
// (SMLABB/SMLATT), then per lane its requantization entry (record words
// 1-3 of the lane) and the byte at out + lane; the sums are doubled (the
// record's biases and weights are), so SMMLAR takes them without a shift.
// Flags are clobbered (the clamp's compare).
// CHECK-LABEL: llvm.func @depthwise_block
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$11, #0]\0A\09ldr $1, [$11, #16]\0A\09ldr $2, [$11, #32]\0A\09ldr $3, [$11, #48]\0A\09ldr $4, [$10, #0]\0A\09ldr $5, [$10, #16]\0A\09ldr $9, [$11, #64]\0A\09sxtb16 $6, $4\0A\09sxtb16 $7, $5\0A\09pkhbt $8, $6, $7, lsl #16\0A\09pkhtb $7, $7, $6, asr #16\0A\09ldr $6, [$11, #72]\0A\09smlad $0, $8, $9, $0\0A\09smlad $2, $7, $6, $2\0A\09ldr $9, [$11, #68]\0A\09ldr $6, [$11, #76]\0A\09sxtb16 $4, $4, ror #8\0A\09sxtb16 $5, $5, ror #8\0A\09pkhbt $8, $4, $5, lsl #16\0A\09pkhtb $5, $5, $4, asr #16\0A\09smlad $1, $8, $9, $1\0A\09smlad $3, $5, $6, $3\0A\09ldr $4, [$10, #32]\0A\09ldr $9, [$11, #80]\0A\09ldr $6, [$11, #84]\0A\09sxtb16 $8, $4\0A\09sxtb16 $4, $4, ror #8\0A\09smlabb $0, $8, $9, $0\0A\09smlatt $2, $8, $9, $2\0A\09smlabb $1, $4, $6, $1\0A\09smlatt $3, $4, $6, $3\0A\09ldr $4, [$11, #4]\0A\09ldr $5, [$11, #8]\0A\09ldr $6, [$11, #12]\0A\09smmlar $7, $0, $4, $6\0A\09add $7, $7, $0, asr #31\0A\09asr $7, $7, $5\0A\09sub $7, $7, #5\0A\09ssat $7, #8, $7\0A\09cmp $7, #0\0A\09it lt\0A\09movlt $7, #0\0A\09strb $7, [$12, #0]
// CHECK-SAME:  ldr $4, [$11, #52]\0A\09ldr $5, [$11, #56]\0A\09ldr $6, [$11, #60]\0A\09smmlar $7, $3, $4, $6
// CHECK-SAME:  strb $7, [$12, #3]\0A\09"
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,r,~{memory},~{cc}" %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
func.func @depthwise_block(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64: 0, 16, 32>, double_round = true, output_zp = -5 : i32, min = 0 : i32, max = 127 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// -----

// gemm_tile of 2 pixels x 3 channels over 1 step: $0-$5 the sums (pixel
// 0's channels, then pixel 1's), $6-$9 scratch (the pixels' input words,
// 2 weight words), $10 x, $11 the record, $12 out. The biases (record
// words 6-8) into pixel 0's sums and copied to pixel 1's; per half step
// both input words (rows 8 bytes apart) and channels 0 and 1's weight
// words back to back, their SMLADs, channel 2's word into channel 0's
// register; then per channel its requantization entry (words 9-11, ...)
// and both pixels' bytes (8 bytes apart). The record's biases and weights
// are doubled, so the sums go to SMMLAR without a shift.
// CHECK-LABEL: llvm.func @gemm_tile
// CHECK:       llvm.inline_asm has_side_effects "ldr $0, [$11, #24]\0A\09ldr $1, [$11, #28]\0A\09ldr $2, [$11, #32]\0A\09mov $3, $0\0A\09mov $4, $1\0A\09mov $5, $2\0A\09ldr $6, [$10, #0]\0A\09ldr $7, [$10, #8]\0A\09ldr $8, [$11, #0]\0A\09ldr $9, [$11, #4]\0A\09smlad $0, $6, $8, $0\0A\09smlad $3, $7, $8, $3\0A\09smlad $1, $6, $9, $1\0A\09smlad $4, $7, $9, $4\0A\09ldr $8, [$11, #8]\0A\09smlad $2, $6, $8, $2\0A\09smlad $5, $7, $8, $5\0A\09ldr $6, [$10, #4]\0A\09ldr $7, [$10, #12]\0A\09ldr $8, [$11, #12]\0A\09ldr $9, [$11, #16]
// CHECK-SAME:  ldr $6, [$11, #36]\0A\09ldr $7, [$11, #40]\0A\09ldr $8, [$11, #44]\0A\09smmlar $9, $0, $6, $8\0A\09add $9, $9, $0, asr #31\0A\09asr $9, $9, $7\0A\09ssat $9, #8, $9\0A\09strb $9, [$12, #0]\0A\09smmlar $9, $3, $6, $8
// CHECK-SAME:  strb $9, [$12, #8]
// CHECK-SAME:  strb $9, [$12, #10]\0A\09"
// CHECK-SAME:  "=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,=&r,r,r,r,~{memory},~{cc}" %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
func.func @gemm_tile(%x: memref<4xi32>, %r: memref<18xi32>, %o: memref<16xi8>, %i: index) {
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 1 : i64, x_stride = 8 : i64, out_stride = 8 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<4xi32>, memref<18xi32>, memref<16xi8>
  return
}

// -----

// vmcu.ring_view: the arena as a memref<?xi8> descriptor (its 640 bytes,
// stride 1), the run's byte in it (segment 37 + 6 wraps to 3: byte 48) and
// the bytes from there to the pool's end (592).

!pool = !vmcu.pool<segments = 40, segment_bytes = 16>

// CHECK-LABEL: llvm.func @ring_view
// CHECK:       %[[ARENA:.*]] = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
// CHECK:       llvm.mlir.poison : !llvm.struct<(ptr, ptr, i32, array<1 x i32>, array<1 x i32>)>
// CHECK:       llvm.insertvalue %[[ARENA]], %{{.*}}[0]
// CHECK:       llvm.insertvalue %[[ARENA]], %{{.*}}[1]
// CHECK:       %[[SIZE:.*]] = llvm.mlir.constant(640 : index) : i32
// CHECK:       llvm.insertvalue %[[SIZE]], %{{.*}}[3, 0]
// CHECK:       %[[N:.*]] = llvm.mlir.constant(40 : index) : i32
// CHECK:       %[[PAST:.*]] = llvm.icmp "uge" %{{.*}}, %[[N]] : i32
// CHECK:       %[[LOW:.*]] = llvm.sub %{{.*}}, %[[N]] : i32
// CHECK:       %[[W:.*]] = llvm.select %[[PAST]], %[[LOW]], %{{.*}} : i1, i32
// CHECK:       %[[OFF:.*]] = llvm.mul %[[W]], %{{.*}} overflow<nsw, nuw> : i32
// CHECK:       %[[END:.*]] = llvm.mlir.constant(640 : index) : i32
// CHECK:       %[[REST:.*]] = llvm.sub %[[END]], %[[OFF]] : i32
// CHECK:       llvm.insertvalue %[[OFF]], %{{.*}}[0]
// CHECK:       llvm.insertvalue %[[REST]], %{{.*}}[1]
func.func @ring_view() -> (index, index) {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 8, base = 37} : !pool
  %c6 = arith.constant 6 : index
  %a = arith.addi %x, %c6 : index
  %view, %offset, %contiguous = vmcu.ring_view %pool[%a] {count = 8, alignment = 4} : !pool -> memref<?xi8>
  return %offset, %contiguous : index, index
}
