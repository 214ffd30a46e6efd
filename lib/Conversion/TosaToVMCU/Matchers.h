//===- Matchers.h - TOSA layer chains TosaToVMCU folds ----------*- C++ -*-===//
//
// Internal to TosaToVMCU. A vmcu layer op is one TOSA layer plus the ops
// folded into it: the input pads/slices, the rescale of the accumulator
// and any clamps. The matchers here find and check those chains; the
// convertibility check (which reports errors) and the patterns (which only
// fail to match) share them, so both always agree on what is supported.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_CONVERSION_TOSATOVMCU_MATCHERS_H
#define VMCU_LIB_CONVERSION_TOSATOVMCU_MATCHERS_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Support/TargetConstants.h"

#include <string>

namespace mlir {
namespace vmcu::tosa_to_vmcu {

inline constexpr int64_t kInt32Min = INT32_MIN;
inline constexpr int64_t kInt32Max = INT32_MAX;

/// The first reason a match failed and the op it is about.
class MatchDiag {
public:
  LogicalResult fail(Operation *op, const Twine &reason) {
    if (!op_) {
      op_ = op;
      reason_ = reason.str();
    }
    return failure();
  }
  bool failed() const { return op_ != nullptr; }
  Operation *getOp() const { return op_; }
  StringRef getReason() const { return reason_; }
  /// Reports the failure as an error at the op it is about.
  void emit() const { op_->emitOpError(reason_); }

private:
  Operation *op_ = nullptr;
  std::string reason_;
};

/// Ops a layer absorbs. Matchers append them as soon as they are found,
/// before checking them, so a failed layer still covers its chain and the
/// check reports only the layer's own error.
using Absorbed = SmallVectorImpl<Operation *>;

//===----------------------------------------------------------------------===//
// Rescale and clamp
//===----------------------------------------------------------------------===//

/// A `tosa.rescale` in the 32-bit form of `#vmcu.requant`.
struct RescaleParams {
  int32_t inputZp = 0;
  int32_t outputZp = 0;
  SmallVector<int32_t> multiplier;
  SmallVector<int32_t> shift;
  bool doubleRound = false;
};

/// Reads a signed rescale with constant parameters. A 16-bit multiplier
/// (`scale32 = false`) becomes `multiplier << 16`, `shift + 16`, which is
/// exact; INEXACT_ROUND and unsigned rescales fail.
FailureOr<RescaleParams> readRescale(tosa::RescaleOp op, MatchDiag &diag);

RequantAttr makeRequant(MLIRContext *ctx, const RescaleParams &params,
                        int64_t min, int64_t max);

/// The int8 clamps folded after a layer's output.
struct FoldedClamps {
  int64_t min = kInt8Min;
  int64_t max = kInt8Max;
  /// The folded clamps, in program order.
  SmallVector<Operation *, 2> ops;
};

/// Folds the chain of single-use `tosa.clamp`s following `value`,
/// intersecting their ranges with the int8 range.
FailureOr<FoldedClamps> foldClamps(Value value, Absorbed &absorbed,
                                   MatchDiag &diag);

/// The requantisation of a layer: the single `tosa.rescale` (i32 -> i8) of
/// `acc`, then clamps.
struct OutputRequant {
  RequantAttr requant;
  /// The rescale and the folded clamps, in program order.
  SmallVector<Operation *, 4> ops;
};

/// Matches `acc` -> rescale (input_zp 0, 1 or `channels` multipliers) ->
/// clamps. `layer` is blamed when the accumulator has other users.
FailureOr<OutputRequant> matchOutputRequant(Operation *layer, Value acc,
                                            int64_t channels,
                                            Absorbed &absorbed,
                                            MatchDiag &diag);

//===----------------------------------------------------------------------===//
// Input padding and slices
//===----------------------------------------------------------------------===//

/// A window layer's input after folding the pads and slices feeding it.
struct InputWindow {
  /// The value the vmcu layer reads.
  Value input;
  /// [top, bottom, left, right].
  SmallVector<int64_t, 4> pad;
};

/// Folds the `tosa.pad`/`tosa.slice` chain producing `input` into the
/// padding of a window layer with `kernel`, `stride` and `pad` (TOSA
/// order). A pad must pad only H and W, with `inputZp`; a slice may only
/// cut H and W. The fold must be exact: positions that change from padding
/// to data must never be read, and the new padding must be non-negative.
/// `isAvgPool`: avg_pool2d's divisor excludes its own padding but counts a
/// `tosa.pad`'s elements, so for it folded pad elements must be unread too.
FailureOr<InputWindow> foldInputWindow(Operation *layer, Value input,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> stride,
                                       ArrayRef<int64_t> pad, int64_t inputZp,
                                       bool isAvgPool, Absorbed &absorbed,
                                       MatchDiag &diag);

/// True for a pad or slice whose every user is the input of a window layer
/// (conv2d, depthwise_conv2d, avg_pool2d) or another such pad/slice: it is
/// folded into those layers and erased once they are converted.
bool isFoldedWindowProducer(Operation *op);

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

/// The elements of a constant `value`, looking through TOSA and tensor
/// reshapes; null if it is not constant.
ElementsAttr getConstantElements(Value value);

/// `attr` relabelled to `type` (same element count and element type).
ElementsAttr reshapeElements(ElementsAttr attr, ShapedType type);

/// The integer elements of `attr`, or failure if they cannot be read.
FailureOr<SmallVector<APInt>> getIntValues(ElementsAttr attr);

/// `weights - zp` (in [-255, 255]) as `copies` int8 parts along the
/// innermost (input channel) dimension: [..., C] -> [..., copies * C], part
/// j the difference left after parts 0..j-1, clamped to int8. A layer over
/// its input repeated `copies` times along the channels ([x, x, ...]) with
/// these weights sums exactly (x - xzp) * (weights - zp): TFLite's
/// arithmetic where a difference leaves int8. Two parts hold [-256, 254];
/// only 127 - (-128) needs three. Fails if the constant cannot be read.
struct SplitWeights {
  ElementsAttr weights;
  int64_t copies;
};
FailureOr<SplitWeights> splitWeightZeroPoint(Operation *op,
                                             ElementsAttr weights, int64_t zp,
                                             MatchDiag &diag);

/// True if every `weights - zp` is an int8 (foldWeightZeroPoint succeeds).
bool weightZeroPointFolds(ElementsAttr weights, int64_t zp);

/// The int8 weights `weights - zp`, which multiply as `weights` with zero
/// point `zp` do; fails (with the reason in `diag`) when a difference leaves
/// int8 or the constant cannot be read.
FailureOr<ElementsAttr> foldWeightZeroPoint(Operation *op, ElementsAttr weights,
                                            int64_t zp, MatchDiag &diag);

/// True if `type` is a ranked tensor of static shape.
bool hasStaticShape(Type type);

/// True if `type`'s element type is a signless integer of `width` bits.
bool hasIntElements(Type type, unsigned width);

/// Prints `type` for a diagnostic.
std::string typeToString(Type type);

//===----------------------------------------------------------------------===//
// Layer matchers (one per root op) and the per-family pattern lists
//===----------------------------------------------------------------------===//

/// Checks a layer root (conv2d, depthwise_conv2d, avg_pool2d, matmul, the
/// int8 add form, reshape). Returns failure with `diag` set if it cannot be
/// converted; `absorbed` receives the ops folded into it.
LogicalResult checkWindowLayer(Operation *op, Absorbed &absorbed,
                               MatchDiag &diag);
LogicalResult checkMatMul(tosa::MatMulOp op, Absorbed &absorbed,
                          MatchDiag &diag);
/// The int8 add form around a tosa.add or tosa.sub.
LogicalResult checkInt8Add(Operation *op, Absorbed &absorbed, MatchDiag &diag);
/// A tosa.table vmcu converts: int8, static shape, constant table.
LogicalResult checkTable(tosa::TableOp op, MatchDiag &diag);
/// Fails unless `type` is an int8 tensor of static shape (what the data
/// movement layers copy).
LogicalResult checkInt8Static(Operation *op, Type type, MatchDiag &diag);
LogicalResult checkConcat(tosa::ConcatOp op, MatchDiag &diag);
LogicalResult checkTranspose(tosa::TransposeOp op, MatchDiag &diag);
/// An int8 NHWC tosa.resize in NEAREST_NEIGHBOR mode with constant
/// scale, offset and border; `rows` and `cols` get its index maps.
LogicalResult checkResize(tosa::ResizeOp op, SmallVectorImpl<int64_t> &rows,
                          SmallVectorImpl<int64_t> &cols, MatchDiag &diag);
/// A tosa.slice no window layer folds, with its constant `start`.
LogicalResult checkSlice(tosa::SliceOp op, SmallVector<int64_t> &start,
                         MatchDiag &diag);
LogicalResult checkReshape(tosa::ReshapeOp op, MatchDiag &diag);

/// True for the `tosa.add` or `tosa.sub` of the int8 add form: both
/// operands are int8 -> int32 rescales.
bool isInt8AddForm(Operation *op);

/// The int8 multiply form around a tosa.mul.
LogicalResult checkInt8Mul(tosa::MulOp op, Absorbed &absorbed, MatchDiag &diag);
/// True for the `tosa.mul` of the int8 multiply form: both operands are
/// int8 -> int32 rescales.
bool isInt8MulForm(Operation *op);

/// True for an int8 -> int32 rescale whose every user is an int8 add or
/// multiply form.
bool isAddInputRescale(tosa::RescaleOp op);

void populateWindowPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);
void populateLinearPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);
void populateElementwisePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Rewriting helpers
//===----------------------------------------------------------------------===//

/// Creates an `arith.constant` holding `attr`.
Value createConstant(OpBuilder &builder, Location loc, ElementsAttr attr);

/// Collapses or expands `value` to `type` (row-major relabelling), with
/// `tensor.reshape` when neither applies. Returns `value` if types match.
Value createReshape(OpBuilder &builder, Location loc, Value value,
                    RankedTensorType type);

/// `value` repeated `copies` times along its innermost dimension (a
/// vmcu.concat), or `value` itself for one copy: the input of a layer
/// whose weights splitWeightZeroPoint split.
Value repeatInnermost(OpBuilder &builder, Location loc, Value value,
                      int64_t copies);

/// Runs the layer matcher `match` on `op` for a pattern, which needs only
/// the plan (not the absorbed ops): a failure's reason is the match failure.
template <typename OpTy, typename Plan>
FailureOr<Plan> matchForRewrite(RewriterBase &rewriter, OpTy op,
                                FailureOr<Plan> (*match)(OpTy, Absorbed &,
                                                         MatchDiag &)) {
  MatchDiag diag;
  SmallVector<Operation *> absorbed;
  FailureOr<Plan> plan = match(op, absorbed, diag);
  if (failed(plan))
    (void)rewriter.notifyMatchFailure(op, diag.getReason());
  return plan;
}

/// Replaces `layer` and the ops folded after it (`folded`, in program
/// order, each using the previous one) with `replacement`: the last op's
/// uses take it and the others are erased.
void replaceLayer(ConversionPatternRewriter &rewriter, Operation *layer,
                  ArrayRef<Operation *> folded, Value replacement);

} // namespace vmcu::tosa_to_vmcu
} // namespace mlir

#endif // VMCU_LIB_CONVERSION_TOSATOVMCU_MATCHERS_H
