//===- EraseFrees.cpp - the vmcu-erase-frees pass -------------------------===//
//
// A vmcu.free is a fact for the offset solver and the ring verifiers; no
// instruction carries it out. This pass erases the frees, then every op
// left dead (the loops and index arithmetic that served them, the indices
// of accesses vmcu-coalesce-ring-accesses merged), before the lowering, so
// that kernels that differ only in when they free their input compare
// equal in vmcu-share-kernels.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUERASEFREESPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

struct VMCUEraseFreesPass : impl::VMCUEraseFreesPassBase<VMCUEraseFreesPass> {
  void runOnOperation() override {
    getOperation().walk([](FreeOp free) { free.erase(); });
    // Users before their operands (post-order, blocks backwards): a loop
    // left empty goes before the bounds it computed, an index before the
    // arithmetic it came from. The model's I/O markers stay, used or not
    // (vmcu-create-io-tables reads them).
    getOperation().walk<WalkOrder::PostOrder, ReverseIterator>(
        [](Operation *op) {
          if (isOpTriviallyDead(op) && !op->hasAttr(model_abi::kIOAttrName))
            op->erase();
        });
  }
};

} // namespace

} // namespace mlir::vmcu
