//===- PadStemChannels.cpp - whole SIMD blocks for a stem's inner tensor --===//
//
// Grows the expanded tensor of a stem bottleneck to a whole number of
// vmcu.depthwise_block's lanes, with channels whose weights are zero.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUPADSTEMCHANNELSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// `type` with dimension `dim` of `size`.
RankedTensorType withDimension(Type type, int64_t dim, int64_t size) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape[dim] = size;
  return ranked.clone(shape);
}

/// The constant `attr` with dimension `dim` grown to `size`, the new
/// elements 0.
DenseElementsAttr padDimension(DenseIntElementsAttr attr, int64_t dim,
                               int64_t size) {
  auto type = cast<RankedTensorType>(attr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t old = shape[dim];
  int64_t inner = 1;
  for (int64_t d : shape.drop_front(dim + 1))
    inner *= d;
  RankedTensorType paddedType = withDimension(type, dim, size);
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> values(paddedType.getNumElements(), APInt(width, 0));
  int64_t i = 0;
  for (const APInt &v : attr.getValues<APInt>()) {
    int64_t outer = i / (old * inner), at = i / inner % old, rest = i % inner;
    values[(outer * size + at) * inner + rest] = v;
    ++i;
  }
  return DenseElementsAttr::get(paddedType, values);
}

/// `requant` over `size` channels: a per-channel one repeats its last
/// channel's scale (the padded channels' sums are 0 whatever it is).
RequantAttr padRequant(RequantAttr requant, int64_t size) {
  if (!requant.isPerChannel())
    return requant;
  SmallVector<int32_t> multiplier(requant.getMultiplier()),
      shift(requant.getShift());
  multiplier.resize(size, multiplier.back());
  shift.resize(size, shift.back());
  return RequantAttr::get(requant.getContext(), requant.getInputZp(),
                          requant.getOutputZp(), multiplier, shift,
                          requant.getDoubleRound(), requant.getMin(),
                          requant.getMax());
}

/// Pads a stem's weights, biases, scales and inner result types.
class StemPadder {
public:
  StemPadder(OpBuilder &b, BottleneckOp op, int64_t channels)
      : b(b), op(op), channels(channels) {}

  /// The constants of the three convs, or failure where one is not.
  LogicalResult collect() {
    Conv2DOp expand = op.getExpand(), project = op.getProject();
    DepthwiseConv2DOp dw = op.getDepthwise();
    // Expansion weights [Cmid, KH, KW, Cin], depthwise [KH, KW, Cmid, 1],
    // projection [Cout, 1, 1, Cmid]; biases [Cmid].
    for (auto [operand, dim] : {std::pair(&expand->getOpOperand(1), 0),
                                std::pair(&expand->getOpOperand(2), 0),
                                std::pair(&dw->getOpOperand(1), 2),
                                std::pair(&dw->getOpOperand(2), 0),
                                std::pair(&project->getOpOperand(1), 3)}) {
      DenseIntElementsAttr attr;
      if (!matchPattern(operand->get(), m_Constant(&attr)))
        return failure();
      constants.push_back({operand, dim, attr});
    }
    return success();
  }

  void pad() {
    b.setInsertionPoint(op);
    for (PaddedConstant &c : constants) {
      DenseElementsAttr padded = padDimension(c.attr, c.dim, channels);
      Operation *old = c.operand->get().getDefiningOp();
      c.operand->set(arith::ConstantOp::create(b, op.getLoc(), padded));
      if (old->use_empty())
        old->erase();
    }
    Conv2DOp expand = op.getExpand();
    DepthwiseConv2DOp dw = op.getDepthwise();
    expand.setRequantAttr(padRequant(expand.getRequant(), channels));
    dw.setRequantAttr(padRequant(dw.getRequant(), channels));
    // NHWC: the channels are dimension 3 of both results.
    for (Value v : {expand.getOutput(), dw.getOutput()})
      v.setType(withDimension(v.getType(), 3, channels));
  }

private:
  struct PaddedConstant {
    OpOperand *operand;
    int64_t dim;
    DenseIntElementsAttr attr;
  };
  OpBuilder &b;
  BottleneckOp op;
  int64_t channels;
  SmallVector<PaddedConstant> constants;
};

struct VMCUPadStemChannelsPass
    : impl::VMCUPadStemChannelsPassBase<VMCUPadStemChannelsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation().walk([&](BottleneckOp op) {
      if (!op.isStem())
        return;
      int64_t cmid = op.getDepthwise().getOutput().getType().getDimSize(3);
      int64_t padded = llvm::alignTo(cmid, DepthwiseBlockOp::kLanes);
      if (padded == cmid)
        return;
      StemPadder padder(b, op, padded);
      if (failed(padder.collect()))
        return;
      padder.pad();
      ++numPadded;
      numChannels += padded - cmid;
    });
  }
};

} // namespace

} // namespace mlir::vmcu
