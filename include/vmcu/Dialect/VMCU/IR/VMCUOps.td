//===- VMCUOps.td - vmcu operations ------------------------*- tablegen -*-===//
//
// Ring ops (the segment pool and its accesses) and int8 layer ops.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUOPS_TD
#define VMCU_DIALECT_VMCU_IR_VMCUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "vmcu/Dialect/VMCU/IR/VMCUDialect.td"
include "vmcu/Dialect/VMCU/IR/VMCUAttributes.td"
include "vmcu/Dialect/VMCU/IR/VMCUTypes.td"
include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.td"

class VMCU_Op<string mnemonic, list<Trait> traits = []>
    : Op<VMCU_Dialect, mnemonic, traits>;

def VMCU_I8Tensor4D : TensorRankOf<[I8], [4]>;
def VMCU_I8Segment : VectorOfRankAndType<[1], [I8]>;
def VMCU_SegmentBytesAttr : ConfinedAttr<I64Attr, [IntPositive]>;
def VMCU_NonNegativeI64Attr : ConfinedAttr<I64Attr, [IntNonNegative]>;

//===----------------------------------------------------------------------===//
// Ring ops
//===----------------------------------------------------------------------===//

def VMCU_SegmentPoolOp : VMCU_Op<"segment_pool"> {
  let summary = "Declares the circular segment pool (the whole arena)";
  let description = [{
    Creates the model's arena: `segments` consecutive segments of
    `segment_bytes` bytes (both taken from the result type), aligned to
    `alignment` bytes. There is one pool per model; every tensor of every
    layer lives in it at a base segment chosen by the offset solver.
    Lowering turns it into one global byte array.

    Example:

    ```mlir
    %pool = vmcu.segment_pool {alignment = 8} : !vmcu.pool<segments = 640, segment_bytes = 16>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "8">:$alignment);
  let results = (outs VMCU_PoolType:$pool);
  let assemblyFormat = "attr-dict `:` qualified(type($pool))";
  let hasVerifier = 1;
}

def VMCU_RingLoadOp : VMCU_Op<"ring_load"> {
  let summary = "Reads bytes of one segment of the pool, wrapping the address";
  let description = [{
    Reads `n` bytes (the length of the result vector) starting at byte
    `offset` (default 0) of segment `segment mod segments`. The modulo is
    the op's semantics: callers pass unwrapped segment addresses, and the
    segment must lie in [0, 2*segments) (a base below `segments` plus an
    index below the tensor size, which is at most `segments`), so lowering
    wraps it with one `and` or one compare and select, never a division.
    A read may continue into the following segments (a kernel segment
    spanning several pool units) but never past the end of the pool; the
    offset solver aligns every tensor so that this holds.

    Example:

    ```mlir
    %v = vmcu.ring_load %pool[%seg, %lane] : !vmcu.pool<segments = 64, segment_bytes = 16> -> vector<4xi8>
    ```
  }];
  let arguments = (ins Arg<VMCU_PoolType, "the pool", [MemRead]>:$pool,
                       Index:$segment, Optional<Index>:$offset);
  let results = (outs VMCU_I8Segment:$result);
  let assemblyFormat = [{
    $pool `[` $segment (`,` $offset^)? `]` attr-dict `:` qualified(type($pool)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def VMCU_RingStoreOp : VMCU_Op<"ring_store"> {
  let summary = "Writes bytes of one segment of the pool, wrapping the address";
  let description = [{
    Writes the bytes of `value` starting at byte `offset` (default 0) of
    segment `segment mod segments`, with the same addressing rules as
    `vmcu.ring_load`: the segment must lie in [0, 2*segments). The target
    segment must be dead (never written, or released by `vmcu.free`)
    unless it belongs to the same output tensor; the offset solver and the
    ring-safety check enforce this.

    Example:

    ```mlir
    vmcu.ring_store %v, %pool[%seg] : vector<16xi8>, !vmcu.pool<segments = 64, segment_bytes = 16>
    ```
  }];
  let arguments = (ins VMCU_I8Segment:$value,
                       Arg<VMCU_PoolType, "the pool", [MemWrite]>:$pool,
                       Index:$segment, Optional<Index>:$offset);
  let assemblyFormat = [{
    $value `,` $pool `[` $segment (`,` $offset^)? `]` attr-dict `:` type($value) `,` qualified(type($pool))
  }];
  let hasVerifier = 1;
}

def VMCU_RingViewOp : VMCU_Op<"ring_view"> {
  let summary = "A run of live segments, read in place: the pool's bytes and where the run starts";
  let description = [{
    Gives a kernel direct reads of the `count` pool units from `segment`
    (wrapped as `vmcu.ring_load` wraps it) instead of copies: `view` is
    the whole pool as bytes, `offset` the byte of the run's first unit in
    it, and `contiguous` the bytes from there to the pool's end. The run
    is `[offset, offset + min(length, contiguous))`, then, if it is
    longer, `[0, length - contiguous)`. The reads are word loads: the offset
    solver places the run's tensor and sizes the pool to multiples of
    `alignment` bytes, so that the wrap falls between two words.

    For the ring-safety checker and `vmcu-verify-ring` the op is a load of
    the run at this point; the kernel reads the view only while the run is
    live (before it frees those segments).

    Example:

    ```mlir
    %view, %offset, %contiguous = vmcu.ring_view %pool[%seg] {count = 36 : i64, alignment = 4 : i64} : !vmcu.pool<segments = 64, segment_bytes = 16> -> memref<?xi8>
    ```
  }];
  let arguments = (ins Arg<VMCU_PoolType, "the pool", [MemRead]>:$pool,
                       Index:$segment,
                       ConfinedAttr<I64Attr, [IntPositive]>:$count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$alignment);
  let results = (outs MemRefRankOf<[I8], [1]>:$view, Index:$offset,
                      Index:$contiguous);
  let assemblyFormat = [{
    $pool `[` $segment `]` attr-dict `:` qualified(type($pool)) `->` type($view)
  }];
  let hasVerifier = 1;
}

def VMCU_FreeOp : VMCU_Op<"free"> {
  let summary = "Marks segments of the pool dead";
  let description = [{
    Declares that the `count` segments starting at `segment mod segments`
    hold no live data any more, so a later `vmcu.ring_store` may reuse
    them. It generates no code; it is what the offset solver and the
    ring-safety checker reason about.

    Example:

    ```mlir
    vmcu.free %pool[%seg] {count = 2} : !vmcu.pool<segments = 64, segment_bytes = 16>
    ```
  }];
  let arguments = (ins Arg<VMCU_PoolType, "the pool", [MemWrite]>:$pool,
                       Index:$segment,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$count);
  let assemblyFormat = "$pool `[` $segment `]` attr-dict `:` qualified(type($pool))";
  let hasVerifier = 1;
}

def VMCU_SyncSetOp : VMCU_Op<"sync_set"> {
  let summary = "Publish a counter to the other core (store-release)";
  let description = [{
    Stores `value` into word `slot` of the model's two-core synchronization
    words (`vmcu_sync`, core_split in ModelABI.h), with release ordering:
    every load and store before it is visible to a core that sees the
    value. Emitted by `vmcu-distribute-kernels`; each slot has one writer.

    Example:

    ```mlir
    vmcu.sync_set %slot, %value
    ```
  }];
  let arguments = (ins Index:$slot, I32:$value);
  let assemblyFormat = "$slot `,` $value attr-dict";
  let hasVerifier = 1;
}

def VMCU_SyncReadOp : VMCU_Op<"sync_read"> {
  let summary = "Read a two-core counter (load-acquire)";
  let description = [{
    Loads word `slot` of `vmcu_sync` with acquire ordering.

    Example:

    ```mlir
    %epoch = vmcu.sync_read %slot
    ```
  }];
  let arguments = (ins Index:$slot);
  let results = (outs I32:$value);
  let assemblyFormat = "$slot attr-dict";
  let hasVerifier = 1;
}

def VMCU_SyncWaitOp : VMCU_Op<"sync_wait"> {
  let summary = "Wait until the other core's counter reaches a value "
                "(load-acquire)";
  let description = [{
    Spins until word `slot` of `vmcu_sync`, minus `target`, is non-negative
    as an int32 (so the counters may wrap), with acquire ordering: no load
    or store after it happens before the value was seen. Lowered to a call
    of the model's `vmcu_wait_sync`, where profilers see the wait.

    Example:

    ```mlir
    vmcu.sync_wait %slot, %target
    ```
  }];
  let arguments = (ins Index:$slot, I32:$target);
  let assemblyFormat = "$slot `,` $target attr-dict";
  let hasVerifier = 1;
}

def VMCU_TensorBaseOp : VMCU_Op<"tensor_base", [Pure]> {
  let summary = "Base segment address of one tensor placed in the pool";
  let description = [{
    Names a tensor of `segments` pool segments that lives in `pool`, and
    yields its base segment address. Before `vmcu-solve-offsets` the base
    is symbolic (no `base` attribute); the solver sets `base` so that every
    kernel's output overlaps its input as much as the ring allows, and
    lowering then folds the op to a constant. Ring ops address a tensor's
    segment `i` as `base + i` (unwrapped; the ring op wraps it).

    Example:

    ```mlir
    %x = vmcu.tensor_base %pool {name = "input", segments = 400 : i64, base = 39 : i64} : !vmcu.pool<segments = 439, segment_bytes = 16>
    ```
  }];
  let arguments = (ins VMCU_PoolType:$pool, StrAttr:$name,
                       ConfinedAttr<I64Attr, [IntPositive]>:$segments,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$base);
  let results = (outs Index:$result);
  let assemblyFormat = "$pool attr-dict `:` qualified(type($pool))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the discardable `vmcu.io` marks this as the model's input
    /// (or output) tensor.
    bool isModelInput();
    bool isModelOutput();
    /// Sets `vmcu.io` to model_abi::kIOInput or kIOOutput and, for a
    /// position other than 0, `vmcu.io_index`.
    void setModelIO(::llvm::StringRef kind, int64_t index = 0);
    /// The position among the model's inputs (or outputs): `vmcu.io_index`,
    /// 0 when absent.
    int64_t getModelIOIndex();
  }];
}

def VMCU_KernelOp : VMCU_Op<"kernel", [SingleBlock, NoTerminator,
                                       AttrSizedOperandSegments]> {
  let summary = "One segment-tiled kernel: the unit the offset solver places";
  let description = [{
    Holds the loops of one tiled layer (or fused bottleneck). `inputs` are
    the `vmcu.tensor_base` values it reads: the first is the input whose
    segments the output may overwrite once freed; any others (e.g. the
    second operand of an unfused add) stay live for the whole kernel.
    `output` is the tensor it writes and `workspace`, if present, its
    scratch segments. The body addresses the pool only through ring ops
    whose segment operand is one of these bases plus an affine function of
    the enclosing `scf.for` induction variables, which is what the offset
    solver reads back. Lowering inlines the body.

    The facts the passes hand on are declared attributes:
    - `segment_bytes`, `layer`, `tensor_level_bytes`, `schedule`, `macs`,
      `executed_macs`, `ring_accesses` (the ring segments the cost model
      counts it loading and storing), `estimated_cycles`,
      `int8_weight_cycles` (the cycles the cost model expects int8 weights
      to add over widened ones; the flash budget's price of a layer's
      widening) and `stack_bytes` (its stack buffers as the schedule
      chooser estimates them, a stem's line buffer included): set by
      `vmcu-tile`.
    - `distance` and `footprint`: set by `vmcu-solve-offsets`, in the
      kernel's segments.
    - `cores`: set by `vmcu-split-kernels`, 2 when two cores take the
      iterations of the top-level loop that holds every ring load and store
      in turn (see ModelABI.h's core_split), with `split_depth` 2 when the
      iterations are those of the one loop inside it that holds them,
      counted across rows; `split_phases` when instead each loop inside it
      that accesses the ring is a phase whose iterations (or, when its
      bounds vary by row, whose inner loop's) the cores take in turn,
      meeting after each phase (a line buffer's expansion and its output
      pixels).
    - `accumulates` (set by `vmcu-tile`): a kernel whose iterations add into
      stack buffers that it reads after them (a folded global pool's sums);
      one core runs it.
    - `int8_weights` (set by `vmcu-tile`): a layer with weights whose
      widening was turned off (`widen-weights=false`, a flash budget's or
      the widening price's choice); whether its kernel would have widened
      them also depends on its shape.
    - `compact` (set by `vmcu-tile`, a flash budget's choice, and every
      softmax over one row): a kernel
      emitted for less code. Its GEMM rows run as dot blocks in a rolled
      chunk loop (no `vmcu.gemm_tile`), its bounded requantization tables
      take 2 words a channel (`vmcu.requant_block {compact_table}`),
      `vmcu-outline-kernels` makes its function `optsize`, and
      `vmcu-unroll-microkernels` unrolls its loops to smaller limits.
      `compact_cycles` (set by `vmcu-tile` on every kernel): the cycles the
      cost model expects that to add, the flash budget's price of it.

    Example:

    ```mlir
    vmcu.kernel "conv1" ins(%x) outs(%y) {
      scf.for %p = %c0 to %c8 step %c1 { ... }
    }
    ```
  }];
  let arguments = (ins StrAttr:$sym_name, Variadic<Index>:$inputs,
                       Index:$output, Optional<Index>:$workspace,
                       // Set by vmcu-tile: the kernel's segment size, the
                       // layer op it came from, its tensor-level bytes
                       // (for the memory report) and its cost model facts.
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes,
                       OptionalAttr<StrAttr>:$layer,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$tensor_level_bytes,
                       OptionalAttr<StrAttr>:$schedule,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$macs,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$executed_macs,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$ring_accesses,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$estimated_cycles,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$int8_weight_cycles,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$stack_bytes,
                       // Set by vmcu-solve-offsets: b_In - b_Out and the
                       // footprint, both in the kernel's segments.
                       OptionalAttr<I64Attr>:$distance,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$footprint,
                       // Set by vmcu-split-kernels: 2 when two cores take
                       // its iterations in turn, and whether an iteration
                       // is one of the top-level loop (1, default) or of
                       // the loop inside it (2).
                       OptionalAttr<I64Attr>:$cores,
                       OptionalAttr<I64Attr>:$split_depth,
                       // With split_depth 2: each loop inside the
                       // top-level loop that accesses the ring is a phase
                       // the cores share, and both meet after it.
                       UnitAttr:$split_phases,
                       // Set by vmcu-tile: its iterations accumulate into
                       // stack buffers read after them (a folded global
                       // pool's sums), so one core runs it.
                       UnitAttr:$accumulates,
                       // Set by vmcu-tile: widening turned off for a
                       // layer with weights.
                       UnitAttr:$int8_weights,
                       // Set by vmcu-tile: emitted for less code (a flash
                       // budget's choice), and the cycles the cost model
                       // expects that to add (its price).
                       UnitAttr:$compact,
                       OptionalAttr<VMCU_NonNegativeI64Attr>:$compact_cycles);
  let regions = (region SizedRegion<1>:$body);
  let builders = [
    // A kernel without the pass-set facts (they are set later).
    OpBuilder<(ins "StringAttr":$sym_name, "ValueRange":$inputs,
                   "Value":$output, "Value":$workspace), [{
      build($_builder, $_state, sym_name, inputs, output, workspace,
            /*segment_bytes=*/nullptr, /*layer=*/nullptr,
            /*tensor_level_bytes=*/nullptr, /*schedule=*/nullptr,
            /*macs=*/nullptr, /*executed_macs=*/nullptr,
            /*ring_accesses=*/nullptr, /*estimated_cycles=*/nullptr,
            /*int8_weight_cycles=*/nullptr, /*stack_bytes=*/nullptr,
            /*distance=*/nullptr, /*footprint=*/nullptr, /*cores=*/nullptr,
            /*split_depth=*/nullptr, /*split_phases=*/nullptr,
            /*accumulates=*/nullptr, /*int8_weights=*/nullptr,
            /*compact=*/nullptr, /*compact_cycles=*/nullptr);
    }]>,
  ];
  let assemblyFormat = [{
    $sym_name `ins` `(` $inputs `)` `outs` `(` $output `)`
    (`workspace` `(` $workspace^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Micro-kernel ops (the inner level of the two-level tiling)
//===----------------------------------------------------------------------===//

def VMCU_DotOp : VMCU_Op<"dot", [Pure, AllTypesMatch<["x", "w"]>]> {
  let summary = "Four-lane int8 dot product accumulated in int32 (SMLAD)";
  let description = [{
    `result = acc + sum_{i<4} (x[i] + x_offset) * w[i]`, exact in int32
    (wrapping like `tosa.conv2d`'s accumulator). `x_offset` is the negated
    input zero point, so `x[i] + x_offset` fits int16. On Armv7E-M this is
    two `sxtb16` for `w`, two `sxtab16` for `x` (which add the offset in
    the same instruction; `sxtb16` when the offset is 0) and two `smlad`.

    Example:

    ```mlir
    %r = vmcu.dot %acc, %x, %w {x_offset = 128 : i32} : vector<4xi8>
    ```
  }];
  let arguments = (ins I32:$acc, VectorOfLengthAndType<[4], [I8]>:$x,
                       VectorOfLengthAndType<[4], [I8]>:$w,
                       DefaultValuedAttr<I32Attr, "0">:$x_offset);
  let results = (outs I32:$result);
  let assemblyFormat = "$acc `,` $x `,` $w attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def VMCU_WidenPairsOp : VMCU_Op<"widen_pairs", [Pure]> {
  let summary = "Four int8 lanes widened into two int16-pair words";
  let description = [{
    `result[0] = x[0] | x[2] << 16` and `result[1] = x[1] | x[3] << 16`,
    each half sign-extended to int16: the input layout of a `widened`
    `vmcu.dot_block`, whose weight words split into the same even and odd
    lanes. On Armv7E-M: two `sxtb16`.

    Example:

    ```mlir
    %p = vmcu.widen_pairs %x : vector<4xi8> -> vector<2xi32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4], [I8]>:$x);
  let results = (outs VectorOfLengthAndType<[2], [I32]>:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
}

def VMCU_DotBlockOp : VMCU_Op<"dot_block",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A register block of int8 dot products: pixels x channels (SMLAD)";
  let description = [{
    The GEMM micro-kernel of pointwise convolutions and fully connected
    layers: `pixels` rows of int8 inputs times `channels` rows of int8
    weights over `words` steps of 4 lanes, added to the accumulators
    (`acc` and the results in pixel-major order, `pixels * channels` of
    them):

    ```
    result[i * channels + j] = acc[i * channels + j] +
      sum_{k < 4 * words} x[x_index + i * x_stride + k] *
                          w[w_index + (k / 4 * channels + j) * 4 + k % 4]
    ```

    The weights are packed offline in the order the block reads them: for
    each step, each channel's 4 bytes. The inputs are raw: a zero-point
    offset belongs in the accumulators' initial values (the bias), where
    it costs nothing per MAC.

    With `widened`, `x` is i32 and holds each step's 4 inputs already split
    into int16 pairs, as `vmcu.widen_pairs` writes them (lanes 0, 2 then
    1, 3): the block loads two words per pixel and step and unpacks only
    the weights. `x_stride` is in bytes either way, `x_index` in elements.

    With `widened_weights`, `w` is i32 and holds the weights as int16
    pairs too, packed offline per step and half (lanes 0, 2, then 1, 3),
    each half's words channel by channel:

    ```
    w[w_index + (2 * step + half) * channels + j]
    ```

    With `widened` too, nothing is unpacked: per half step,
    `pixels + channels` loads and `pixels * channels` SMLADs, at twice the
    weights' flash. Without `widened` (one pixel only: a single row, where
    no weight word is reused), each half step loads the raw input word
    again and unpacks its half (one `sxtb16`): `1 + channels` loads, one
    unpack and `channels` SMLADs, 1 x 5 channels in the 13 registers.

    With `paired_weights` (int8 weights only), each pair of channels
    (2p, 2p + 1) of the block shares its weight words: per step, two
    words of int16 halves `h = 256 * w[2p + 1] + w[2p]`, lanes (0, 2)
    then (1, 3), where the words of an unpaired last channel stay as
    above. The low byte of each half, sign-extended (one `sxtb16`), is
    w[2p]; the whole half multiplies into channel 2p + 1's accumulator,
    which therefore holds `H = A + 256 * B` (modulo 2^32) for the pair's
    sums A and B:

    ```
    result[i * channels + 2p + 1] = acc[i * channels + 2p + 1] +
      sum_k x[i, k] * (256 * w[2p + 1, k] + w[2p, k])
    ```

    A kernel starts that accumulator from A's start (channel 2p's bias)
    and recovers `B = ((H - A) >> 8) + bias_B` after the last block, exact
    while the dot product stays within 2^23 (the packer checks
    `128 * sum |w[2p + 1]| < 2^23`). Half the unpacks of int8 weights, at
    their flash: per pair and step two loads, two `sxtb16` and
    `4 * pixels` SMLADs. Two pixels into more than two channels work a
    half step at a time (`pairedHalfSteps`): one input word per pixel and
    a weight word per pair, unpacked in place after the SMLADs of H, so a
    2 x 4 block takes all 14 allocatable registers and its four loads of a
    half step run back to back (`pairedHalfStepWeightWords`; a block
    needing more keeps one weight word in flight, 13 registers).

    The block is a register tile as MEMA derives them (docs/kernels.md):
    `pixels * channels` accumulators, two unpacked input words per pixel and
    one weight word per channel stay in registers, so each weight word is
    unpacked once (two `sxtb16`) for every pixel and each input word once
    for every channel. It lowers to a fixed instruction sequence (LLVM
    inline assembly, fully unrolled over `words`) that no register
    allocator can spill: per step, `pixels + channels` loads,
    `2 * (pixels + channels)` unpacks and `2 * pixels * channels` SMLADs.

    Example:

    ```mlir
    %r:4 = vmcu.dot_block %x[%xi], %w[%wi], %a0, %a1, %a2, %a3 {pixels = 2 : i64, words = 8 : i64, x_stride = 48 : i64} : memref<96xi8>, memref<384xi8>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I8, I32], [1]>, "input rows",
                           [MemRead]>:$x,
                       Index:$x_index,
                       Arg<MemRefRankOf<[I8, I32], [1]>, "packed weights",
                           [MemRead]>:$w,
                       Index:$w_index, Variadic<I32>:$acc,
                       ConfinedAttr<I64Attr, [IntPositive]>:$pixels,
                       ConfinedAttr<I64Attr, [IntPositive]>:$words,
                       ConfinedAttr<I64Attr, [IntPositive]>:$x_stride,
                       UnitAttr:$widened, UnitAttr:$widened_weights,
                       UnitAttr:$paired_weights);
  let results = (outs Variadic<I32>:$result);
  let assemblyFormat = [{
    $x `[` $x_index `]` `,` $w `[` $w_index `]` `,` $acc attr-dict `:`
    type($x) `,` type($w)
  }];
  let extraClassDeclaration = [{
    /// Output channels of the block: accumulators per pixel.
    int64_t getChannels() { return getAcc().size() / getPixels(); }
  }];
  let hasVerifier = 1;
}

def VMCU_AddPairsOp : VMCU_Op<"add_pairs", [Pure]> {
  let summary = "Four int8 lanes added into two words of int16 sums (SXTAB16)";
  let description = [{
    The average pool's accumulation: `even` holds the int16 sums of lanes
    0 and 2 (low and high half), `odd` those of lanes 1 and 3, and each
    half adds its sign-extended byte of `x`, wrapping in 16 bits:

    ```
    even_sum = (even.lo + x[0]) | (even.hi + x[2]) << 16
    odd_sum  = (odd.lo + x[1])  | (odd.hi + x[3]) << 16
    ```

    256 int8 values sum within int16, so a kernel widens the halves to
    int32 at least every 256 additions. On Armv7E-M: two `sxtab16`, one
    with `ror #8`.

    Example:

    ```mlir
    %e, %o = vmcu.add_pairs %even, %odd, %x : vector<4xi8>
    ```
  }];
  let arguments = (ins I32:$even, I32:$odd,
                       VectorOfLengthAndType<[4], [I8]>:$x);
  let results = (outs I32:$even_sum, I32:$odd_sum);
  let assemblyFormat = "$even `,` $odd `,` $x attr-dict `:` type($x)";
}

def VMCU_MacLanesOp : VMCU_Op<"mac_lanes", [Pure,
    AllTypesMatch<["acc", "result"]>, AllTypesMatch<["x", "w"]>]> {
  let summary = "Four int8 lanes multiplied and accumulated lane by lane";
  let description = [{
    `result[i] = acc[i] + x[i] * w[i]` for each of 4 lanes, in int32
    (wrapping): the depthwise MAC, where every channel keeps its own sum.
    On Armv7E-M: one `sxtb16` per operand half and four 16x16+32 MACs
    (`smlabb` for lanes 0 and 1, `smlatt` for lanes 2 and 3), no byte loads.

    Example:

    ```mlir
    %r = vmcu.mac_lanes %acc, %x, %w : vector<4xi32>, vector<4xi8>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4], [I32]>:$acc,
                       VectorOfLengthAndType<[4], [I8]>:$x,
                       VectorOfLengthAndType<[4], [I8]>:$w);
  let results = (outs VectorOfLengthAndType<[4], [I32]>:$result);
  let assemblyFormat =
      "$acc `,` $x `,` $w attr-dict `:` type($acc) `,` type($x)";
}

def VMCU_DepthwiseBlockOp : VMCU_Op<"depthwise_block"> {
  let summary = "Four channels of a depthwise window, summed and requantized in one register block";
  let description = [{
    The depthwise micro-kernel: 4 channels (lanes) of a window of
    `tap_offsets.size()` taps, each tap 4 int8 lanes at byte offset
    `tap_offsets[t]` from `x[x_index]`, multiplied by the lanes' weights,
    added to their biases, requantized and stored as 4 int8 outputs:

    ```
    v[i] = bias[i] + sum_t x[x_index + tap_offsets[t] + i] * w_t[i]
    out[out_index + i] = clamp(requant(v[i]) + output_zp, min, max)
    ```

    `requant` is `vmcu.requant_block`'s bounded requantization (`|v| <
    2^30`, or a zero multiplier). Everything the block reads from flash is one record,
    `record[record_index ...]` (i32 words): for each lane i the 4 words
    2 * bias (modulo 2^32), multiplier m, exponent e and half term h; then
    the weights doubled (2 * w as int16) in the order the block reads them:
    for each pair of taps (2p, 2p + 1), lane i's two weights as one word
    (the even tap's in the low half), lanes 0 to 3; for an odd last tap,
    the words (w[0], w[2]) and (w[1], w[3]). Doubled, the sums are 2v,
    which the requantization's SMMLAR takes without a shift.

    Per pair of taps: 2 input and 4 weight loads, 4 SXTB16, 2 PKHBT and
    2 PKHTB pairing each lane's two taps in one word, and 4 SMLADs (8 MACs
    in about 21 Cortex-M4 cycles; `vmcu.mac_lanes` takes about 24,
    unpacking the weights). It lowers to one fixed instruction sequence
    (LLVM inline assembly) in 13 registers, the MACs and the
    requantization allocated once, every access an immediate offset from
    one of 3 pointers: the offsets must be compile-time constants (a
    sliding window whose columns rotate needs one block per rotation).

    Example:

    ```mlir
    vmcu.depthwise_block %win[%k], %rec[%ri] into %obuf[%k]
        {tap_offsets = array<i64: 0, 16, 32>, double_round = true,
         output_zp = 0 : i32, min = -128 : i32, max = 127 : i32}
        : memref<48xi8>, memref<24xi32>, memref<16xi8>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I8], [1]>, "window", [MemRead]>:$x,
                       Index:$x_index,
                       Arg<MemRefRankOf<[I32], [1]>, "bias, requant and weights",
                           [MemRead]>:$record,
                       Index:$record_index,
                       Arg<MemRefRankOf<[I8], [1]>, "output bytes",
                           [MemWrite]>:$out,
                       Index:$out_index,
                       DenseI64ArrayAttr:$tap_offsets,
                       BoolAttr:$double_round, I32Attr:$output_zp,
                       I32Attr:$min, I32Attr:$max);
  let assemblyFormat = [{
    $x `[` $x_index `]` `,` $record `[` $record_index `]` `into` $out `[`
    $out_index `]` attr-dict `:` type($x) `,` type($record) `,` type($out)
  }];
  let extraClassDeclaration = [{
    /// Lanes (channels) of a block.
    static constexpr int64_t kLanes = 4;
    /// Words of a record before the weights: bias, m, e, h per lane.
    static constexpr int64_t kLaneWords = 4;
    /// Words of a block's record for a window of `taps` taps: the lanes'
    /// words, 4 per pair of taps and 2 for an odd last tap.
    static int64_t recordWords(int64_t taps) {
      return kLanes * kLaneWords + taps / 2 * kLanes + taps % 2 * 2;
    }
  }];
  let hasVerifier = 1;
}

def VMCU_RequantizeOp : VMCU_Op<"requantize",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "TOSA apply_scale_32 of one int32 value, plus zero point and clamp";
  let description = [{
    `r = clamp(apply_scale_32(value - input_zp, multiplier, shift,
    double_round) + output_zp, min, max)`, then truncated to the result
    type (i8 or i32). Multiplier and shift are operands so per-channel
    tables can be read from flash; see `#vmcu.requant` for the arithmetic.

    `wide_shift` promises that `shift` is in [32, 62] (every entry of the
    table it is read from, as TFLite's scales usually give). The lowering
    then shifts only the high word of the 64-bit product (one SMLAL and a
    32-bit shift), which is exact: `x >> s == (x >> 32) >> (s - 32)`.

    `round`, with `wide_shift` only, is this channel's 64-bit rounding
    term for a non-negative value: `2^(shift - 1)`, plus `2^30` with
    `double_round` (a flash table `vmcu-tile` builds from the same
    `#vmcu.requant`). For a negative value the double-round term is
    `-2^30`, i.e. `round - 2^31`, so the lowering needs no per-element
    rounding arithmetic: one 64-bit add of the sign and one SMLAL.

    `bounded_value`, with `wide_shift` only and no `round`, promises
    `|value - input_zp| < 2^30` or a zero multiplier (the tiler proves it
    from the bias and the MACs per output of every channel it scales by a
    nonzero multiplier; with m = 0 both TOSA and this form give 0, the
    half term alone shifted out). Then, with `e = shift - 31` and `c = 2^(e - 1)`,
    the result is `(hi32(2v * m + c * 2^32 [+ 2^31]) [- 1 if v < 0]) >> e`
    (the bracketed terms with `double_round`): one SMMLAR (SMMLA without
    double rounding) on 32-bit operands, exact for such `v`. `half`, with
    `bounded_value` only, is `c` read from a per-channel table, so no
    element computes it; or `c + z * 2^e`, which adds `z` to the result
    while the quotient plus `z * 2^e` fits an int32: the tiler folds an
    output zero point `z` so (and sets `output_zp` to 0) where its bound on
    `v` proves that.

    `narrow_value`, without `wide_shift`, `round` or `half`, promises
    `shift <= 31` and `|value - input_zp| * 2^(32 - shift) < 2^31` (an int8
    operand less its zero point, |v| <= 255, with a shift of at least
    `kRequantNarrowMinShift`, 9). Then the result is
    `hi32((v << (32 - shift)) * m + 2^31)`: one SMMULR and a shift by a
    register, exact since TOSA rounds once at such shifts.

    Example:

    ```mlir
    %q = vmcu.requantize %acc, %m, %s {output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
    ```
  }];
  let arguments = (ins I32:$value, I32:$multiplier, I32:$shift,
                       Optional<I64>:$round, Optional<I32>:$half,
                       DefaultValuedAttr<I32Attr, "0">:$input_zp,
                       I32Attr:$output_zp, I32Attr:$min, I32Attr:$max,
                       BoolAttr:$double_round, UnitAttr:$wide_shift,
                       UnitAttr:$bounded_value, UnitAttr:$narrow_value);
  let results = (outs AnyTypeOf<[I8, I32]>:$result);
  let assemblyFormat = [{
    $value `,` $multiplier `,` $shift (`round` $round^)? (`half` $half^)?
    attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def VMCU_GemmTileOp : VMCU_Op<"gemm_tile"> {
  let summary = "A GEMM register tile over widened rows, summed and requantized in one register block";
  let description = [{
    A `vmcu.dot_block {widened, widened_weights}` tile together with its
    biases and its `vmcu.requant_block`: `pixels` rows of int16-pair inputs
    (as `vmcu.widen_pairs` writes them: per step of 4 lanes, the pair of
    lanes 0, 2 then of 1, 3) times `channels` channels over `words` steps,
    started from the channels' biases, requantized and stored as int8:

    ```
    v[i][j] = bias[j] + sum_{k < 2 * words}
                smlad(x[x_index + i * x_stride / 4 + k], w[k * channels + j])
    (the record holding 2 * bias and 2 * w)
    out[out_index + i * out_stride + j] = clamp(requant_j(v[i][j]) + output_zp,
                                                min, max)
    ```

    Everything the tile reads from flash is one record,
    `record[record_index ...]` (i32 words): the weights doubled, `2 * w`
    (half step k, channel j: int16 pairs), then the `channels` biases
    doubled (modulo 2^32), then each channel's bounded requantization
    entry (multiplier, exponent, half term), as `vmcu.requant_block` reads
    them (`|v| < 2^30`, or a zero multiplier). Doubled, the sums are 2v,
    which the requantization's SMMLAR takes without a shift.

    Per half step: one input word per pixel and 2 weight words loaded back
    to back, a third channel's word after the first two channels' SMLADs
    (one cycle more than `vmcu.dot_block`'s 3 words in flight, for the
    register the output pointer takes). It lowers to one fixed instruction
    sequence (LLVM inline assembly) in `gemmTileRegisters` registers, the
    MACs and the requantization allocated once: LLVM's code spilled and
    moved the sums between a dot block and its requant block.

    Example:

    ```mlir
    vmcu.gemm_tile %xw[%c0], %rec[%ri] into %obuf[%at]
        {pixels = 2 : i64, channels = 3 : i64, words = 2 : i64,
         x_stride = 16 : i64, out_stride = 48 : i64, double_round = true,
         output_zp = 0 : i32, min = -128 : i32, max = 127 : i32}
        : memref<8xi32>, memref<96xi32>, memref<96xi8>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I32], [1]>, "widened input rows",
                           [MemRead]>:$x,
                       Index:$x_index,
                       Arg<MemRefRankOf<[I32], [1]>,
                           "weights, biases and requantization", [MemRead]>:$record,
                       Index:$record_index,
                       Arg<MemRefRankOf<[I8], [1]>, "output bytes",
                           [MemWrite]>:$out,
                       Index:$out_index,
                       ConfinedAttr<I64Attr, [IntPositive]>:$pixels,
                       ConfinedAttr<I64Attr, [IntPositive]>:$channels,
                       ConfinedAttr<I64Attr, [IntPositive]>:$words,
                       ConfinedAttr<I64Attr, [IntPositive]>:$x_stride,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$out_stride,
                       BoolAttr:$double_round, I32Attr:$output_zp,
                       I32Attr:$min, I32Attr:$max);
  let assemblyFormat = [{
    $x `[` $x_index `]` `,` $record `[` $record_index `]` `into` $out `[`
    $out_index `]` attr-dict `:` type($x) `,` type($record) `,` type($out)
  }];
  let extraClassDeclaration = [{
    /// Words of a record per channel and step: 2 weight words.
    static constexpr int64_t kWordsPerStep = 2;
    /// Words of a record per channel besides the weights: the bias and
    /// the 3 requantization words.
    static constexpr int64_t kChannelWords = 4;
    /// Record words of a tile of `channels` channels over `words` steps.
    static int64_t recordWords(int64_t channels, int64_t words) {
      return channels * (kWordsPerStep * words + kChannelWords);
    }
  }];
  let hasVerifier = 1;
}

def VMCU_RequantBlockOp : VMCU_Op<"requant_block",
    [AttrSizedOperandSegments]> {
  let summary = "Requantizes a register block of sums into int8 outputs";
  let description = [{
    The epilogue of a `vmcu.dot_block` tile: `pixels * channels` int32
    sums (`acc`, pixel-major) requantized with a bounded requantization
    table and stored as int8. Channel j's table entry is the 3 words
    `table[table_index + 3 * j + (0, 1, 2)]`: multiplier m, exponent e
    (shift - 31, in [1, 31]) and half term h (2^(e - 1), plus the output
    zero point times 2^e where the table folds it). For pixel i:

    ```
    v = acc[i * channels + j]          (|v| < 2^30, or m = 0)
    q = hi32(2v * m + h * 2^32 + (double_round ? 2^31 : 0))
    q = (q + (double_round && v < 0 ? -1 : 0)) >> e
    out[out_index + i * out_stride + j] = clamp(q + output_zp, min, max)
    ```

    which is `vmcu.requantize {bounded_value}` of each sum (the same
    table, the same result bit for bit).

    With `compact_table` (a compact kernel's table: 5 bytes per channel
    instead of 12), channel j's multiplier is the word
    `table[table_index + j]` and its exponent the byte
    `exponents[table_index + j]`; the half term is computed,
    `h = half_odd << (e - 1)` (SUB and LSL in place of a load), with
    `half_odd` 1, or 1 + 2z to fold the output zero point z (then
    `output_zp` is 0). `half_odd` is an operand, not an attribute, so that
    kernels that differ only in it can still share a function
    (`vmcu-share-kernels`).

    With `uniform_table` (a per-tensor scale) every channel takes the one
    entry at `table_index`, loaded once for the block.

    It lowers to one fixed instruction sequence (LLVM inline assembly):
    per channel three table loads (two and SUB, LSL with `compact_table`),
    per output 5 or 6 instructions (SMMLAR or SMMLA, the sign term, the
    shift, SSAT) and a byte store, with the sums, two pointers (with
    `compact_table` three, and `half_odd`) and four scratch registers
    allocated once; LLVM's own code for the same spills the sums around the
    table reads.

    Example:

    ```mlir
    vmcu.requant_block %a0, %a1, %a2, %a3, %a4, %a5 into %out[%o] table %t[%ti] {pixels = 2 : i64, out_stride = 24 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<48xi8>, memref<144xi32>
    ```
  }];
  let arguments = (ins Variadic<I32>:$acc,
                       Arg<MemRefRankOf<[I8], [1]>, "output bytes",
                           [MemWrite]>:$out,
                       Index:$out_index,
                       Arg<MemRefRankOf<[I32], [1]>, "bounded requant table",
                           [MemRead]>:$table,
                       Index:$table_index,
                       Arg<Optional<MemRefRankOf<[I8], [1]>>,
                           "a compact table's exponents", [MemRead]>:$exponents,
                       Optional<I32>:$half_odd,
                       ConfinedAttr<I64Attr, [IntPositive]>:$pixels,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$out_stride,
                       BoolAttr:$double_round, I32Attr:$output_zp,
                       I32Attr:$min, I32Attr:$max, UnitAttr:$compact_table,
                       UnitAttr:$uniform_table);
  let assemblyFormat = [{
    $acc `into` $out `[` $out_index `]` `table` $table `[` $table_index `]`
    (`exponents` $exponents^ `half` $half_odd)? attr-dict `:` type($out) `,`
    type($table) (`,` type($exponents)^)?
  }];
  let extraClassDeclaration = [{
    /// Output channels of the block: sums per pixel.
    int64_t getChannels() { return getAcc().size() / getPixels(); }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Layer ops
//===----------------------------------------------------------------------===//

class VMCU_LayerOp<string mnemonic, list<Trait> traits = []>
    : VMCU_Op<mnemonic, !listconcat(traits, [
          DeclareOpInterfaceMethods<VMCU_LayerOpInterface>])>;

def VMCU_Conv2DOp : VMCU_LayerOp<"conv2d", [Pure]> {
  let summary = "int8 NHWC 2-D convolution with folded requantisation";
  let description = [{
    `output[0,p,q,k] = requant(bias[k] + sum_{r,s,c} (in(p*sh+r-pt,
    q*sw+s-pl, c) - input_zp) * weight[k,r,s,c])`, where positions outside
    the input contribute 0 (TOSA `conv2d` semantics, dilation 1, weight
    zero point 0). The input is `[1,H,W,C]`, the weight `[K,R,S,C]`
    (TOSA's layout), the bias `[K]` int32 and the output `[1,P,Q,K]` with
    `P = floor((H + pad_top + pad_bottom - R) / stride_h) + 1`. Unlike
    TOSA, the division need not be exact: the remainder counts trailing
    input rows no window reads (TFLite's strided convolutions on even
    sizes, which TOSA expresses with a `tosa.slice`); they must then be
    input, so `pad_bottom` must be 0 (likewise for columns and
    `pad_right`). `pad` is `[top, bottom, left, right]`.
    `requant` is applied per output channel. `segment_bytes`, once chosen,
    must divide C and K.

    With a `residual` operand (of the output's type) and `residual_add`,
    the layer also folds the residual ADD that consumes its result: each
    output element is `residual_add`'s sum of the convolution's int8 value
    and the residual's element at the same position (vmcu-fuse-residual-add
    folds it; the kernel frees each residual segment as it adds it, so the
    output may be placed over the residual).

    With `global_avg_pool` the layer also folds the global average pool
    that consumes its result (vmcu-fuse-global-pool): the output is
    `[1,1,1,K]`, each channel's average over the conv's `[1,P,Q,K]` plane
    (`getConvType`), which is never stored; the kernel keeps the K sums
    on its stack. It takes no `residual`.

    With `window_avg_pool` the layer also folds an average pool over
    non-overlapping windows of its result (vmcu-fuse-window-pool): the
    output is `[1,P/kh,Q/kw,K]`, each window's average over the conv's
    `[1,P,Q,K]` plane (`getConvType`), which is never stored; the kernel
    runs the conv pixels of one window after another and keeps their K
    sums on its stack. It takes no `residual` and no `global_avg_pool`.

    With `paired_rows` (set by `vmcu-pair-long-rows` where the larger stack
    buffers fit), an im2col window or pointwise input row of 257 to 1024
    bytes is gathered for two output pixels at once and widened to int16,
    so that each weight word serves both: 2-row GEMM tiles instead of
    1-row ones, for 6 bytes of stack per row byte.

    Example:

    ```mlir
    %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>,
           pad = array<i64: 1, 1, 1, 1>, input_zp = -128 : i32,
           requant = #vmcu.requant<input_zp = 0, output_zp = -128,
             multiplier = [1073741824], shift = [35], double_round = true,
             min = -128, max = 127>}
         : (tensor<1x8x8x16xi8>, tensor<32x3x3x16xi8>, tensor<32xi32>)
         -> tensor<1x8x8x32xi8>
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input, VMCU_I8Tensor4D:$weight,
                       TensorRankOf<[I32], [1]>:$bias,
                       Optional<VMCU_I8Tensor4D>:$residual,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$pad,
                       I32Attr:$input_zp, VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes,
                       OptionalAttr<VMCU_ResidualAddAttr>:$residual_add,
                       UnitAttr:$paired_rows,
                       OptionalAttr<VMCU_GlobalAvgPoolAttr>:$global_avg_pool,
                       OptionalAttr<VMCU_WindowAvgPoolAttr>:$window_avg_pool);
  let results = (outs VMCU_I8Tensor4D:$output);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias (`residual` $residual^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::Value":$input,
                   "::mlir::Value":$weight, "::mlir::Value":$bias,
                   "::mlir::DenseI64ArrayAttr":$stride,
                   "::mlir::DenseI64ArrayAttr":$pad,
                   "::mlir::IntegerAttr":$input_zp,
                   "::mlir::vmcu::RequantAttr":$requant,
                   "::mlir::IntegerAttr":$segment_bytes), [{
      build($_builder, $_state, output, input, weight, bias, ::mlir::Value(),
            stride, pad, input_zp, requant, segment_bytes,
            ::mlir::vmcu::ResidualAddAttr(), /*paired_rows=*/nullptr,
            ::mlir::vmcu::GlobalAvgPoolAttr(),
            ::mlir::vmcu::WindowAvgPoolAttr());
    }]>,
  ];
  let extraClassDeclaration = [{
    /// True for a 1x1 kernel (a pointwise convolution).
    bool isPointwise();
    /// The convolution's own output `[1,P,Q,K]`: the result's type, or
    /// with `global_avg_pool` or `window_avg_pool` the plane it averages.
    ::mlir::RankedTensorType getConvType();
    /// True with a folded `global_avg_pool` or `window_avg_pool`.
    bool hasFoldedPool() {
      return getGlobalAvgPoolAttr() || getWindowAvgPoolAttr();
    }
  }];
}

def VMCU_DepthwiseConv2DOp : VMCU_LayerOp<"depthwise_conv2d", [Pure]> {
  let summary = "int8 NHWC depthwise 2-D convolution";
  let description = [{
    `output[0,p,q,o] = requant(bias[o] + sum_{r,s} (in(p*sh+r-pt,
    q*sw+s-pl, o / M) - input_zp) * weight[r,s,o,0])`, padding contributing
    0 (TOSA `depthwise_conv2d`). The output has C * M channels for a depth
    multiplier M (1 or more): output channel o = c * M + m reads input
    channel c. The weight is `[R,S,C*M,1]` (TOSA's `[R,S,C,M]` in the same
    memory order). Shapes, strides and padding follow `vmcu.conv2d`.

    Example:

    ```mlir
    %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>,
           pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32,
           requant = #vmcu.requant<input_zp = 0, output_zp = 0,
             multiplier = [1073741824], shift = [35], double_round = true,
             min = -128, max = 127>}
         : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>)
         -> tensor<1x8x8x16xi8>
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input, VMCU_I8Tensor4D:$weight,
                       TensorRankOf<[I32], [1]>:$bias,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$pad,
                       I32Attr:$input_zp, VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs VMCU_I8Tensor4D:$output);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// Output channels per input channel (M).
    int64_t getDepthMultiplier() {
      return getOutput().getType().getDimSize(3) /
             getInput().getType().getDimSize(3);
    }
  }];
  let hasVerifier = 1;
}

def VMCU_FullyConnectedOp : VMCU_LayerOp<"fully_connected", [Pure]> {
  let summary = "int8 fully connected layer (row-major GEMM)";
  let description = [{
    `output[m,n] = requant(bias[n] + sum_k (input[m,k] - input_zp) *
    weight[n,k])` with input `[M,K]`, weight `[N,K]` (each output row of
    the weight contiguous, as SMLAD wants), bias `[N]` and output `[M,N]`
    (paper Figure 4). `segment_bytes` must divide K and N.

    Example:

    ```mlir
    %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32,
           requant = #vmcu.requant<input_zp = 0, output_zp = 0,
             multiplier = [1073741824], shift = [35], double_round = true,
             min = -128, max = 127>}
         : (tensor<4x64xi8>, tensor<32x64xi8>, tensor<32xi32>) -> tensor<4x32xi8>
    ```
  }];
  let arguments = (ins TensorRankOf<[I8], [2]>:$input,
                       TensorRankOf<[I8], [2]>:$weight,
                       TensorRankOf<[I32], [1]>:$bias,
                       I32Attr:$input_zp, VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorRankOf<[I8], [2]>:$output);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_BatchMatMulOp : VMCU_LayerOp<"batch_matmul", [Pure]> {
  let summary = "int8 batched matrix product of two activations (BATCH_MATMUL)";
  let description = [{
    `output[b,m,n] = requant(sum_k (lhs[b,m,k] - lhs_zp) *
    (rhs[b,k,n] - rhs_zp))` with lhs `[B,M,K]`, rhs `[B,K,N]` and output
    `[B,M,N]`: TOSA's `tosa.matmul` with two activation operands, which is
    TFLite's int8 BATCH_MATMUL. Both operands live in the pool; per batch
    the kernel stages `rhs[b]` transposed on the stack (N x K bytes), then
    computes the output row by row, each lhs row freed before its output
    row is stored. `requant` is per tensor. `segment_bytes` must divide K
    and N.

    Example:

    ```mlir
    %y = vmcu.batch_matmul %a, %b {lhs_zp = -128 : i32, rhs_zp = -128 : i32,
           requant = #vmcu.requant<...>}
         : (tensor<9x32x16xi8>, tensor<9x16x24xi8>) -> tensor<9x32x24xi8>
    ```
  }];
  let arguments = (ins TensorRankOf<[I8], [3]>:$lhs,
                       TensorRankOf<[I8], [3]>:$rhs,
                       I32Attr:$lhs_zp, I32Attr:$rhs_zp,
                       VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorRankOf<[I8], [3]>:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_AddOp : VMCU_LayerOp<"add", [Pure]> {
  let summary = "int8 elementwise add (or subtract) with broadcasting and TOSA rescales";
  let description = [{
    `output = requant(lhs_rescale(lhs) + rhs_rescale(rhs))`: each int8
    input is rescaled to int32 (its `input_zp` subtracted first), the sums
    are formed in int32, and `requant` brings them back to int8. This is the
    rescale/add/rescale sequence TOSA uses for a quantised add. With
    `subtract`, `lhs_rescale(lhs) - rhs_rescale(rhs)` (the same form around
    `tosa.sub`, TFLite's int8 SUB). The operands broadcast to the output
    as in TOSA: the output's rank, each dimension the output's or 1. One
    operand may be a constant (read from flash, indexed through the
    broadcast); the other is an activation. The innermost dimension is the
    one segments tile.

    Example:

    ```mlir
    %y = vmcu.add %a, %b {lhs_rescale = #vmcu.requant<input_zp = -1,
           output_zp = 0, multiplier = [1073741824], shift = [30],
           double_round = true, min = -2147483648, max = 2147483647>,
         rhs_rescale = #vmcu.requant<...>, requant = #vmcu.requant<...>}
         : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$lhs, TensorOf<[I8]>:$rhs,
                       VMCU_RequantAttr:$lhs_rescale,
                       VMCU_RequantAttr:$rhs_rescale,
                       VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes,
                       UnitAttr:$subtract);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_MulOp : VMCU_LayerOp<"mul", [Pure]> {
  let summary = "int8 elementwise multiply with broadcasting";
  let description = [{
    `output = requant((lhs - lhs_zp) * (rhs - rhs_zp))`: the int32 product
    of the zero-point-free operands (at most 255 * 255 in magnitude),
    requantized to int8. This is the rescale/mul/rescale form TOSA gives
    TFLite's int8 MUL. The operands broadcast to the output as for
    `vmcu.add` (a squeeze-and-excite block's per-channel gate
    `[1, 1, 1, C]` is the common case), and one may be a constant. The
    innermost dimension is the one segments tile.

    Example:

    ```mlir
    %y = vmcu.mul %x, %s {lhs_zp = -3 : i32, rhs_zp = -128 : i32,
           requant = #vmcu.requant<...>}
         : (tensor<1x8x8x16xi8>, tensor<1x1x1x16xi8>) -> tensor<1x8x8x16xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$lhs, TensorOf<[I8]>:$rhs,
                       I32Attr:$lhs_zp, I32Attr:$rhs_zp,
                       VMCU_RequantAttr:$requant,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_ConcatOp : VMCU_LayerOp<"concat", [Pure]> {
  let summary = "int8 concatenation along one axis (TOSA concat)";
  let description = [{
    The `inputs` laid one after another along `axis`. The bytes are copied
    as they are: TOSA's `concat` needs one element type, and TFLite
    Micro's int8 CONCATENATION copies too, whatever its inputs' scales.
    Every input has the output's shape except along `axis`, where the
    extents add up to the output's. Seen as rows of the dimensions from
    `axis` inward, output row `o` is the inputs' rows `o`, one after
    another; segments tile those rows, so a segment divides every input's
    row. An input may appear more than once.

    Example:

    ```mlir
    %y = vmcu.concat %a, %b {axis = 3 : i32}
         : (tensor<1x8x8x16xi8>, tensor<1x8x8x8xi8>) -> tensor<1x8x8x24xi8>
    ```
  }];
  let arguments = (ins Variadic<TensorOf<[I8]>>:$inputs, I32Attr:$axis,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes of one row of `value` (an input or the output): the
    /// product of its dimensions from `axis` inward (0 for an axis out of
    /// range).
    int64_t getRowBytes(Value value);
    /// The rows every input and the output have: the product of the
    /// dimensions outside `axis`.
    int64_t getRows();
  }];
}

def VMCU_SliceOp : VMCU_LayerOp<"slice", [Pure]> {
  let summary = "int8 strided box of a tensor (TOSA slice, TFLite STRIDED_SLICE)";
  let description = [{
    `output[i] = input[start + i * stride]` in every dimension, for every
    index `i` of the output's shape: TOSA's `slice` where every stride is
    1, TFLite's SLICE and STRIDED_SLICE (positive strides, after its masks
    and negative indices are resolved) otherwise. The bytes are copied.
    Segments tile the innermost dimension: a segment divides the input's
    and the output's innermost extents and the start there, and is one byte
    where that stride is not 1.

    Example:

    ```mlir
    %y = vmcu.slice %x {start = array<i64: 0, 1, 0, 4>,
                        stride = array<i64: 1, 2, 1, 1>}
         : (tensor<1x8x8x16xi8>) -> tensor<1x3x8x8xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$input, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$stride,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_ResizeNearestOp : VMCU_LayerOp<"resize_nearest", [Pure]> {
  let summary = "int8 nearest-neighbour resize of an NHWC tensor";
  let description = [{
    `output[n, y, x, c] = input[n, rows[y], cols[x], c]`: each output row
    and column copies the input row and column its index map names. The
    maps hold what the frontend's rounding gives (TFLite's
    RESIZE_NEAREST_NEIGHBOR with its align_corners and half_pixel_centers,
    TOSA's `resize` in NEAREST_NEIGHBOR mode), so the kernel only copies
    bytes. Each map is non-decreasing and within the input; vmcu-tile takes
    maps that repeat with a period of at most 16 outputs (any integer up-
    or down-scaling, and the rational ratios TFLite and TOSA round).
    Segments tile the channels.

    Example (2x upscaling):

    ```mlir
    %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1>,
                                 cols = array<i64: 0, 0, 1, 1>}
         : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input, DenseI64ArrayAttr:$rows,
                       DenseI64ArrayAttr:$cols,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs VMCU_I8Tensor4D:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_TransposeOp : VMCU_LayerOp<"transpose", [Pure]> {
  let summary = "int8 permutation of a tensor's dimensions (TOSA transpose)";
  let description = [{
    `output[i_0, ..., i_last]` is the input element whose index along
    dimension `perms[d]` is `i_d`: TOSA's `transpose`, TFLite's TRANSPOSE
    (e.g. the NCHW to NHWC transpose PyTorch exporters put after a model
    input). The bytes are copied. Where the permutation keeps the innermost
    dimension, segments tile it; otherwise a segment is one byte.

    Example:

    ```mlir
    %y = vmcu.transpose %x {perms = array<i32: 0, 2, 3, 1>}
         : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$input, DenseI32ArrayAttr:$perms,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the innermost dimension stays innermost.
    bool keepsInnermost() {
      return !getPerms().empty() &&
             getPerms().back() == static_cast<int32_t>(getPerms().size()) - 1;
    }
  }];
}

def VMCU_AvgPool2DOp : VMCU_LayerOp<"avg_pool2d", [Pure]> {
  let summary = "int8 NHWC average pooling (TOSA avg_pool2d)";
  let description = [{
    Sums `in - input_zp` over the in-bounds part of each `kernel` window,
    divides by the number of in-bounds elements with TOSA's
    `reciprocal_scale` and `apply_scale_32` (single rounding), adds
    `output_zp` and clamps to `[min, max]`. Shapes follow `vmcu.conv2d`
    with K = C.

    With `round_half_away` it computes TFLite's int8 average instead
    (reference_integer_ops::AveragePool): the sum of the raw int8 values
    divided by the count, ties rounded away from zero (TOSA rounds them
    up), then clamped; input and output zero points must then be equal.

    Example:

    ```mlir
    %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>,
           stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>,
           input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32,
           max = 127 : i32} : (tensor<1x3x3x96xi8>) -> tensor<1x1x1x96xi8>
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$pad, I32Attr:$input_zp,
                       I32Attr:$output_zp, I32Attr:$min, I32Attr:$max,
                       UnitAttr:$round_half_away,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs VMCU_I8Tensor4D:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_MaxPool2DOp : VMCU_LayerOp<"max_pool2d", [Pure]> {
  let summary = "int8 NHWC max pooling (TOSA max_pool2d, TFLite MAX_POOL_2D)";
  let description = [{
    The maximum of the in-bounds part of each `kernel` window, per channel,
    clamped to `[min, max]` (a fused activation). Padding never wins: TOSA
    pads with the type's lowest value, TFLite skips padded taps; both give
    the in-bounds maximum. Quantisation is unchanged. Shapes follow
    `vmcu.conv2d` with K = C.

    Example:

    ```mlir
    %y = vmcu.max_pool2d %x {kernel = array<i64: 2, 2>,
           stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>,
           min = -128 : i32, max = 127 : i32}
         : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$pad, I32Attr:$min, I32Attr:$max,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs VMCU_I8Tensor4D:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def VMCU_TableOp : VMCU_LayerOp<"table", [Pure,
    AllTypesMatch<["input", "output"]>]> {
  let summary = "int8 elementwise lookup (TOSA table)";
  let description = [{
    `output[i] = table[input[i] + 128]`: TOSA's int8 `table`. Any int8 to
    int8 elementwise function is one (TFLite's RELU, RELU6, LEAKY_RELU and
    int8 QUANTIZE import as tables computed with TFLite Micro's integer
    arithmetic). The innermost dimension is the one segments tile; the
    kernel runs in place.

    Example:

    ```mlir
    %y = vmcu.table %x, %t : (tensor<1x8x8x16xi8>, tensor<256xi8>)
         -> tensor<1x8x8x16xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$input,
                       TensorRankOf<[I8], [1]>:$table,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $input `,` $table attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Entries of an int8 table, and the offset of input value 0.
    static constexpr int64_t kEntries = 256;
    static constexpr int64_t kOffset = 128;
  }];
}

def VMCU_SoftmaxOp : VMCU_LayerOp<"softmax", [Pure,
    AllTypesMatch<["input", "output"]>]> {
  let summary = "int8 softmax over the innermost dimension (TFLite's kernel)";
  let description = [{
    TFLite's int8 `SOFTMAX` (reference_ops::Softmax, which CMSIS-NN and
    TFLite Micro match bit for bit), row by row over the innermost
    dimension: with `m` the row's maximum, each element's difference
    `x - m` (if at least `diff_min`) is rescaled to Q5.26 by
    `input_multiplier` and `input_left_shift`, exponentiated with gemmlowp's
    fixed-point `exp_on_negative_values`, summed in Q12.19 and divided by
    that sum through gemmlowp's fixed-point reciprocal. The output has scale
    1/256 and zero point -128; an element below `diff_min` outputs -128.
    The three parameters are TFLite Micro's `SoftmaxPrepare` for the input
    scale and `beta` (`vmcu::fixedpoint::softmaxParams`). The row is at most
    511 elements, so the sum keeps the 4 bits of headroom the final
    rounding shift needs. `segment_bytes` must divide the row and 4.

    Example:

    ```mlir
    %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32,
           input_left_shift = 23 : i32, diff_min = -248 : i32}
         : tensor<1x12xi8>
    ```
  }];
  let arguments = (ins TensorOf<[I8]>:$input, I32Attr:$input_multiplier,
                       I32Attr:$input_left_shift, I32Attr:$diff_min,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes);
  let results = (outs TensorOf<[I8]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The longest row the kernel's fixed-point sum supports.
    static constexpr int64_t kMaxDepth = 511;
    /// The kernel loads a whole row before it computes, so segments need
    /// not be wide: at most a word, which keeps the pool capacity (a
    /// multiple of every segment size) from growing for the softmax.
    static constexpr int64_t kMaxSegmentBytes = 4;
  }];
}

def VMCU_BottleneckOp : VMCU_LayerOp<"bottleneck", [
    RecursiveMemoryEffects, SingleBlock]> {
  let summary = "Fused inverted bottleneck: pw expand, dw RxR, pw project [+ add]";
  let description = [{
    The fused kernel of paper Section 5.2 (Figure 6). The body holds, in
    order, a 1x1 `vmcu.conv2d` (expand) on the block argument, a
    `vmcu.depthwise_conv2d` (R x R) on its result, a 1x1 `vmcu.conv2d`
    (project), optionally a `vmcu.add` of the projection and the block
    argument (the residual), and a `vmcu.yield`. Its value is what the body
    yields. The intermediate tensors never exist in full: the kernel keeps
    only `R*R + 2` segments of workspace. `segment_bytes` must divide the
    input and output channels.

    With `line_buffer` (set by `vmcu-choose-schedule`), the kernel expands
    each input pixel exactly once into a line buffer of the R rows of
    expanded pixels the depthwise window still needs (R x W x Cmid bytes),
    a workspace the offset solver places in the segment pool, instead of
    re-expanding every pixel once per tap. `segment_bytes` must then also
    divide Cmid, and the expand and project convolutions have unit stride.

    A stem bottleneck has a KxK `vmcu.conv2d` (any stride up to its kernel)
    as its expansion, as a network's first conv, depthwise and projection
    are: each row of the expansion is computed once from its window of
    input rows (an im2col gather), and the input rows no later row reads
    are freed. It runs only with `line_buffer`, without a residual, and
    keeps its line buffer on the stack: the input is the pool's peak at a
    stem, so a pool line buffer would add to the arena byte for byte, and
    on the stack it is read in whole channel groups whatever the segment
    size. `segment_bytes` must divide the input and output channels only.

    With `paired_projection` (line buffer only; set by
    `vmcu-choose-schedule` where the larger stack buffers fit the budget),
    the kernel computes the depthwise outputs of two output pixels and
    projects them together, as 2-row GEMM tiles instead of 1-row ones.

    With `reverse_order` (recomputing only, not with `line_buffer`; set by
    `vmcu-choose-traversal` where it lowers the block's footprint), the
    kernel visits the output pixels in reverse row-major order, the last
    first, and frees each input pixel after its reader of lowest index:
    the output then grows down from above the input instead of up from
    below it. The two orders free the input at different rates, so one may
    fit in fewer bytes (a stride-2 expansion with the padding at the
    bottom and right: Table 2's B1, 533 bytes).

    Example:

    ```mlir
    %e = vmcu.bottleneck %a : tensor<1x20x20x16xi8> -> tensor<1x20x20x16xi8> {
    ^bb0(%in: tensor<1x20x20x16xi8>):
      %b = vmcu.conv2d %in, %w1, %b1 {...} : ...
      %c = vmcu.depthwise_conv2d %b, %w2, %b2 {...} : ...
      %d = vmcu.conv2d %c, %w3, %b3 {...} : ...
      %s = vmcu.add %d, %in {...} : ...
      vmcu.yield %s : tensor<1x20x20x16xi8>
    }
    ```
  }];
  let arguments = (ins VMCU_I8Tensor4D:$input,
                       OptionalAttr<VMCU_SegmentBytesAttr>:$segment_bytes,
                       UnitAttr:$line_buffer, UnitAttr:$paired_projection,
                       UnitAttr:$reverse_order);
  let results = (outs VMCU_I8Tensor4D:$output);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($output) $body
  }];
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "Type":$resultType, "Value":$input)>];
  let extraClassDeclaration = [{
    /// The layers of the body, in order; `getResidual` is null without one.
    Conv2DOp getExpand();
    DepthwiseConv2DOp getDepthwise();
    Conv2DOp getProject();
    AddOp getResidual();
    /// Whether the expansion is a KxK convolution (a network's stem conv):
    /// the kernel computes its rows from windows of input rows.
    bool isStem();
    /// Whether the line-buffer schedule applies: a unit-stride project
    /// convolution; a unit-stride 1x1 expansion, or a KxK one whose stride
    /// does not exceed its kernel; the same for the depthwise stride.
    bool supportsLineBuffer();
    /// The same for a chain not fused yet.
    static bool supportsLineBuffer(Conv2DOp expand, DepthwiseConv2DOp dw,
                                   Conv2DOp project);
    /// Output pixels the line-buffer kernel projects at once: 2 with
    /// `paired_projection`, else 1.
    int64_t getProjectPixels() { return getPairedProjection() ? 2 : 1; }
    /// Bytes of the line buffer: R rows of expanded pixels.
    int64_t getLineBufferBytes();
    /// Bytes of the line buffer in the segment pool: a stem keeps its line
    /// buffer on the stack, other blocks with line_buffer in the pool.
    int64_t getPoolWorkspaceBytes();
  }];
}

def VMCU_YieldOp : VMCU_Op<"yield", [Pure, Terminator, ReturnLike,
                                     HasParent<"BottleneckOp">]> {
  let summary = "Yields the result of a fused region";
  let description = [{
    Terminates the body of `vmcu.bottleneck` with the block's result.

    Example: `vmcu.yield %e : tensor<1x20x20x16xi8>`
  }];
  let arguments = (ins AnyTensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // VMCU_DIALECT_VMCU_IR_VMCUOPS_TD
