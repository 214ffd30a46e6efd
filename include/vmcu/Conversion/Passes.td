//===- Passes.td - vmcu conversion passes ------------------*- tablegen -*-===//
//
// Passes that convert into and out of the vmcu dialect, and the steps
// around the lowering to LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_CONVERSION_PASSES_TD
#define VMCU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// TosaToVMCU
//===----------------------------------------------------------------------===//

def ConvertTosaToVMCUPass : Pass<"convert-tosa-to-vmcu", "func::FuncOp"> {
  let summary = "Convert an int8 TOSA 1.0 network to vmcu layer ops";
  let description = [{
    The entry of the vmcu pipeline. Each int8 TOSA layer becomes one vmcu
    layer op with its quantisation folded in (batch 1, static shapes):

    - `tosa.conv2d` -> `tosa.rescale` [-> `tosa.clamp`] becomes
      `vmcu.conv2d`; `tosa.depthwise_conv2d` likewise becomes
      `vmcu.depthwise_conv2d`. The weight layouts already match; a
      one-element bias is broadcast to every output channel. A depth
      multiplier M > 1 first repeats each input channel M times with a 1x1
      `vmcu.conv2d` (weights 0/1, identity requantisation: exact), so the
      depthwise sees multiplier 1 over C * M channels. A dilation d > 1
      becomes a dense kernel of (k - 1) * d + 1 taps per dimension, zero
      between the dilated ones (exact; it costs their MACs). A weight zero
      point (conv, depthwise, matmul) folds into the weights where every
      `w - zp` stays int8, else it is an error. A batched,
      unpadded 1x1 `tosa.conv2d` (TFLite FULLY_CONNECTED) becomes
      `vmcu.fully_connected` between row-major reshapes.
    - `tosa.matmul` with a constant B [-> `tosa.add` of a constant bias]
      -> rescale [-> clamp] becomes `vmcu.fully_connected`; B is transposed
      at compile time to the `[N, K]` weight layout.
    - The int8 add form, `tosa.rescale` (i8 -> i32) of both operands,
      `tosa.add`, `tosa.rescale` (i32 -> i8) [-> clamp], becomes `vmcu.add`.
    - `tosa.avg_pool2d` [-> clamp] becomes `vmcu.avg_pool2d`.
    - `tosa.reshape` becomes `tensor.collapse_shape`/`tensor.expand_shape`
      (`tensor.reshape` when neither fits): a relabelling of row-major
      bytes that later passes treat as free.
    - `tosa.const` becomes `arith.constant`.

    The accumulator rescale becomes the layer's `#vmcu.requant` (DOUBLE_ROUND
    sets `double_round`; a 16-bit multiplier `m`, shift `s` becomes the exact
    32-bit `m << 16`, `s + 16`) and folded clamps narrow its `min`/`max`.
    `tosa.pad` (with the input zero point) and `tosa.slice` feeding a window
    layer fold into its padding when the result is exactly the same.
    Zero-point constants disappear. Anything else (float types, unsupported
    ops or attributes, dilation, batch, dynamic shapes, non-constant
    weights, a non-zero weight zero point, unsigned or INEXACT_ROUND
    rescales, a rescale or clamp no layer folds) is an error at that op;
    nothing is converted then.

    Before:

    ```mlir
    %acc = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i32,
             pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>,
             dilation = array<i64: 1, 1>} : (...) -> tensor<1x8x8x16xi32>
    %r = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true,
           rounding_mode = DOUBLE_ROUND, per_channel = false,
           input_unsigned = false, output_unsigned = false}
         : (...) -> tensor<1x8x8x16xi8>
    %y = tosa.clamp %r {min_val = -128 : i8, max_val = 0 : i8}
         : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    ```

    After:

    ```mlir
    %y = vmcu.conv2d %x, %w, %b {input_zp = -128 : i32,
           pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>,
           requant = #vmcu.requant<input_zp = 0, output_zp = -128,
             multiplier = [1073741824], shift = [35], double_round = true,
             min = -128, max = 0>}
         : (tensor<1x8x8x8xi8>, tensor<16x3x3x8xi8>, tensor<16xi32>)
         -> tensor<1x8x8x16xi8>
    ```
  }];
  let dependentDialects = [
    "::mlir::vmcu::VMCUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let statistics = [
    Statistic<"numLayers", "num-layers", "Number of vmcu layer ops produced">,
  ];
}

//===----------------------------------------------------------------------===//
// VMCUToLLVM: the lowering of placed kernels to LLVM, in pipeline order
//===----------------------------------------------------------------------===//

def VMCULowerVectorSlicesPass
    : Pass<"vmcu-lower-vector-slices", "ModuleOp"> {
  let summary = "Lower strided vector slices, broadcasts and shape casts "
                "for the LLVM conversion";
  let description = [{
    Rewrites `vector.extract_strided_slice` and
    `vector.insert_strided_slice` (the tiler's 4-lane slices of a
    segment) into `vector.shuffle`, and `vector.broadcast` and
    `vector.shape_cast` into the element inserts and extracts that
    `convert-vmcu-to-llvm` takes. The upstream strided-slice, broadcast and
    shape-cast lowering patterns run greedily on the vector ops only: a
    module-wide greedy rewrite would also erase the unused tensor bases
    that declare the model I/O (`vmcu.io`). Runs after
    `vmcu-outline-kernels`.

    Before:

    ```mlir
    %s = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
    ```

    After:

    ```mlir
    %s = vector.shuffle %v, %v [4, 5, 6, 7] : vector<16xi8>, vector<16xi8>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def VMCUCreateIOTablesPass : Pass<"vmcu-create-io-tables", "ModuleOp"> {
  let summary = "Emit the model's input and output tables as LLVM globals";
  let description = [{
    Emits the tables of the model API (`runtime/vmcu_model_api.h`) for a
    placed module (every `vmcu.tensor_base` has its `base`): the exported
    `i32` constants `@vmcu_input_count` and `@vmcu_output_count`, and the
    `i32` arrays `@vmcu_input_offsets`, `@vmcu_input_sizes`,
    `@vmcu_output_offsets` and `@vmcu_output_sizes`, one entry per tensor
    marked `vmcu.io = "input"` (`"output"`) in `vmcu.io_index` order: its
    byte offset in the arena and its byte count. A module without both an
    input and an output gets no tables.

    It reads the `vmcu.io` markers of the tensor bases, which
    `convert-vmcu-to-llvm` folds away, so it runs before that pass. Model
    I/O positions must run from 0 without gaps or repeats and stay below
    256; the table names must be free. Either is an error.

    Before:

    ```mlir
    %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "input"} : !vmcu.pool<segments = 8, segment_bytes = 16>
    %y = vmcu.tensor_base %pool {name = "y", segments = 2, base = 4, vmcu.io = "output"} : !vmcu.pool<segments = 8, segment_bytes = 16>
    ```

    After (and the same for the outputs):

    ```mlir
    llvm.mlir.global external constant @vmcu_input_count(1 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
    llvm.mlir.global external constant @vmcu_input_offsets(dense<0> : tensor<1xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<1 x i32>
    llvm.mlir.global external constant @vmcu_input_sizes(dense<64> : tensor<1xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<1 x i32>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertVMCUToLLVMPass : Pass<"convert-vmcu-to-llvm", "ModuleOp"> {
  let summary = "Lower tiled, placed, outlined vmcu kernels to LLVM";
  let description = [{
    Lowers the output of `vmcu-tile` + `vmcu-solve-offsets` (every
    `vmcu.tensor_base` carries its `base`) to the LLVM dialect, once affine
    is lowered (`lower-affine`), the kernels are outlined
    (`vmcu-outline-kernels`), strided vector slices are shuffles
    (`vmcu-lower-vector-slices`) and scf is cf (`convert-scf-to-cf`, after
    the outlining: cf cannot live in a kernel's single-block body).
    Everything in the module is converted in one full conversion: the vmcu
    ops below plus the upstream arith, math, cf, func, vector, memref, index
    and ub patterns. `index` becomes `i32`. Anything the patterns cannot
    take is rejected with an error naming the missing pass: tosa, affine and
    scf ops, untiled layer ops, a `vmcu.kernel`, a strided vector slice, a
    tensor base without `base`; so are a second segment pool, malformed
    model I/O positions and a module already defining a symbol the lowering
    emits.

    - `vmcu.segment_pool` becomes one zero-initialised byte array
      `@vmcu_arena` in section `.vmcu_arena`, aligned to `alignment`, plus
      the exported `i32` constant `@vmcu_arena_bytes`.
    - `vmcu.tensor_base` folds to its `base` (missing: an error). With the
      discardable attribute `vmcu.io = "input"` (or `"output"`) it also
      emits `int8_t *vmcu_input(void)` (`vmcu_output`) returning
      `&arena[base * segment_bytes]` and the `i32` constant
      `@vmcu_input_bytes` (`@vmcu_output_bytes`).
    - `vmcu.free` is erased.
    - `vmcu.ring_load`/`vmcu.ring_store` become an `llvm.load`/`llvm.store`
      at `arena + (segment mod N) * S + offset`; the wrap is an `and` for a
      power-of-two `N`, else one compare and select (segments lie in
      `[0, 2N)`).
    - `vmcu.dot` becomes `llvm.arm.sxtb16` (x2 per operand, the second on
      the operand rotated by 8; `llvm.arm.sxtab16` for `x` with a non-zero
      `x_offset`, which adds it in the same instruction) and two
      `llvm.arm.smlad`; `vmcu.mac_lanes` the same splits and
      `llvm.arm.smlabb`/`smlatt` per lane.
    - `vmcu.dot_block`, `vmcu.requant_block`, `vmcu.gemm_tile` and
      `vmcu.depthwise_block` become one `llvm.inline_asm` each: a fixed sequence (LDR at
      immediate offsets, SXTB16, PKHBT/PKHTB, SMLAD, SMMLAR, SSAT, STRB)
      whose registers LLVM allocates once, with early-clobber scratch
      registers and the flags clobbered where the block compares.
    - `vmcu.requantize` becomes TOSA `apply_scale_32` in `i64`, the output
      zero point and a clamp (`llvm.arm.ssat` for the int8 range).

    An `scf.for` annotated `llvm.loop_annotation` (vmcu-tile's rolled GEMM
    loops) arrives with the annotation as a discardable attribute on its
    back edge, where `convert-scf-to-cf` copies it; the pass makes it the
    `llvm.br`/`llvm.cond_br`'s own `loop_annotation`, which the translation
    emits as `!llvm.loop`. It must follow the conversion: `cf.br` has no
    such attribute.

    The output may hold `builtin.unrealized_conversion_cast`s between
    converted values: `reconcile-unrealized-casts` folds them.
    `vmcu-create-io-tables` (before) emits the model's I/O tables and
    `vmcu-set-target` (after) the triple, data layout and target
    attributes.

    Before:

    ```mlir
    %pool = vmcu.segment_pool {alignment = 8} : !vmcu.pool<segments = 64, segment_bytes = 16>
    %x = vmcu.tensor_base %pool {name = "x", segments = 8, base = 3} : !vmcu.pool<segments = 64, segment_bytes = 16>
    %a = arith.addi %x, %i : index
    %v = vmcu.ring_load %pool[%a] : !vmcu.pool<segments = 64, segment_bytes = 16> -> vector<16xi8>
    ```

    After:

    ```mlir
    llvm.mlir.global external @vmcu_arena() {alignment = 8 : i64, section = ".vmcu_arena"} : !llvm.array<1024 x i8> {
      %0 = llvm.mlir.zero : !llvm.array<1024 x i8>
      llvm.return %0 : !llvm.array<1024 x i8>
    }
    %pool = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.mlir.constant(3 : i32) : i32
    %a = llvm.add %x, %i : i32
    %w = llvm.and %a, %c63 : i32
    %o = llvm.mul %w, %c16 : i32
    %p = llvm.getelementptr inbounds %pool[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v = llvm.load %p {alignment = 8 : i64} : !llvm.ptr -> vector<16xi8>
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def VMCUAssignSectionsPass : Pass<"vmcu-assign-sections", "ModuleOp"> {
  let summary = "Put the arena and the model's constant tables in named "
                "linker sections";
  let description = [{
    A part's linker script maps sections to memories: the arena to a
    tightly coupled RAM, the weights to external flash. This pass gives the
    arena global (`vmcu_arena`) the section `arena-section` and, if
    `weights-section` is set, every private or internal constant global
    (weights, biases, requantization and rescale tables) that section. The
    exported C API tables (`vmcu_input_offsets`, ...) stay where the
    compiler puts constants. Runs after `convert-vmcu-to-llvm`.
    `runtime/boards/examples/named-sections.ld` places both on the MPS2
    boards.

    Before:

    ```mlir
    llvm.mlir.global external @vmcu_arena() {alignment = 8 : i64, section = ".vmcu_arena"} : !llvm.array<96 x i8>
    llvm.mlir.global private constant @conv_weights(dense<...> : tensor<64xi8>) : !llvm.array<64 x i8>
    ```

    After (`arena-section=.dtcm_arena weights-section=.qspi_weights`):

    ```mlir
    llvm.mlir.global external @vmcu_arena() {alignment = 8 : i64, section = ".dtcm_arena"} : !llvm.array<96 x i8>
    llvm.mlir.global private constant @conv_weights(dense<...> : tensor<64xi8>) {section = ".qspi_weights"} : !llvm.array<64 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"arenaSection", "arena-section", "std::string",
           /*default=*/"::mlir::vmcu::model_abi::kArenaSection.str()",
           "Linker section of the arena">,
    Option<"weightsSection", "weights-section", "std::string",
           /*default=*/"\"\"",
           "Linker section of the model's constant tables (empty: the "
           "compiler's default, .rodata)">,
  ];
}

def VMCUPrefixSymbolsPass : Pass<"vmcu-prefix-symbols", "ModuleOp"> {
  let summary = "Rename the model's C API symbols to another prefix";
  let description = [{
    Two models linked into one firmware would both define `vmcu_invoke`,
    `vmcu_arena` and the rest of the C API (runtime/vmcu_model_api.h).
    This pass renames every symbol of that API the module defines
    (`model_abi::kExportedSymbols`: `llvm.func` bodies and
    `llvm.mlir.global`s) from `vmcu_...` to `<prefix>_...`, and every
    reference to it. Its private symbols and the runtime's functions the
    model calls (declarations, such as the ring checker's) keep their
    names. `prefix` must be a C identifier; `vmcu` (the default) changes
    nothing. Runs after `convert-vmcu-to-llvm`.

    Before:

    ```mlir
    llvm.mlir.global external @vmcu_arena() : !llvm.array<96 x i8>
    llvm.func @vmcu_invoke() -> i32
    ```

    After (`prefix=kws`):

    ```mlir
    llvm.mlir.global external @kws_arena() : !llvm.array<96 x i8>
    llvm.func @kws_invoke() -> i32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"prefix", "prefix", "std::string",
           /*default=*/"::mlir::vmcu::model_abi::kSymbolPrefix.str()",
           "Prefix of the model's exported symbols">,
  ];
}

def VMCUSetTargetPass : Pass<"vmcu-set-target", "ModuleOp"> {
  let summary = "Set the Cortex-M target of a module lowered to LLVM";
  let description = [{
    Gives the module `llvm.target_triple` (`thumbv7em-none-eabi` for the
    Cortex-M4 and M7, `thumbv8m.main-none-eabi` for the M33) and the AAPCS
    `llvm.data_layout` shared by every core, and every `llvm.func` the
    core's `target_cpu` and `target_features` (`+dsp`; the FPU the CPU name
    brings is unused, so objects stay soft-float). The table of cores is
    `lookupCortexMTarget` (`VMCUToLLVM.h`), which vmcuc's target machine
    reads too. Runs after `convert-vmcu-to-llvm`. An unknown `cpu` is an
    error.

    Before:

    ```mlir
    module {
      llvm.func @vmcu_invoke() -> i32 { ... }
    }
    ```

    After (`cpu=cortex-m7`):

    ```mlir
    module attributes {llvm.data_layout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64", llvm.target_triple = "thumbv7em-none-eabi"} {
      llvm.func @vmcu_invoke() -> i32 attributes {target_cpu = "cortex-m7", target_features = #llvm.target_features<["+dsp"]>} { ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"cortex-m4\"",
           "Target core: cortex-m4, cortex-m7 or cortex-m33">,
  ];
}

def VMCUTailCallKernelsPass : Pass<"vmcu-tail-call-kernels", "ModuleOp"> {
  let summary = "Make the call that ends a function a guaranteed tail call";
  let description = [{
    Marks `musttail` each direct `llvm.call` that an `llvm.return` follows,
    where caller and callee take no parameters (no pointer into the
    caller's frame can reach the callee) and share the call's calling
    convention. LLVM then branches to the callee after the caller's
    epilogue, so the caller's frame is not under the callee's. Where the
    return passes on constants instead of the call's results (the last
    kernel, then vmcu_invoke's status 0), a callee that returns nothing, is
    internal and is called only there returns those constants itself; the
    call then returns them. So vmcu_invoke's 8-byte frame is not under the
    last kernel's (the stack shrinks where that kernel is the deepest).
    `musttail` rather than leaving it to LLVM: its interprocedural constant
    propagation folds a callee's constant result back into the caller, and
    the call is in tail position no more. Runs after `vmcu-share-kernels`,
    whose shared functions take arguments and are called more than once.

    Before:

    ```mlir
    llvm.func internal @vmcu_kernel_1_fc() {
      ...
      llvm.return
    }
    llvm.func @vmcu_invoke() -> i32 {
      llvm.call @vmcu_kernel_0_conv() : () -> ()
      llvm.call @vmcu_kernel_1_fc() : () -> ()
      %0 = llvm.mlir.constant(0 : i32) : i32
      llvm.return %0 : i32
    }
    ```

    After:

    ```mlir
    llvm.func internal @vmcu_kernel_1_fc() -> i32 {
      ...
      %0 = llvm.mlir.constant(0 : i32) : i32
      llvm.return %0 : i32
    }
    llvm.func @vmcu_invoke() -> i32 {
      llvm.call @vmcu_kernel_0_conv() : () -> ()
      %0 = llvm.call musttail @vmcu_kernel_1_fc() : () -> i32
      llvm.return %0 : i32
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def VMCUShareKernelsPass : Pass<"vmcu-share-kernels", "ModuleOp"> {
  let summary = "One function for kernels that differ only in table "
                "addresses and constants";
  let description = [{
    Layers of one shape (the repeated blocks of a MobileNet or a DS-CNN)
    get kernel functions whose code differs only in the tables they read
    (`llvm.mlir.addressof`) and in a few integer constants (their tensors'
    base segments). This pass compares the internal `llvm.func`s that are
    only called directly, op by op, and keeps the first of each group of
    equal ones, with the values in which the group's functions differ as
    trailing arguments; every call passes its own function's values, and
    the other functions are erased. So the code is in flash once.

    A constant becomes an argument only where nothing it reaches through
    arithmetic needs it as a constant (a stack buffer's size, an
    inline-assembly operand other than one it takes in a register ("r", or
    tied to a register output), an intrinsic operand such as ssat's width);
    elsewhere a difference keeps the functions apart, and so does any other
    difference in ops, types, attributes (the functions' own too) or block
    structure, but for a `llvm.getelementptr` whose indices are all zero:
    it is its base address whatever type it steps over, so tables of
    different sizes do not keep two functions apart.
    Only functions whose every use is the callee of a call without operand
    bundles are compared; a redirected call keeps its properties.
    Values that are equal in each function of the group (a base segment
    read by two constant ops) share one argument. A group takes at most
    `max-arguments` arguments: AAPCS passes four in registers and the rest
    on the stack, 4 bytes each per call. The kept function records the
    names of those it replaced in `vmcu.shared_kernels`, for the flash
    budget, which prices such layers together. Runs after
    `convert-vmcu-to-llvm`.

    Before:

    ```mlir
    llvm.func internal @k0() {
      %t = llvm.mlir.addressof @w0 : !llvm.ptr
      %b = llvm.mlir.constant(64 : index) : i32
      ...
    }
    llvm.func internal @k1() {
      %t = llvm.mlir.addressof @w1 : !llvm.ptr
      %b = llvm.mlir.constant(448 : index) : i32
      ...
    }
    llvm.call @k0() : () -> ()
    llvm.call @k1() : () -> ()
    ```

    After:

    ```mlir
    llvm.func internal @k0(%t: !llvm.ptr, %b: i32) { ... }
    llvm.call @k0(%w0, %c64) : (!llvm.ptr, i32) -> ()
    llvm.call @k0(%w1, %c448) : (!llvm.ptr, i32) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::vmcu::VMCUDialect"];
  let options = [
    Option<"maxArguments", "max-arguments", "unsigned", /*default=*/"16",
           "Most arguments a shared function may take (its own and the "
           "differing values)">,
  ];
  let statistics = [
    Statistic<"numMerged", "num-merged",
              "Functions replaced by a call of an equal one">,
  ];
}

#endif // VMCU_CONVERSION_PASSES_TD
