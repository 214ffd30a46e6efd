//===- LinearLayers.cpp - TOSA matmul to vmcu.fully_connected -------------===//
//
// tosa.matmul with a constant B, an optional constant bias tosa.add, the
// rescale and clamps, to vmcu.fully_connected between row-major reshapes;
// tosa.matmul over two activations (TFLite's BATCH_MATMUL), the rescale and
// clamps, to vmcu.batch_matmul.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tosa_to_vmcu;

namespace {

/// Everything needed to build the vmcu.fully_connected of a tosa.matmul.
struct MatMulPlan {
  /// The weight as [N, K] (or [N, copies * K]) and the bias as [N].
  ElementsAttr weight;
  /// Copies of the rows the layer runs over: more than 1 where the weight
  /// zero point does not fold into int8 weights (splitWeightZeroPoint).
  int64_t inputCopies = 1;
  ElementsAttr bias;
  int64_t inputZp = 0;
  /// The folded bias tosa.add, if any.
  Operation *biasAdd = nullptr;
  OutputRequant requant;
};

} // namespace

/// Transposes the constant B ([1, K, N]) to vmcu's [N, K] weight layout.
static FailureOr<ElementsAttr> transposeWeight(ElementsAttr b, int64_t k,
                                               int64_t n) {
  FailureOr<SmallVector<APInt>> values = getIntValues(b);
  if (failed(values))
    return failure();
  SmallVector<APInt> transposed;
  transposed.reserve(values->size());
  for (int64_t row = 0; row < n; ++row)
    for (int64_t col = 0; col < k; ++col)
      transposed.push_back((*values)[col * n + row]);
  auto type = RankedTensorType::get({n, k}, b.getElementType());
  return cast<ElementsAttr>(DenseElementsAttr::get(type, transposed));
}

/// Matches the optional bias `tosa.add(acc, const)` after a matmul.
static LogicalResult matchBias(tosa::AddOp add, Value acc, int64_t n,
                               MatMulPlan &plan, MatchDiag &diag) {
  Value other = add.getInput1() == acc ? add.getInput2() : add.getInput1();
  if (add.getOutput().getType() != acc.getType())
    return diag.fail(add, "bias add must keep the matmul's type " +
                              typeToString(acc.getType()) + ", got " +
                              typeToString(add.getOutput().getType()));
  ElementsAttr bias = getConstantElements(other);
  if (!bias)
    return diag.fail(add, "bias of a tosa.matmul must be a constant");
  auto biasType = cast<ShapedType>(bias.getType());
  if (biasType.getRank() != 3 || biasType.getDimSize(0) != 1 ||
      biasType.getDimSize(1) != 1 ||
      (biasType.getDimSize(2) != 1 && biasType.getDimSize(2) != n))
    return diag.fail(add, "bias of a tosa.matmul must be [1, 1, " + Twine(n) +
                              "] or [1, 1, 1], got " + typeToString(biasType));
  auto flat = RankedTensorType::get({n}, bias.getElementType());
  if (biasType.getDimSize(2) == n) {
    plan.bias = reshapeElements(bias, flat);
  } else {
    FailureOr<SmallVector<APInt>> values = getIntValues(bias);
    if (succeeded(values))
      plan.bias = DenseElementsAttr::get(flat, (*values)[0]);
  }
  if (!plan.bias)
    return diag.fail(add, "cannot read the bias constant");
  plan.biasAdd = add;
  return success();
}

/// Checks what both kinds of tosa.matmul need: int8 operands, an int32
/// result, static shapes and constant zero points.
static LogicalResult matchMatMulTypes(tosa::MatMulOp op, MatchDiag &diag) {
  Type aType = op.getA().getType(), bType = op.getB().getType();
  Type outputType = op.getOutput().getType();
  if (!hasIntElements(aType, 8) || !hasIntElements(bType, 8) ||
      !hasIntElements(outputType, 32))
    return diag.fail(op, "expected int8 operands with an int32 result, got " +
                             typeToString(aType) + ", " + typeToString(bType) +
                             " -> " + typeToString(outputType));
  if (!hasStaticShape(aType) || !hasStaticShape(bType) ||
      !hasStaticShape(outputType))
    return diag.fail(op, "requires static shapes");
  if (failed(op.getAZeroPoint()) || failed(op.getBZeroPoint()))
    return diag.fail(op, "zero points must be constants");
  return success();
}

/// A matmul whose B is an activation (BATCH_MATMUL) rather than a weight.
static bool isActivationMatMul(tosa::MatMulOp op) {
  return !getConstantElements(op.getB());
}

static FailureOr<MatMulPlan> matchMatMul(tosa::MatMulOp op, Absorbed &absorbed,
                                         MatchDiag &diag) {
  if (failed(matchMatMulTypes(op, diag)))
    return failure();
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  if (a.getDimSize(0) != 1)
    return diag.fail(op, "with a constant B (a weight), batch must be 1, got " +
                             Twine(a.getDimSize(0)));
  int64_t k = b.getDimSize(1), n = b.getDimSize(2);

  MatMulPlan plan;
  ElementsAttr weight = getConstantElements(op.getB());
  int64_t aZp = *op.getAZeroPoint(), bZp = *op.getBZeroPoint();
  plan.inputZp = aZp;
  // [K, N] -> vmcu's [N, K], then the zero point folded or, where a
  // difference leaves int8, split over copies of the rows.
  FailureOr<ElementsAttr> transposed = transposeWeight(weight, k, n);
  if (failed(transposed))
    return diag.fail(op, "cannot read the weight constant");
  if (weightZeroPointFolds(*transposed, bZp)) {
    FailureOr<ElementsAttr> folded =
        foldWeightZeroPoint(op, *transposed, bZp, diag);
    if (failed(folded))
      return failure();
    plan.weight = *folded;
  } else {
    FailureOr<SplitWeights> split =
        splitWeightZeroPoint(op, *transposed, bZp, diag);
    if (failed(split))
      return failure();
    plan.weight = split->weights;
    plan.inputCopies = split->copies;
  }

  Value acc = op.getOutput();
  if (acc.hasOneUse())
    if (auto add = dyn_cast<tosa::AddOp>(*acc.getUsers().begin())) {
      absorbed.push_back(add);
      if (failed(matchBias(add, acc, n, plan, diag)))
        return failure();
      acc = add.getOutput();
    }
  if (!plan.bias)
    plan.bias = DenseElementsAttr::get(
        RankedTensorType::get({n}, IntegerType::get(op.getContext(), 32)),
        APInt(32, 0));

  FailureOr<OutputRequant> requant =
      matchOutputRequant(op, acc, n, absorbed, diag);
  if (failed(requant))
    return failure();
  plan.requant = std::move(*requant);
  return plan;
}

/// A matmul over two activations: its zero points and the per-tensor
/// rescale and clamps that bring the int32 products back to int8.
static FailureOr<OutputRequant>
matchBatchMatMul(tosa::MatMulOp op, Absorbed &absorbed, MatchDiag &diag) {
  if (failed(matchMatMulTypes(op, diag)))
    return failure();
  int64_t n = cast<RankedTensorType>(op.getB().getType()).getDimSize(2);
  FailureOr<OutputRequant> requant =
      matchOutputRequant(op, op.getOutput(), n, absorbed, diag);
  if (failed(requant))
    return failure();
  if (requant->requant.getNumChannels() != 1)
    return diag.fail(op, "a matmul over two activations needs a per-tensor "
                         "output rescale");
  return requant;
}

namespace {

struct MatMulLowering : OpConversionPattern<tosa::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tosa::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isActivationMatMul(op))
      return rewriteBatchMatMul(op, adaptor, rewriter);
    FailureOr<MatMulPlan> plan = matchForRewrite(rewriter, op, matchMatMul);
    if (failed(plan))
      return failure();

    Location loc = op.getLoc();
    auto a = cast<RankedTensorType>(adaptor.getA().getType());
    auto resultType = cast<RankedTensorType>(
        plan->requant.ops.back()->getResult(0).getType());
    int64_t m = a.getDimSize(1), k = a.getDimSize(2);
    int64_t n = resultType.getDimSize(2);
    Value rows = repeatInnermost(
        rewriter, loc,
        createReshape(rewriter, loc, adaptor.getA(),
                      RankedTensorType::get({m, k}, a.getElementType())),
        plan->inputCopies);
    Value weight = createConstant(rewriter, loc, plan->weight);
    Value bias = createConstant(rewriter, loc, plan->bias);
    Value fc = FullyConnectedOp::create(
        rewriter, loc,
        RankedTensorType::get({m, n}, resultType.getElementType()), rows,
        weight, bias, rewriter.getI32IntegerAttr(plan->inputZp),
        plan->requant.requant, IntegerAttr());
    SmallVector<Operation *> folded;
    if (plan->biasAdd)
      folded.push_back(plan->biasAdd);
    llvm::append_range(folded, plan->requant.ops);
    replaceLayer(rewriter, op, folded,
                 createReshape(rewriter, loc, fc, resultType));
    return success();
  }

  LogicalResult rewriteBatchMatMul(tosa::MatMulOp op, OpAdaptor adaptor,
                                   ConversionPatternRewriter &rewriter) const {
    FailureOr<OutputRequant> requant =
        matchForRewrite(rewriter, op, matchBatchMatMul);
    if (failed(requant))
      return failure();
    Value result = BatchMatMulOp::create(
        rewriter, op.getLoc(), requant->ops.back()->getResult(0).getType(),
        adaptor.getA(), adaptor.getB(),
        rewriter.getI32IntegerAttr(*op.getAZeroPoint()),
        rewriter.getI32IntegerAttr(*op.getBZeroPoint()), requant->requant,
        IntegerAttr());
    replaceLayer(rewriter, op, requant->ops, result);
    return success();
  }
};

} // namespace

LogicalResult tosa_to_vmcu::checkMatMul(tosa::MatMulOp op, Absorbed &absorbed,
                                        MatchDiag &diag) {
  if (isActivationMatMul(op))
    return matchBatchMatMul(op, absorbed, diag);
  return matchMatMul(op, absorbed, diag);
}

void tosa_to_vmcu::populateLinearPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<MatMulLowering>(converter, patterns.getContext());
}
