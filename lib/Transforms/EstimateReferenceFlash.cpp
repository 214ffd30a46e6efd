//===- EstimateReferenceFlash.cpp - the vmcu-estimate-reference-flash pass ===//
//
// Records on the module the flash CMSIS-NN would take for its layers
// (analysis::estimateReferenceFlashBytes), the base of the default flash
// budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Analysis/ReferenceFlash.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUESTIMATEREFERENCEFLASHPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

using analysis::ReferenceKernel;
using analysis::ReferenceLayer;

/// A layer with weights: its int8 weights, a bias per output channel and
/// `requantPairs` requantization pairs.
ReferenceLayer weightedLayer(ReferenceKernel kernel, Value weight, Value bias,
                             int64_t requantPairs) {
  return {kernel, cast<ShapedType>(weight.getType()).getNumElements(),
          cast<ShapedType>(bias.getType()).getNumElements(), requantPairs};
}

/// A convolution's requantization pairs: TFLite Micro keeps one per output
/// channel even for a per-tensor scale.
int64_t convRequantPairs(Value bias) {
  return cast<ShapedType>(bias.getType()).getNumElements();
}

/// A fully connected layer's requantization pairs: one for a per-tensor
/// scale, which TFLite Micro keeps as one pair (the importer may repeat it
/// per channel), else one per channel.
int64_t fullyConnectedRequantPairs(FullyConnectedOp op) {
  RequantAttr requant = op.getRequant();
  bool perTensor = llvm::all_equal(requant.getMultiplier()) &&
                   llvm::all_equal(requant.getShift());
  return perTensor ? 1 : static_cast<int64_t>(requant.getMultiplier().size());
}

/// How CMSIS-NN runs `layer`.
ReferenceLayer referenceLayerOf(LayerOpInterface layer) {
  return llvm::TypeSwitch<Operation *, ReferenceLayer>(layer.getOperation())
      .Case([](Conv2DOp op) {
        return weightedLayer(ReferenceKernel::Conv, op.getWeight(),
                             op.getBias(), convRequantPairs(op.getBias()));
      })
      .Case([](DepthwiseConv2DOp op) {
        return weightedLayer(ReferenceKernel::Depthwise, op.getWeight(),
                             op.getBias(), convRequantPairs(op.getBias()));
      })
      .Case([](FullyConnectedOp op) {
        return weightedLayer(ReferenceKernel::FullyConnected, op.getWeight(),
                             op.getBias(), fullyConnectedRequantPairs(op));
      })
      .Case(
          [](AvgPool2DOp) { return ReferenceLayer{ReferenceKernel::AvgPool}; })
      .Case(
          [](MaxPool2DOp) { return ReferenceLayer{ReferenceKernel::MaxPool}; })
      .Case([](AddOp) { return ReferenceLayer{ReferenceKernel::Add}; })
      .Case([](MulOp) { return ReferenceLayer{ReferenceKernel::Mul}; })
      .Case([](SoftmaxOp) { return ReferenceLayer{ReferenceKernel::Softmax}; })
      .Case([](ConcatOp) { return ReferenceLayer{ReferenceKernel::Concat}; })
      .Case([](TransposeOp) {
        return ReferenceLayer{ReferenceKernel::Transpose};
      })
      .Default([](Operation *) { return ReferenceLayer{}; });
}

struct VMCUEstimateReferenceFlashPass
    : impl::VMCUEstimateReferenceFlashPassBase<VMCUEstimateReferenceFlashPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ReferenceLayer> layers;
    module.walk([&](LayerOpInterface layer) {
      // A fused bottleneck's layers are in its body.
      if (!isa<BottleneckOp>(layer.getOperation()))
        layers.push_back(referenceLayerOf(layer));
    });
    int64_t bytes = analysis::estimateReferenceFlashBytes(layers);
    auto *dialect = getContext().getOrLoadDialect<VMCUDialect>();
    dialect->getReferenceFlashBytesAttrHelper().setAttr(
        module, IntegerAttr::get(IntegerType::get(&getContext(), 64), bytes));
  }
};

} // namespace
} // namespace mlir::vmcu
