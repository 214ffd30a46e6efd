//===- ModelIO.cpp - the model inputs and outputs of a placed module ------===//
//
// Collects and checks the `vmcu.io` tensor bases, and the symbols the
// lowering reserves.
//
//===----------------------------------------------------------------------===//

#include "ModelIO.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::detail;

/// Puts `base`, an I/O tensor, at its position in `io`; fails with an error
/// if the position is taken or past kMaxModelIO.
static LogicalResult addModelIO(TensorBaseOp base, ModelIO &io) {
  if (!base.getBase())
    return base.emitOpError("tensor '")
           << base.getName()
           << "' has no base segment; run --vmcu-solve-offsets first";
  StringRef kind =
      base.isModelOutput() ? model_abi::kIOOutput : model_abi::kIOInput;
  SmallVector<TensorBaseOp> &list =
      base.isModelOutput() ? io.outputs : io.inputs;
  auto index = static_cast<size_t>(base.getModelIOIndex());
  if (index >= kMaxModelIO)
    return base.emitOpError("is model ")
           << kind << " #" << index << "; vmcu lowers up to " << kMaxModelIO
           << " of each";
  if (list.size() <= index)
    list.resize(index + 1);
  if (TensorBaseOp first = list[index]) {
    InFlightDiagnostic diag = base.emitOpError("is a second model ")
                              << kind << " #" << index << " tensor";
    diag.attachNote(first.getLoc()) << "first " << kind << " here";
    return diag;
  }
  list[index] = base;
  return success();
}

FailureOr<ModelIO> mlir::vmcu::detail::collectModelIO(ModuleOp module) {
  ModelIO io;
  WalkResult result = module.walk([&](TensorBaseOp base) -> WalkResult {
    // The dialect verifier has checked the marker's value.
    if (!base.isModelInput() && !base.isModelOutput())
      return WalkResult::advance();
    return failed(addModelIO(base, io)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto [kind, list] : {std::pair(model_abi::kIOInput, &io.inputs),
                            std::pair(model_abi::kIOOutput, &io.outputs)})
    for (auto [i, base] : llvm::enumerate(*list))
      if (!base)
        return module.emitError("the model has no ")
               << kind << " #" << i << " but a later one";
  return io;
}

LogicalResult
mlir::vmcu::detail::checkReservedNames(ModuleOp module,
                                       ArrayRef<StringRef> names) {
  for (StringRef name : names)
    if (Operation *clash = module.lookupSymbol(name))
      return clash->emitOpError("defines '")
             << name << "', which the vmcu lowering reserves";
  return success();
}
