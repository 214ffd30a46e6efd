//===- WindowLayers.cpp - TOSA conv/depthwise/avg_pool to vmcu ------------===//
//
// tosa.conv2d, tosa.depthwise_conv2d and tosa.avg_pool2d, with their input
// pads/slices, rescale and clamps, to one vmcu layer op each. A batched 1x1
// tosa.conv2d (TFLite FULLY_CONNECTED) becomes vmcu.fully_connected; other
// batched layers run image by image (vmcu.slice, the layer, vmcu.concat); a
// depthwise with depth multiplier M > 1 is a vmcu.depthwise_conv2d of C * M
// output channels, or a dense vmcu.conv2d over at most 3 input channels.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tosa_to_vmcu;

namespace {

/// Everything needed to build the vmcu op of a conv2d/depthwise_conv2d.
struct ConvPlan {
  InputWindow window;
  SmallVector<int64_t> stride;
  int64_t inputZp = 0;
  /// The weight in vmcu layout ([K,R,S,C], [R,S,C,1], or [K,C] for FC).
  ElementsAttr weight;
  /// The bias: a constant of K elements, or else `biasValue`.
  ElementsAttr bias;
  Value biasValue;
  OutputRequant requant;
  /// A batched 1x1 convolution, lowered to vmcu.fully_connected.
  bool asFullyConnected = false;
  /// A depthwise with a multiplier over few input channels, run as a dense
  /// conv2d (`weight` is then [C * M, kh, kw, C]).
  bool depthwiseAsConv = false;
  /// A conv2d whose weight zero point does not fold into int8 weights runs
  /// over its input repeated this many times along the channels, `weight`
  /// then holding the split differences (splitWeightZeroPoint).
  int64_t inputCopies = 1;
};

/// The most input channels for which a depthwise with a depth multiplier
/// runs as a dense conv2d (zero weights between an output channel and the
/// input channels it does not read) instead of the depthwise kernel. One
/// input channel makes it exactly a conv. With C channels the conv
/// computes C times the depthwise's MACs, but through im2col at about
/// 0.65 MAC/cycle against the depthwise kernel's 0.22 (bench/cycles.sh),
/// so up to 3 channels it is no slower.
constexpr int64_t kMaxDenseDepthwiseInputChannels = 3;

} // namespace

/// Expands a one-element constant bias to `channels` elements.
static FailureOr<ElementsAttr> expandBias(ElementsAttr bias, int64_t channels) {
  auto type = RankedTensorType::get({channels}, bias.getElementType());
  if (bias.getNumElements() == channels)
    return reshapeElements(bias, type);
  FailureOr<SmallVector<APInt>> values = getIntValues(bias);
  if (failed(values))
    return failure();
  return cast<ElementsAttr>(DenseElementsAttr::get(type, (*values)[0]));
}

/// The dense kernel of a dilated one: (k - 1) * d + 1 taps per dimension,
/// the original taps every d and zeros between, so a tap-by-tap sum over it
/// is the dilated sum exactly. Weights are [O, kh, kw, I] (conv2d) or
/// [kh, kw, C, M] (depthwise). Null if the constant cannot be read.
static ElementsAttr dilateWeights(ElementsAttr weights, bool isDepthwise,
                                  int64_t dh, int64_t dw) {
  FailureOr<SmallVector<APInt>> values = getIntValues(weights);
  if (failed(values))
    return {};
  auto type = cast<RankedTensorType>(weights.getType());
  SmallVector<int64_t> shape(type.getShape());
  // Dimensions of the kernel rows and columns, and the extents around them.
  unsigned rowDim = isDepthwise ? 0 : 1;
  int64_t outer = isDepthwise ? 1 : shape[0];
  int64_t kh = shape[rowDim], kw = shape[rowDim + 1];
  int64_t inner = isDepthwise ? shape[2] * shape[3] : shape[3];
  int64_t dkh = (kh - 1) * dh + 1, dkw = (kw - 1) * dw + 1;
  SmallVector<int8_t> dense(outer * dkh * dkw * inner, 0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < kh; ++r)
      for (int64_t t = 0; t < kw; ++t)
        for (int64_t i = 0; i < inner; ++i)
          dense[((o * dkh + r * dh) * dkw + t * dw) * inner + i] =
              static_cast<int8_t>((*values)[((o * kh + r) * kw + t) * inner + i]
                                      .getSExtValue());
  shape[rowDim] = dkh;
  shape[rowDim + 1] = dkw;
  return DenseElementsAttr::get(
      RankedTensorType::get(shape, type.getElementType()),
      ArrayRef<int8_t>(dense));
}

/// The dense conv2d weight [C * M, kh, kw, C] of a depthwise weight
/// [kh, kw, C, M]: output channel o = c * M + m reads input channel c with
/// the depthwise's tap, and every other input channel with 0. Null if the
/// constant cannot be read.
static ElementsAttr depthwiseAsConvWeights(ElementsAttr weights) {
  FailureOr<SmallVector<APInt>> values = getIntValues(weights);
  if (failed(values))
    return {};
  auto type = cast<RankedTensorType>(weights.getType());
  int64_t kh = type.getDimSize(0), kw = type.getDimSize(1);
  int64_t c = type.getDimSize(2), m = type.getDimSize(3);
  SmallVector<int8_t> dense(c * m * kh * kw * c, 0);
  for (int64_t r = 0; r < kh; ++r)
    for (int64_t t = 0; t < kw; ++t)
      for (int64_t i = 0; i < c; ++i)
        for (int64_t j = 0; j < m; ++j) {
          int64_t o = i * m + j;
          dense[((o * kh + r) * kw + t) * c + i] = static_cast<int8_t>(
              (*values)[((r * kw + t) * c + i) * m + j].getSExtValue());
        }
  return DenseElementsAttr::get(
      RankedTensorType::get({c * m, kh, kw, c}, type.getElementType()),
      ArrayRef<int8_t>(dense));
}

/// Checks the element types, static shapes and dilation of a conv.
template <typename OpTy>
static LogicalResult checkConvTypes(OpTy op, MatchDiag &diag) {
  Type inputType = op.getInput().getType();
  Type weightType = op.getWeight().getType();
  Type outputType = op.getOutput().getType();
  if (!hasIntElements(inputType, 8) || !hasIntElements(weightType, 8) ||
      !hasIntElements(outputType, 32) || !op.getAccType().isInteger(32))
    return diag.fail(op, "expected int8 input and weight with an int32 "
                         "accumulator, got " +
                             typeToString(inputType) + ", " +
                             typeToString(weightType) + " -> " +
                             typeToString(outputType));
  if (!hasStaticShape(inputType) || !hasStaticShape(weightType) ||
      !hasStaticShape(op.getBias().getType()) || !hasStaticShape(outputType))
    return diag.fail(op, "requires static shapes");
  ArrayRef<int64_t> dilation = op.getDilation();
  if (llvm::any_of(dilation, [](int64_t d) { return d < 1; }))
    return diag.fail(op, "dilation must be positive, got [" +
                             Twine(dilation[0]) + ", " + Twine(dilation[1]) +
                             "]");
  return success();
}

/// The plan's weights: the weight zero point folded (or split into input
/// copies), dilation's zero taps inserted, and a depthwise with a
/// multiplier laid out for the layer that runs it. Sets `kh`/`kw` to the
/// (dilated) window.
template <typename OpTy>
static LogicalResult planWeights(OpTy op, ConvPlan &plan, int64_t channels,
                                 int64_t &kh, int64_t &kw, MatchDiag &diag) {
  constexpr bool isDepthwise = std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>;
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  plan.weight = getConstantElements(op.getWeight());
  if (!plan.weight)
    return diag.fail(op, "weight must be a constant");
  // The zero point folds before dilation inserts its zero taps.
  FailureOr<int64_t> weightZp = op.getWeightZeroPoint();
  if (failed(weightZp))
    return diag.fail(op, "weight zero point must be a constant");
  if (!isDepthwise && !weightZeroPointFolds(plan.weight, *weightZp)) {
    FailureOr<SplitWeights> split =
        splitWeightZeroPoint(op, plan.weight, *weightZp, diag);
    if (failed(split))
      return failure();
    plan.weight = split->weights;
    plan.inputCopies = split->copies;
  } else {
    FailureOr<ElementsAttr> folded =
        foldWeightZeroPoint(op, plan.weight, *weightZp, diag);
    if (failed(folded))
      return failure();
    plan.weight = *folded;
  }
  ArrayRef<int64_t> dilation = op.getDilation();
  if (llvm::any_of(dilation, [](int64_t d) { return d != 1; })) {
    plan.weight =
        dilateWeights(plan.weight, isDepthwise, dilation[0], dilation[1]);
    if (!plan.weight)
      return diag.fail(op, "cannot read the weight constant to dilate it");
    weight = cast<RankedTensorType>(plan.weight.getType());
  }
  kh = isDepthwise ? weight.getDimSize(0) : weight.getDimSize(1);
  kw = isDepthwise ? weight.getDimSize(1) : weight.getDimSize(2);
  if (isDepthwise && weight.getDimSize(3) != 1 &&
      weight.getDimSize(2) <= kMaxDenseDepthwiseInputChannels) {
    plan.depthwiseAsConv = true;
    plan.weight = depthwiseAsConvWeights(plan.weight);
    if (!plan.weight)
      return diag.fail(op, "cannot read the weight constant");
  } else if (isDepthwise && weight.getDimSize(3) != 1) {
    // [kh, kw, C, M] in row-major order is [kh, kw, C * M, 1]: output
    // channel c * M + m, which vmcu.depthwise_conv2d reads from input
    // channel c.
    plan.weight = reshapeElements(
        plan.weight,
        RankedTensorType::get({kh, kw, channels, 1}, weight.getElementType()));
  }
  return success();
}

/// The plan's bias: a constant expanded to the channels, or a
/// per-channel value.
template <typename OpTy>
static LogicalResult planBias(OpTy op, ConvPlan &plan, int64_t channels,
                              MatchDiag &diag) {
  if (ElementsAttr bias = getConstantElements(op.getBias())) {
    FailureOr<ElementsAttr> expanded = expandBias(bias, channels);
    if (failed(expanded) || !*expanded)
      return diag.fail(op, "cannot read the bias constant");
    plan.bias = *expanded;
    return success();
  }
  if (cast<ShapedType>(op.getBias().getType()).getNumElements() == channels) {
    plan.biasValue = op.getBias();
    return success();
  }
  return diag.fail(op, "a broadcast (1-element) bias must be a constant");
}

template <typename OpTy>
static FailureOr<ConvPlan> matchConv(OpTy op, Absorbed &absorbed,
                                     MatchDiag &diag) {
  constexpr bool isDepthwise = std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>;
  if (failed(checkConvTypes(op, diag)))
    return failure();
  auto input = cast<RankedTensorType>(op.getInput().getType());
  int64_t channels = op.getOutput().getType().getDimSize(3);
  ConvPlan plan;
  int64_t kh = 0, kw = 0;
  if (failed(planWeights(op, plan, channels, kh, kw, diag)))
    return failure();
  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  if (failed(inputZp))
    return diag.fail(op, "input zero point must be a constant");
  plan.inputZp = *inputZp;
  if (failed(planBias(op, plan, channels, diag)))
    return failure();

  ArrayRef<int64_t> pad = op.getPad();
  plan.stride.assign(op.getStride().begin(), op.getStride().end());
  // [B,H,W,C] x [K,1,1,C] without padding is a GEMM over B*H*W rows; any
  // other batched layer runs image by image (ConvLowering).
  bool spatiallyTrivial =
      llvm::all_of(plan.stride, [](int64_t s) { return s == 1; }) ||
      (input.getDimSize(1) == 1 && input.getDimSize(2) == 1);
  plan.asFullyConnected =
      input.getDimSize(0) != 1 && !isDepthwise && kh == 1 && kw == 1 &&
      llvm::all_of(pad, [](int64_t p) { return p == 0; }) && spatiallyTrivial &&
      !isa_and_nonnull<tosa::PadOp, tosa::SliceOp>(
          op.getInput().getDefiningOp());
  if (plan.asFullyConnected) {
    plan.weight = reshapeElements(
        plan.weight,
        RankedTensorType::get(
            {channels, plan.inputCopies * input.getDimSize(3)},
            cast<ShapedType>(plan.weight.getType()).getElementType()));
    if (!plan.weight)
      return diag.fail(op, "cannot relabel the weight constant to [K, C]");
  }

  FailureOr<OutputRequant> requant =
      matchOutputRequant(op, op.getOutput(), channels, absorbed, diag);
  if (failed(requant))
    return failure();
  plan.requant = std::move(*requant);

  if (plan.asFullyConnected) {
    plan.window = {op.getInput(), SmallVector<int64_t, 4>(pad)};
    return plan;
  }
  FailureOr<InputWindow> window =
      foldInputWindow(op, op.getInput(), {kh, kw}, plan.stride, pad,
                      plan.inputZp, /*isAvgPool=*/false, absorbed, diag);
  if (failed(window))
    return failure();
  plan.window = std::move(*window);
  return plan;
}

/// `build` applied to each image of a batched NHWC `input` (a vmcu.slice of
/// it), the results joined along the batch by a vmcu.concat: vmcu's window
/// layers take one image. `resultType` is the batched result; `build` gets
/// an image and its result type. A batch of 1 is `build` on `input`.
static Value perImage(OpBuilder &b, Location loc, Value input,
                      RankedTensorType resultType,
                      function_ref<Value(Value, RankedTensorType)> build) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t batch = inType.getDimSize(0);
  if (batch == 1)
    return build(input, resultType);
  SmallVector<int64_t> imageShape(inType.getShape());
  imageShape[0] = 1;
  SmallVector<int64_t> imageResult(resultType.getShape());
  imageResult[0] = 1;
  SmallVector<Value> images;
  for (int64_t n = 0; n < batch; ++n) {
    Value image =
        SliceOp::create(b, loc, inType.clone(imageShape), input,
                        b.getDenseI64ArrayAttr({n, 0, 0, 0}),
                        b.getDenseI64ArrayAttr({1, 1, 1, 1}), IntegerAttr());
    images.push_back(build(image, resultType.clone(imageResult)));
  }
  return ConcatOp::create(b, loc, resultType, images, /*axis=*/0,
                          IntegerAttr());
}

namespace {

template <typename OpTy> struct ConvLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// The vmcu conv (or depthwise, after its channel repeat) of one image.
  static Value buildConv(OpBuilder &b, Location loc, const ConvPlan &plan,
                         Value image, RankedTensorType type, Value weight,
                         Value bias) {
    IntegerAttr inputZp = b.getI32IntegerAttr(plan.inputZp);
    DenseI64ArrayAttr stride = b.getDenseI64ArrayAttr(plan.stride);
    DenseI64ArrayAttr pad = b.getDenseI64ArrayAttr(plan.window.pad);
    if constexpr (std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>) {
      if (plan.depthwiseAsConv)
        return Conv2DOp::create(b, loc, type, image, weight, bias, stride, pad,
                                inputZp, plan.requant.requant, IntegerAttr());
      return DepthwiseConv2DOp::create(b, loc, type, image, weight, bias,
                                       stride, pad, inputZp,
                                       plan.requant.requant, IntegerAttr());
    }
    return Conv2DOp::create(b, loc, type, image, weight, bias, stride, pad,
                            inputZp, plan.requant.requant, IntegerAttr());
  }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ConvPlan> plan = matchForRewrite(rewriter, op, matchConv<OpTy>);
    if (failed(plan))
      return failure();

    Location loc = op.getLoc();
    Value input = repeatInnermost(rewriter, loc,
                                  rewriter.getRemappedValue(plan->window.input),
                                  plan->inputCopies);
    Value weight = createConstant(rewriter, loc, plan->weight);
    IntegerAttr inputZp = rewriter.getI32IntegerAttr(plan->inputZp);
    Value bias = plan->bias ? createConstant(rewriter, loc, plan->bias)
                            : rewriter.getRemappedValue(plan->biasValue);
    Operation *last = plan->requant.ops.back();
    auto resultType = cast<RankedTensorType>(last->getResult(0).getType());

    Value result;
    if (plan->asFullyConnected) {
      auto inType = cast<RankedTensorType>(input.getType());
      int64_t rows = inType.getNumElements() / inType.getDimSize(3);
      Value rowsIn =
          createReshape(rewriter, loc, input,
                        RankedTensorType::get({rows, inType.getDimSize(3)},
                                              inType.getElementType()));
      auto fcType = RankedTensorType::get({rows, resultType.getDimSize(3)},
                                          resultType.getElementType());
      Value fc = FullyConnectedOp::create(rewriter, loc, fcType, rowsIn, weight,
                                          bias, inputZp, plan->requant.requant,
                                          IntegerAttr());
      result = createReshape(rewriter, loc, fc, resultType);
    } else {
      result = perImage(rewriter, loc, input, resultType,
                        [&](Value image, RankedTensorType type) -> Value {
                          return buildConv(rewriter, loc, *plan, image, type,
                                           weight, bias);
                        });
    }
    replaceLayer(rewriter, op, plan->requant.ops, result);
    return success();
  }
};

/// Everything needed to build a vmcu.avg_pool2d.
struct PoolPlan {
  InputWindow window;
  int64_t inputZp = 0, outputZp = 0;
  FoldedClamps clamps;
};

} // namespace

/// What both pools need of their types: int8 in and out (with an int32
/// accumulator, `accumulates`), static shapes.
static LogicalResult checkPoolTypes(Operation *op, Value input, Value output,
                                    bool accumulates, bool int32Acc,
                                    MatchDiag &diag) {
  Type inputType = input.getType(), outputType = output.getType();
  if (!hasIntElements(inputType, 8) || !hasIntElements(outputType, 8) ||
      (accumulates && !int32Acc))
    return diag.fail(op, Twine("expected int8 input and output") +
                             (accumulates ? " with an int32 accumulator" : "") +
                             ", got " + typeToString(inputType) + " -> " +
                             typeToString(outputType));
  if (!hasStaticShape(inputType) || !hasStaticShape(outputType))
    return diag.fail(op, "requires static shapes");
  return success();
}

/// Completes a pool's `plan` with the clamps folded after it and the pads
/// and slices folded into its input window, padded with `padValue`.
template <typename TosaPool>
static LogicalResult foldPoolChain(TosaPool op, int64_t padValue,
                                   PoolPlan &plan, Absorbed &absorbed,
                                   MatchDiag &diag) {
  constexpr bool isAvgPool = std::is_same_v<TosaPool, tosa::AvgPool2dOp>;
  FailureOr<FoldedClamps> clamps = foldClamps(op.getOutput(), absorbed, diag);
  if (failed(clamps))
    return failure();
  plan.clamps = std::move(*clamps);
  FailureOr<InputWindow> window =
      foldInputWindow(op, op.getInput(), op.getKernel(), op.getStride(),
                      op.getPad(), padValue, isAvgPool, absorbed, diag);
  if (failed(window))
    return failure();
  plan.window = std::move(*window);
  return success();
}

static FailureOr<PoolPlan> matchAvgPool(tosa::AvgPool2dOp op,
                                        Absorbed &absorbed, MatchDiag &diag) {
  if (failed(checkPoolTypes(op, op.getInput(), op.getOutput(),
                            /*accumulates=*/true, op.getAccType().isInteger(32),
                            diag)))
    return failure();

  PoolPlan plan;
  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  FailureOr<int64_t> outputZp = op.getOutputZeroPoint();
  if (failed(inputZp) || failed(outputZp))
    return diag.fail(op, "zero points must be constants");
  plan.inputZp = *inputZp;
  plan.outputZp = *outputZp;
  if (failed(foldPoolChain(op, plan.inputZp, plan, absorbed, diag)))
    return failure();
  return plan;
}

/// A max pool's own padding is the int8 minimum, which never wins the max:
/// only a tosa.pad of that value folds into it.
static constexpr int64_t kMaxPoolPadValue = -128;

static FailureOr<PoolPlan> matchMaxPool(tosa::MaxPool2dOp op,
                                        Absorbed &absorbed, MatchDiag &diag) {
  if (failed(checkPoolTypes(op, op.getInput(), op.getOutput(),
                            /*accumulates=*/false, /*int32Acc=*/false, diag)))
    return failure();
  PoolPlan plan;
  if (failed(foldPoolChain(op, kMaxPoolPadValue, plan, absorbed, diag)))
    return failure();
  return plan;
}

/// The `vmcu.round_half_away` marker of a pool imported from TFLite.
static UnitAttr roundsHalfAway(tosa::AvgPool2dOp op) {
  auto *dialect = op->getContext()->getLoadedDialect<VMCUDialect>();
  return dialect && dialect->getRoundHalfAwayAttrHelper().isAttrPresent(op)
             ? UnitAttr::get(op->getContext())
             : UnitAttr();
}

namespace {

/// A matched TOSA pool's window: its kernel, its stride and the padding
/// folded into it.
struct PoolWindowAttrs {
  DenseI64ArrayAttr kernel, stride, pad;
};

template <typename TosaPool>
PoolWindowAttrs poolWindowAttrs(Builder &b, TosaPool op, const PoolPlan &plan) {
  return {b.getDenseI64ArrayAttr(op.getKernel()),
          b.getDenseI64ArrayAttr(op.getStride()),
          b.getDenseI64ArrayAttr(plan.window.pad)};
}

/// The vmcu pool for a matched TOSA pool, on one image of `type`.
Value buildPool(ConversionPatternRewriter &rewriter, tosa::AvgPool2dOp op,
                const PoolPlan &plan, Value image, RankedTensorType type) {
  auto i32 = [&](int64_t v) { return rewriter.getI32IntegerAttr(v); };
  PoolWindowAttrs w = poolWindowAttrs(rewriter, op, plan);
  return AvgPool2DOp::create(
      rewriter, op.getLoc(), type, image, w.kernel, w.stride, w.pad,
      i32(plan.inputZp), i32(plan.outputZp), i32(plan.clamps.min),
      i32(plan.clamps.max), roundsHalfAway(op), IntegerAttr());
}

Value buildPool(ConversionPatternRewriter &rewriter, tosa::MaxPool2dOp op,
                const PoolPlan &plan, Value image, RankedTensorType type) {
  auto i32 = [&](int64_t v) { return rewriter.getI32IntegerAttr(v); };
  PoolWindowAttrs w = poolWindowAttrs(rewriter, op, plan);
  return MaxPool2DOp::create(rewriter, op.getLoc(), type, image, w.kernel,
                             w.stride, w.pad, i32(plan.clamps.min),
                             i32(plan.clamps.max), IntegerAttr());
}

FailureOr<PoolPlan> matchPool(tosa::AvgPool2dOp op, Absorbed &absorbed,
                              MatchDiag &diag) {
  return matchAvgPool(op, absorbed, diag);
}
FailureOr<PoolPlan> matchPool(tosa::MaxPool2dOp op, Absorbed &absorbed,
                              MatchDiag &diag) {
  return matchMaxPool(op, absorbed, diag);
}

/// tosa.avg_pool2d / tosa.max_pool2d with their folded pads, slices and
/// clamps become one vmcu pool.
template <typename TosaPool>
struct PoolLowering : OpConversionPattern<TosaPool> {
  using OpConversionPattern<TosaPool>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<TosaPool>::OpAdaptor;

  LogicalResult
  matchAndRewrite(TosaPool op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<PoolPlan> plan =
        matchForRewrite<TosaPool>(rewriter, op, matchPool);
    if (failed(plan))
      return failure();
    Value result = perImage(
        rewriter, op.getLoc(), rewriter.getRemappedValue(plan->window.input),
        cast<RankedTensorType>(op.getOutput().getType()),
        [&](Value image, RankedTensorType type) {
          return buildPool(rewriter, op, *plan, image, type);
        });
    replaceLayer(rewriter, op, plan->clamps.ops, result);
    return success();
  }
};

} // namespace

LogicalResult tosa_to_vmcu::checkWindowLayer(Operation *op, Absorbed &absorbed,
                                             MatchDiag &diag) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](tosa::Conv2DOp conv) {
        return LogicalResult(matchConv(conv, absorbed, diag));
      })
      .Case([&](tosa::DepthwiseConv2DOp conv) {
        return LogicalResult(matchConv(conv, absorbed, diag));
      })
      .Case([&](tosa::AvgPool2dOp pool) {
        return LogicalResult(matchAvgPool(pool, absorbed, diag));
      })
      .Case([&](tosa::MaxPool2dOp pool) {
        return LogicalResult(matchMaxPool(pool, absorbed, diag));
      })
      .Default([](Operation *) { return failure(); });
}

void tosa_to_vmcu::populateWindowPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns
      .add<ConvLowering<tosa::Conv2DOp>, ConvLowering<tosa::DepthwiseConv2DOp>,
           PoolLowering<tosa::AvgPool2dOp>, PoolLowering<tosa::MaxPool2dOp>>(
          converter, patterns.getContext());
}
