//===- LowerVectorSlices.cpp - the vmcu-lower-vector-slices pass ----------===//
//
// Rewrites strided vector slices, broadcasts and shape casts into the
// shuffles, inserts and extracts the LLVM conversion takes, touching the
// vector ops only.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCULOWERVECTORSLICESPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

struct VMCULowerVectorSlicesPass
    : impl::VMCULowerVectorSlicesPassBase<VMCULowerVectorSlicesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    SmallVector<Operation *> vectorOps;
    getOperation().walk([&](Operation *op) {
      if (isa<vector::VectorDialect>(op->getDialect()))
        vectorOps.push_back(op);
    });
    // Only the vector ops: a module-wide greedy rewrite would also erase
    // unused tensor bases, losing the model I/O they declare.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(vectorOps, std::move(patterns), config);
  }
};

} // namespace

} // namespace mlir::vmcu
