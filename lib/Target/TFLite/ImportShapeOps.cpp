//===- ImportShapeOps.cpp - reshapes, pads, slices and reductions ---------===//
//
// The Importer's shape operators: RESHAPE (SQUEEZE, EXPAND_DIMS), PAD
// (folded into the convolutions it feeds), MEAN over H and W, TRANSPOSE,
// RESIZE_NEAREST_NEIGHBOR, CONCATENATION, SLICE and STRIDED_SLICE. Most
// move int8 bytes as TFLite Micro does; MEAN requantises its sum.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Utils/FixedPoint.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tflite;

LogicalResult Importer::importReshape(ArrayRef<int32_t> in, int32_t out) {
  FailureOr<QuantValue> x =
      inputActivation(in, 1, kAnyOperandCount, "an operand");
  if (failed(x))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outType->getNumElements() != x->getType().getNumElements())
    return opError() << "reshapes " << x->getType() << " to " << *outType;
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "changes the quantisation";
  QuantValue y = *x;
  if (outType->getShape() != x->getType().getShape())
    y.value = tosa.reshape(x->value, outType->getShape());
  define(out, y);
  return success();
}

LogicalResult Importer::importPad(ArrayRef<int32_t> in, int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 2, 2, "input and paddings");
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "pads an already padded tensor";
  if (x->getType().getRank() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int32_t>> pads = constantI32(in[1], 8);
  if (failed(pads))
    return failure();
  if ((*pads)[0] || (*pads)[1] || (*pads)[6] || (*pads)[7])
    return opError() << "pads the batch or channel dimension";
  if (llvm::any_of(*pads, [](int32_t p) { return p < 0; }))
    return opError() << "has a negative padding";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "changes the quantisation";
  QuantValue y = *x;
  for (int i = 0; i < 4; ++i)
    y.pad[i] = (*pads)[2 + i];
  if (!y.isPadded()) {
    define(out, y);
    return success();
  }
  // A PAD pads with the zero point, which is what a convolution's own
  // padding does: fold it into every consumer.
  for (auto [user, operand] : readers[out]) {
    if (!live[user])
      continue;
    int32_t code = opRefs[user].code;
    bool window = code == static_cast<int32_t>(Builtin::Conv2D) ||
                  code == static_cast<int32_t>(Builtin::DepthwiseConv2D);
    if (!window || operand != 0)
      return opError() << "feeds operator #" << user << " ("
                       << builtinName(code)
                       << "); vmcu folds a PAD only into the input of a "
                          "CONV_2D or DEPTHWISE_CONV_2D";
  }
  define(out, y);
  return success();
}

FailureOr<SmallVector<int64_t>> Importer::meanAxes(int32_t index,
                                                   int64_t rank) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "axes tensor " << index << " does not exist";
  // At most one entry per dimension of the input.
  std::optional<int64_t> count = boundedElements(tensors[index].shape, rank);
  if (!count)
    return opError() << "axes tensor '" << tensors[index].name
                     << "' needs a positive shape of at most " << rank
                     << " elements";
  FailureOr<SmallVector<int32_t>> raw = constantI32(index, *count);
  if (failed(raw))
    return failure();
  SmallVector<int64_t> axes;
  for (int32_t a : *raw) {
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank)
      return opError() << "axis " << a << " is out of range for rank " << rank;
    if (!llvm::is_contained(axes, axis))
      axes.push_back(axis);
  }
  llvm::sort(axes);
  return axes;
}

/// TFLM's int8 MEAN (reference_ops::QuantizedMeanOrSum, integer): the
/// input/output scale ratio as (m, s), 1/n folded into it as
/// m' = (m << sh) / n, s' = s - sh with sh = min(floor(log2 n), 32, 31 + s),
/// then out = MultiplyByQuantizedMultiplier(sum(x - zp), m', s') + out_zp.
/// In TOSA that is a depthwise window of ones over H x W and a rescale.
LogicalResult Importer::importMean(Table op, ArrayRef<int32_t> in,
                                   int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 2, 2, "input and axes");
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "reads a padded tensor";
  ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.size() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int64_t>> axes = meanAxes(in[1], 4);
  if (failed(axes))
    return failure();
  if (*axes != SmallVector<int64_t>{1, 2}) {
    auto diag = opError() << "reduces axes [";
    llvm::interleaveComma(*axes, diag);
    return diag << "]; vmcu takes the MEAN over H and W (axes 1 and 2)";
  }
  std::optional<uint8_t> keepDims =
      optionScalar<uint8_t>(op, reducer_options::kKeepDims, 0);
  if (!keepDims)
    return opError() << "has malformed options";
  int64_t batch = shape[0], h = shape[1], w = shape[2], c = shape[3];
  int64_t n = h * w;
  double outScale;
  int32_t outZp;
  SmallVector<int64_t> outShape = *keepDims
                                      ? SmallVector<int64_t>{batch, 1, 1, c}
                                      : SmallVector<int64_t>{batch, c};
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, outShape)))
    return failure();
  fixedpoint::QuantizedMultiplier ratio =
      fixedpoint::quantizeMultiplier(x->scale / outScale);
  int foldShift =
      std::min<int>({static_cast<int>(llvm::Log2_64(n)), 32, 31 + ratio.shift});
  auto folded = static_cast<int32_t>(
      (static_cast<int64_t>(ratio.multiplier) << foldShift) / n);
  int shift = ratio.shift - foldShift;
  // TFLite shifts the sum left by `shift` in int32 first.
  constexpr int64_t kMaxInt8Difference = 255;
  if (!fixedpoint::leftShiftFitsInt32(kMaxInt8Difference * n, shift))
    return opError() << "rescales the sum of " << n << " values left by "
                     << shift << " bits, which overflows TFLite's int32 "
                     << "arithmetic";
  llvm::Expected<Multiplier> m = tfliteMultiplier(folded, shift);
  if (!m)
    return opError() << llvm::toString(m.takeError());
  DimPads whole{0, 0, 0, 1};
  Value sum = tosa.depthwiseConv2d(x->value, x->zp, {h, w, c, 1},
                                   SmallVector<int8_t>(n * c, 1),
                                   SmallVector<int32_t>(c, 0), whole, whole,
                                   /*strideH=*/1, /*strideW=*/1);
  auto outType =
      cast<RankedTensorType>(sum.getType()).clone(builder.getI8Type());
  Value y = tosa.rescale(sum, outType, {*m}, 0, outZp, /*perChannel=*/false);
  if (!*keepDims)
    y = tosa.reshape(y, outShape);
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

LogicalResult Importer::importTranspose(ArrayRef<int32_t> in, int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 2, 2, "input and perm");
  if (failed(x))
    return failure();
  RankedTensorType inType = x->getType();
  int64_t rank = inType.getRank();
  FailureOr<SmallVector<int32_t>> perm = constantI32(in[1], rank);
  if (failed(perm))
    return failure();
  SmallVector<int64_t> shape;
  llvm::SmallBitVector seen(rank);
  for (int32_t p : *perm) {
    if (p < 0 || p >= rank || seen.test(p))
      return opError() << "perm is not a permutation of 0.." << rank - 1;
    seen.set(p);
    shape.push_back(inType.getDimSize(p));
  }
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, shape)))
    return failure();
  // TFLite Micro copies the int8 bytes.
  Value y = tosa::TransposeOp::create(builder, tosa.getLoc(),
                                      inType.clone(shape), x->value, *perm);
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

/// reference_ops::GetNearestNeighbor for every output index: the input
/// index TFLite Micro reads, in its float arithmetic (TfLiteRound rounds
/// half away from zero).
static SmallVector<int64_t> nearestIndexMap(int32_t inSize, int32_t outSize,
                                            bool alignCorners,
                                            bool halfPixelCenters) {
  float scale =
      alignCorners && outSize > 1
          ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
          : static_cast<float>(inSize) / static_cast<float>(outSize);
  float offset = halfPixelCenters ? 0.5f : 0.0f;
  SmallVector<int64_t> map;
  for (int32_t o = 0; o < outSize; ++o) {
    float position = (static_cast<float>(o) + offset) * scale;
    auto index = static_cast<int32_t>(alignCorners ? std::round(position)
                                                   : std::floor(position));
    index = std::min(index, inSize - 1);
    if (halfPixelCenters)
      index = std::max(index, 0);
    map.push_back(index);
  }
  return map;
}

/// RESIZE_NEAREST_NEIGHBOR to the constant [height, width]: the index maps
/// TFLite Micro computes, as a vmcu.resize_nearest (TOSA's resize rounds
/// its own way, so the maps go straight to the layer). The bytes are
/// copied, whatever the output's quantisation, as TFLite Micro does.
LogicalResult Importer::importResizeNearest(Table op, ArrayRef<int32_t> in,
                                            int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 2, 2, "input and size");
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.size() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int32_t>> size = constantI32(in[1], 2);
  if (failed(size))
    return failure();
  if ((*size)[0] < 1 || (*size)[1] < 1)
    return opError() << "output size must be positive, got " << (*size)[0]
                     << "x" << (*size)[1];
  std::optional<uint8_t> align =
      optionScalar<uint8_t>(op, resize_nearest_options::kAlignCorners, 0);
  std::optional<uint8_t> halfPixel =
      optionScalar<uint8_t>(op, resize_nearest_options::kHalfPixelCenters, 0);
  if (!align || !halfPixel)
    return opError() << "has malformed options";
  SmallVector<int64_t> outShape = {shape[0], (*size)[0], (*size)[1], shape[3]};
  double outScale;
  int32_t outZp;
  // The declared output is bounded (activationType) before the maps are.
  if (failed(activationType(out)) ||
      failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, outShape)))
    return failure();
  auto inSize = [&](int d) { return static_cast<int32_t>(shape[d]); };
  SmallVector<int64_t> rows =
      nearestIndexMap(inSize(1), (*size)[0], *align, *halfPixel);
  SmallVector<int64_t> cols =
      nearestIndexMap(inSize(2), (*size)[1], *align, *halfPixel);
  Value y = ResizeNearestOp::create(
      builder, tosa.getLoc(), x->getType().clone(outShape), x->value,
      builder.getDenseI64ArrayAttr(rows), builder.getDenseI64ArrayAttr(cols),
      IntegerAttr());
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

LogicalResult Importer::importConcatenation(Table op, ArrayRef<int32_t> in,
                                            int32_t out) {
  if (in.empty())
    return opError() << "expects at least one operand";
  std::optional<int32_t> axis =
      optionScalar<int32_t>(op, concatenation_options::kAxis, 0);
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, concatenation_options::kActivation, 0);
  if (!axis || !act)
    return opError() << "has malformed options";
  // TFLite Micro's Prepare rejects a fused activation.
  if (*act != static_cast<int8_t>(Activation::None))
    return opError() << "has a fused activation; TFLite Micro's "
                        "CONCATENATION takes none";
  SmallVector<Value> pieces;
  for (auto [i, t] : llvm::enumerate(in)) {
    if (isConstantOperand(t))
      return opError() << "operand #" << i << " is a constant; vmcu "
                       << "concatenates activations";
    FailureOr<QuantValue> x = activation(t);
    if (failed(x))
      return failure();
    pieces.push_back(x->value);
  }
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)))
    return failure();
  int64_t rank = outType->getRank();
  int64_t positive = *axis < 0 ? *axis + rank : *axis;
  if (positive < 0 || positive >= rank)
    return opError() << "axis " << *axis << " is outside rank " << rank;
  int64_t extent = 0;
  for (Value piece : pieces) {
    auto type = cast<RankedTensorType>(piece.getType());
    bool sameElsewhere = type.getRank() == rank;
    for (int64_t d = 0; sameElsewhere && d < rank; ++d)
      sameElsewhere =
          d == positive || type.getDimSize(d) == outType->getDimSize(d);
    if (!sameElsewhere)
      return opError() << "operand " << type << " does not fit output "
                       << *outType << " along axis " << positive;
    extent += type.getDimSize(positive);
  }
  if (extent != outType->getDimSize(positive))
    return opError() << "operands add up to " << extent << " along axis "
                     << positive << ", the output has "
                     << outType->getDimSize(positive);
  // TFLite Micro copies the int8 bytes whatever the operands' scales.
  Value y = tosa.concat(pieces, static_cast<int32_t>(positive));
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

FailureOr<std::pair<int64_t, int64_t>>
Importer::stridedAxis(Table op, int64_t d, int64_t extent, int32_t begin,
                      int32_t end, int32_t stride) {
  namespace so = strided_slice_options;
  auto maskBit = [&](unsigned field) -> std::optional<bool> {
    std::optional<int32_t> mask = optionScalar<int32_t>(op, field, 0);
    if (!mask)
      return std::nullopt;
    return (*mask >> d) & 1;
  };
  std::optional<bool> beginMask = maskBit(so::kBeginMask);
  std::optional<bool> endMask = maskBit(so::kEndMask);
  std::optional<bool> shrink = maskBit(so::kShrinkAxisMask);
  std::optional<bool> offset = optionScalar<bool>(op, so::kOffset, false);
  if (!beginMask || !endMask || !shrink || !offset)
    return opError() << "has malformed options";
  int64_t first = begin < 0 ? begin + extent : begin;
  first = *beginMask ? 0 : std::clamp<int64_t>(first, 0, extent);
  int64_t stop;
  if (*shrink) {
    stop = first >= extent ? first : first + 1;
  } else {
    stop = *offset ? int64_t(end) + first : int64_t(end);
    stop = stop < 0 ? stop + extent : stop;
    stop = *endMask ? extent : std::clamp<int64_t>(stop, 0, extent);
  }
  int64_t count = stop > first ? (stop - first + stride - 1) / stride : 0;
  return std::make_pair(first, count);
}

FailureOr<Importer::SliceBox>
Importer::sliceBox(Table op, RankedTensorType inType, ArrayRef<int32_t> begin,
                   ArrayRef<int32_t> second, ArrayRef<int32_t> strides,
                   bool strided) {
  namespace so = strided_slice_options;
  int64_t rank = inType.getRank();
  SliceBox box{SmallVector<int64_t>(rank, 0),
               SmallVector<int64_t>(inType.getShape()),
               SmallVector<int64_t>(rank, 1),
               {}};
  SmallVector<int64_t> &start = box.start, &size = box.size,
                       &stride = box.stride;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = inType.getDimSize(d);
    int32_t step = strides[d];
    if (step <= 0)
      return opError() << "has stride " << step << " on axis " << d
                       << "; vmcu imports positive strides";
    bool shrunk = false;
    if (strided) {
      FailureOr<std::pair<int64_t, int64_t>> axis =
          stridedAxis(op, d, extent, begin[d], second[d], step);
      std::optional<int32_t> mask =
          optionScalar<int32_t>(op, so::kShrinkAxisMask, 0);
      if (failed(axis) || !mask)
        return failure();
      std::tie(start[d], size[d]) = *axis;
      shrunk = (*mask >> d) & 1;
    } else {
      start[d] = begin[d];
      size[d] = second[d] == -1 ? extent - start[d] : second[d];
    }
    stride[d] = step;
    if (start[d] < 0 || size[d] < 1 ||
        start[d] + (size[d] - 1) * stride[d] >= extent)
      return opError() << "selects " << size[d] << " elements from " << start[d]
                       << " on axis " << d << " of " << extent;
    if (!shrunk)
      box.kept.push_back(size[d]);
  }
  return box;
}

/// TFLite Micro's STRIDED_SLICE handles up to 5 dimensions (kMaxDim).
constexpr int64_t kMaxSliceRank = 5;
/// SLICE: input, begin, size; STRIDED_SLICE: input, begin, end, strides.
constexpr unsigned kSliceOperands = 3, kStridedSliceOperands = 4;

LogicalResult Importer::importSlice(Table op, ArrayRef<int32_t> in, int32_t out,
                                    bool strided) {
  namespace so = strided_slice_options;
  unsigned operands = strided ? kStridedSliceOperands : kSliceOperands;
  FailureOr<QuantValue> x =
      inputActivation(in, operands, operands, Twine(operands) + " operands");
  if (failed(x))
    return failure();
  RankedTensorType inType = x->getType();
  int64_t rank = inType.getRank();
  if (rank > kMaxSliceRank)
    return opError() << "slices a rank-" << rank << " tensor; TFLite Micro "
                     << "slices up to rank " << kMaxSliceRank;
  // TFLite Micro reads one begin (end, stride, size) per input dimension.
  FailureOr<SmallVector<int32_t>> begin = constantI32(in[1], rank);
  FailureOr<SmallVector<int32_t>> second = constantI32(in[2], rank);
  FailureOr<SmallVector<int32_t>> strides =
      strided ? constantI32(in[3], rank)
              : FailureOr<SmallVector<int32_t>>(SmallVector<int32_t>(rank, 1));
  if (failed(begin) || failed(second) || failed(strides))
    return failure();
  if (strided) {
    std::optional<int32_t> ellipsis =
        optionScalar<int32_t>(op, so::kEllipsisMask, 0);
    std::optional<int32_t> newAxis =
        optionScalar<int32_t>(op, so::kNewAxisMask, 0);
    if (!ellipsis || !newAxis)
      return opError() << "has malformed options";
    if (*ellipsis || *newAxis)
      return opError() << "uses an ellipsis or new-axis mask; vmcu "
                          "imports STRIDED_SLICE without them";
  }
  FailureOr<SliceBox> box =
      sliceBox(op, inType, *begin, *second, *strides, strided);
  if (failed(box))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  // TFLite Micro checks the output's shape: the box without shrunk axes.
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, box->kept)))
    return failure();
  auto boxType = inType.clone(box->size);
  // TOSA's slice where every stride is 1; vmcu.slice otherwise.
  Value y;
  if (llvm::all_of(box->stride, [](int64_t s) { return s == 1; }))
    y = tosa.slice(x->value, box->start, box->size);
  else
    y = SliceOp::create(builder, tosa.getLoc(), boxType, x->value,
                        builder.getDenseI64ArrayAttr(box->start),
                        builder.getDenseI64ArrayAttr(box->stride),
                        IntegerAttr());
  if (boxType.getShape() != outType->getShape())
    y = tosa.reshape(y, outType->getShape());
  // TFLM copies the int8 bytes whatever the output's quantisation.
  define(out, QuantValue{y, outScale, outZp});
  return success();
}
