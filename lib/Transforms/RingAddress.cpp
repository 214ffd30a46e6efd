//===- RingAddress.cpp - what a ring address is made of -------------------===//

#include "RingAddress.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool vmcu::isArithOp(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect && isa<arith::ArithDialect>(dialect);
}

vmcu::TensorBaseOp vmcu::addressedTensor(Value address) {
  Operation *def = address.getDefiningOp();
  if (!def)
    return nullptr;
  if (auto base = dyn_cast<TensorBaseOp>(def))
    return base;
  if (!isa<affine::AffineApplyOp>(def) && !isArithOp(def))
    return nullptr;
  for (Value operand : def->getOperands())
    if (TensorBaseOp base = addressedTensor(operand))
      return base;
  return nullptr;
}
