//===- VMCUAttributes.td - vmcu attributes -----------------*- tablegen -*-===//
//
// The requantisation attribute shared by every vmcu layer op, and the
// quantisation of the model's edges.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_TD
#define VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_TD

include "mlir/IR/AttrTypeBase.td"
include "vmcu/Dialect/VMCU/IR/VMCUDialect.td"

class VMCU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<VMCU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def VMCU_RequantAttr : VMCU_Attr<"Requant", "requant"> {
  let summary = "Exact tosa.rescale of an int32 accumulator, then a clamp";
  let description = [{
    Describes `tosa.rescale` followed by `tosa.clamp`, folded into the
    layer that produces the accumulator. For output channel `k`:

    ```
    v   = acc[k] - input_zp
    r   = apply_scale_32(v, multiplier[k], shift[k], double_round)
    out = clamp(r + output_zp, min, max)
    ```

    `apply_scale_32` is the TOSA 1.0 definition: a 64-bit product, a
    rounding term of `1 << (shift - 1)`, adjusted by `+/- 1 << 30` when
    `double_round` is set and `shift > 31`, then an arithmetic shift right.
    `multiplier` and `shift` hold one entry (per-tensor) or one per output
    channel. `min`/`max` bound the result; they are the int8 range unless a
    clamp was folded, and the int32 range for the input rescales of
    `vmcu.add`.

    Example:

    ```mlir
    #vmcu.requant<input_zp = 0, output_zp = -128,
                  multiplier = [1073741824], shift = [35],
                  double_round = true, min = -128, max = 127>
    ```
  }];
  let parameters = (ins
    "int32_t":$input_zp,
    "int32_t":$output_zp,
    ArrayRefParameter<"int32_t">:$multiplier,
    ArrayRefParameter<"int32_t">:$shift,
    "bool":$double_round,
    "int32_t":$min,
    "int32_t":$max);
  let assemblyFormat = [{
    `<` `input_zp` `=` $input_zp `,` `output_zp` `=` $output_zp `,`
    `multiplier` `=` `[` $multiplier `]` `,` `shift` `=` `[` $shift `]` `,`
    `double_round` `=` $double_round `,` `min` `=` $min `,` `max` `=` $max `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of channels the parameters cover (1 for per-tensor).
    size_t getNumChannels() const { return getMultiplier().size(); }
    bool isPerChannel() const { return getNumChannels() > 1; }
  }];
}

def VMCU_ResidualAddAttr : VMCU_Attr<"ResidualAdd", "residual_add"> {
  let summary = "A residual ADD folded into the layer that computes one operand";
  let description = [{
    The arithmetic of a `vmcu.add` whose one operand is the layer's own
    int8 result and the other its `residual` operand: `out =
    requant(conv(y) + skip(residual))`, `conv` and `skip` rescaling each
    int8 operand to int32 (their `input_zp` subtracted first, per-tensor),
    `requant` bringing the sum back to int8 per channel (TFLite's int8 ADD).

    Example:

    ```mlir
    #vmcu.residual_add<conv = #vmcu.requant<...>, skip = #vmcu.requant<...>,
                       requant = #vmcu.requant<...>>
    ```
  }];
  let parameters = (ins "RequantAttr":$conv, "RequantAttr":$skip,
                        "RequantAttr":$requant);
  let assemblyFormat = "`<` struct(params) `>`";
}

def VMCU_GlobalAvgPoolAttr : VMCU_Attr<"GlobalAvgPool", "global_avg_pool"> {
  let summary = "A global average pool folded into the conv whose output it averages";
  let description = [{
    The arithmetic of a `vmcu.avg_pool2d` whose window is the conv's whole
    output plane (no padding): per channel, the sum of the conv's int8
    values over the plane's `count` pixels, then TOSA's average
    (`input_zp` subtracted from each value, `reciprocal_scale(count)`,
    `output_zp` added) or, with `round_half_away`, TFLite's (the raw sum
    divided by `count`, ties away from zero; the zero points are then
    equal), clamped to `[min, max]`.

    With `requant` it is a MEAN over the plane instead (TFLite's MEAN,
    which the importer writes as a depthwise conv of ones over the plane):
    the sum minus `count * input_zp`, requantized by `requant` (1 / count
    folded into its multipliers); `output_zp`, `min` and `max` are then
    `requant`'s and `round_half_away` is false.

    Example:

    ```mlir
    #vmcu.global_avg_pool<input_zp = -128, output_zp = -128, min = -128,
                          max = 127, round_half_away = true>
    ```
  }];
  let parameters = (ins "int32_t":$input_zp, "int32_t":$output_zp,
                        "int32_t":$min, "int32_t":$max,
                        "bool":$round_half_away,
                        OptionalParameter<"RequantAttr">:$requant);
  let assemblyFormat = "`<` struct(params) `>`";
}

def VMCU_WindowAvgPoolAttr : VMCU_Attr<"WindowAvgPool", "window_avg_pool"> {
  let summary = "A windowed average pool folded into the conv whose output "
                "it averages";
  let description = [{
    The arithmetic of a `vmcu.avg_pool2d` over non-overlapping
    `kernel_h` x `kernel_w` windows of the conv's output (stride equal to
    the window, no padding): per output pixel and channel, the sum of the
    conv's int8 values over the window's `kernel_h * kernel_w` pixels,
    then TOSA's average (`input_zp` subtracted from each value,
    `reciprocal_scale(count)`, `output_zp` added) or, with
    `round_half_away`, TFLite's (the raw sum divided by the count, ties
    away from zero; the zero points are then equal), clamped to
    `[min, max]`. The conv's rows and columns that no window covers are
    not computed.

    Example:

    ```mlir
    #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = -128,
                          output_zp = -128, min = -128, max = 127,
                          round_half_away = true>
    ```
  }];
  let parameters = (ins "int64_t":$kernel_h, "int64_t":$kernel_w,
      "int32_t":$input_zp, "int32_t":$output_zp, "int32_t":$min, "int32_t":$max,
      "bool":$round_half_away);
  let assemblyFormat = "`<` struct(params) `>`";
}

def VMCU_EdgeAttr : VMCU_Attr<"Edge", "edge"> {
  let summary = "Quantisation of the model's input or output";
  let description = [{
    The model's input or output edge as the source model declares it:
    `real = scale * (q - zero_point)` for its int8 values. With `is_float`
    the source model's edge is float32, converted by a QUANTIZE (input) or
    DEQUANTIZE (output) that vmcu leaves to the caller: the compiled body
    takes and gives int8, and the header `vmcuc --header` writes converts
    as TFLite Micro's kernels do.

    Example:

    ```mlir
    module attributes {vmcu.input_edge = #vmcu.edge<scale = 3.906250e-03 : f32,
                                                   zero_point = -128,
                                                   is_float = true>} {}
    ```
  }];
  let parameters = (ins "::mlir::FloatAttr":$scale, "int32_t":$zero_point,
                        "bool":$is_float);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_TD
