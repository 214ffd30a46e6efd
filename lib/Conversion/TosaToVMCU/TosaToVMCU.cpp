//===- TosaToVMCU.cpp - TOSA to vmcu patterns, target and check -----------===//
//
// The public entry points of the TOSA to vmcu conversion: the pattern list,
// the conversion target and the convertibility check that reports every
// unsupported op before anything is rewritten.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/TosaToVMCU/TosaToVMCU.h"

#include "Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tosa_to_vmcu;

/// Adds the ops a failed layer would have folded, found by structure only,
/// so that they are not reported a second time.
static void coverFailedLayer(Operation *root,
                             llvm::SmallPtrSetImpl<Operation *> &covered) {
  SmallVector<Operation *> worklist = {root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *user : op->getUsers()) {
      bool follows = isa<tosa::RescaleOp, tosa::ClampOp>(user) ||
                     (isa<tosa::AddOp>(user) && isa<tosa::MatMulOp>(root));
      if (follows && covered.insert(user).second)
        worklist.push_back(user);
    }
  }
  if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AvgPool2dOp,
          tosa::MaxPool2dOp>(root)) {
    Operation *def = root->getOperand(0).getDefiningOp();
    while (isa_and_nonnull<tosa::PadOp, tosa::SliceOp>(def)) {
      covered.insert(def);
      def = def->getOperand(0).getDefiningOp();
    }
  }
  if (isa<tosa::AddOp, tosa::SubOp, tosa::MulOp>(root))
    for (Value operand : root->getOperands())
      if (auto rescale = operand.getDefiningOp<tosa::RescaleOp>())
        covered.insert(rescale);
}

/// The reason a TOSA op that no layer folds cannot be converted, or an empty
/// string if it needs no layer (constants).
static std::string explainUnfolded(Operation *op, bool covered) {
  return TypeSwitch<Operation *, std::string>(op)
      .Case<tosa::ConstOp, tosa::ConstShapeOp>(
          [](Operation *) { return std::string(); })
      .Case([&](tosa::RescaleOp rescale) -> std::string {
        Type in = rescale.getInput().getType();
        Type out = rescale.getOutput().getType();
        if (hasIntElements(in, 8) && hasIntElements(out, 32))
          return isAddInputRescale(rescale)
                     ? std::string()
                     : "rescale from int8 to int32 is only supported as an "
                       "input rescale of the int8 tosa.add form, and must "
                       "feed nothing else";
        if (covered)
          return std::string();
        if (rescale.getInputUnsigned() || rescale.getOutputUnsigned())
          return "unsigned rescale (input_unsigned/output_unsigned) is not "
                 "supported";
        if (hasIntElements(in, 8) && hasIntElements(out, 8))
          return "standalone int8 to int8 rescale cannot be folded into a "
                 "layer: only the rescale of a layer's int32 accumulator "
                 "folds";
        if (hasIntElements(in, 32))
          return "cannot be folded: its input is not the int32 accumulator "
                 "of a supported layer";
        return "rescale from " + typeToString(in) + " to " + typeToString(out) +
               " is not supported";
      })
      .Case([&](tosa::ClampOp) -> std::string {
        if (covered)
          return std::string();
        return "cannot be folded: a clamp must directly follow the rescale "
               "of a layer (or a pool, or another folded clamp) and be its "
               "only user";
      })
      .Case<tosa::PadOp, tosa::SliceOp>([&](Operation *op) -> std::string {
        if (isFoldedWindowProducer(op))
          return std::string();
        return "is only supported when folded into the padding of the input "
               "of tosa.conv2d, tosa.depthwise_conv2d, tosa.avg_pool2d or "
               "tosa.max_pool2d, and must feed nothing else";
      })
      .Default([&](Operation *) -> std::string {
        if (covered)
          return std::string();
        return "is not supported by --convert-tosa-to-vmcu";
      });
}

LogicalResult vmcu::checkTosaToVMCUConvertible(Operation *root) {
  llvm::SmallPtrSet<Operation *, 32> covered;
  bool ok = true;
  auto isTosa = [](Operation *op) {
    return isa_and_nonnull<tosa::TosaDialect>(op->getDialect());
  };

  // Layers first, in program order, so a matmul claims its bias add.
  root->walk([&](Operation *op) {
    if (!isTosa(op) || covered.contains(op))
      return;
    MatchDiag diag;
    SmallVector<Operation *> absorbed;
    std::optional<LogicalResult> result =
        TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
            .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AvgPool2dOp,
                  tosa::MaxPool2dOp>(
                [&](Operation *layer) {
                  return checkWindowLayer(layer, absorbed, diag);
                })
            .Case([&](tosa::MatMulOp mm) {
              return checkMatMul(mm, absorbed, diag);
            })
            .Case<tosa::AddOp, tosa::SubOp>([&](Operation *add) {
              return checkInt8Add(add, absorbed, diag);
            })
            .Case([&](tosa::MulOp mul) {
              return checkInt8Mul(mul, absorbed, diag);
            })
            .Case([&](tosa::ReshapeOp reshape) {
              return checkReshape(reshape, diag);
            })
            .Case([&](tosa::TableOp table) { return checkTable(table, diag); })
            .Case([&](tosa::ConcatOp concat) {
              return checkConcat(concat, diag);
            })
            .Case([&](tosa::TransposeOp transpose) {
              return checkTranspose(transpose, diag);
            })
            .Case([&](tosa::ResizeOp resize) {
              SmallVector<int64_t> rows, cols;
              return checkResize(resize, rows, cols, diag);
            })
            .Case([&](tosa::SliceOp slice) -> std::optional<LogicalResult> {
              if (isFoldedWindowProducer(slice))
                return std::nullopt;
              SmallVector<int64_t> start;
              return checkSlice(slice, start, diag);
            })
            .Default([](Operation *) { return std::nullopt; });
    if (!result)
      return;
    if (succeeded(*result)) {
      covered.insert(absorbed.begin(), absorbed.end());
      return;
    }
    diag.emit();
    ok = false;
    coverFailedLayer(op, covered);
  });

  // Then every other TOSA op must be folded into some layer.
  root->walk([&](Operation *op) {
    if (!isTosa(op) ||
        isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AvgPool2dOp,
            tosa::MaxPool2dOp, tosa::MatMulOp, tosa::AddOp, tosa::SubOp,
            tosa::MulOp, tosa::ReshapeOp, tosa::TableOp, tosa::ConcatOp,
            tosa::SliceOp, tosa::TransposeOp, tosa::ResizeOp>(op))
      return;
    std::string reason = explainUnfolded(op, covered.contains(op));
    if (reason.empty())
      return;
    op->emitOpError(reason);
    ok = false;
  });
  return success(ok);
}

void vmcu::configureTosaToVMCUConversionTarget(ConversionTarget &target) {
  target.addLegalDialect<VMCUDialect, arith::ArithDialect,
                         tensor::TensorDialect, func::FuncDialect>();
  target.addIllegalOp<tosa::ConstOp, tosa::Conv2DOp, tosa::DepthwiseConv2DOp,
                      tosa::AvgPool2dOp, tosa::MaxPool2dOp, tosa::TableOp,
                      tosa::MatMulOp, tosa::AddOp, tosa::SubOp, tosa::MulOp,
                      tosa::ReshapeOp, tosa::ClampOp, tosa::ConcatOp,
                      tosa::TransposeOp, tosa::ResizeOp>();
  // Folded into a later layer, which leaves them dead.
  target.addDynamicallyLegalOp<tosa::RescaleOp>(
      [](tosa::RescaleOp op) { return isAddInputRescale(op); });
  target.addDynamicallyLegalOp<tosa::PadOp, tosa::SliceOp>(
      [](Operation *op) { return isFoldedWindowProducer(op); });
  target.addLegalOp<tosa::ConstShapeOp>();
}

void vmcu::populateTosaToVMCUConversionPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  populateWindowPatterns(converter, patterns);
  populateLinearPatterns(converter, patterns);
  populateElementwisePatterns(converter, patterns);
}
