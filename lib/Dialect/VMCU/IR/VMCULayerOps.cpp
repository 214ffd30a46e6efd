//===- VMCULayerOps.cpp - vmcu layer operations ---------------------------===//
//
// Verifiers and accessors of the layer ops (conv, depthwise, fully
// connected, elementwise, pooling, shape ops, the fused bottleneck) that
// vmcu-tosa-to-vmcu produces and the planning passes tile.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Support/TargetConstants.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::vmcu;

//===----------------------------------------------------------------------===//
// Shared layer verification
//===----------------------------------------------------------------------===//

static LogicalResult verifyStaticShapes(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape())
      return op->emitOpError("requires static shapes, got ") << t;
  return success();
}

/// Static shapes with every dimension at least 1: what the data movement
/// layers (concat, slice, transpose) divide into rows and segments.
static LogicalResult verifyNonEmptyShapes(Operation *op) {
  if (failed(verifyStaticShapes(op)))
    return failure();
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && llvm::is_contained(shaped.getShape(), 0))
      return op->emitOpError("needs tensors without empty dimensions, got ")
             << t;
  return success();
}

/// Checks a zero point or clamp bound; I32Attr values arrive zero-extended.
static LogicalResult verifyZeroPoint(Operation *op, StringRef name,
                                     uint32_t raw) {
  int64_t zp = static_cast<int32_t>(raw);
  if (zp < kInt8Min || zp > kInt8Max)
    return op->emitOpError()
           << name << " must be in the int8 range, got " << zp;
  return success();
}

/// Checks the folded requantisation against `channels` output channels.
static LogicalResult verifyRequant(Operation *op, StringRef name,
                                   RequantAttr requant, int64_t channels,
                                   bool fromAccumulator) {
  size_t n = requant.getNumChannels();
  if (n != 1 && static_cast<int64_t>(n) != channels)
    return op->emitOpError()
           << name << " has " << n << " channels, expected 1 or " << channels;
  if (fromAccumulator && requant.getInputZp() != 0)
    return op->emitOpError()
           << name << " rescales an int32 accumulator, its input_zp must be 0";
  return success();
}

/// Verifies the NHWC window geometry shared by conv, depthwise and pooling:
/// output rows P = floor((H + pt + pb - R) / sh) + 1. Unlike TOSA, the
/// division need not be exact: the last (H + pt + pb - R) % sh input rows
/// are then never read (TFLite's strided convolutions on even sizes), which
/// is only consistent when pb is 0.
static LogicalResult verifyWindow(Operation *op, ShapedType input, int64_t kh,
                                  int64_t kw, ArrayRef<int64_t> stride,
                                  ArrayRef<int64_t> pad, ShapedType output,
                                  int64_t outChannels) {
  if (stride.size() != 2)
    return op->emitOpError("stride must have 2 entries, got ") << stride.size();
  if (pad.size() != 4)
    return op->emitOpError("pad must have 4 entries [top, bottom, left, "
                           "right], got ")
           << pad.size();
  if (llvm::any_of(stride, [](int64_t s) { return s < 1; }))
    return op->emitOpError("stride must be positive");
  if (llvm::any_of(pad, [](int64_t p) { return p < 0; }))
    return op->emitOpError("pad must be non-negative");
  if (input.getDimSize(0) != 1)
    return op->emitOpError("batch must be 1, got ") << input.getDimSize(0);
  if (kh < 1 || kw < 1)
    return op->emitOpError("kernel must be at least 1x1, got ")
           << kh << "x" << kw;

  int64_t extents[2] = {input.getDimSize(1) + pad[0] + pad[1] - kh,
                        input.getDimSize(2) + pad[2] + pad[3] - kw};
  int64_t expected[2];
  for (int i = 0; i < 2; ++i) {
    if (extents[i] < 0)
      return op->emitOpError("kernel is larger than the padded input in ")
             << (i == 0 ? "height" : "width");
    // Trailing positions no window reads must be input data, not padding.
    int64_t unread = extents[i] % stride[i], after = pad[2 * i + 1];
    if (unread != 0 && after != 0)
      return op->emitOpError("padded ")
             << (i == 0 ? "height" : "width") << " minus kernel (" << extents[i]
             << ") leaves " << unread
             << " trailing position(s) no window reads, but pad "
             << (i == 0 ? "bottom" : "right") << " is " << after
             << "; unread positions must be input, not padding";
    expected[i] = extents[i] / stride[i] + 1;
  }
  SmallVector<int64_t> want = {1, expected[0], expected[1], outChannels};
  if (output.getShape() != ArrayRef<int64_t>(want))
    return op->emitOpError("output shape must be [1, ")
           << want[1] << ", " << want[2] << ", " << want[3] << "], got "
           << output;
  return success();
}

static LogicalResult verifyBias(Operation *op, ShapedType bias,
                                int64_t channels) {
  if (bias.getDimSize(0) != channels)
    return op->emitOpError("bias must have ")
           << channels << " elements, got " << bias.getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

bool Conv2DOp::isPointwise() {
  auto w = getWeight().getType();
  return w.getDimSize(1) == 1 && w.getDimSize(2) == 1;
}

/// A layer's folded residual ADD: the operand and the attribute together,
/// the residual of the output's type, per-tensor operand rescales and a
/// requantization per output channel.
static LogicalResult verifyResidualAdd(Operation *op, Value residual,
                                       ResidualAddAttr add,
                                       RankedTensorType output) {
  if (!residual && !add)
    return success();
  if (!residual || !add)
    return op->emitOpError("a residual operand and residual_add go together");
  if (residual.getType() != output)
    return op->emitOpError("residual must have the output's type ")
           << output << ", got " << residual.getType();
  for (auto [name, attr] :
       {std::pair<StringRef, RequantAttr>{"residual_add conv", add.getConv()},
        {"residual_add skip", add.getSkip()}}) {
    if (attr.isPerChannel())
      return op->emitOpError() << name << " rescale must be per-tensor";
    if (failed(
            verifyZeroPoint(op, (name + " input_zp").str(), attr.getInputZp())))
      return failure();
  }
  return verifyRequant(op, "residual_add requant", add.getRequant(),
                       output.getDimSize(3), /*fromAccumulator=*/true);
}

RankedTensorType Conv2DOp::getConvType() {
  auto out = getOutput().getType();
  ArrayRef<int64_t> stride = getStride(), pad = getPad();
  if (!hasFoldedPool() || stride.size() != 2 || pad.size() != 4)
    return out;
  auto in = getInput().getType(), w = getWeight().getType();
  // As verifyWindow: P = (H + pad_top + pad_bottom - R) / stride_h + 1.
  int64_t rows = in.getDimSize(1) + pad[0] + pad[1] - w.getDimSize(1);
  int64_t cols = in.getDimSize(2) + pad[2] + pad[3] - w.getDimSize(2);
  if (rows < 0 || cols < 0 || stride[0] < 1 || stride[1] < 1)
    return out; // verifyWindow reports it.
  return RankedTensorType::get(
      {1, rows / stride[0] + 1, cols / stride[1] + 1, w.getDimSize(0)},
      out.getElementType());
}

/// The average of a folded pool attribute `name` (global_avg_pool's or
/// window_avg_pool's): int8 zero points and clamp, equal zero points for
/// TFLite's average.
template <typename PoolAttr>
static LogicalResult verifyPoolAverage(Conv2DOp op, StringRef name,
                                       PoolAttr pool) {
  for (auto [field, value] :
       {std::pair<StringRef, int32_t>{"input_zp", pool.getInputZp()},
        {"output_zp", pool.getOutputZp()},
        {"min", pool.getMin()},
        {"max", pool.getMax()}})
    if (failed(verifyZeroPoint(op, (name + " " + field).str(), value)))
      return failure();
  if (pool.getMin() > pool.getMax())
    return op.emitOpError()
           << name << " min (" << pool.getMin() << ") is greater than max ("
           << pool.getMax() << ")";
  if (pool.getRoundHalfAway() && pool.getInputZp() != pool.getOutputZp())
    return op.emitOpError()
           << name
           << " round_half_away (TFLite's average) needs equal input and "
              "output zero points, got "
           << pool.getInputZp() << " and " << pool.getOutputZp();
  return success();
}

/// A folded global average pool: a `[1,1,1,K]` result, no residual, int8
/// zero points and clamp, equal zero points for TFLite's average.
static LogicalResult verifyGlobalAvgPool(Conv2DOp op) {
  GlobalAvgPoolAttr pool = op.getGlobalAvgPoolAttr();
  if (!pool)
    return success();
  auto out = op.getOutput().getType();
  int64_t k = op.getWeight().getType().getDimSize(0);
  if (out.getShape() != ArrayRef<int64_t>({1, 1, 1, k}))
    return op.emitOpError("with global_avg_pool the output must be [1, 1, 1, ")
           << k << "], got " << out;
  if (op.getResidual())
    return op.emitOpError("global_avg_pool takes no residual");
  if (failed(verifyPoolAverage(op, "global_avg_pool", pool)))
    return failure();
  RequantAttr rq = pool.getRequant();
  if (!rq)
    return success();
  if (pool.getRoundHalfAway())
    return op.emitOpError(
        "global_avg_pool takes round_half_away or a requant, not both");
  if (rq.getOutputZp() != pool.getOutputZp() || rq.getMin() != pool.getMin() ||
      rq.getMax() != pool.getMax())
    return op.emitOpError("global_avg_pool output_zp, min and max must be its "
                          "requant's");
  return verifyRequant(op, "global_avg_pool requant", rq, k,
                       /*fromAccumulator=*/true);
}

/// A folded window pool: non-overlapping windows of at least one pixel
/// within the conv's plane, a `[1, P / kh, Q / kw, K]` result, no
/// residual, the clamp and zero points of an average pool.
static LogicalResult verifyWindowAvgPool(Conv2DOp op) {
  WindowAvgPoolAttr pool = op.getWindowAvgPoolAttr();
  if (!pool)
    return success();
  if (op.getResidual())
    return op.emitOpError("window_avg_pool takes no residual");
  int64_t kh = pool.getKernelH(), kw = pool.getKernelW();
  auto plane = op.getConvType();
  if (kh < 1 || kw < 1 || kh > plane.getDimSize(1) || kw > plane.getDimSize(2))
    return op.emitOpError("window_avg_pool kernel ")
           << kh << "x" << kw << " must be positive and within the conv's "
           << plane.getDimSize(1) << "x" << plane.getDimSize(2) << " plane";
  auto pooled =
      RankedTensorType::get({1, plane.getDimSize(1) / kh,
                             plane.getDimSize(2) / kw, plane.getDimSize(3)},
                            plane.getElementType());
  if (op.getOutput().getType() != pooled)
    return op.emitOpError("with window_avg_pool ")
           << kh << "x" << kw << " over " << plane << " the output must be "
           << pooled << ", got " << op.getOutput().getType();
  return verifyPoolAverage(op, "window_avg_pool", pool);
}

LogicalResult Conv2DOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto in = getInput().getType(), w = getWeight().getType();
  if (w.getDimSize(3) != in.getDimSize(3))
    return emitOpError("weight input channels (")
           << w.getDimSize(3) << ") must match the input channels ("
           << in.getDimSize(3) << ")";
  int64_t k = w.getDimSize(0);
  if (getGlobalAvgPoolAttr() && getWindowAvgPoolAttr())
    return emitOpError("takes global_avg_pool or window_avg_pool, not both");
  if (failed(verifyGlobalAvgPool(*this)) ||
      failed(verifyWindow(*this, in, w.getDimSize(1), w.getDimSize(2),
                          getStride(), getPad(), getConvType(), k)) ||
      failed(verifyWindowAvgPool(*this)) ||
      failed(verifyBias(*this, getBias().getType(), k)) ||
      failed(verifyZeroPoint(*this, "input_zp", getInputZp())))
    return failure();
  if (failed(verifyRequant(*this, "requant", getRequant(), k,
                           /*fromAccumulator=*/true)))
    return failure();
  return verifyResidualAdd(*this, getResidual(), getResidualAddAttr(),
                           getOutput().getType());
}

Value Conv2DOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> Conv2DOp::getSegmentedExtents() {
  return {getInput().getType().getDimSize(3),
          getOutput().getType().getDimSize(3)};
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DOp
//===----------------------------------------------------------------------===//

LogicalResult DepthwiseConv2DOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto in = getInput().getType(), w = getWeight().getType();
  int64_t c = getOutput().getType().getDimSize(3);
  if (c % in.getDimSize(3) != 0)
    return emitOpError("output channels ")
           << c << " must be a multiple of the input's " << in.getDimSize(3)
           << " (a depth multiplier)";
  if (w.getDimSize(2) != c || w.getDimSize(3) != 1)
    return emitOpError("weight must be [R, S, ")
           << c << ", 1] (output channel c * M + m at c * M + m), got " << w;
  if (failed(verifyWindow(*this, in, w.getDimSize(0), w.getDimSize(1),
                          getStride(), getPad(), getOutput().getType(), c)) ||
      failed(verifyBias(*this, getBias().getType(), c)) ||
      failed(verifyZeroPoint(*this, "input_zp", getInputZp())))
    return failure();
  return verifyRequant(*this, "requant", getRequant(), c,
                       /*fromAccumulator=*/true);
}

Value DepthwiseConv2DOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> DepthwiseConv2DOp::getSegmentedExtents() {
  return {getInput().getType().getDimSize(3),
          getOutput().getType().getDimSize(3)};
}

//===----------------------------------------------------------------------===//
// FullyConnectedOp
//===----------------------------------------------------------------------===//

LogicalResult FullyConnectedOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto in = getInput().getType(), w = getWeight().getType();
  int64_t m = in.getDimSize(0), k = in.getDimSize(1), n = w.getDimSize(0);
  if (w.getDimSize(1) != k)
    return emitOpError("weight must be [N, ")
           << k << "] to match the input rows, got " << w;
  SmallVector<int64_t> want = {m, n};
  if (getOutput().getType().getShape() != ArrayRef<int64_t>(want))
    return emitOpError("output shape must be [")
           << m << ", " << n << "], got " << getOutput().getType();
  if (failed(verifyBias(*this, getBias().getType(), n)) ||
      failed(verifyZeroPoint(*this, "input_zp", getInputZp())))
    return failure();
  return verifyRequant(*this, "requant", getRequant(), n,
                       /*fromAccumulator=*/true);
}

Value FullyConnectedOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> FullyConnectedOp::getSegmentedExtents() {
  return {getInput().getType().getDimSize(1),
          getOutput().getType().getDimSize(1)};
}

//===----------------------------------------------------------------------===//
// AddOp
//===----------------------------------------------------------------------===//

/// Whether `v` is a compile-time constant (the kernel reads it from flash).
static bool isConstantOperand(Value v) { return matchPattern(v, m_Constant()); }

/// The operands of an element-wise binary layer broadcast to its output
/// (NumPy/TOSA rules at equal rank): every operand dimension is the
/// output's or 1, the output's is the larger of the two, and at most one
/// operand is a constant (the kernel reads at least one from the ring).
static LogicalResult verifyBroadcastOperands(Operation *op, Value lhs,
                                             Value rhs, ShapedType out) {
  auto lhsType = cast<ShapedType>(lhs.getType());
  auto rhsType = cast<ShapedType>(rhs.getType());
  auto fail = [&]() {
    return op->emitOpError("operands must broadcast to the result (same "
                           "rank, each dimension the result's or 1, the "
                           "result's the larger), got ")
           << lhs.getType() << ", " << rhs.getType() << " -> " << out;
  };
  if (out.getRank() < 1)
    return op->emitOpError("requires ranked tensors of rank >= 1");
  if (lhsType.getRank() != out.getRank() || rhsType.getRank() != out.getRank())
    return fail();
  for (int64_t d = 0; d < out.getRank(); ++d) {
    int64_t l = lhsType.getDimSize(d), r = rhsType.getDimSize(d),
            o = out.getDimSize(d);
    if ((l != o && l != 1) || (r != o && r != 1) || std::max(l, r) != o)
      return fail();
  }
  if (isConstantOperand(lhs) && isConstantOperand(rhs))
    return op->emitOpError("has two constant operands; fold them first");
  return success();
}

/// The first operand of a binary layer that is not a constant.
static Value firstActivation(Value lhs, Value rhs) {
  return isConstantOperand(lhs) ? rhs : lhs;
}

/// The innermost extents segments tile: the output's and those of the
/// operands read from the ring (a channel-broadcast one has 1).
static SmallVector<int64_t> binarySegmentedExtents(Value lhs, Value rhs,
                                                   ShapedType out) {
  // The interface verifier asks before the op's own verifier has checked
  // ranks: a tensor without a last dimension has no extents to offer.
  auto hasInnermost = [](Type t) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && ranked.getRank() > 0;
  };
  if (!hasInnermost(out) || !hasInnermost(lhs.getType()) ||
      !hasInnermost(rhs.getType()))
    return {};
  SmallVector<int64_t> extents = {out.getShape().back()};
  for (Value v : {lhs, rhs})
    if (!isConstantOperand(v))
      extents.push_back(cast<ShapedType>(v.getType()).getShape().back());
  return extents;
}

LogicalResult AddOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto type = getOutput().getType();
  if (failed(verifyBroadcastOperands(*this, getLhs(), getRhs(), type)))
    return failure();
  int64_t c = type.getDimSize(type.getRank() - 1);
  for (auto [name, attr] :
       {std::pair<StringRef, RequantAttr>{"lhs_rescale", getLhsRescale()},
        {"rhs_rescale", getRhsRescale()}}) {
    if (attr.isPerChannel())
      return emitOpError() << name << " must be per-tensor";
    if (failed(verifyZeroPoint(*this, (name + " input_zp").str(),
                               attr.getInputZp())))
      return failure();
  }
  return verifyRequant(*this, "requant", getRequant(), c,
                       /*fromAccumulator=*/true);
}

Value AddOp::getActivationInput() {
  return firstActivation(getLhs(), getRhs());
}
SmallVector<int64_t> AddOp::getSegmentedExtents() {
  return binarySegmentedExtents(getLhs(), getRhs(), getOutput().getType());
}

//===----------------------------------------------------------------------===//
// BatchMatMulOp
//===----------------------------------------------------------------------===//

LogicalResult BatchMatMulOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  ArrayRef<int64_t> a = getLhs().getType().getShape();
  ArrayRef<int64_t> b = getRhs().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  if (a[0] != b[0] || a[2] != b[1] || out[0] != a[0] || out[1] != a[1] ||
      out[2] != b[2])
    return emitOpError("expects lhs [B, M, K], rhs [B, K, N] and output "
                       "[B, M, N], got ")
           << getLhs().getType() << ", " << getRhs().getType() << " -> "
           << getOutput().getType();
  for (auto [name, zp] : {std::pair<StringRef, int64_t>{"lhs_zp", getLhsZp()},
                          {"rhs_zp", getRhsZp()}})
    if (failed(verifyZeroPoint(*this, name, zp)))
      return failure();
  if (getRequant().getNumChannels() != 1)
    return emitOpError("requant must be per tensor (1 channel), got ")
           << getRequant().getNumChannels();
  return verifyRequant(*this, "requant", getRequant(), 1,
                       /*fromAccumulator=*/true);
}

/// The output is placed against the lhs; the rhs is a further ring input.
Value BatchMatMulOp::getActivationInput() { return getLhs(); }
SmallVector<int64_t> BatchMatMulOp::getSegmentedExtents() {
  return {getLhs().getType().getDimSize(2), getRhs().getType().getDimSize(2)};
}

//===----------------------------------------------------------------------===//
// MulOp
//===----------------------------------------------------------------------===//

LogicalResult MulOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto out = getOutput().getType();
  if (failed(verifyBroadcastOperands(*this, getLhs(), getRhs(), out)))
    return failure();
  for (auto [name, zp] : {std::pair<StringRef, int64_t>{"lhs_zp", getLhsZp()},
                          {"rhs_zp", getRhsZp()}})
    if (failed(verifyZeroPoint(*this, name, zp)))
      return failure();
  return verifyRequant(*this, "requant", getRequant(),
                       out.getDimSize(out.getRank() - 1),
                       /*fromAccumulator=*/true);
}

/// As for vmcu.add: the first operand that is not a constant.
Value MulOp::getActivationInput() {
  return firstActivation(getLhs(), getRhs());
}
SmallVector<int64_t> MulOp::getSegmentedExtents() {
  return binarySegmentedExtents(getLhs(), getRhs(), getOutput().getType());
}

//===----------------------------------------------------------------------===//
// AvgPool2DOp
//===----------------------------------------------------------------------===//

/// What every pool checks: static shapes, a 2-entry kernel, the window
/// geometry and an int8 clamp [min, max].
template <typename PoolOp> static LogicalResult verifyPool(PoolOp op) {
  if (failed(verifyStaticShapes(op)))
    return failure();
  if (op.getKernel().size() != 2)
    return op.emitOpError("kernel must have 2 entries, got ")
           << op.getKernel().size();
  auto in = op.getInput().getType();
  if (failed(verifyWindow(op, in, op.getKernel()[0], op.getKernel()[1],
                          op.getStride(), op.getPad(), op.getOutput().getType(),
                          in.getDimSize(3))) ||
      failed(verifyZeroPoint(op, "min", op.getMin())) ||
      failed(verifyZeroPoint(op, "max", op.getMax())))
    return failure();
  auto lo = static_cast<int32_t>(op.getMin());
  auto hi = static_cast<int32_t>(op.getMax());
  if (lo > hi)
    return op.emitOpError("min (")
           << lo << ") is greater than max (" << hi << ")";
  return success();
}

LogicalResult AvgPool2DOp::verify() {
  if (failed(verifyPool(*this)) ||
      failed(verifyZeroPoint(*this, "input_zp", getInputZp())) ||
      failed(verifyZeroPoint(*this, "output_zp", getOutputZp())))
    return failure();
  if (getRoundHalfAway() && getInputZp() != getOutputZp())
    return emitOpError("round_half_away (TFLite's average) needs equal input "
                       "and output zero points, got ")
           << static_cast<int32_t>(getInputZp()) << " and "
           << static_cast<int32_t>(getOutputZp());
  return success();
}

Value AvgPool2DOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> AvgPool2DOp::getSegmentedExtents() {
  return {getInput().getType().getDimSize(3)};
}

//===----------------------------------------------------------------------===//
// MaxPool2DOp
//===----------------------------------------------------------------------===//

LogicalResult MaxPool2DOp::verify() { return verifyPool(*this); }

Value MaxPool2DOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> MaxPool2DOp::getSegmentedExtents() {
  return {getInput().getType().getDimSize(3)};
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  if (failed(verifyNonEmptyShapes(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto outType = cast<ShapedType>(getOutput().getType());
  int64_t rank = outType.getRank(), axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ")
           << axis << " is outside the output's rank " << rank;
  int64_t extent = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<ShapedType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError("input #")
             << i << " has rank " << type.getRank() << ", the output " << rank;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && type.getDimSize(d) != outType.getDimSize(d))
        return emitOpError("input #")
               << i << " differs from the output in dimension " << d
               << ", which is not the axis";
    extent += type.getDimSize(axis);
  }
  if (extent != outType.getDimSize(axis))
    return emitOpError("the inputs' extents along axis ")
           << axis << " add up to " << extent << ", the output has "
           << outType.getDimSize(axis);
  return success();
}

int64_t ConcatOp::getRowBytes(Value value) {
  ArrayRef<int64_t> shape = cast<ShapedType>(value.getType()).getShape();
  // An I32Attr reads as unsigned: a negative axis is out of range too.
  if (getAxis() >= shape.size())
    return 0; // The verifier reports the axis.
  int64_t bytes = 1;
  for (int64_t extent : shape.drop_front(getAxis()))
    bytes *= extent;
  return bytes;
}

int64_t ConcatOp::getRows() {
  auto type = cast<ShapedType>(getOutput().getType());
  return type.getNumElements() / getRowBytes(getOutput());
}

Value ConcatOp::getActivationInput() { return getInputs().front(); }
SmallVector<int64_t> ConcatOp::getSegmentedExtents() {
  SmallVector<int64_t> rows;
  for (Value input : getInputs())
    rows.push_back(getRowBytes(input));
  return rows;
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  if (failed(verifyNonEmptyShapes(*this)))
    return failure();
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getOutput().getType());
  int64_t rank = in.getRank();
  if (rank < 1 || out.getRank() != rank)
    return emitOpError("needs input and output of one rank (at least 1), got ")
           << in << " and " << out;
  if (static_cast<int64_t>(getStart().size()) != rank ||
      static_cast<int64_t>(getStride().size()) != rank)
    return emitOpError("needs ") << rank << " starts and strides";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = getStart()[d], stride = getStride()[d];
    if (start < 0 || stride < 1)
      return emitOpError("dimension ")
             << d << ": start " << start << " and stride " << stride
             << " must be non-negative and positive";
    int64_t last = start + (out.getDimSize(d) - 1) * stride;
    if (last >= in.getDimSize(d))
      return emitOpError("dimension ")
             << d << " reads element " << last << " of " << in.getDimSize(d);
  }
  return success();
}

Value SliceOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> SliceOp::getSegmentedExtents() {
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getOutput().getType());
  if (in.getRank() < 1 || getStart().empty() || getStride().empty())
    return {};
  SmallVector<int64_t> extents = {in.getShape().back(), out.getShape().back(),
                                  getStart().back()};
  if (getStride().back() != 1)
    extents.push_back(1);
  return extents;
}

//===----------------------------------------------------------------------===//
// ResizeNearestOp
//===----------------------------------------------------------------------===//

/// Checks an index map of `size` entries into `extent` input positions,
/// non-decreasing (what the kernel's frees rely on).
static LogicalResult verifyIndexMap(Operation *op, StringRef name,
                                    ArrayRef<int64_t> map, int64_t size,
                                    int64_t extent) {
  if (static_cast<int64_t>(map.size()) != size)
    return op->emitOpError() << name << " has " << map.size()
                             << " entries, the output has " << size;
  for (auto [i, index] : llvm::enumerate(map)) {
    if (index < 0 || index >= extent)
      return op->emitOpError() << name << "[" << i << "] = " << index
                               << " is outside the input's " << extent;
    if (i > 0 && index < map[i - 1])
      return op->emitOpError() << name << " must be non-decreasing, got "
                               << index << " after " << map[i - 1];
  }
  return success();
}

LogicalResult ResizeNearestOp::verify() {
  if (failed(verifyNonEmptyShapes(*this)))
    return failure();
  auto in = getInput().getType();
  auto out = getOutput().getType();
  if (in.getDimSize(0) != out.getDimSize(0) ||
      in.getDimSize(3) != out.getDimSize(3))
    return emitOpError("keeps the batch and the channels, got ")
           << in << " -> " << out;
  if (failed(verifyIndexMap(*this, "rows", getRows(), out.getDimSize(1),
                            in.getDimSize(1))))
    return failure();
  return verifyIndexMap(*this, "cols", getCols(), out.getDimSize(2),
                        in.getDimSize(2));
}

Value ResizeNearestOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> ResizeNearestOp::getSegmentedExtents() {
  auto in = getInput().getType();
  return {in.getRank() == 4 ? in.getDimSize(3) : int64_t(1)};
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  if (failed(verifyNonEmptyShapes(*this)))
    return failure();
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getOutput().getType());
  int64_t rank = in.getRank();
  ArrayRef<int32_t> perms = getPerms();
  if (rank < 1 || out.getRank() != rank ||
      static_cast<int64_t>(perms.size()) != rank)
    return emitOpError("needs input, output and perms of one rank (at least "
                       "1), got ")
           << in << ", " << out << " and " << perms.size() << " perms";
  llvm::SmallBitVector seen(rank);
  for (auto [d, p] : llvm::enumerate(perms)) {
    if (p < 0 || p >= rank || seen.test(p))
      return emitOpError("perms must be a permutation of 0..") << rank - 1;
    seen.set(p);
    if (out.getDimSize(d) != in.getDimSize(p))
      return emitOpError("output dimension ")
             << d << " is " << out.getDimSize(d) << ", input dimension " << p
             << " is " << in.getDimSize(p);
  }
  return success();
}

Value TransposeOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> TransposeOp::getSegmentedExtents() {
  auto in = cast<ShapedType>(getInput().getType());
  if (in.getRank() < 1)
    return {};
  if (!keepsInnermost())
    return {1};
  return {in.getShape().back()};
}

//===----------------------------------------------------------------------===//
// TableOp
//===----------------------------------------------------------------------===//

LogicalResult TableOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  if (getInput().getType().getRank() < 1)
    return emitOpError("needs an input of rank at least 1");
  int64_t entries = getTable().getType().getDimSize(0);
  if (entries != kEntries)
    return emitOpError("table must have ")
           << kEntries << " entries (one per int8 value), got " << entries;
  return success();
}

Value TableOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> TableOp::getSegmentedExtents() {
  auto type = getInput().getType();
  return {type.getDimSize(type.getRank() - 1)};
}

//===----------------------------------------------------------------------===//
// TensorBaseOp: the model I/O marker
//===----------------------------------------------------------------------===//

static StringAttr getModelIO(TensorBaseOp op) {
  auto *dialect = cast<VMCUDialect>(op->getDialect());
  return dialect->getIoAttrHelper().getAttr(op);
}

bool TensorBaseOp::isModelInput() {
  StringAttr io = getModelIO(*this);
  return io && io.getValue() == model_abi::kIOInput;
}

bool TensorBaseOp::isModelOutput() {
  StringAttr io = getModelIO(*this);
  return io && io.getValue() == model_abi::kIOOutput;
}

void TensorBaseOp::setModelIO(StringRef kind, int64_t index) {
  auto *dialect = cast<VMCUDialect>((*this)->getDialect());
  dialect->getIoAttrHelper().setAttr(*this,
                                     StringAttr::get(getContext(), kind));
  if (index != 0)
    dialect->getIoIndexAttrHelper().setAttr(
        *this, IntegerAttr::get(IntegerType::get(getContext(), 64), index));
}

int64_t TensorBaseOp::getModelIOIndex() {
  auto *dialect = cast<VMCUDialect>((*this)->getDialect());
  IntegerAttr index = dialect->getIoIndexAttrHelper().getAttr(*this);
  return index ? index.getInt() : 0;
}

//===----------------------------------------------------------------------===//
// SoftmaxOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto type = getInput().getType();
  if (type.getRank() < 1)
    return emitOpError("needs a ranked input of rank at least 1");
  int64_t depth = type.getDimSize(type.getRank() - 1);
  if (depth < 1 || depth > kMaxDepth)
    return emitOpError("innermost dimension must hold 1 to ")
           << kMaxDepth << " elements, got " << depth;
  // I32 attributes: read them as the int32 they hold.
  auto multiplier = static_cast<int32_t>(getInputMultiplier());
  auto leftShift = static_cast<int32_t>(getInputLeftShift());
  auto diffMin = static_cast<int32_t>(getDiffMin());
  if (multiplier < (int32_t(1) << 30))
    return emitOpError("input_multiplier must be in [2^30, 2^31), got ")
           << multiplier;
  if (leftShift < 0 || leftShift > 31)
    return emitOpError("input_left_shift must be in [0, 31], got ")
           << leftShift;
  if (diffMin > 0)
    return emitOpError("diff_min must not be positive, got ") << diffMin;
  return success();
}

Value SoftmaxOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> SoftmaxOp::getSegmentedExtents() {
  auto type = getInput().getType();
  return {type.getDimSize(type.getRank() - 1), kMaxSegmentBytes};
}

//===----------------------------------------------------------------------===//
// BottleneckOp
//===----------------------------------------------------------------------===//

void BottleneckOp::build(OpBuilder &builder, OperationState &state,
                         Type resultType, Value input) {
  state.addOperands(input);
  state.addTypes(resultType);
  Region *body = state.addRegion();
  Block *block = new Block();
  block->addArgument(input.getType(), input.getLoc());
  body->push_back(block);
}

/// The body ops without the terminator, in order.
static SmallVector<Operation *> bodyLayers(BottleneckOp op) {
  SmallVector<Operation *> layers;
  for (Operation &inner : op.getBody().front().without_terminator())
    layers.push_back(&inner);
  return layers;
}

LogicalResult BottleneckOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 1 ||
      block.getArgument(0).getType() != getInput().getType())
    return emitOpError("body must take one argument of the input type ")
           << getInput().getType();
  Value in = block.getArgument(0);
  SmallVector<Operation *> layers = bodyLayers(*this);
  if (layers.size() != 3 && layers.size() != 4)
    return emitOpError("body must hold pw conv, depthwise conv, pw conv and "
                       "an optional add, got ")
           << layers.size() << " ops";
  auto expand = dyn_cast<Conv2DOp>(layers[0]);
  auto dw = dyn_cast<DepthwiseConv2DOp>(layers[1]);
  auto project = dyn_cast<Conv2DOp>(layers[2]);
  if (!expand || expand.getInput() != in)
    return emitOpError("first body op must be a vmcu.conv2d of the block "
                       "argument");
  if (!dw || dw.getInput() != expand.getOutput())
    return emitOpError("second body op must be a vmcu.depthwise_conv2d of "
                       "the expansion");
  if (expand.getResidual() || (project && project.getResidual()))
    return emitOpError("the body's convs must not fold a residual (the "
                       "block's own add does)");
  if (dw.getDepthMultiplier() != 1)
    return emitOpError("the depthwise conv must have depth multiplier 1, "
                       "got ")
           << dw.getDepthMultiplier();
  if (!project || !project.isPointwise() ||
      project.getInput() != dw.getOutput())
    return emitOpError("third body op must be a 1x1 vmcu.conv2d of the "
                       "depthwise result");
  Value result = project.getOutput();
  if (layers.size() == 4) {
    auto add = dyn_cast<AddOp>(layers[3]);
    if (!add || add.getSubtract() ||
        !((add.getLhs() == result && add.getRhs() == in) ||
          (add.getRhs() == result && add.getLhs() == in)))
      return emitOpError("fourth body op must be a vmcu.add of the "
                         "projection and the block argument");
    // The fused kernel reads both at the output's segments: no broadcast.
    if (in.getType() != result.getType() ||
        add.getOutput().getType() != result.getType())
      return emitOpError("residual add must not broadcast: its operands ")
             << in.getType() << " and " << result.getType()
             << " and its result " << add.getOutput().getType()
             << " must have one type";
    result = add.getOutput();
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValue() != result)
    return emitOpError("body must yield the result of its last layer");
  if (result.getType() != getOutput().getType())
    return emitOpError("result type ")
           << getOutput().getType() << " does not match the body's "
           << result.getType();
  if (isStem() && (layers.size() == 4 || !getLineBuffer()))
    return emitOpError("a stem bottleneck (a KxK expansion) runs only with "
                       "line_buffer and without a residual");
  if (getLineBuffer() && !supportsLineBuffer())
    return emitOpError("line_buffer needs a unit-stride project convolution, "
                       "a unit-stride 1x1 expansion or a KxK one of stride "
                       "no larger than its kernel, and a depthwise stride "
                       "no larger than its kernel");
  if (getPairedProjection() && !getLineBuffer())
    return emitOpError("paired_projection needs line_buffer");
  if (getReverseOrder() && getLineBuffer())
    return emitOpError("reverse_order is for the recomputing kernel, not "
                       "with line_buffer");
  return success();
}

Conv2DOp BottleneckOp::getExpand() {
  return cast<Conv2DOp>(bodyLayers(*this)[0]);
}
DepthwiseConv2DOp BottleneckOp::getDepthwise() {
  return cast<DepthwiseConv2DOp>(bodyLayers(*this)[1]);
}
Conv2DOp BottleneckOp::getProject() {
  return cast<Conv2DOp>(bodyLayers(*this)[2]);
}
AddOp BottleneckOp::getResidual() {
  SmallVector<Operation *> layers = bodyLayers(*this);
  return layers.size() == 4 ? cast<AddOp>(layers[3]) : AddOp();
}

Value BottleneckOp::getActivationInput() { return getInput(); }
SmallVector<int64_t> BottleneckOp::getSegmentedExtents() {
  SmallVector<int64_t> extents = {getInput().getType().getDimSize(3),
                                  getOutput().getType().getDimSize(3)};
  if (getLineBuffer() && !isStem())
    extents.push_back(getExpand().getOutput().getType().getDimSize(3));
  return extents;
}

bool BottleneckOp::isStem() { return !getExpand().isPointwise(); }

bool BottleneckOp::supportsLineBuffer() {
  return supportsLineBuffer(getExpand(), getDepthwise(), getProject());
}

bool BottleneckOp::supportsLineBuffer(Conv2DOp expand, DepthwiseConv2DOp dw,
                                      Conv2DOp project) {
  auto unit = [](ArrayRef<int64_t> stride) {
    return llvm::all_of(stride, [](int64_t s) { return s == 1; });
  };
  // A stride above the kernel would skip rows that are then never freed.
  auto withinKernel = [](ArrayRef<int64_t> stride, ShapedType weight) {
    return stride[0] <= weight.getDimSize(1) &&
           stride[1] <= weight.getDimSize(2);
  };
  // Depthwise weights are [R][S][C]; conv weights [K][R][S][C].
  auto dwWeight = dw.getWeight().getType();
  ArrayRef<int64_t> dwStride = dw.getStride();
  bool expandFits =
      expand.isPointwise()
          ? unit(expand.getStride())
          : withinKernel(expand.getStride(), expand.getWeight().getType());
  return expandFits && unit(project.getStride()) &&
         dwStride[0] <= dwWeight.getDimSize(0) &&
         dwStride[1] <= dwWeight.getDimSize(1);
}

int64_t BottleneckOp::getPoolWorkspaceBytes() {
  return getLineBuffer() && !isStem() ? getLineBufferBytes() : 0;
}

int64_t BottleneckOp::getLineBufferBytes() {
  auto mid = getExpand().getOutput().getType();
  int64_t rows = getDepthwise().getWeight().getType().getDimSize(0);
  return rows * mid.getDimSize(2) * mid.getDimSize(3);
}
