//===- Passes.td - vmcu transformation passes --------------*- tablegen -*-===//
//
// Passes that work on vmcu layer ops and tiled kernels.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_PASSES_TD
#define VMCU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VMCUEstimateReferenceFlashPass
    : Pass<"vmcu-estimate-reference-flash", "ModuleOp"> {
  let summary = "Record the flash CMSIS-NN would take for the model's layers";
  let description = [{
    Sets `vmcu.reference_flash_bytes` on the module: the flash the model
    takes when CMSIS-NN's kernels run its layers one by one, as TFLite
    Micro's cmsis_nn kernels call them (`analysis::estimateReferenceFlashBytes`):
    each layer's int8 weights, int32 biases and requantization words (a
    multiplier and a shift per output channel of a convolution, per
    requantization channel of a fully connected layer: one for a
    per-tensor scale), a call per layer, and the code of each
    CMSIS-NN kernel family the layers use. vmcuc and vmcu-run fit the
    object into `--cmsis-flash-percent` of it by default. Runs on the
    layers as `convert-tosa-to-vmcu` leaves them, before any fusion.

    Before:

    ```mlir
    module {
      func.func @m(%x: tensor<1x8xi8>) -> tensor<1x4xi8> {
        %y = vmcu.fully_connected %x, %w, %b {...}
            : (tensor<1x8xi8>, tensor<4x8xi8>, tensor<4xi32>) -> tensor<1x4xi8>
        ...
    ```

    After: `module attributes {vmcu.reference_flash_bytes = 8464 : i64}`
    (32 weight bytes, 4 biases, one requantization pair, a call and the
    fully connected functions).
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
}

def VMCUFuseBottleneckPass : Pass<"vmcu-fuse-bottleneck", "func::FuncOp"> {
  let summary = "Fuse pw-expand, dw RxR, pw-project [+ add] into vmcu.bottleneck";
  let description = [{
    Matches the inverted bottleneck of MobileNetV2-style networks (paper
    Section 5.2, Figure 6): a 1x1 `vmcu.conv2d`, a
    `vmcu.depthwise_conv2d`, a 1x1 `vmcu.conv2d` and optionally a
    `vmcu.add` of the projection and the block input. Each intermediate
    must have a single use. The chain moves into the body of one
    `vmcu.bottleneck`, whose kernel keeps only `R*R + 2` segments of
    workspace instead of the intermediate tensors.

    With `fuse-stem` it also fuses a KxK `vmcu.conv2d` (stride at most its
    kernel), a depthwise conv and a 1x1 projection, as a network's first
    layers are, into a stem bottleneck with `line_buffer`: its kernel
    computes each row of the conv once and keeps only the R rows the
    depthwise window still needs (docs/streaming.md), so the conv's output
    (often the model's largest tensor) never exists whole.
    `vmcu-choose-schedule` unfuses it where that is faster and fits.

    Before:

    ```mlir
    %b = vmcu.conv2d %a, %w1, %b1 {...}
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {...}
    %d = vmcu.conv2d %c, %w3, %b3 {...}
    %e = vmcu.add %d, %a {...}
    ```

    After:

    ```mlir
    %e = vmcu.bottleneck %a : tensor<...> -> tensor<...> {
    ^bb0(%in: tensor<...>):
      %b = vmcu.conv2d %in, %w1, %b1 {...}
      %c = vmcu.depthwise_conv2d %b, %w2, %b2 {...}
      %d = vmcu.conv2d %c, %w3, %b3 {...}
      %s = vmcu.add %d, %in {...}
      vmcu.yield %s : tensor<...>
    }
    ```
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"fuseResidual", "fuse-residual", "bool", "true",
           "Also fold the residual vmcu.add into the fused op">,
    Option<"fuseStem", "fuse-stem", "bool", "true",
           "Also fuse KxK conv -> depthwise -> 1x1 conv chains (stems)">,
  ];
  let statistics = [
    Statistic<"numFused", "num-fused", "Number of bottlenecks fused">,
    Statistic<"numResidual", "num-residual",
              "Number of fused bottlenecks with a residual add">,
    Statistic<"numStem", "num-stem",
              "Number of fused bottlenecks with a KxK expansion">,
  ];
}

def VMCUPadStemChannelsPass : Pass<"vmcu-pad-stem-channels", "func::FuncOp"> {
  let summary = "Pad a stem bottleneck's expanded channels to whole "
                "4-lane depthwise blocks";
  let description = [{
    A stem bottleneck's expanded tensor lives only in its kernel's line
    buffer, so its channel count is the compiler's to choose. Its
    depthwise part works in channel groups that divide that count
    (`stemChannelGroup`): 13 channels run one at a time, in scalar code,
    where 16 run as `vmcu.depthwise_block`s of 4 lanes. This pass grows a
    count that is not a multiple of 4 to the next one, with channels whose
    expansion, depthwise and projection weights and biases are 0 (a
    per-channel requantization repeats its last channel's scale): the
    padded channels hold a constant that the projection multiplies by 0,
    so the block's output is unchanged. A stem whose weights are not
    constants is left alone.

    It runs after `vmcu-choose-schedule`: a stem that the chooser runs as
    separate layers keeps its channels (padded, its ring tensors would
    grow). The chooser's SRAM figure for a fused stem leaves out the
    padded channels' line-buffer bytes (at most 3 per buffered pixel);
    `vmcu-select-segment-sizes` fits the budget with them.

    Before (13 channels): `vmcu.conv2d ... -> tensor<1x39x39x13xi8>`,
    weights `tensor<13x3x3x1xi8>`, `tensor<3x3x13x1xi8>`,
    `tensor<7x1x1x13xi8>`. After: the same with 16, the last 3 channels'
    weights and biases 0.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vmcu::VMCUDialect"];
  let statistics = [
    Statistic<"numPadded", "num-padded", "Number of stems padded">,
    Statistic<"numChannels", "num-channels", "Number of channels added">,
  ];
}

def VMCUFuseResidualAddPass
    : Pass<"vmcu-fuse-residual-add", "func::FuncOp"> {
  let summary = "Fold a residual vmcu.add into the conv that computes one "
                "operand";
  let description = [{
    A residual block of plain convs (ResNet: x -> conv -> conv -> add(x),
    or with a 1x1 projection shortcut) keeps its skip tensor live while
    the block's convs run. Folded into the conv that computes the add's
    other operand, the add becomes that conv's epilogue: per output
    segment it loads the skip's segment at the same place, adds with the
    ADD's arithmetic (TFLite's int8 ADD), frees it and stores the sum, so
    the conv's output may be placed over the skip tensor: the block needs
    about the skip, one tensor and the conv's halo, not three tensors.

    A `vmcu.add` (not a subtract) whose operands and result have one type
    folds into an operand's top-level `vmcu.conv2d` when that conv has no
    other use and no residual yet, and the other operand, which is not
    the conv's own input, is computed before the conv; of two such convs,
    the later one. The pipeline runs it after `vmcu-choose-schedule`, so
    the adds of bottlenecks it runs as separate layers fold too.

    Before:

    ```mlir
    %y = vmcu.conv2d %h, %w, %b {...}
    %s = vmcu.add %y, %x {lhs_rescale = #a, rhs_rescale = #b, requant = #c}
    ```

    After:

    ```mlir
    %s = vmcu.conv2d %h, %w, %b residual %x {...,
           residual_add = #vmcu.residual_add<conv = #a, skip = #b,
                                             requant = #c>}
    ```
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Number of residual adds folded">,
  ];
}

def VMCUFuseGlobalPoolPass : Pass<"vmcu-fuse-global-pool", "ModuleOp"> {
  let summary = "Fold a global average pool into the conv whose output it "
                "averages";
  let description = [{
    A network's head often ends with a conv that widens the channels (a
    MobileNetV2's 1x1 conv to 1280, a DS-CNN's last pointwise conv) and a
    global average pool over its output: the conv's whole output plane is
    live at once, often the model's largest tensor, only to be averaged
    into one pixel. Folded into the conv, the pool becomes its epilogue:
    each output segment's int8 values are added into per-channel int32
    sums on the kernel's stack, and after the last pixel the sums are
    averaged with the pool's arithmetic and stored. The plane is never
    stored; the layer's output is the pooled `[1,1,1,K]` tensor.

    A `vmcu.avg_pool2d` whose window is its whole unpadded input, or a
    MEAN over it (TFLite's, which the importer writes as a
    `vmcu.depthwise_conv2d` of ones over the whole plane, no bias, and a
    requantization), folds into the top-level `vmcu.conv2d` computing that
    input when the conv has
    no other use and no residual, and the sums (4 bytes per channel) take
    fewer bytes than the plane (more than 4 pixels). The sums cost stack:
    where the plane is not the arena's peak, the fold saves the pool's
    cycles (about 4 per element, measured) but raises the SRAM. So the
    folds are made together where one trial plan (tiled and placed) needs
    no more SRAM (arena + largest kernel stack buffers) than the plan
    without them, or, with `ram-kb`, fits that budget. A folded conv's
    iterations share the sums, so `vmcu-split-kernels` keeps it on one
    core: with `cores` > 1 the folds are made only where they lower the
    SRAM. The pipeline runs it after `vmcu-select-segment-sizes`, and
    with `ram-kb` also before `vmcu-choose-schedule`, its trial plans then
    sized as that pass sizes them without a budget: a fold that removes the
    largest tensor must be made before the schedules and segment sizes are
    fitted to the budget.

    Before:

    ```mlir
    %y = vmcu.conv2d %h, %w, %b {...} : (...) -> tensor<1x7x7x64xi8>
    %p = vmcu.avg_pool2d %y {kernel = array<i64: 7, 7>, ...}
         : (tensor<1x7x7x64xi8>) -> tensor<1x1x1x64xi8>
    ```

    After:

    ```mlir
    %p = vmcu.conv2d %h, %w, %b {...,
           global_avg_pool = #vmcu.global_avg_pool<input_zp = ...>}
         : (...) -> tensor<1x1x1x64xi8>
    ```
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB, the arena and the largest kernel's stack "
           "buffers, that the folds may fill (0: no more than the plan "
           "without them)">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the plan runs on: with more than one, a fold must lower "
           "the SRAM, since a folded conv runs on one core">,
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
  ];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Number of global pools folded">,
  ];
}

def VMCUFuseWindowPoolPass : Pass<"vmcu-fuse-window-pool", "ModuleOp"> {
  let summary = "Fold an average pool over non-overlapping windows into the "
                "conv whose output it averages";
  let description = [{
    A plain CNN (LeNet, CMSIS-NN's CIFAR-10 example) follows a stride-1
    conv with a 2x2 average pool of stride 2: the conv's whole output,
    often the model's largest tensor, is live at once only to be averaged
    into a quarter of it. Folded into the conv, the pool becomes its
    epilogue: the conv runs its pixels window by window (each window row
    one im2col block), adds each output segment's int8 values into
    per-channel int32 sums on the kernel's stack, and after a window's last
    pixel stores the window's averages (TFLite's or TOSA's arithmetic, as
    `vmcu.avg_pool2d`'s) and zeroes the sums. The conv's plane is never
    stored, and its rows and columns that no window covers are not
    computed.

    A `vmcu.avg_pool2d` whose stride equals its window, with no padding,
    a window of more than one pixel and rows of at most 2 pixels, folds
    into the top-level non-GEMM `vmcu.conv2d` computing its input when the
    conv has no other use, no residual and no folded pool. The folds are
    made together where one trial plan (tiled and placed) needs no more
    SRAM (arena + largest kernel stack buffers) than the plan without them,
    or, with `ram-kb`, fits that budget. Each iteration of the folded
    conv's window loops sums whole windows on its core's stack, so
    `vmcu-split-kernels` still shares the conv between two cores. The
    pipeline runs it before `vmcu-choose-schedule`, so that the schedules
    and segment sizes are fitted to the plan without the conv's plane.

    Before:

    ```mlir
    %y = vmcu.conv2d %x, %w, %b {...} : (...) -> tensor<1x35x35x28xi8>
    %p = vmcu.avg_pool2d %y {kernel = array<i64: 2, 2>,
           stride = array<i64: 2, 2>, ...}
         : (tensor<1x35x35x28xi8>) -> tensor<1x17x17x28xi8>
    ```

    After:

    ```mlir
    %p = vmcu.conv2d %x, %w, %b {...,
           window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, ...>}
         : (...) -> tensor<1x17x17x28xi8>
    ```
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB, the arena and the largest kernel's stack "
           "buffers, that the folds may fill (0: no more than the plan "
           "without them)">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the trial plans run on">,
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
  ];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Number of window pools folded">,
  ];
}

def VMCUChooseSchedulePass : Pass<"vmcu-choose-schedule", "ModuleOp"> {
  let summary = "Run each fused bottleneck as one kernel or as separate "
                "layers: the fastest plan whose arena fits the budget";
  let description = [{
    `vmcu-fuse-bottleneck` fuses every inverted bottleneck, which is the
    minimum-RAM plan: the expanded tensor never exists. But the fused kernel
    re-expands each input pixel once per depthwise tap (R*R times), so
    where the separate layers fit in the RAM budget they are much faster.

    The budget is `ram-kb` KiB, or, with `ram-kb=0`, the SRAM (arena plus
    the largest kernel's stack buffers) of the all-fused plan with each
    layer's fastest segments: by default
    speed costs no arena, and stack only where a block's option in the
    smallest plan would cost the model much more: a block whose faster
    options miss that budget, alone or beside the other blocks' picks,
    takes them within 1/4 more SRAM if the cost model puts the option it
    would run (a recompute, or a line buffer over narrow segments) at twice
    their cycles or more and the cycles saved are at least a quarter of
    the model's (those options also cost flash, which the default spends
    only there). Each block has options: recomputing (the
    all-fused plan's), a line buffer (`line_buffer`: each input pixel
    expanded once into R rows kept in the pool) and separate layers; a stem
    bottleneck (a KxK conv expansion) has its line buffer, on the stack, as
    the all-fused option and separate layers as the other. The pass tiles
    and places copies of the model to learn which options fit the budget
    on their own (with `ram-kb`, each trial's segments sized as
    `vmcu-select-segment-sizes` sizes them without a budget, so that the
    pool's rounding to the lcm of odd channel counts, which that pass then
    levels, does not set a trial's arena; without it, each layer's fastest
    segments), ranks them by the cycles of the cost model
    (`vmcu/Analysis/CostModel.h`), and starts each block at its fastest.
    While the whole plan is over the budget (the pool's alignment is
    global) it takes the one fallback to a block's next option that alone
    brings the plan within the budget at the least cost, or, if none does,
    moves the block saving least among those whose kernels are over the
    budget. If even the all-fused plan is over the budget it does nothing
    (`vmcu-select-segment-sizes` shrinks segments or reports). Last, in
    order, it lets each line-buffered block project its output pixels in
    pairs (`paired_projection`: 2-row GEMM tiles) where the larger stack
    buffers keep the plan's SRAM within the budget.

    `schedule` overrides the choice for every bottleneck (for tests and
    measurements): `fused`, `line-buffer`, `line-buffer-paired` or
    `unfused`.

    Before (ram-kb=0, a small block late in the network):

    ```mlir
    %e = vmcu.bottleneck %a : tensor<1x5x5x32xi8> -> tensor<1x5x5x32xi8> {
    ^bb0(%in: tensor<1x5x5x32xi8>):
      %b = vmcu.conv2d %in, %w1, %b1 {...}
      ...
    }
    ```

    After: the body's layers in its place.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB, the arena and the largest kernel's stack "
           "buffers, that the chosen schedules may fill (0: that of the "
           "all-fused plan)">,
    Option<"schedule", "schedule", "std::string", "\"auto\"",
           "auto: the fastest plan within the budget; fused: leave every "
           "bottleneck recomputing; line-buffer: a line buffer for every "
           "bottleneck whose strides allow it; line-buffer-paired: the same "
           "with paired projections; unfused: separate layers for all (the "
           "last three ignore the budget)">,
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the plan runs on: with 2, a line buffer's kernel has stack "
           "buffers of its own for its rows' last pixel, which the SRAM "
           "counts">,
  ];
  let statistics = [
    Statistic<"numUnfused", "num-unfused",
              "Number of bottlenecks run as separate layers">,
    Statistic<"numLineBuffer", "num-line-buffer",
              "Number of fused bottlenecks given a line buffer">,
    Statistic<"numPaired", "num-paired-projection",
              "Number of line-buffered bottlenecks projecting pixel pairs">,
  ];
}

def VMCUTilePass : Pass<"vmcu-tile", "ModuleOp"> {
  let summary = "Two-level tiling of vmcu layers into ring-pool kernels";
  let description = [{
    Rewrites the entry function of a model made of vmcu layer ops into
    segment-tiled kernels over one `vmcu.segment_pool` (paper Section 5.1,
    Figures 4-5). The outer level walks output pixels and output channel
    segments, loads input segments with `vmcu.ring_load`, stores each output
    segment with `vmcu.ring_store` and frees every input segment with
    `vmcu.free` right after its last use, so the offset solver can overlap
    output and input. The inner level works on 4-lane `vmcu.dot` blocks
    (SMLAD) and `vmcu.requantize`. Weights, biases and requantisation tables
    become private constant `memref.global`s packed in the order the kernel
    reads them.

    The entry `func.func @main(%x: tensor<...xi8>, ...) -> (tensor<...xi8>,
    ...)` (a DAG of layers in program order: a tensor may have several
    readers, a layer may read several tensors) becomes `func.func
    @vmcu_invoke() -> i32`; the model inputs and outputs are
    `vmcu.tensor_base` ops marked `vmcu.io = "input"` / `"output"`, with
    `vmcu.io_index` giving the position of all but the first. Each tensor
    is freed by its last reader (an output never); a layer whose output
    nobody reads is an error. The pool is provisional (the sum of all
    tensors) until `vmcu-solve-offsets` places the tensors.

    Segment size per layer: the op's `segment_bytes` if set, else the
    greatest common divisor of the extents it segments (the paper's
    min(C, K) rule where one divides the other; a fully connected layer
    over one row takes the largest divisor of it that divides its 4-channel
    tile, as in `vmcu-select-segment-sizes`). The pool unit is the greatest
    common divisor of all layer segment sizes.
  }];
  let dependentDialects = [
    "::mlir::vmcu::VMCUDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">,
    Option<"windowCache", "window-cache", "unsigned", "0",
           "Stack bytes a fused bottleneck with a stride-1 row may spend on "
           "its R x R window of expanded pixels (R*R*Cmid bytes), slid "
           "along the row so each input pixel is expanded once per output "
           "row instead of once per tap: faster, more stack, same arena. "
           "0 (default) keeps every bottleneck recomputing">,
    Option<"widenWeights", "widen-weights", "bool", "true",
           "Store the weights of GEMM tiles over widened rows (pointwise "
           "convs and expansions with at most 128 input channels, and any "
           "conv whose weights each serve many output pixels) and of "
           "single-row GEMMs (fully connected layers on one vector) as "
           "int16 pairs, so the register tiles unpack no weight, and "
           "depthwise layers' weights as int16 in 4-lane records: faster, "
           "twice those weights' flash. false keeps int8 weights">,
    ListOption<"int8WeightKernels", "int8-weight-kernels", "std::string",
               "Layers (by kernel name; `*`: every layer) that keep int8 "
               "weights although "
               "widen-weights is on: the flash budget's choice (vmcuc and "
               "vmcu-run: --flash-kb, or the default budget, "
               "--cmsis-flash-percent)">,
    ListOption<"compactKernels", "compact-kernels", "std::string",
               "Layers (by kernel name; `*`: every layer) emitted for "
               "less code: GEMM rows "
               "as dot blocks in a rolled chunk loop instead of straight "
               "chunks or one gemm_tile, 2-word requantization entries, "
               "an optsize function and "
               "vmcu-unroll-microkernels' smaller limits (the kernel's "
               "`compact` attribute); the "
               "flash budget's choice when int8 weights alone exceed it "
               "(vmcuc and vmcu-run: --flash-kb, or the default budget, "
               "--cmsis-flash-percent). A softmax over one row is "
               "always compact, and so is a fully connected layer on one "
               "vector where widen-cycles-per-byte says so">,
    Option<"widenCyclesPerByte", "widen-cycles-per-byte", "unsigned", "0",
           "Widen a layer's weights only where the cost model expects each "
           "flash byte widening adds (int8_weight_cycles over "
           "widenedWeightExtraBytes) to save at least this many cycles, "
           "and take a single row's 1 x 6 tiles over paired weights only "
           "where their estimated cycles saved pay the code bytes they add "
           "at that price (GemmTiles::chooseShape), and emit a fully "
           "connected layer on one vector compact where its tiles' "
           "straight-line code (tileBodyCodeBytes) costs more flash than "
           "even doubling its cycles would pay (compactByDefault); 0 widens "
           "every layer widen-weights covers, takes 1 x 6 tiles wherever "
           "they fit and keeps every fully connected layer at full speed">,
    Option<"flashSlowdownPercent", "flash-slowdown-percent", "unsigned", "0",
           "Beyond widen-cycles-per-byte, keep int8 weights in more layers, "
           "fewest int8 cycles per flash byte saved first, while the cycles "
           "int8 weights add (cost model) stay within this percent of the "
           "model's estimated cycles; 0: none beyond the price">,
    Option<"flashWaitStates", "flash-wait-states", "unsigned", "0",
           "Wait states of the target's flash: widening a layer's weights "
           "saves the cycles int8 weights spend unpacking, less the flash "
           "stalls its extra weight bytes add at this setting "
           "(int8_weight_cycles, never below 0)">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the plan runs on: with 2, a stem's line buffer is a "
           "global both cores see; the pixels a line buffer's loops over "
           "pixel blocks leave in a row (a last pixel, a stem's shorter "
           "block) get stack buffers of their own, and so does, where the "
           "stack allowance holds them, the last of an expansion row's odd "
           "number of whole blocks, expanded pixel by pixel, so that the "
           "blocks can be shared out evenly">,
  ];
}

def VMCUSplitKernelsPass : Pass<"vmcu-split-kernels", "ModuleOp"> {
  let summary = "Mark the kernels two cores can share, where the arena "
                "allows";
  let description = [{
    With `cores=2`, marks the kernels two cores can share (docs/two-cores.md):
    - rows (`cores = 2`): core c runs the iterations c, c + 2, ... of the
      first top-level `affine.for` that accesses the ring (a
      `vmcu.ring_view` before it aside, which both cores make; ring
      accesses after it run on core 0) and waits, before iteration i, until the
      other core has finished iteration i - 3; for kernels whose iterations
      carry no state but the ring (every schedule but a stem's or a line
      buffer's) with at least 4 iterations;
    - pixels (`split_depth = 2`): the same over the iterations of the one
      loop inside it that accesses the ring, counted across rows, when
      there are fewer than 16 rows;
    - phases (`split_phases`): a line-buffer bottleneck, its buffer in the
      pool, or a stem, its line buffer a global when tiled for two cores
      (`vmcu-tile` cores=2): in each row, the expansion and then the output pixels are each
      shared out (where a phase's bounds vary, its first loop that
      accesses the ring; the ring accesses after that loop, an odd last
      pixel, run on one core), and both cores meet after each.
    The offset solver and `vmcu-verify-ring` apply a row or pixel split's
    frees two iterations late, as the other core may still be reading
    them. A kernel's footprint that way must stay within
    `max-growth-percent` (default 10) more than the one-core arena (which
    holds every kernel's footprint and the tensors live beside it) and
    within what `ram-kb` leaves beside the largest kernel's stack buffers
    (`stack_bytes`); then, while the placed arena exceeds that limit, the
    split kernel with the largest footprint runs on one core again.
    `cores=1` (default) marks nothing.

    Runs after `vmcu-tile`, before `vmcu-solve-offsets`.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"cores", "cores", "int64_t", "1",
           "Cores one inference runs on: 1 or 2">,
    Option<"maxGrowthPercent", "max-growth-percent", "int64_t", "10",
           "How much larger than the one-core plan's arena a split "
           "kernel's footprint, and the two-core arena, may be, in percent">,
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB (as the pipeline's ram-kb); no split kernel's "
           "footprint exceeds what it leaves beside the largest kernel's "
           "stack buffers (0: no budget)">,
  ];
}

def VMCUSolveOffsetsPass : Pass<"vmcu-solve-offsets", "ModuleOp"> {
  let summary = "Place every tensor in the segment pool with the exact offset solver";
  let description = [{
    For each `vmcu.kernel` (in program order), reads the ring accesses back
    from the IR (affine loop bounds and ring-op addresses), runs the exact
    offset solver (paper Section 4, Equation 1) for the minimum-footprint
    safe distance `b_In - b_Out`, and places the kernel's output that many
    segments before its input (its first ring input, wherever its producer
    left it): no copies between layers. A kernel's further inputs each
    constrain the distance through their own forbidden set, and every other
    live tensor (read later, or a model output) must not be overlapped at
    all. The model inputs start side by side. The pool capacity becomes the
    largest kernel footprint, rounded so that no segment straddles the wrap
    and every model input and output is contiguous; every `vmcu.tensor_base` gets
    its `base`, and each kernel records `distance` and
    `footprint` (in its own segments).

    Before:

    ```mlir
    %pool = vmcu.segment_pool : !vmcu.pool<segments = 20, segment_bytes = 8>
    %x = vmcu.tensor_base %pool {name = "input", segments = 16 : i64} : ...
    ```

    After:

    ```mlir
    %pool = vmcu.segment_pool : !vmcu.pool<segments = 17, segment_bytes = 8>
    %x = vmcu.tensor_base %pool {base = 0 : i64, name = "input", segments = 16 : i64} : ...
    ```

    With `memory-report=FILE` it writes the JSON memory report: the arena
    (`peak_ram_bytes`), what a tensor-level planner needs for the same graph
    (`tensor_level_bytes`), the lower bound, one entry per layer and one
    per tensor (its byte base and size). With `memory-svg=FILE` it draws the
    same placement: one column per layer, the byte address growing down, one
    rectangle per contiguous range of each live tensor (two when it wraps),
    the peak layer outlined.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"maxArenaKb", "max-arena-kb", "int64_t", "0",
           "Fail if the arena exceeds this many KiB (0: no limit)">,
    Option<"memoryReport", "memory-report", "std::string", "\"\"",
           "Write the JSON memory report to this file">,
    Option<"memorySvg", "memory-svg", "std::string", "\"\"",
           "Draw the arena over the layers as SVG into this file">,
  ];
}

def VMCUVerifyRingPass : Pass<"vmcu-verify-ring", "ModuleOp"> {
  let summary = "Prove at compile time that no ring store lands on live data";
  let description = [{
    A second check of the placement that does not trust the offset
    solver: it replays every `vmcu.ring_load`, `ring_store` and `free` of
    the placed model in program order (interpreting the `affine.for` and
    `affine.if` nests, with the `base` of each `vmcu.tensor_base`) and
    tracks an owner per pool unit. A store must land on a dead unit or one
    of its own tensor; a load or a free only on a unit its tensor owns; the
    model input owns its units at the start; a kernel's workspace (a
    line buffer) dies at the kernel's end. An address must lie in
    [0, 2N) for a pool of N units, and a load or store must end inside
    the pool: the lowering subtracts the pool once, then moves the bytes
    contiguously. The first violation is an
    `error:` naming the kernel, the tensor, what the unit holds and the loop
    iteration. Unlike the solver it also sees the workspace accesses, whose
    slots (`y mod R`) are not affine-linear.

    It enumerates every access, so it takes time linear in the model's
    ring traffic. The pipeline runs it right after `vmcu-solve-offsets`
    (`verify-ring=false` skips it).
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Number of kernels verified">,
  ];
}

def VMCUVerifyTwoCoresPass : Pass<"vmcu-verify-two-cores", "ModuleOp"> {
  let summary = "Prove that the two cores' ring accesses are ordered by the "
                "sync ops vmcu-distribute-kernels emitted";
  let description = [{
    Checks the emitted two-core code, not the model it came from. It
    replays `vmcu_run` once per core (interpreting the index arithmetic and
    the `scf.for` and `scf.if` that hold ring or sync ops, with the `base`
    of each `vmcu.tensor_base`), then runs the two streams together as the
    sync ops allow: a `vmcu.sync_wait` goes on once the other core has
    `vmcu.sync_set` its slot to at least the target, and is credited to the
    earliest such set. With a vector clock per core it proves that

    - the cores cannot deadlock;
    - any two accesses of one pool byte by different cores, one of them a
      store or a free, are ordered by a set -> wait edge.

    Then every interleaving the sync ops allow sees each byte's accesses
    in the same order, and it checks `vmcu-verify-ring`'s ownership rules
    on that order: a store lands on a dead unit or one of its own tensor;
    a load or a free only on a unit its tensor owns; a kernel's workspace
    dies when both cores have left the kernel. The first violation is an
    `error:` at the access, naming both cores, the byte, the tensor and
    the kernel, with a note at the other core's access.

    Runs on the module after `vmcu-distribute-kernels` (a module without
    `vmcu_run` is left alone); the pipeline runs it with `cores=2` unless
    `verify-ring=false`. It takes time linear in the ring traffic.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let statistics = [
    Statistic<"numEvents", "num-events",
              "Ring accesses and sync ops replayed, both cores">,
  ];
}

def VMCUCoalesceRingAccessesPass
    : Pass<"vmcu-coalesce-ring-accesses", "func::FuncOp"> {
  let summary = "Merge ring accesses of adjacent segments into one copy";
  let description = [{
    A kernel that moves several adjacent narrow segments (a stem conv's
    im2col row: 3 pixels x 3 one-byte channel segments; its output pixel:
    8 or 16 one-byte segments) pays a ring wrap, an address and a byte
    access for each. After the tap loops are unrolled, this pass finds
    straight-line runs of transfers between the ring and one local 1-D
    buffer, all in one direction, whose segments follow each other in the
    pool and whose buffer bytes follow each other, with only pure ops in
    between: `vmcu.ring_load`s each stored whole into the buffer, or buffer
    loads each `vmcu.ring_store`d whole. Each run becomes one wrap, one
    test whether it stays below the pool's end and one copy there (the
    usual case), else one copy per pool unit from the wrapped address on:
    unrolled for up to four units, else in an `scf.for` that LLVM is told
    not to unroll (only the tiles at the wrap take it, so the loop costs
    little time and saves the code of up to 32 unrolled moves).

    It runs after `vmcu-solve-offsets` and `vmcu-verify-ring`, which read
    one segment per access: the merged copy touches the same segments at
    the run's last op, with no other ring access and no other write of
    the buffer between its first op and there, so the solved placement
    stays safe, and every access it emits keeps the ring ops' contract
    (`vmcu-insert-ring-checks` checks them as any other). Runs stop at
    `max-bytes`.

    Before (unrolled), with `%s1 = %s0 + 1` and `%i1 = %i0 + 1`:
    ```mlir
    %a = vmcu.ring_load %pool[%s0] : !vmcu.pool<segments = 440, segment_bytes = 1> -> vector<1xi8>
    vector.store %a, %buf[%i0] : memref<56xi8>, vector<1xi8>
    %b = vmcu.ring_load %pool[%s1] : !vmcu.pool<segments = 440, segment_bytes = 1> -> vector<1xi8>
    vector.store %b, %buf[%i1] : memref<56xi8>, vector<1xi8>
    ```
    After:
    ```mlir
    scf.if %inside {
      %v = vmcu.ring_load %pool[%s0] : !vmcu.pool<segments = 440, segment_bytes = 1> -> vector<2xi8>
      vector.store %v, %buf[%i0] : memref<56xi8>, vector<2xi8>
    } else {
      // one ring_load and store per unit from the wrapped %s0
    }
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "unsigned", "32",
           "Largest merged copy, in bytes">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def VMCUInsertRingChecksPass : Pass<"vmcu-insert-ring-checks", "ModuleOp"> {
  let summary = "Instrument every ring access for the runtime's ring-safety "
                "checker";
  let description = [{
    Adds calls into `runtime/vmcu_ring_check.c`, which tracks which kernel
    owns each pool segment and stops the program on the first access that
    breaks the ring discipline: `vmcu_ring_check_init` right after the pool
    (the model input is live), `vmcu_ring_check_load` before every
    `ring_load` (the segment must be live), `vmcu_ring_check_store` before
    every `ring_store` (dead, or already the kernel's own),
    `vmcu_ring_check_free` at every `free` (the segment must be live;
    `vmcu_ring_check_free_shared` in a kernel `vmcu-split-kernels` shares
    between two cores, whose own loads may still follow it, as the other
    core may be behind) and `vmcu_ring_check_release` at the end of a
    kernel with a workspace.
    Kernels are named through the private constant
    `@vmcu_ring_check_kernel_names`; a kernel's id is its position in the
    module, so the pass runs before `vmcu-outline-kernels`. The pipeline
    adds it with `ring-check` (`--ring-check` in vmcuc and vmcu-run); the
    program must then be linked with `runtime/vmcu_ring_check.c`.

    Before: `%v = vmcu.ring_load %pool[%a] : ... -> vector<16xi8>`.
    After: `llvm.call @vmcu_ring_check_load(%a32, %c16, %kernel)` and the
    load.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def VMCUDistributeKernelsPass
    : Pass<"vmcu-distribute-kernels", "ModuleOp"> {
  let summary = "Run the model on two cores: vmcu_invoke and vmcu_worker";
  let description = [{
    With `cores=2`, the body of `vmcu_invoke` becomes a private function
    `vmcu_run(core, epoch_base)` that both cores run:
    - a kernel marked `cores = 2` (`vmcu-split-kernels`) runs the split
      iterations c, c + 2, ... on core c (those of its first top-level
      `scf.for` that accesses the ring, or with `split_depth = 2` those of
      the loop inside it, counted across rows); before iteration k >= 3 a
      core waits (`vmcu.sync_wait`) until the other has published
      (`vmcu.sync_set`) that it finished k - 3, and after it publishes k;
      the ring accesses after that loop run on core 0 after a barrier;
    - with `split_phases`, each loop of a row that accesses the ring (or
      the first loop inside it that does when its bounds vary; the ring
      accesses after that loop run on the core that took fewer of its
      iterations) is shared out, and both cores meet after it; a phase
      that hands stack buffers to another op of its row runs on core 0;
    - any other kernel runs on core 0 only;
    - both cores meet at a barrier after each split kernel and before the
      first split kernel after unsplit ones.
    `vmcu_invoke()` (core 0) starts an inference: it resets the ring
    checker when there is one (`vmcu-insert-ring-checks`' setup calls move
    there), advances the epoch the worker waits for, then runs
    `vmcu_run(0, ...)`; `vmcu_worker()`
    (core 1) waits for the next epoch and runs `vmcu_run(1, ...)`. The
    published values grow with the epoch, so no counter is ever reset.
    Runs after `lower-affine` and before `vmcu-outline-kernels`.
    `cores=1` (default) changes nothing.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"cores", "cores", "int64_t", "1",
           "Cores one inference runs on: 1 or 2">,
  ];
}

def VMCUOutlineKernelsPass : Pass<"vmcu-outline-kernels", "ModuleOp"> {
  let summary = "Move each vmcu.kernel into its own private, noinline "
                "function";
  let description = [{
    Replaces every `vmcu.kernel` by a call to a private function
    `vmcu_kernel_<i>_<name>` (the name reduced to `[A-Za-z0-9_]`, so
    profilers and disassembly show which layer a cycle belongs to) that
    holds its body. Constants, the pool and tensor bases are cloned into
    the function; other captured values become arguments. The function is
    `noinline`: each kernel keeps its own frame, so the stack is the
    largest kernel's scratch buffers rather than their sum, and its own
    register allocation; one call per layer is all it costs. A `compact`
    kernel's function is also `optsize`: LLVM then copies segments in
    loops or by memcpy instead of word by word, and picks smaller
    instructions (MCUNet-5fps-VWW's smallest plan: code 120,024 -> 83,880
    B). The model I/O markers stay on the original tensor bases.
    `convert-vmcu-to-llvm` requires it to have run.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def VMCUEraseFreesPass : Pass<"vmcu-erase-frees", "ModuleOp"> {
  let summary = "Erase vmcu.free, and the loops and arithmetic that only "
                "served it";
  let description = [{
    A `vmcu.free` is a fact for `vmcu-solve-offsets`, `vmcu-verify-ring`
    and `vmcu-verify-two-cores`; no instruction carries it out (with
    `--ring-check`, `vmcu-insert-ring-checks` has already put a call to the
    runtime checker beside it, and the call stays). This pass erases every
    free, then every op left trivially dead: the `scf.for` nests that held
    only frees, the bounds they computed, the segment indices, and the
    indices of accesses `vmcu-coalesce-ring-accesses` merged. The model's
    I/O markers stay. LLVM would delete that code too, but only after
    `vmcu-share-kernels` compared the kernels: two layers of one shape
    whose kernels free their input at different points (one writes its
    output over its input as it goes, the other beside it) differed there
    alone and kept two functions. Measured on the corpus ResNets (flash
    -0.6% to -7.4%): `docs/passes/vmcu-share-kernels.md`. Runs after
    `vmcu-outline-kernels`, before the lowering; the verifiers run before
    it.

    Before:

    ```mlir
    scf.for %i = %c0 to %c4 step %c1 {
      %s = arith.addi %base, %i : index
      vmcu.free %pool[%s] {count = 13} : !vmcu.pool<...>
    }
    ```

    After: nothing.
  }];
}

def VMCUVersionBorderLoopsPass
    : Pass<"vmcu-version-border-loops", "func::FuncOp"> {
  let summary = "Give border-clamped loop nests an interior copy with "
                "constant bounds";
  let description = [{
    A window kernel gathers its taps in loops clamped at the image border:
    `affine.for %kh = max(0, 1 - %oh) to min(3, 49 - %oh)`. Away from the
    border every bound takes its constant, but the loop stays rolled, so
    each load of a depthwise kernel's column pays the loop's compare,
    branch and index arithmetic (about a tenth of a 3x3 depthwise kernel's
    cycles on the Cortex-M4 cycle model). Inside each `vmcu.kernel` not
    marked `compact`, this pass finds the outermost loop nests whose every
    loop is bounded by one constant in a `max` (lower) and one in a `min`
    (upper) of values defined outside the nest, and wraps each whose copy
    at those constant bounds runs at most `max-ops` operations (each body
    counted once per unit of its loop's constant span) and holds no vector
    wider than `max-access-bytes` (nests holding ops with regions
    other than `affine.for`, dot or depthwise blocks, or bounds with
    symbols are left as they are) in an `affine.if` over "every
    other lower bound is at most its constant and every other upper bound
    at least its constant": the then-branch holds the copy, which
    `vmcu-unroll-microkernels` then unrolls, the else-branch the nest as it
    was. Both run the same iterations wherever the condition holds, so the
    placement proved by `vmcu-verify-ring` stays valid. Loops a kernel
    split between cores shares out are left as they are.

    Before:
    ```mlir
    affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
                     to min affine_map<(d0) -> (3, -d0 + 49)>(%oh) { ... }
    ```
    After:
    ```mlir
    affine.if affine_set<(d0) : (d0 - 1 >= 0, -d0 + 46 >= 0)>(%oh) {
      affine.for %kh = 0 to 3 { ... }
    } else {
      affine.for %kh = max ... to min ... { ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", "64",
           "Largest interior copy, in operations times each loop's "
           "constant span">,
    Option<"maxAccessBytes", "max-access-bytes", "unsigned", "16",
           "Widest vector value a versioned nest may hold, in bytes (a bound "
           "on what one of its loads or stores moves)">,
  ];
}

def VMCUUnrollMicroKernelsPass
    : Pass<"vmcu-unroll-microkernels", "func::FuncOp"> {
  let summary = "Fully unroll the small innermost loops of tiled kernels";
  let description = [{
    Paper Section 5.1 credits fully unrolling the innermost reduction for
    much of vMCU's latency win. Inside each `vmcu.kernel`, this pass fully
    unrolls every innermost `affine.for` with a constant trip count whose
    unrolled body stays within `max-ops` operations, then repeats on the
    loops that became innermost, `levels` times. For a kernel tiled by
    `vmcu-tile` the first level unrolls the lanes of one input segment, the
    second the channels of one output segment: the accumulators become
    registers and one input word is unpacked once for all channels.
    Loops over segments (the outer tiling level) stay rolled, which bounds
    flash. Before that, a loop that only wraps an innermost loop (output
    channels around the lanes) is unroll-and-jammed by `jam` when its trip
    count is a larger multiple of it, so `jam` channels share each unpacked
    input word even when the whole channel loop is too big to unroll.
    A kernel marked `compact` (a flash budget's choice, or a one-row
    softmax) takes smaller limits instead of these: 96 operations,
    `compact-levels` levels, no jam.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", "384",
           "Largest unrolled loop body, in operations">,
    Option<"levels", "levels", "unsigned", "2",
           "How many loop levels, from the innermost, may be unrolled">,
    Option<"jam", "jam", "unsigned", "4",
           "First unroll-and-jam channel loops around an innermost loop by "
           "this factor (1: off)">,
    Option<"compactLevels", "compact-levels", "unsigned",
           "::mlir::vmcu::kCompactLevelsSmallest",
           "How many loop levels a compact kernel may unroll (a flash "
           "budget's choice: 2 where every kernel compact so still fits "
           "the budget)">,
  ];
}

def VMCUSelectSegmentSizesPass
    : Pass<"vmcu-select-segment-sizes", "ModuleOp"> {
  let summary = "Pick each layer's segment size: the fastest within ram-kb, or level an outlier stack frame";
  let description = [{
    Starts from the paper's rule (the gcd of the extents a layer's segments
    tile: min(C, K) when one divides the other), which is also the fastest
    choice: larger segments mean longer SIMD rows and fewer ring accesses.
    A fully connected layer over one row (its row read in place, its
    segments only grouping its outputs) starts from the largest divisor of
    that gcd that divides its 4-channel register tile.
    The SRAM of a plan is its arena (`vmcu-tile` + `vmcu-solve-offsets` on
    a copy) plus the largest kernel's stack buffers (`kernelScratchBytes`:
    kernels are separate functions, one frame live at a time).

    With `ram-kb` set and the SRAM over it, it first levels the alignment
    as below, then searches alignments: the pool capacity is a multiple of
    every segment size and bases are aligned to them, so the lcm of the
    sizes is what smaller segments buy. For each alignment `A` dividing
    that lcm whose rounding of the largest footprint fits the budget, every
    layer takes its largest candidate size dividing `A` (candidates: the
    starting size above, its divisors that are multiples of the 4 SIMD
    lanes, then its other divisors); the assignments are tiled and placed on a copy from
    the largest alignment down (at most 32, then every layer's smallest
    size), and the first that fits wins, so segments stay as large (fast)
    as the budget allows. If none fits, it fails with an `error:` giving
    the least SRAM found (arena and stack buffers) and the largest layer.
    The sizing is a library (`vmcu/Transforms/SegmentSizer.h`) that
    `vmcu-choose-schedule` also uses to measure its trial plans.

    With `ram-kb=0`, where the pool's rounding to the lcm puts the arena
    above its target, it levels the alignment. The target is the largest
    layer's footprint plus up to 1/8 of it for faster segments, but no
    more than what a tensor-level planner (TFLite Micro) needs during the
    worst kernel (`tensor_level_bytes`), unless the footprint itself is
    more. For the alignments `A` dividing the lcm whose rounding of that
    footprint stays within the 1/8, every layer takes its largest
    candidate dividing `A`, here also the gcd's divisors that are not SIMD
    multiples (a layer of 13 channels can take 1-byte segments), or else
    the one that raises the alignment least. The assignments are tried
    (at most 8 plans) those that round the footprint to the target first,
    each group fastest first by the cost model, whose ring-access term
    prices narrow segments (a 5-channel depthwise in 1-byte segments takes
    4.8x the cycles of 5-byte ones); it stops at the first plan within the
    target, else keeps the plan of least SRAM.

    With `ram-kb=0`, a kernel whose stack buffers stand above every other
    kernel's sets the stack alone (a window kernel's buffers grow with its
    segment: a 3x3 depthwise keeps 9 + 1 segments). It takes smaller
    segments while its buffers exceed the next largest kernel's and that
    lowers the plan's SRAM; only that kernel pays in speed, and only down
    to what the rest of the model needs anyway. Layers whose `segment_bytes` is
    already set are left alone; the chosen sizes are written to
    `segment_bytes` for `vmcu-tile`.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB, arena and stack buffers (0: keep the "
           "default sizes but level an outlier stack frame)">,
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the plan runs on: with 2, a line buffer's kernel has stack "
           "buffers of its own for its rows' last pixel, which the SRAM "
           "counts">,
  ];
  let statistics = [
    Statistic<"numLeveledAlignments", "leveled-alignments",
              "Plans whose segments shrank to a smaller pool alignment">,
    Statistic<"numShrunkFrames", "shrunk-frames",
              "Segment sizes lowered to shrink the largest stack frame">,
  ];
}

def VMCUChooseTraversalPass : Pass<"vmcu-choose-traversal", "ModuleOp"> {
  let summary = "Run a recomputing bottleneck's output pixels backwards where that lowers its footprint";
  let description = [{
    A recomputing `vmcu.bottleneck` kernel visits its output pixels in
    row-major order by default, and the offset solver places its output
    below its input in the ring. Visited in reverse (`reverse_order`: the
    last pixel first, inputs freed after their reader of lowest index), the
    output grows down from above the input instead. The two orders free the
    input at different rates, so one may overlap more: where the padding is
    uneven (TensorFlow's SAME padding of a stride-2 layer sits at the
    bottom and right), and at the edges of larger windows (Table 2's B5, a
    5x5 window at stride 1: 8 bytes).

    The pass tiles and places two copies of the model, one as it is and
    one with every recomputing block (no `line_buffer`) reversed, and keeps `reverse_order` on each block whose kernel's
    footprint the reversal lowers. A block's footprint depends on its own
    order only, so the two trials decide every block at once; a model
    without recomputing blocks costs none. Run after
    `vmcu-select-segment-sizes` (the trials use the final segments) and
    before `vmcu-tile`.

    Before (paper Table 2's B1, 176x176x3 -> 8, stride-2 expansion):
    `vmcu.bottleneck %a : ...` with an arena of 93,814 B; after:
    `vmcu.bottleneck %a {reverse_order} : ...` with 93,281 B.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
    Option<"order", "order", "std::string", "\"auto\"",
           "auto (default: per block, the order with the smaller "
           "footprint), reverse (every recomputing block) or row-major "
           "(none), for tests and measurements">,
  ];
  let statistics = [
    Statistic<"numReversed", "reversed",
              "Bottlenecks whose output pixels run in reverse order">,
  ];
}

def VMCUPairLongRowsPass : Pass<"vmcu-pair-long-rows", "ModuleOp"> {
  let summary = "Let convs with GEMM rows of 257 to 1024 bytes run them in "
                "widened pairs where the stack fits";
  let description = [{
    A conv2d's GEMM rows (its im2col windows, or a pointwise conv's input
    channels) of up to 256 bytes run in blocks of two output pixels: each
    weight word serves both. Longer rows run one raw row at a time, which
    unpacks every weight word for one pixel only (1 x 4 int8 tiles: 24
    cycles per 16 MACs). With `paired_rows` they pair too, widened to int16
    (2 x 2 tiles over int8 weights, 19 cycles per 16 MACs, or 2 x 3 over
    widened ones), for 6 bytes of stack per row byte instead of 1.

    The pass sets `paired_rows` on such convs (bottlenecks' inner convs
    keep single rows), those saving the most estimated cycles first, each
    while the plan's SRAM (the arena plus the largest kernel's stack
    buffers) stays within the budget: `ram-kb` KiB, or with `ram-kb=0` the
    plan's SRAM and 1/8 more, if the convs paired save at least 2% of the
    model's estimated cycles together. One trial plan then checks the SRAM;
    if it is over, no conv pairs. Run after `vmcu-select-segment-sizes` (the
    stack buffers depend on the segments) and before `vmcu-tile`.

    Before (3x3 84 -> 84 conv, 756-byte windows):
    `%y = vmcu.conv2d %x, %w, %b {...}` with 1-row tiles; after:
    `%y = vmcu.conv2d %x, %w, %b {paired_rows, ...}`.
  }];
  let dependentDialects = ["::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"ramKb", "ram-kb", "int64_t", "0",
           "SRAM budget in KiB, the arena and the largest kernel's stack "
           "buffers, that paired rows may fill (0: the plan's and 1/8 "
           "more, where they save at least 2% of the model's cycles)">,
    Option<"entry", "entry", "std::string", "\"main\"",
           "The model function">,
    Option<"cores", "cores", "int64_t", "1",
           "Cores the plan runs on: with 2, a line buffer's kernel has stack "
           "buffers of its own for its rows' last pixel, which the SRAM "
           "counts">,
  ];
  let statistics = [
    Statistic<"numPaired", "num-paired-rows",
              "Convs whose long GEMM rows run in widened pairs">,
  ];
}

#endif // VMCU_TRANSFORMS_PASSES_TD
