//===- Passes.td - vmcu conversion passes ------------------*- tablegen -*-===//
//
// Passes that convert into and out of the vmcu dialect.
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
// VMCUToLLVM
//===----------------------------------------------------------------------===//

def ConvertVMCUToLLVMPass : Pass<"convert-vmcu-to-llvm", "ModuleOp"> {
  let summary = "Lower tiled, placed vmcu kernels to LLVM for Cortex-M4/M7";
  let description = [{
    Lowers the output of `vmcu-tile` + `vmcu-solve-offsets` (every
    `vmcu.tensor_base` carries its `base`) to the LLVM dialect, ready for
    `translateModuleToLLVMIR`. Everything in the module is converted in
    one full conversion: the vmcu ops below plus the upstream arith, cf,
    func, vector, memref, index and ub patterns. First the kernels are
    inlined and any `affine` or `scf` left in the input is lowered with the
    `lower-affine` and `convert-scf-to-cf` patterns (cf cannot live in a
    kernel's single-block body, so the pipeline has no separate
    `convert-scf-to-cf` before this pass), and 1-D strided vector slices
    become shuffles: the pass takes the tiler's output directly. `index`
    becomes `i32`. Tosa ops, untiled layer ops and tensor bases without a
    `base` are rejected with an error naming the missing pass.

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

    Finally the module gets `llvm.target_triple = "thumbv7em-none-eabi"`
    and the ARM data layout, and every `llvm.func` gets `target_cpu` and
    `target_features`.

    The ring-safety instrumentation (`vmcu-insert-ring-checks`) and the
    outlining of kernels into functions (`vmcu-outline-kernels`) are passes
    of their own that run before this one; a `vmcu.kernel` left in the
    module is an error naming `vmcu-outline-kernels`.

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
    "::mlir::cf::ControlFlowDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"cortex-m4\"",
           "Target core: cortex-m4, cortex-m7 or cortex-m33 (sets the "
           "module's triple, and target_cpu and "
           "target_features on every function)">,
  ];
}

#endif // VMCU_CONVERSION_PASSES_TD
