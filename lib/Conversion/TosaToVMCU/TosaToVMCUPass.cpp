//===- TosaToVMCUPass.cpp - the --convert-tosa-to-vmcu pass ---------------===//
//
// Checks the function, converts it with the TosaToVMCU patterns, erases the
// producers the layers folded and reports any TOSA op left behind.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/TosaToVMCU/TosaToVMCU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/DialectConversion.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_CONVERTTOSATOVMCUPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// True for the ops a conversion leaves dead: folded pads, slices and input
/// rescales, zero-point and shape constants, and reshapes of constants.
static bool isFoldedLeftover(Operation *op) {
  return isa<tosa::ConstOp, tosa::ConstShapeOp, tosa::PadOp, tosa::SliceOp,
             tosa::RescaleOp, arith::ConstantOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::ReshapeOp>(op);
}

struct ConvertTosaToVMCUPass
    : impl::ConvertTosaToVMCUPassBase<ConvertTosaToVMCUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(checkTosaToVMCUConvertible(func)))
      return signalPassFailure();
    auto countLayers = [&] {
      unsigned n = 0;
      func.walk([&](LayerOpInterface) { ++n; });
      return n;
    };
    unsigned layersBefore = countLayers();

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    ConversionTarget target(getContext());
    configureTosaToVMCUConversionTarget(target);
    RewritePatternSet patterns(&getContext());
    populateTosaToVMCUConversionPatterns(converter, patterns);
    // TOSA folders would rewrite the chains before the patterns see them.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(
            applyPartialConversion(func, target, std::move(patterns), config)))
      return signalPassFailure();

    // Consumers before producers, so whole folded chains go.
    func.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
      if (op->use_empty() && isFoldedLeftover(op))
        op->erase();
    });

    numLayers += countLayers() - layersBefore;
    bool ok = true;
    func.walk([&](Operation *op) {
      if (isa_and_nonnull<tosa::TosaDialect>(op->getDialect())) {
        op->emitOpError("is not supported by --convert-tosa-to-vmcu");
        ok = false;
      }
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace

} // namespace mlir::vmcu
