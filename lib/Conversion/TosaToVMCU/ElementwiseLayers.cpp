//===- ElementwiseLayers.cpp - TOSA int8 add, reshape, const to vmcu ------===//
//
// The int8 add form (rescale, rescale, tosa.add, rescale [, clamp]) to
// vmcu.add; tosa.reshape to tensor reshapes; tosa.const to arith.constant.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tosa_to_vmcu;

/// The int8 -> int32 rescale producing `value`, if any.
static tosa::RescaleOp getInputRescale(Value value) {
  auto rescale = value.getDefiningOp<tosa::RescaleOp>();
  if (!rescale || !hasIntElements(rescale.getInput().getType(), 8) ||
      !hasIntElements(rescale.getOutput().getType(), 32))
    return {};
  return rescale;
}

bool tosa_to_vmcu::isInt8AddForm(Operation *op) {
  if (!isa<tosa::AddOp, tosa::SubOp>(op) || op->getNumOperands() != 2)
    return false;
  return hasIntElements(op->getResult(0).getType(), 32) &&
         getInputRescale(op->getOperand(0)) &&
         getInputRescale(op->getOperand(1));
}

bool tosa_to_vmcu::isInt8MulForm(Operation *op) {
  auto mul = dyn_cast<tosa::MulOp>(op);
  return mul && hasIntElements(mul.getOutput().getType(), 32) &&
         getInputRescale(mul.getInput1()) &&
         getInputRescale(mul.getInput2());
}

bool tosa_to_vmcu::isAddInputRescale(tosa::RescaleOp op) {
  if (!getInputRescale(op.getOutput()) || op->use_empty())
    return false;
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    return isInt8AddForm(user) || isInt8MulForm(user);
  });
}

/// The int8 operands `lhs` and `rhs` of the element-wise `op` broadcast to
/// its result as vmcu.add and vmcu.mul take them: equal ranks, each
/// dimension the result's or 1, at most one of them a constant.
static LogicalResult checkBroadcast(Operation *op, Value lhs, Value rhs,
                                    MatchDiag &diag) {
  auto out = cast<ShapedType>(op->getResult(0).getType());
  auto fits = [&](Value v) {
    auto type = cast<ShapedType>(v.getType());
    if (type.getRank() != out.getRank())
      return false;
    for (int64_t d = 0; d < out.getRank(); ++d)
      if (type.getDimSize(d) != out.getDimSize(d) && type.getDimSize(d) != 1)
        return false;
    return true;
  };
  if (out.getRank() < 1 || !fits(lhs) || !fits(rhs))
    return diag.fail(op, "operands " + typeToString(lhs.getType()) + " and " +
                             typeToString(rhs.getType()) +
                             " do not broadcast to the result " +
                             typeToString(out));
  if (matchPattern(lhs, m_Constant()) && matchPattern(rhs, m_Constant()))
    return diag.fail(op, "has two constant operands");
  return success();
}

namespace {

/// Everything needed to build a vmcu.add (Operand: each operand's rescale
/// to int32) or a vmcu.mul (Operand: each operand's zero point).
template <typename Operand> struct BinaryPlan {
  tosa::RescaleOp lhs, rhs;
  Operand lhsOperand{}, rhsOperand{};
  OutputRequant requant;
};
using AddPlan = BinaryPlan<RequantAttr>;
using MulPlan = BinaryPlan<int32_t>;

} // namespace

/// Reads an input rescale of the int8 add form (per-tensor, output_zp 0).
static FailureOr<RequantAttr> readInputRescale(tosa::RescaleOp rescale,
                                               MatchDiag &diag) {
  FailureOr<RescaleParams> params = readRescale(rescale, diag);
  if (failed(params))
    return failure();
  if (params->outputZp != 0)
    return diag.fail(rescale, "output_zp of a rescale to int32 must be 0, "
                              "got " +
                                  Twine(params->outputZp));
  if (params->multiplier.size() != 1)
    return diag.fail(rescale, "input rescale of an int8 add must be "
                              "per-tensor");
  return makeRequant(rescale.getContext(), *params, kInt32Min, kInt32Max);
}

/// The int8 add or mul form around `op` once its own checks passed: the
/// rescales of operands 0 and 1 (absorbed), each read by `readOperand`,
/// with static shapes that broadcast, and the output requantization, per
/// channel of the innermost dimension.
template <typename Operand>
static FailureOr<BinaryPlan<Operand>>
matchBinary(Operation *op, Absorbed &absorbed, MatchDiag &diag,
            FailureOr<Operand> (*readOperand)(tosa::RescaleOp, MatchDiag &)) {
  BinaryPlan<Operand> plan;
  plan.lhs = getInputRescale(op->getOperand(0));
  plan.rhs = getInputRescale(op->getOperand(1));
  absorbed.push_back(plan.lhs);
  if (plan.rhs != plan.lhs)
    absorbed.push_back(plan.rhs);
  Value output = op->getResult(0);
  if (!hasStaticShape(output.getType()) ||
      !hasStaticShape(plan.lhs.getInput().getType()) ||
      !hasStaticShape(plan.rhs.getInput().getType()))
    return diag.fail(op, "requires static shapes");
  if (failed(checkBroadcast(op, plan.lhs.getInput(), plan.rhs.getInput(),
                            diag)))
    return failure();
  FailureOr<Operand> lhs = readOperand(plan.lhs, diag);
  if (failed(lhs))
    return failure();
  FailureOr<Operand> rhs = readOperand(plan.rhs, diag);
  if (failed(rhs))
    return failure();
  plan.lhsOperand = *lhs;
  plan.rhsOperand = *rhs;

  auto shaped = cast<ShapedType>(output.getType());
  int64_t channels =
      shaped.getRank() ? shaped.getDimSize(shaped.getRank() - 1) : 1;
  FailureOr<OutputRequant> requant =
      matchOutputRequant(op, output, channels, absorbed, diag);
  if (failed(requant))
    return failure();
  plan.requant = std::move(*requant);
  return plan;
}

/// The int8 add form around `op`, a tosa.add or tosa.sub.
static FailureOr<AddPlan> matchInt8Add(Operation *op, Absorbed &absorbed,
                                       MatchDiag &diag) {
  Value output = op->getResult(0);
  Type type = output.getType();
  StringRef what = isa<tosa::SubOp>(op) ? "sub" : "add";
  if (isa<FloatType>(getElementTypeOrSelf(type)))
    return diag.fail(op, "floating-point " + what + " is not supported, got " +
                             typeToString(type));
  if (!isInt8AddForm(op))
    return diag.fail(op, "expected the int8 add form: both operands "
                         "tosa.rescale from int8 to int32 (or the bias add "
                         "of a tosa.matmul)");
  return matchBinary<RequantAttr>(op, absorbed, diag, readInputRescale);
}

LogicalResult tosa_to_vmcu::checkInt8Add(Operation *op, Absorbed &absorbed,
                                         MatchDiag &diag) {
  return matchInt8Add(op, absorbed, diag);
}

/// The zero point of an identity int8 -> int32 rescale (2^30 * 2^-30,
/// output_zp 0): the operand form of the int8 multiply.
static FailureOr<int32_t> readIdentityRescale(tosa::RescaleOp rescale,
                                              MatchDiag &diag) {
  FailureOr<RescaleParams> params = readRescale(rescale, diag);
  if (failed(params))
    return failure();
  constexpr int32_t kOneShift = 30;
  if (params->outputZp != 0 || params->multiplier.size() != 1 ||
      params->multiplier[0] != (1 << kOneShift) ||
      params->shift[0] != kOneShift)
    return diag.fail(rescale, "an operand of the int8 mul form must be "
                              "rescaled by exactly 1 (multiplier 2^30, shift "
                              "30, output_zp 0)");
  return params->inputZp;
}

/// The int8 multiply form: two identity rescales from int8, tosa.mul with
/// shift 0, the output rescale [and clamps].
static FailureOr<MulPlan> matchInt8Mul(tosa::MulOp op, Absorbed &absorbed,
                                       MatchDiag &diag) {
  if (!isInt8MulForm(op))
    return diag.fail(op, "expected the int8 mul form: both operands "
                         "tosa.rescale from int8 to int32");
  DenseIntElementsAttr shift;
  if (!matchPattern(op.getShift(), m_Constant(&shift)) ||
      llvm::any_of(shift.getValues<APInt>(),
                   [](const APInt &v) { return !v.isZero(); }))
    return diag.fail(op, "the int8 mul form needs a constant shift of 0");
  return matchBinary<int32_t>(op, absorbed, diag, readIdentityRescale);
}

LogicalResult tosa_to_vmcu::checkInt8Mul(tosa::MulOp op, Absorbed &absorbed,
                                         MatchDiag &diag) {
  return matchInt8Mul(op, absorbed, diag);
}

LogicalResult tosa_to_vmcu::checkReshape(tosa::ReshapeOp op, MatchDiag &diag) {
  Type input = op.getInput1().getType(), output = op.getOutput().getType();
  if (!isa<IntegerType>(getElementTypeOrSelf(output)))
    return diag.fail(op, "only integer tensors are supported, got " +
                             typeToString(output));
  if (!hasStaticShape(input) || !hasStaticShape(output))
    return diag.fail(op, "requires static shapes, got " + typeToString(input) +
                             " -> " + typeToString(output));
  return success();
}

LogicalResult tosa_to_vmcu::checkTable(tosa::TableOp op, MatchDiag &diag) {
  Type input = op.getInput1().getType(), output = op.getOutput().getType();
  if (!hasIntElements(input, 8) || !hasIntElements(output, 8))
    return diag.fail(op, "only the int8 table is supported, got " +
                             typeToString(input) + " -> " +
                             typeToString(output));
  if (!hasStaticShape(input))
    return diag.fail(op, "requires a static shape, got " + typeToString(input));
  if (!getConstantElements(op.getTable()))
    return diag.fail(op, "the table must be a constant");
  return success();
}

LogicalResult tosa_to_vmcu::checkTranspose(tosa::TransposeOp op,
                                           MatchDiag &diag) {
  return checkInt8Static(op, op.getInput1().getType(), diag);
}

/// The input index tosa.resize reads for each of `outSize` outputs along
/// one axis in NEAREST_NEIGHBOR mode (the TOSA 1.0 arithmetic upstream
/// MLIR lowers it to): p = o * d + offset, i = floor(p / n), rounded up
/// where the remainder r has 2r >= n, clamped to the input.
static SmallVector<int64_t> resizeNearestMap(int64_t inSize, int64_t outSize,
                                             int64_t scaleN, int64_t scaleD,
                                             int64_t offset) {
  SmallVector<int64_t> map;
  for (int64_t o = 0; o < outSize; ++o) {
    int64_t position = o * scaleD + offset;
    int64_t index = llvm::divideFloorSigned(position, scaleN);
    int64_t remainder = position - index * scaleN;
    if (2 * remainder >= scaleN)
      ++index;
    map.push_back(inSize == 1 ? 0 : std::clamp<int64_t>(index, 0, inSize - 1));
  }
  return map;
}

LogicalResult tosa_to_vmcu::checkResize(tosa::ResizeOp op,
                                        SmallVectorImpl<int64_t> &rows,
                                        SmallVectorImpl<int64_t> &cols,
                                        MatchDiag &diag) {
  if (op.getMode() != tosa::ResizeMode::NEAREST_NEIGHBOR)
    return diag.fail(op, "only NEAREST_NEIGHBOR resize is supported (a "
                         "bilinear int8 resize widens to int32)");
  if (failed(checkInt8Static(op, op.getInput().getType(), diag)) ||
      failed(checkInt8Static(op, op.getOutput().getType(), diag)))
    return failure();
  auto in = cast<ShapedType>(op.getInput().getType());
  auto out = cast<ShapedType>(op.getOutput().getType());
  if (in.getRank() != 4)
    return diag.fail(op, "input must be NHWC");
  SmallVector<int64_t> scale, offset, border;
  if (!tosa::getConstShapeValues(op.getScale().getDefiningOp(), scale) ||
      !tosa::getConstShapeValues(op.getOffset().getDefiningOp(), offset) ||
      !tosa::getConstShapeValues(op.getBorder().getDefiningOp(), border) ||
      scale.size() != 4 || offset.size() != 2)
    return diag.fail(op, "needs constant scale, offset and border");
  if (scale[0] <= 0 || scale[1] <= 0 || scale[2] <= 0 || scale[3] <= 0)
    return diag.fail(op, "scale must be positive");
  rows.assign(resizeNearestMap(in.getDimSize(1), out.getDimSize(1), scale[0],
                               scale[1], offset[0]));
  cols.assign(resizeNearestMap(in.getDimSize(2), out.getDimSize(2), scale[2],
                               scale[3], offset[1]));
  return success();
}

LogicalResult tosa_to_vmcu::checkConcat(tosa::ConcatOp op, MatchDiag &diag) {
  for (Value input : op.getInput1())
    if (failed(checkInt8Static(op, input.getType(), diag)))
      return failure();
  return success();
}

/// The vmcu op `VmcuOp` replacing `op`: at its location, of its result
/// type, over `args`, without segment_bytes.
template <typename VmcuOp, typename... Args>
static Value createReplacement(OpBuilder &b, Operation *op, Args &&...args) {
  return VmcuOp::create(b, op->getLoc(), op->getResult(0).getType(),
                        std::forward<Args>(args)..., IntegerAttr());
}

/// A tosa.slice no window layer folds (int8) is vmcu.slice with unit
/// strides.
static FailureOr<Value> lowerChecked(tosa::SliceOp op,
                                     tosa::SliceOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  SmallVector<int64_t> start;
  if (failed(checkSlice(op, start, diag)))
    return failure();
  SmallVector<int64_t> stride(start.size(), 1);
  return createReplacement<SliceOp>(b, op, adaptor.getInput1(),
                                    b.getDenseI64ArrayAttr(start),
                                    b.getDenseI64ArrayAttr(stride));
}

/// tosa.resize (int8, NEAREST_NEIGHBOR) is vmcu.resize_nearest with the
/// index maps TOSA's arithmetic gives.
static FailureOr<Value> lowerChecked(tosa::ResizeOp op,
                                     tosa::ResizeOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  SmallVector<int64_t> rows, cols;
  if (failed(checkResize(op, rows, cols, diag)))
    return failure();
  return createReplacement<ResizeNearestOp>(b, op, adaptor.getInput(),
                                            b.getDenseI64ArrayAttr(rows),
                                            b.getDenseI64ArrayAttr(cols));
}

/// tosa.transpose (int8) is vmcu.transpose.
static FailureOr<Value> lowerChecked(tosa::TransposeOp op,
                                     tosa::TransposeOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  if (failed(checkTranspose(op, diag)))
    return failure();
  return createReplacement<TransposeOp>(b, op, adaptor.getInput1(),
                                        op.getPermsAttr());
}

/// tosa.concat (int8) is vmcu.concat.
static FailureOr<Value> lowerChecked(tosa::ConcatOp op,
                                     tosa::ConcatOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  if (failed(checkConcat(op, diag)))
    return failure();
  return createReplacement<ConcatOp>(b, op, adaptor.getInput1(), op.getAxis());
}

/// tosa.table (int8) is vmcu.table.
static FailureOr<Value> lowerChecked(tosa::TableOp op,
                                     tosa::TableOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  if (failed(checkTable(op, diag)))
    return failure();
  return createReplacement<TableOp>(b, op, adaptor.getInput1(),
                                    adaptor.getTable());
}

/// tosa.reshape relabels row-major bytes: a tensor collapse/expand (or
/// tensor.reshape) that later passes treat as free.
static FailureOr<Value> lowerChecked(tosa::ReshapeOp op,
                                     tosa::ReshapeOp::Adaptor adaptor,
                                     OpBuilder &b, MatchDiag &diag) {
  if (failed(checkReshape(op, diag)))
    return failure();
  return createReshape(b, op.getLoc(), adaptor.getInput1(),
                       cast<RankedTensorType>(op.getType()));
}

namespace {

/// A TOSA op that its check accepts becomes the one value lowerChecked
/// builds; otherwise the check's reason is the match failure.
template <typename TosaOp>
struct CheckedLowering : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  using OpAdaptor = typename TosaOp::Adaptor;

  LogicalResult
  matchAndRewrite(TosaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MatchDiag diag;
    FailureOr<Value> result = lowerChecked(op, adaptor, rewriter, diag);
    if (failed(result))
      return rewriter.notifyMatchFailure(op, diag.getReason());
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// The int8 add form around a tosa.add (or, as `subtract`, a tosa.sub) is
/// a vmcu.add.
template <typename TosaOp>
struct Int8AddLowering : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  using OpAdaptor = typename TosaOp::Adaptor;

  LogicalResult
  matchAndRewrite(TosaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<AddPlan> plan =
        matchForRewrite(rewriter, op.getOperation(), matchInt8Add);
    if (failed(plan))
      return failure();
    Operation *last = plan->requant.ops.back();
    bool subtract = std::is_same_v<TosaOp, tosa::SubOp>;
    Value result = AddOp::create(
        rewriter, op.getLoc(), last->getResult(0).getType(),
        rewriter.getRemappedValue(plan->lhs.getInput()),
        rewriter.getRemappedValue(plan->rhs.getInput()), plan->lhsOperand,
        plan->rhsOperand, plan->requant.requant, IntegerAttr(),
        subtract ? rewriter.getUnitAttr() : UnitAttr());
    replaceLayer(rewriter, op, plan->requant.ops, result);
    return success();
  }
};

/// The int8 multiply form is a vmcu.mul.
struct Int8MulLowering : OpConversionPattern<tosa::MulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tosa::MulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<MulPlan> plan = matchForRewrite(rewriter, op, matchInt8Mul);
    if (failed(plan))
      return failure();
    Operation *last = plan->requant.ops.back();
    Value result =
        MulOp::create(rewriter, op.getLoc(), last->getResult(0).getType(),
                      rewriter.getRemappedValue(plan->lhs.getInput()),
                      rewriter.getRemappedValue(plan->rhs.getInput()),
                      // The operands' zero points.
                      rewriter.getI32IntegerAttr(plan->lhsOperand),
                      rewriter.getI32IntegerAttr(plan->rhsOperand),
                      plan->requant.requant, IntegerAttr());
    replaceLayer(rewriter, op, plan->requant.ops, result);
    return success();
  }
};

struct ConstLowering : OpConversionPattern<tosa::ConstOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tosa::ConstOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto values = dyn_cast<TypedAttr>(op.getValues());
    if (!values || values.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "values do not match the type");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, values);
    return success();
  }
};

} // namespace

void tosa_to_vmcu::populateElementwisePatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns
      .add<Int8AddLowering<tosa::AddOp>, Int8AddLowering<tosa::SubOp>,
           Int8MulLowering, ConstLowering, CheckedLowering<tosa::ReshapeOp>,
           CheckedLowering<tosa::TableOp>, CheckedLowering<tosa::ConcatOp>,
           CheckedLowering<tosa::SliceOp>, CheckedLowering<tosa::TransposeOp>,
           CheckedLowering<tosa::ResizeOp>>(converter, patterns.getContext());
}
