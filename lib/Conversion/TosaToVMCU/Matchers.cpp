//===- Matchers.cpp - TOSA layer chains TosaToVMCU folds ------------------===//
//
// Rescale/clamp folding, input pad/slice folding and constant helpers
// shared by the TosaToVMCU patterns and its convertibility check.
//
//===----------------------------------------------------------------------===//

#include "Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tosa_to_vmcu;

//===----------------------------------------------------------------------===//
// Types, constants and diagnostics
//===----------------------------------------------------------------------===//

bool tosa_to_vmcu::hasStaticShape(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

bool tosa_to_vmcu::hasIntElements(Type type, unsigned width) {
  return getElementTypeOrSelf(type).isSignlessInteger(width);
}

std::string tosa_to_vmcu::typeToString(Type type) {
  std::string str;
  llvm::raw_string_ostream os(str);
  type.print(os);
  return str;
}

/// Prints `values` as `[a, b]` for a diagnostic.
static std::string listToString(ArrayRef<int64_t> values) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return str;
}

ElementsAttr tosa_to_vmcu::reshapeElements(ElementsAttr attr, ShapedType type) {
  if (attr.getType() == type)
    return attr;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return {};
}

FailureOr<ElementsAttr> tosa_to_vmcu::foldWeightZeroPoint(Operation *op,
                                                          ElementsAttr weights,
                                                          int64_t zp,
                                                          MatchDiag &diag) {
  if (zp == 0)
    return weights;
  FailureOr<SmallVector<APInt>> values = getIntValues(weights);
  if (failed(values))
    return diag.fail(op, "cannot read the weight constant");
  SmallVector<int8_t> folded;
  for (const APInt &w : *values) {
    int64_t v = w.getSExtValue() - zp;
    if (v < std::numeric_limits<int8_t>::min() ||
        v > std::numeric_limits<int8_t>::max())
      return diag.fail(
          op, "weight zero point " + Twine(zp) + " does not fold: weight " +
                  Twine(w.getSExtValue()) + " - " + Twine(zp) + " leaves int8");
    folded.push_back(static_cast<int8_t>(v));
  }
  auto type = cast<ShapedType>(weights.getType());
  return cast<ElementsAttr>(
      DenseElementsAttr::get(type, ArrayRef<int8_t>(folded)));
}

bool tosa_to_vmcu::weightZeroPointFolds(ElementsAttr weights, int64_t zp) {
  FailureOr<SmallVector<APInt>> values = getIntValues(weights);
  return succeeded(values) && llvm::all_of(*values, [&](const APInt &w) {
           int64_t v = w.getSExtValue() - zp;
           return v >= std::numeric_limits<int8_t>::min() &&
                  v <= std::numeric_limits<int8_t>::max();
         });
}

FailureOr<SplitWeights> tosa_to_vmcu::splitWeightZeroPoint(Operation *op,
                                                           ElementsAttr weights,
                                                           int64_t zp,
                                                           MatchDiag &diag) {
  FailureOr<SmallVector<APInt>> values = getIntValues(weights);
  if (failed(values))
    return diag.fail(op, "cannot read the weight constant");
  constexpr int64_t kMin = std::numeric_limits<int8_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int8_t>::max();
  int64_t copies = 1;
  for (const APInt &w : *values) {
    int64_t v = w.getSExtValue() - zp;
    copies = std::max(copies, v > 0 ? llvm::divideCeilSigned(v, kMax)
                                    : llvm::divideCeilSigned(-v, -kMin));
  }
  auto type = cast<ShapedType>(weights.getType());
  int64_t inner = type.getShape().back();
  int64_t rows = type.getNumElements() / inner;
  SmallVector<int8_t> parts(copies * type.getNumElements());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t left = (*values)[r * inner + i].getSExtValue() - zp;
      for (int64_t j = 0; j < copies; ++j) {
        int64_t part = std::clamp(left, kMin, kMax);
        parts[(r * copies + j) * inner + i] = static_cast<int8_t>(part);
        left -= part;
      }
    }
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = copies * inner;
  auto split = cast<ElementsAttr>(DenseElementsAttr::get(
      RankedTensorType::get(shape, type.getElementType()),
      ArrayRef<int8_t>(parts)));
  return SplitWeights{split, copies};
}

ElementsAttr tosa_to_vmcu::getConstantElements(Value value) {
  ElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  Operation *def = value.getDefiningOp();
  if (!def || !hasStaticShape(value.getType()) ||
      !isa<tosa::ReshapeOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
           tensor::ReshapeOp>(def))
    return {};
  if (ElementsAttr source = getConstantElements(def->getOperand(0)))
    return reshapeElements(source, cast<ShapedType>(value.getType()));
  return {};
}

/// Widens the elements of a resource blob of `T` to APInts of `width` bits.
template <typename T>
static std::optional<SmallVector<APInt>> readResource(ElementsAttr attr,
                                                      unsigned width) {
  auto resource =
      dyn_cast<mlir::detail::DenseResourceElementsAttrBase<T>>(attr);
  if (!resource)
    return std::nullopt;
  std::optional<ArrayRef<T>> data = resource.tryGetAsArrayRef();
  if (!data)
    return std::nullopt;
  SmallVector<APInt> values;
  for (T v : *data)
    values.push_back(APInt(width, static_cast<int64_t>(v), /*isSigned=*/true));
  return values;
}

FailureOr<SmallVector<APInt>> tosa_to_vmcu::getIntValues(ElementsAttr attr) {
  if (!attr.getElementType().isSignlessInteger())
    return failure();
  if (auto values = attr.tryGetValues<APInt>())
    return SmallVector<APInt>(values->begin(), values->end());
  unsigned width = attr.getElementType().getIntOrFloatBitWidth();
  if (auto v = readResource<int8_t>(attr, width))
    return *v;
  if (auto v = readResource<int16_t>(attr, width))
    return *v;
  if (auto v = readResource<int32_t>(attr, width))
    return *v;
  return failure();
}

/// The single integer of a constant one-element tensor.
static FailureOr<int64_t> getScalarConstant(Value value) {
  ElementsAttr attr = getConstantElements(value);
  if (!attr || attr.getNumElements() != 1)
    return failure();
  FailureOr<SmallVector<APInt>> values = getIntValues(attr);
  if (failed(values))
    return failure();
  return (*values)[0].getSExtValue();
}

Value tosa_to_vmcu::createConstant(OpBuilder &builder, Location loc,
                                   ElementsAttr attr) {
  return arith::ConstantOp::create(builder, loc, cast<TypedAttr>(attr));
}

Value tosa_to_vmcu::repeatInnermost(OpBuilder &builder, Location loc,
                                    Value value, int64_t copies) {
  if (copies == 1)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() *= copies;
  SmallVector<Value> parts(copies, value);
  return ConcatOp::create(builder, loc, type.clone(shape), parts,
                          /*axis=*/type.getRank() - 1, IntegerAttr());
}

Value tosa_to_vmcu::createReshape(OpBuilder &builder, Location loc, Value value,
                                  RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  // Undo a reshape instead of stacking a second one on it.
  if (Operation *def = value.getDefiningOp();
      isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
                      tensor::ReshapeOp>(def) &&
      def->getOperand(0).getType() == type)
    return def->getOperand(0);
  if (auto reassociation = getReassociationIndicesForReshape(source, type)) {
    if (source.getRank() > type.getRank())
      return tensor::CollapseShapeOp::create(builder, loc, type, value,
                                             *reassociation);
    return tensor::ExpandShapeOp::create(builder, loc, type, value,
                                         *reassociation);
  }
  auto shapeType =
      RankedTensorType::get({type.getRank()}, builder.getIndexType());
  Value shape = arith::ConstantOp::create(
      builder, loc, DenseIntElementsAttr::get(shapeType, type.getShape()));
  return tensor::ReshapeOp::create(builder, loc, type, value, shape);
}

void tosa_to_vmcu::replaceLayer(ConversionPatternRewriter &rewriter,
                                Operation *layer, ArrayRef<Operation *> folded,
                                Value replacement) {
  SmallVector<Operation *> chain = {layer};
  llvm::append_range(chain, folded);
  rewriter.replaceOp(chain.back(), replacement);
  for (Operation *op : llvm::reverse(ArrayRef(chain).drop_back()))
    rewriter.eraseOp(op);
}

//===----------------------------------------------------------------------===//
// Rescale and clamp
//===----------------------------------------------------------------------===//

// The 32-bit form of a 16-bit multiplier adds 16 to the shift.
static constexpr int64_t kScale16Shift = 16;

FailureOr<RescaleParams> tosa_to_vmcu::readRescale(tosa::RescaleOp op,
                                                   MatchDiag &diag) {
  if (op.getInputUnsigned() || op.getOutputUnsigned())
    return diag.fail(op, "unsigned rescale (input_unsigned/output_unsigned) "
                         "is not supported");
  RescaleParams params;
  switch (op.getRoundingMode()) {
  case tosa::RoundingMode::SINGLE_ROUND:
    params.doubleRound = false;
    break;
  case tosa::RoundingMode::DOUBLE_ROUND:
    params.doubleRound = true;
    break;
  case tosa::RoundingMode::INEXACT_ROUND:
    return diag.fail(op, "rounding_mode INEXACT_ROUND is not supported: "
                         "#vmcu.requant needs the exact TOSA rounding");
  }
  if (!op.getScale32() && params.doubleRound)
    return diag.fail(op, "DOUBLE_ROUND requires scale32 = true");

  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  FailureOr<int64_t> outputZp = op.getOutputZeroPoint();
  if (failed(inputZp) || failed(outputZp))
    return diag.fail(op, "zero points must be constants");
  params.inputZp = static_cast<int32_t>(*inputZp);
  params.outputZp = static_cast<int32_t>(*outputZp);

  ElementsAttr multiplierAttr = getConstantElements(op.getMultiplier());
  ElementsAttr shiftAttr = getConstantElements(op.getShift());
  if (!multiplierAttr || !shiftAttr)
    return diag.fail(op, "multiplier and shift must be constants");
  FailureOr<SmallVector<APInt>> multipliers = getIntValues(multiplierAttr);
  FailureOr<SmallVector<APInt>> shifts = getIntValues(shiftAttr);
  if (failed(multipliers) || failed(shifts))
    return diag.fail(op, "cannot read the multiplier and shift constants");
  if (multipliers->size() != shifts->size())
    return diag.fail(op, "has " + Twine(multipliers->size()) +
                             " multipliers but " + Twine(shifts->size()) +
                             " shifts");
  if (!op.getPerChannel() && multipliers->size() != 1)
    return diag.fail(op, "a per-tensor rescale must have one multiplier, got " +
                             Twine(multipliers->size()));

  for (auto [m, s] : llvm::zip_equal(*multipliers, *shifts)) {
    int64_t multiplier = m.getSExtValue(), shift = s.getSExtValue();
    if (shift < kTosaRescaleMinShift || shift > kTosaRescaleMaxShift)
      return diag.fail(op, "shift " + Twine(shift) + " is outside TOSA's [" +
                               Twine(kTosaRescaleMinShift) + ", " +
                               Twine(kTosaRescaleMaxShift) + "]");
    if (multiplier < 0)
      return diag.fail(op, "multiplier " + Twine(multiplier) + " is negative");
    if (!op.getScale32()) {
      // apply_scale_16(v, m, s) == apply_scale_32(v, m << 16, s + 16) with
      // single rounding: the extra factor 2^16 cancels exactly.
      if (shift + kScale16Shift > kTosaRescaleMaxShift)
        return diag.fail(op, "16-bit multiplier with shift " + Twine(shift) +
                                 " has no exact 32-bit form (shift + 16 > 62)");
      multiplier *= int64_t(1) << kScale16Shift;
      shift += kScale16Shift;
    }
    params.multiplier.push_back(static_cast<int32_t>(multiplier));
    params.shift.push_back(static_cast<int32_t>(shift));
  }
  return params;
}

RequantAttr tosa_to_vmcu::makeRequant(MLIRContext *ctx,
                                      const RescaleParams &params, int64_t min,
                                      int64_t max) {
  return RequantAttr::get(ctx, params.inputZp, params.outputZp,
                          params.multiplier, params.shift, params.doubleRound,
                          static_cast<int32_t>(min), static_cast<int32_t>(max));
}

FailureOr<FoldedClamps>
tosa_to_vmcu::foldClamps(Value value, Absorbed &absorbed, MatchDiag &diag) {
  FoldedClamps folded;
  while (value.hasOneUse()) {
    auto clamp = dyn_cast<tosa::ClampOp>(*value.getUsers().begin());
    if (!clamp)
      break;
    absorbed.push_back(clamp);
    folded.ops.push_back(clamp);
    auto lo = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
    auto hi = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
    if (!lo || !hi || !hasIntElements(clamp.getType(), 8))
      return diag.fail(clamp, "expected an int8 clamp, got " +
                                  typeToString(clamp.getType()));
    folded.min = std::max(folded.min, lo.getValue().getSExtValue());
    folded.max = std::min(folded.max, hi.getValue().getSExtValue());
    if (folded.min > folded.max)
      return diag.fail(clamp, "folded clamp range [" + Twine(folded.min) +
                                  ", " + Twine(folded.max) + "] is empty");
    value = clamp.getOutput();
  }
  return folded;
}

FailureOr<OutputRequant>
tosa_to_vmcu::matchOutputRequant(Operation *layer, Value acc, int64_t channels,
                                 Absorbed &absorbed, MatchDiag &diag) {
  auto rescale = acc.hasOneUse()
                     ? dyn_cast<tosa::RescaleOp>(*acc.getUsers().begin())
                     : tosa::RescaleOp();
  if (!rescale || rescale.getInput() != acc)
    return diag.fail(layer, "int32 accumulator must have exactly one user, "
                            "a tosa.rescale to int8");
  absorbed.push_back(rescale);
  if (!hasIntElements(rescale.getInput().getType(), 32) ||
      !hasIntElements(rescale.getOutput().getType(), 8))
    return diag.fail(rescale, "must rescale the int32 accumulator to int8, "
                              "got " +
                                  typeToString(rescale.getInput().getType()) +
                                  " -> " +
                                  typeToString(rescale.getOutput().getType()));
  FailureOr<RescaleParams> params = readRescale(rescale, diag);
  if (failed(params))
    return failure();
  if (params->inputZp != 0)
    return diag.fail(rescale, "input_zp of an int32 accumulator rescale must "
                              "be 0, got " +
                                  Twine(params->inputZp));
  int64_t n = params->multiplier.size();
  if (n != 1 && n != channels)
    return diag.fail(rescale, "has " + Twine(n) +
                                  " multipliers, expected 1 "
                                  "or " +
                                  Twine(channels));
  FailureOr<FoldedClamps> clamps =
      foldClamps(rescale.getOutput(), absorbed, diag);
  if (failed(clamps))
    return failure();

  OutputRequant result;
  result.requant =
      makeRequant(layer->getContext(), *params, clamps->min, clamps->max);
  result.ops.push_back(rescale);
  llvm::append_range(result.ops, clamps->ops);
  return result;
}

//===----------------------------------------------------------------------===//
// Input padding and slices
//===----------------------------------------------------------------------===//

LogicalResult tosa_to_vmcu::checkInt8Static(Operation *op, Type type,
                                            MatchDiag &diag) {
  if (!hasIntElements(type, 8) || !hasStaticShape(type))
    return diag.fail(op, "only int8 tensors of static shape are supported, "
                         "got " +
                             typeToString(type));
  return success();
}

LogicalResult tosa_to_vmcu::checkSlice(tosa::SliceOp op,
                                       SmallVector<int64_t> &start,
                                       MatchDiag &diag) {
  if (failed(checkInt8Static(op, op.getInput1().getType(), diag)))
    return failure();
  if (!tosa::getConstShapeValues(op.getStart().getDefiningOp(), start))
    return diag.fail(op, "start must be a tosa.const_shape value");
  return success();
}

bool tosa_to_vmcu::isFoldedWindowProducer(Operation *op) {
  if (!isa<tosa::PadOp, tosa::SliceOp>(op))
    return false;
  for (OpOperand &use : op->getResult(0).getUses()) {
    Operation *user = use.getOwner();
    if (use.getOperandNumber() != 0)
      return false;
    if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AvgPool2dOp,
            tosa::MaxPool2dOp>(user))
      continue;
    if (!isFoldedWindowProducer(user))
      return false;
  }
  return true;
}

namespace {
/// How one spatial dimension of a window layer's padded input maps to the
/// tensor at the bottom of its pad/slice chain: padded position `y` holds
/// element `y - offset` when `y` is in `[lo, hi)`, and the zero point
/// otherwise.
struct DimMap {
  int64_t offset;
  int64_t lo;
  int64_t hi;
};
} // namespace

/// True if some window of `kernel` with `stride` over `extent` padded
/// positions reads position `y`.
static bool isRead(int64_t y, int64_t extent, int64_t kernel, int64_t stride) {
  int64_t windows = (extent - kernel) / stride + 1;
  int64_t first = y >= kernel ? (y - kernel + stride) / stride : 0;
  return first < windows && first * stride <= y;
}

/// Maps `dims` (the layer's padded rows and columns onto the chain's
/// source) through one tosa.pad or tosa.slice of the chain.
static LogicalResult foldChainOp(Operation *op, int64_t inputZp,
                                 MutableArrayRef<DimMap> dims,
                                 MatchDiag &diag) {
  auto sourceType = cast<RankedTensorType>(op->getOperand(0).getType());
  if (!sourceType.hasStaticShape() || sourceType.getRank() != 4)
    return diag.fail(op, "requires a static 4-D input to fold into the "
                         "consumer's padding");
  if (auto padOp = dyn_cast<tosa::PadOp>(op)) {
    SmallVector<int64_t> padding;
    if (!tosa::getConstShapeValues(padOp.getPadding().getDefiningOp(), padding))
      return diag.fail(op, "padding must be a tosa.const_shape");
    if (padding[0] || padding[1] || padding[6] || padding[7])
      return diag.fail(op, "only H and W padding can be folded into the "
                           "consumer, got padding " +
                               listToString(padding));
    FailureOr<int64_t> value = getScalarConstant(padOp.getPadConst());
    if (failed(value))
      return diag.fail(op, "pad_const must be a constant");
    if (*value != inputZp)
      return diag.fail(op, "pads with " + Twine(*value) +
                               " but the consumer's input zero point is " +
                               Twine(inputZp) +
                               "; only zero-point padding folds exactly");
    for (int d = 0; d < 2; ++d) {
      DimMap &m = dims[d];
      m.offset += padding[2 + 2 * d];
      m.lo = std::max(m.lo, m.offset);
      m.hi = std::min(m.hi, m.offset + sourceType.getDimSize(1 + d));
    }
    return success();
  }
  auto slice = cast<tosa::SliceOp>(op);
  SmallVector<int64_t> start, size;
  if (!tosa::getConstShapeValues(slice.getStart().getDefiningOp(), start) ||
      !tosa::getConstShapeValues(slice.getSize().getDefiningOp(), size))
    return diag.fail(op, "start and size must be tosa.const_shape values");
  for (int64_t d : {0, 3})
    if (start[d] != 0 || size[d] != sourceType.getDimSize(d))
      return diag.fail(op, "only H and W slices can be folded into the "
                           "consumer, got start " +
                               listToString(start) + " and size " +
                               listToString(size));
  for (int d = 0; d < 2; ++d)
    dims[d].offset -= start[1 + d];
  return success();
}

/// The layer's own padding (before, after) of axis `d` once the chain is
/// folded into it, or an error on `blame` when the fold is not exact.
static FailureOr<std::pair<int64_t, int64_t>>
foldedPadding(int d, const DimMap &m, RankedTensorType inputType,
              RankedTensorType baseType, ArrayRef<int64_t> kernel,
              ArrayRef<int64_t> stride, ArrayRef<int64_t> pad, bool isAvgPool,
              Operation *blame, MatchDiag &diag) {
  StringRef dimName = d == 0 ? "row" : "column";
  int64_t extent = pad[2 * d] + inputType.getDimSize(1 + d) + pad[2 * d + 1];
  int64_t size = baseType.getDimSize(1 + d);
  int64_t before = m.offset, after = extent - m.offset - size;
  if (before < 0)
    return diag.fail(blame, "cannot be folded into the consumer's padding: it "
                            "would need negative padding (" +
                                Twine(before) + ", " + Twine(after) +
                                ") in the " + dimName + "s");
  // Trailing input the chain trims off stays in the layer's input when no
  // window reads it: vmcu layers floor the output size, TOSA cannot.
  if (after < 0) {
    int64_t kept = extent - kernel[d], grown = before + size - kernel[d];
    if (kept < 0 || grown / stride[d] != kept / stride[d])
      return diag.fail(
          blame, "cannot be folded into the consumer's padding: it "
                 "trims " +
                     Twine(-after) + " trailing " + dimName +
                     "s, but at most " +
                     Twine(kept < 0 ? 0 : stride[d] - 1 - kept % stride[d]) +
                     " can stay unread by the stride-" + Twine(stride[d]) +
                     " windows");
    after = 0;
  }
  auto checkUnread = [&](int64_t from, int64_t to,
                         StringRef what) -> LogicalResult {
    for (int64_t y = from; y < to; ++y) {
      if ((y >= m.lo && y < m.hi) || !isRead(y, extent, kernel[d], stride[d]))
        continue;
      return diag.fail(blame, "cannot be folded exactly: padded " + dimName +
                                  " " + Twine(y) + " is read and " + what);
    }
    return success();
  };
  // Zero-point padding that becomes data of the unsliced input.
  if (failed(checkUnread(before, before + size,
                         "would hold input data instead of padding")))
    return failure();
  // avg_pool2d counts tosa.pad elements but not its own padding.
  if (isAvgPool &&
      failed(checkUnread(pad[2 * d], pad[2 * d] + inputType.getDimSize(1 + d),
                         "would change tosa.avg_pool2d's divisor")))
    return failure();
  return std::make_pair(before, after);
}

FailureOr<InputWindow> tosa_to_vmcu::foldInputWindow(
    Operation *layer, Value input, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> pad, int64_t inputZp,
    bool isAvgPool, Absorbed &absorbed, MatchDiag &diag) {
  InputWindow window{input, SmallVector<int64_t, 4>(pad)};
  SmallVector<Operation *> chain;
  while (Operation *def = window.input.getDefiningOp()) {
    if (!isa<tosa::PadOp, tosa::SliceOp>(def))
      break;
    chain.push_back(def);
    window.input = def->getOperand(0);
  }
  if (chain.empty())
    return window;
  llvm::append_range(absorbed, chain);

  // The op to blame when the fold is not exact: the first slice, else the
  // pad nearest the layer.
  Operation *blame = chain.front();
  for (Operation *op : chain)
    if (isa<tosa::SliceOp>(op)) {
      blame = op;
      break;
    }

  auto inputType = cast<RankedTensorType>(input.getType());
  DimMap dims[2];
  for (int d = 0; d < 2; ++d) {
    int64_t before = pad[2 * d];
    dims[d] = {before, before, before + inputType.getDimSize(1 + d)};
  }
  for (Operation *op : chain)
    if (failed(foldChainOp(op, inputZp, dims, diag)))
      return failure();

  auto baseType = cast<RankedTensorType>(window.input.getType());
  for (int d = 0; d < 2; ++d) {
    auto padding = foldedPadding(d, dims[d], inputType, baseType, kernel,
                                 stride, pad, isAvgPool, blame, diag);
    if (failed(padding))
      return failure();
    std::tie(window.pad[2 * d], window.pad[2 * d + 1]) = *padding;
  }
  return window;
}
