//===- ImportLinear.cpp - convolution, fully connected and pooling --------===//
//
// The Importer's window and matrix layers: CONV_2D (grouped filters made
// dense), DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D and
// MAX_POOL_2D. The convolutions and FULLY_CONNECTED accumulate in int32
// and requantise per channel as TFLite does; pooling keeps the input's
// quantisation. A folded PAD widens a convolution's window, and a strided
// window's unread tail is sliced off.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tflite;

FailureOr<SmallVector<Multiplier>>
Importer::channelMultipliers(double inScale, llvm::ArrayRef<float> weightScales,
                             int64_t channels, double outScale) {
  if (weightScales.size() != 1 &&
      weightScales.size() != static_cast<size_t>(channels))
    return opError() << "weights have " << weightScales.size() << " scales for "
                     << channels << " channels";
  SmallVector<Multiplier> result;
  for (int64_t c = 0; c < channels; ++c) {
    double w = weightScales.size() == 1 ? weightScales[0] : weightScales[c];
    double scale = inScale * w / outScale;
    llvm::Expected<Multiplier> m = quantizeScale(scale);
    if (!m && scale < 1.0) {
      // Below 2^-31 TFLite's QuantizeMultiplier flushes to 0 as well.
      llvm::consumeError(m.takeError());
      result.push_back(Multiplier{0, 31});
      continue;
    }
    if (!m)
      return opError() << "channel " << c << ": "
                       << llvm::toString(m.takeError());
    result.push_back(*m);
  }
  return result;
}

FailureOr<DimPads> Importer::window(llvm::StringRef dim, int64_t in,
                                    int64_t kernel, int64_t stride,
                                    PaddingKind padding, int64_t before,
                                    int64_t after) {
  if (padding == PaddingKind::Same) {
    // SAME pads the already padded extent.
    auto [sameBefore, sameAfter] =
        samePads(in + before + after, kernel, stride);
    before += sameBefore;
    after += sameAfter;
  } else if (padding != PaddingKind::Valid) {
    return opError() << "unknown padding " << int(padding);
  }
  llvm::Expected<DimPads> pads = computeWindow(builtinName(opCode), dim, in,
                                               kernel, stride, before, after);
  if (!pads)
    return opError() << llvm::toString(pads.takeError());
  return *pads;
}

/// A grouped OHWI filter [cout, taps, depth] as a dense [cout, taps, cin]
/// one, zero outside each output channel's group: the dense convolution is
/// the grouped one exactly (it costs the zeros' MACs).
static SmallVector<int8_t> ungroupWeights(ArrayRef<int8_t> grouped,
                                          int64_t cout, int64_t taps,
                                          int64_t depth, int64_t cin) {
  int64_t perGroup = cout / (cin / depth);
  SmallVector<int8_t> dense(cout * taps * cin, 0);
  for (int64_t o = 0; o < cout; ++o) {
    int64_t first = o / perGroup * depth;
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t i = 0; i < depth; ++i)
        dense[(o * taps + t) * cin + first + i] =
            grouped[(o * taps + t) * depth + i];
  }
  return dense;
}

LogicalResult Importer::importConv(Table op, ArrayRef<int32_t> in, int32_t out,
                                   bool depthwise) {
  FailureOr<QuantValue> x = inputActivation(in, 2, kAnyOperandCount,
                                            "input, filter and optional bias");
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> xShape = x->getType().getShape();
  if (xShape.size() != 4)
    return opError() << "input must be NHWC";
  if (in[1] < 0 || in[1] >= static_cast<int32_t>(tensors.size()))
    return opError() << "filter tensor " << in[1] << " does not exist";
  const TensorInfo &filter = tensors[in[1]];
  if (filter.shape.size() != 4 ||
      !boundedElements(filter.shape, kMaxConstantBytes))
    return opError() << "filter '" << filter.name
                     << "' must have rank 4 and a positive shape";
  int64_t kh = filter.shape[1], kw = filter.shape[2];
  int64_t cin = xShape[3];
  int64_t cout = depthwise ? filter.shape[3] : filter.shape[0];
  // A CONV_2D filter of depth cin / g is a grouped convolution (TFLM's
  // ConvPerChannel): output channel o reads group o / (cout / g).
  int64_t filterDepth = depthwise ? cin : filter.shape[3];
  bool grouped = !depthwise && filterDepth > 0 && filterDepth != cin &&
                 cin % filterDepth == 0 && cout % (cin / filterDepth) == 0;
  if (depthwise ? filter.shape[0] != 1 : filterDepth != cin && !grouped)
    return opError() << "filter '" << filter.name
                     << "' does not match the input's " << cin << " channels";
  if (depthwise && cout % cin != 0)
    return opError() << "depthwise output channels " << cout
                     << " are not a multiple of the input's " << cin;
  if (llvm::any_of(filter.zeroPoints, [](int64_t z) { return z != 0; }))
    return opError() << "filter '" << filter.name
                     << "' has a non-zero zero point; TFLite int8 weights "
                        "are symmetric";

  std::optional<Table> options = op.table(op::kBuiltinOptions);
  if (!options)
    return opError() << "has no options";
  unsigned kPad =
      depthwise ? depthwise_options::kPadding : conv_options::kPadding;
  unsigned kSw =
      depthwise ? depthwise_options::kStrideW : conv_options::kStrideW;
  unsigned kSh =
      depthwise ? depthwise_options::kStrideH : conv_options::kStrideH;
  unsigned kAct =
      depthwise ? depthwise_options::kActivation : conv_options::kActivation;
  unsigned kDw =
      depthwise ? depthwise_options::kDilationW : conv_options::kDilationW;
  unsigned kDh =
      depthwise ? depthwise_options::kDilationH : conv_options::kDilationH;
  std::optional<int8_t> padding = options->scalar<int8_t>(kPad, 0);
  std::optional<int32_t> sw = options->scalar<int32_t>(kSw, 0);
  std::optional<int32_t> sh = options->scalar<int32_t>(kSh, 0);
  std::optional<int8_t> act = options->scalar<int8_t>(kAct, 0);
  std::optional<int32_t> dw = options->scalar<int32_t>(kDw, 1);
  std::optional<int32_t> dh = options->scalar<int32_t>(kDh, 1);
  if (!padding || !sw || !sh || !act || !dw || !dh)
    return opError() << "has malformed options";
  if (*sw < 1 || *sh < 1)
    return opError() << "strides must be positive, got " << *sh << "x" << *sw;
  if (*dw < 1 || *dh < 1)
    return opError() << "dilation must be positive, got " << *dh << "x" << *dw;

  // A dilated window spans (k - 1) * d + 1 input rows / columns (TFLite's
  // ComputePaddingHeightWidth).
  FailureOr<DimPads> h =
      window("height", xShape[1], (kh - 1) * *dh + 1, *sh,
             static_cast<PaddingKind>(*padding), x->pad[0], x->pad[1]);
  if (failed(h))
    return failure();
  FailureOr<DimPads> w =
      window("width", xShape[2], (kw - 1) * *dw + 1, *sw,
             static_cast<PaddingKind>(*padding), x->pad[2], x->pad[3]);
  if (failed(w))
    return failure();

  FailureOr<SmallVector<int8_t>> weights = constantI8(
      in[1], kh * kw * filterDepth * (depthwise ? cout / cin : cout));
  if (failed(weights))
    return failure();
  if (grouped)
    *weights = ungroupWeights(*weights, cout, kh * kw, filterDepth, cin);
  FailureOr<SmallVector<int32_t>> bias = optionalBias(in, cout);
  if (failed(bias))
    return failure();
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, {xShape[0], h->out, w->out, cout})))
    return failure();
  FailureOr<SmallVector<Multiplier>> multipliers =
      channelMultipliers(x->scale, filter.scales, cout, outScale);
  if (failed(multipliers))
    return failure();

  Value input = tosa.sliceTail(x->value, h->trim, w->trim);
  // TFLite's depthwise filter [1, kh, kw, c * m] has TOSA's [kh, kw, c, m]
  // memory order.
  Value acc =
      depthwise
          ? tosa.depthwiseConv2d(input, x->zp, {kh, kw, cin, cout / cin},
                                 *weights, *bias, *h, *w, *sh, *sw, *dh, *dw)
          : tosa.conv2d(input, x->zp, {cout, kh, kw, cin}, *weights, *bias, *h,
                        *w, *sh, *sw, *dh, *dw);
  auto outType =
      cast<RankedTensorType>(acc.getType()).clone(builder.getI8Type());
  Value y = tosa.rescale(acc, outType, *multipliers, 0, outZp,
                         /*perChannel=*/true);
  return defineActivated(out, y, *act, outScale, outZp);
}

LogicalResult Importer::importFullyConnected(Table op, ArrayRef<int32_t> in,
                                             int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 2, kAnyOperandCount,
                                            "input, weights and optional bias");
  if (failed(x))
    return failure();
  if (in[1] < 0 || in[1] >= static_cast<int32_t>(tensors.size()))
    return opError() << "weights tensor " << in[1] << " does not exist";
  const TensorInfo &weightsInfo = tensors[in[1]];
  if (weightsInfo.shape.size() != 2 ||
      !boundedElements(weightsInfo.shape, kMaxConstantBytes))
    return opError() << "weights '" << weightsInfo.name
                     << "' must have rank 2 and a positive shape";
  int64_t n = weightsInfo.shape[0], k = weightsInfo.shape[1];
  int64_t elements = x->getType().getNumElements();
  if (k <= 0 || elements % k != 0)
    return opError() << "input of " << elements
                     << " elements is not a multiple of the depth " << k;
  int64_t m = elements / k;
  if (llvm::any_of(weightsInfo.zeroPoints, [](int64_t z) { return z != 0; }))
    return opError() << "weights '" << weightsInfo.name
                     << "' have a non-zero zero point";
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, fully_connected_options::kActivation, 0);
  std::optional<int8_t> format =
      optionScalar<int8_t>(op, fully_connected_options::kWeightsFormat, 0);
  if (!act || !format)
    return opError() << "has malformed options";
  if (*format != 0)
    return opError() << "only the DEFAULT weights format is supported";

  FailureOr<SmallVector<int8_t>> weights = constantI8(in[1], n * k);
  if (failed(weights))
    return failure();
  FailureOr<SmallVector<int32_t>> bias = optionalBias(in, n);
  if (failed(bias))
    return failure();
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  if (failed(outType))
    return failure();
  if (outType->getNumElements() != m * n)
    return opError() << "output '" << tensors[out].name << "' must hold "
                     << m * n << " elements";
  FailureOr<SmallVector<Multiplier>> multipliers =
      channelMultipliers(x->scale, weightsInfo.scales, n, outScale);
  if (failed(multipliers))
    return failure();

  // TFLite stores [n, k]; tosa.matmul takes [1, k, n].
  SmallVector<int8_t> transposed(n * k);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      transposed[j * n + i] = (*weights)[i * k + j];
  Value input = x->value;
  if (x->getType().getShape() != llvm::ArrayRef<int64_t>{1, m, k})
    input = tosa.reshape(input, {1, m, k});
  Value acc = tosa.fullyConnected(input, x->zp, n, transposed, *bias);
  auto accType = cast<RankedTensorType>(acc.getType());
  Value y = tosa.rescale(acc, accType.clone(builder.getI8Type()), *multipliers,
                         0, outZp, /*perChannel=*/true);
  FailureOr<Value> result = applyActivation(y, *act, outScale, outZp);
  if (failed(result))
    return failure();
  Value value = *result;
  if (outType->getShape() != accType.getShape())
    value = tosa.reshape(value, outType->getShape());
  define(out, QuantValue{value, outScale, outZp});
  return success();
}

LogicalResult Importer::importPool(Table op, ArrayRef<int32_t> in, int32_t out,
                                   bool max) {
  FailureOr<QuantValue> x = inputActivation(in, 1, 1, "one operand");
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> xShape = x->getType().getShape();
  if (xShape.size() != 4)
    return opError() << "input must be NHWC";
  std::optional<Table> options = op.table(op::kBuiltinOptions);
  if (!options)
    return opError() << "has no options";
  std::optional<int8_t> padding =
      options->scalar<int8_t>(pool_options::kPadding, 0);
  std::optional<int32_t> sw =
      options->scalar<int32_t>(pool_options::kStrideW, 0);
  std::optional<int32_t> sh =
      options->scalar<int32_t>(pool_options::kStrideH, 0);
  std::optional<int32_t> fw =
      options->scalar<int32_t>(pool_options::kFilterW, 0);
  std::optional<int32_t> fh =
      options->scalar<int32_t>(pool_options::kFilterH, 0);
  std::optional<int8_t> act =
      options->scalar<int8_t>(pool_options::kActivation, 0);
  if (!padding || !sw || !sh || !fw || !fh || !act)
    return opError() << "has malformed options";
  if (*sw < 1 || *sh < 1 || *fw < 1 || *fh < 1)
    return opError() << "filter and strides must be positive";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "input and output quantisation differ; TFLite's int8 "
                        "pooling keeps it";
  FailureOr<DimPads> h = window("height", xShape[1], *fh, *sh,
                                static_cast<PaddingKind>(*padding), 0, 0);
  if (failed(h))
    return failure();
  FailureOr<DimPads> w = window("width", xShape[2], *fw, *sw,
                                static_cast<PaddingKind>(*padding), 0, 0);
  if (failed(w) ||
      failed(checkShape(out, {xShape[0], h->out, w->out, xShape[3]})))
    return failure();
  Value input = tosa.sliceTail(x->value, h->trim, w->trim);
  if (max) {
    Value y = tosa.maxPool2d(input, *fh, *fw, *sh, *sw, *h, *w);
    return defineActivated(out, y, *act, outScale, outZp);
  }
  Value y = tosa.avgPool2d(input, x->zp, outZp, *fh, *fw, *sh, *sw, *h, *w);
  // TFLite rounds a tie away from zero, TOSA up: record whose it is.
  context->getLoadedDialect<VMCUDialect>()
      ->getRoundHalfAwayAttrHelper()
      .setAttr(y.getDefiningOp(), UnitAttr::get(context));
  return defineActivated(out, y, *act, outScale, outZp);
}
