//===- VMCUToLLVMPass.cpp - the convert-vmcu-to-llvm pass -----------------===//
//
// Checks that the module is placed, outlined and lowered to cf, then runs
// one full conversion of everything to the LLVM dialect and turns the loop
// annotations scf-to-cf left on back edges into `!llvm.loop`.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "ModelIO.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_CONVERTVMCUTOLLVMPASS
#include "vmcu/Conversion/Passes.h.inc"
using namespace detail;

namespace {

/// A dialect the patterns cannot take, what must become of it and the pass
/// that does it.
struct EarlierStage {
  StringLiteral dialect, becomes, pass;
};
constexpr EarlierStage kEarlierStages[] = {
    {"tosa", "converted to vmcu", "--convert-tosa-to-vmcu"},
    {"affine", "lowered to arith and scf", "--lower-affine"},
    {"scf", "lowered to cf", "--convert-scf-to-cf"},
};

/// The symbols the patterns define (vmcu-create-io-tables defines the
/// tables).
constexpr StringRef kLoweringNames[] = {
    model_abi::kArena,      model_abi::kArenaBytes, model_abi::kInputFn,
    model_abi::kInputBytes, model_abi::kOutputFn,   model_abi::kOutputBytes};

/// Fails with an error naming the missing pass if `op` is one the patterns
/// cannot lower.
LogicalResult checkConvertible(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  for (const EarlierStage &stage : kEarlierStages)
    if (dialect == stage.dialect)
      return op->emitOpError("must be ")
             << stage.becomes << " before lowering to LLVM; run " << stage.pass
             << " first";
  if (isa<LayerOpInterface>(op))
    return op->emitOpError(
        "must be tiled before lowering to LLVM; run --vmcu-tile first");
  if (isa<KernelOp>(op))
    return op->emitOpError("must be outlined before lowering; run "
                           "vmcu-outline-kernels");
  if (isa<vector::ExtractStridedSliceOp, vector::InsertStridedSliceOp>(op))
    return op->emitOpError("must be lowered to shuffles before lowering to "
                           "LLVM; run --vmcu-lower-vector-slices first");
  auto base = dyn_cast<TensorBaseOp>(op);
  if (base && !base.getBase())
    return base.emitOpError("tensor '")
           << base.getName()
           << "' has no base segment; run --vmcu-solve-offsets first";
  return success();
}

/// Fails with an error at a second segment pool. vmcu-outline-kernels
/// clones the pool into each kernel function: clones live in other
/// functions and have the same type.
LogicalResult checkSinglePool(ModuleOp module) {
  SegmentPoolOp pool;
  WalkResult result = module.walk([&](SegmentPoolOp poolOp) -> WalkResult {
    auto owner = poolOp->getParentOfType<FunctionOpInterface>();
    if (pool && (pool->getParentOfType<FunctionOpInterface>() == owner ||
                 pool.getType() != poolOp.getType())) {
      InFlightDiagnostic diag = poolOp.emitOpError(
          "is a second segment pool; a model has exactly one arena");
      diag.attachNote(pool.getLoc()) << "first pool here";
      return diag;
    }
    if (!pool)
      pool = poolOp;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Rejects what the patterns cannot lower, with a message that says which
/// earlier pass is missing (at the outermost such op: a loop, not its
/// yield).
LogicalResult verifyConvertible(ModuleOp module) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    return failed(checkConvertible(op)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
  });
  if (result.wasInterrupted() || failed(checkSinglePool(module)) ||
      failed(collectModelIO(module)))
    return failure();
  return checkReservedNames(module, kLoweringNames);
}

/// scf-to-cf copies an scf.for's `llvm.loop_annotation` (vmcu-tile puts
/// one on loops LLVM must not unroll) onto the loop's back edge as a
/// discardable attribute, which the translation to LLVM IR ignores: make
/// it the branch's own loop annotation, which becomes `!llvm.loop`.
void moveLoopAnnotations(ModuleOp module) {
  constexpr StringLiteral kLoopAnnotation = "llvm.loop_annotation";
  module.walk([&](Operation *op) {
    auto annotation =
        op->getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotation);
    if (!annotation)
      return;
    op->removeAttr(kLoopAnnotation);
    if (auto br = dyn_cast<LLVM::BrOp>(op))
      br.setLoopAnnotationAttr(annotation);
    else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
      condBr.setLoopAnnotationAttr(annotation);
  });
}

/// The vmcu patterns and the upstream ones for everything else the
/// kernels hold.
void populateModulePatterns(LLVMTypeConverter &converter,
                            RewritePatternSet &patterns) {
  populateVMCUToLLVMConversionPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  vector::populateVectorTransferLoweringPatterns(patterns);
  populateVectorToLLVMConversionPatterns(converter, patterns);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
}

struct ConvertVMCUToLLVMPass
    : impl::ConvertVMCUToLLVMPassBase<ConvertVMCUToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(verifyConvertible(module)))
      return signalPassFailure();

    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(32);
    options.dataLayout = llvm::DataLayout(kDataLayout);
    LLVMTypeConverter converter(ctx, options);
    populateVMCUToLLVMTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    populateModulePatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    moveLoopAnnotations(module);
  }
};

} // namespace

} // namespace mlir::vmcu
