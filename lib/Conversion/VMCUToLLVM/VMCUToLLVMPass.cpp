//===- VMCUToLLVMPass.cpp - the convert-vmcu-to-llvm pass -----------------===//
//
// Checks that the module is placed, optionally instruments it for the
// runtime's ring-safety checker, lowers leftover scf and strided vector
// slices, runs one full conversion of everything to the LLVM dialect and
// stamps the Cortex-M target on the module and its functions.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_CONVERTVMCUTOLLVMPASS
#include "vmcu/Conversion/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// Rejects what the patterns cannot lower, with a message that says which
/// earlier pass is missing.
static LogicalResult verifyPlacedModule(ModuleOp module) {
  SegmentPoolOp pool;
  TensorBaseOp io[2];
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    if (op->getName().getDialectNamespace() == "tosa")
      return op->emitOpError("must be converted to vmcu before lowering to "
                             "LLVM; run --convert-tosa-to-vmcu first");
    if (isa<LayerOpInterface>(op))
      return op->emitOpError(
          "must be tiled before lowering to LLVM; run --vmcu-tile first");
    if (auto poolOp = dyn_cast<SegmentPoolOp>(op)) {
      if (pool) {
        InFlightDiagnostic diag = poolOp.emitOpError(
            "is a second segment pool; a model has exactly one arena");
        diag.attachNote(pool.getLoc()) << "first pool here";
        return diag;
      }
      pool = poolOp;
      return WalkResult::advance();
    }
    auto base = dyn_cast<TensorBaseOp>(op);
    if (!base)
      return WalkResult::advance();
    if (!base.getBase())
      return base.emitOpError("tensor '")
             << base.getName()
             << "' has no base segment; run --vmcu-solve-offsets first";
    Attribute attr = base->getAttr(model_abi::kIOAttrName);
    if (!attr)
      return WalkResult::advance();
    auto kind = dyn_cast<StringAttr>(attr);
    if (!kind || (kind.getValue() != "input" && kind.getValue() != "output"))
      return base.emitOpError("'")
             << model_abi::kIOAttrName
             << "' must be \"input\" or \"output\", got " << attr;
    TensorBaseOp &slot = io[kind.getValue() == "output"];
    if (slot) {
      InFlightDiagnostic diag = base.emitOpError("is a second model ")
                                << kind.getValue() << " tensor";
      diag.attachNote(slot.getLoc()) << "first " << kind.getValue() << " here";
      return diag;
    }
    slot = base;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();

  // The exported names must be free for the lowering to define them.
  for (StringRef name :
       {model_abi::kArena, model_abi::kArenaBytes, model_abi::kInputFn,
        model_abi::kInputBytes, model_abi::kOutputFn, model_abi::kOutputBytes})
    if (Operation *clash = module.lookupSymbol(name))
      return clash->emitOpError("defines '")
             << name << "', which the vmcu lowering reserves";
  return success();
}

/// Whether `op` is cheaper to clone into an outlined kernel than to pass:
/// constants, the pool and tensor bases (which lower to constants).
static bool isRematerializable(Operation *op) {
  return op && op->getNumOperands() <= 1 &&
         (op->hasTrait<OpTrait::ConstantLike>() ||
          isa<SegmentPoolOp, TensorBaseOp>(op));
}

/// `vmcu_kernel_<i>_<name>`, the kernel's name reduced to [A-Za-z0-9_]:
/// profilers and disassembly then show which layer a cycle belongs to.
static std::string kernelFunctionName(KernelOp kernel, unsigned index) {
  std::string name = ("vmcu_kernel_" + Twine(index) + "_").str();
  for (char ch : kernel.getSymName())
    name.push_back(llvm::isAlnum(ch) ? ch : '_');
  return name;
}

/// Moves the body of `kernel` into a private function (kernelFunctionName) and
/// calls it. Each kernel's scratch buffers (memref.alloca) then sit in the
/// entry block of their own function: LLVM's inliner brings them back into
/// vmcu_invoke as static allocas with lifetime markers, so SROA can promote
/// them and stack coloring overlaps the kernels' buffers (left inline, every
/// kernel but the first allocated its buffers mid-function, and the stack
/// grew with their sum).
static void outlineKernel(KernelOp kernel, unsigned index, OpBuilder &b) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(kernel.getBody(), captured);
  IRMapping mapping;
  SmallVector<Value> operands;
  SmallVector<Operation *> clones;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (isRematerializable(def) &&
        (def->getNumOperands() == 0 ||
         isRematerializable(def->getOperand(0).getDefiningOp())))
      clones.push_back(def);
    else
      operands.push_back(value);
  }
  auto module = kernel->getParentOfType<ModuleOp>();
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, kernel.getLoc(), kernelFunctionName(kernel, index),
      b.getFunctionType(ValueRange(operands).getTypes(), {}));
  // Internal and never inlined: each kernel keeps its own frame (so the
  // stack is the largest kernel's, not the sum) and its own register
  // allocation; one call per layer is all it costs.
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  func->setAttr("passthrough", b.getStrArrayAttr({"noinline"}));
  Block *entry = func.addEntryBlock();
  for (auto [value, arg] : llvm::zip(operands, entry->getArguments()))
    mapping.map(value, arg);
  b.setInsertionPointToStart(entry);
  // A tensor base's operand is the pool: clone the pool first.
  llvm::stable_sort(clones, [](Operation *x, Operation *y) {
    return x->getNumOperands() < y->getNumOperands();
  });
  for (Operation *def : clones) {
    Operation *clone = b.clone(*def, mapping);
    // Model I/O accessors are created once, from the original base.
    clone->removeAttr(model_abi::kIOAttrName);
  }
  for (Operation &op : kernel.getBody().front())
    b.clone(op, mapping);
  func::ReturnOp::create(b, kernel.getLoc());
  b.setInsertionPoint(kernel);
  func::CallOp::create(b, kernel.getLoc(), func, operands);
  kernel.erase();
}

/// Lowers what the LLVM patterns below cannot take: the tiler's affine
/// loops and index maps, scf, and strided vector slices of segments.
/// Kernels are outlined first: their body is a single block, so scf inside
/// one cannot become cf (which is also why the pipeline has no separate
/// convert-scf-to-cf before this pass).
static LogicalResult prepareForLLVM(ModuleOp module) {
  MLIRContext *ctx = module.getContext();

  OpBuilder builder(ctx);
  SmallVector<KernelOp> kernels;
  module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  for (auto [index, kernel] : llvm::enumerate(kernels))
    outlineKernel(kernel, index, builder);

  RewritePatternSet vectorPatterns(ctx);
  vector::populateVectorInsertExtractStridedSliceTransforms(vectorPatterns);
  vector::populateVectorBroadcastLoweringPatterns(vectorPatterns);
  vector::populateVectorShapeCastLoweringPatterns(vectorPatterns);
  SmallVector<Operation *> vectorOps;
  module.walk([&](Operation *op) {
    if (isa<vector::VectorDialect>(op->getDialect()))
      vectorOps.push_back(op);
  });
  // Only the vector ops: a module-wide greedy rewrite would also erase
  // unused tensor bases, losing the model I/O they declare.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(vectorOps, std::move(vectorPatterns), config);

  RewritePatternSet affinePatterns(ctx);
  populateAffineToStdConversionPatterns(affinePatterns);
  populateAffineToVectorConversionPatterns(affinePatterns);
  ConversionTarget affineTarget(*ctx);
  affineTarget.addIllegalDialect<affine::AffineDialect>();
  affineTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  if (failed(applyPartialConversion(module, affineTarget,
                                    std::move(affinePatterns))))
    return failure();

  RewritePatternSet scfPatterns(ctx);
  populateSCFToControlFlowConversionPatterns(scfPatterns);
  ConversionTarget scfTarget(*ctx);
  scfTarget.addIllegalDialect<scf::SCFDialect>();
  scfTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(module, scfTarget, std::move(scfPatterns));
}

struct ConvertVMCUToLLVMPass
    : public vmcu::impl::ConvertVMCUToLLVMPassBase<ConvertVMCUToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    std::optional<CortexMTarget> target = lookupCortexMTarget(cpu);
    if (!target) {
      // Not module.emitError: that would print the whole module as a note.
      emitError(module.getLoc(), "unknown cpu '")
          << cpu
          << "' for convert-vmcu-to-llvm; expected cortex-m4 or "
             "cortex-m7";
      return signalPassFailure();
    }
    if (failed(verifyPlacedModule(module)) ||
        (ringCheck && failed(insertRingChecks(module))) ||
        failed(prepareForLLVM(module)))
      return signalPassFailure();

    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(32);
    options.dataLayout = llvm::DataLayout(kDataLayout);
    LLVMTypeConverter converter(ctx, options);
    populateVMCUToLLVMTypeConversion(converter);

    RewritePatternSet patterns(ctx);
    populateVMCUToLLVMConversionPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    vector::populateVectorTransferLoweringPatterns(patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget conversionTarget(*ctx);
    conversionTarget.addLegalOp<ModuleOp>();
    if (failed(
            applyFullConversion(module, conversionTarget, std::move(patterns))))
      return signalPassFailure();

    // Fold the casts the conversion left between converted values, so the
    // output is pure LLVM dialect.
    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp op) { casts.push_back(op); });
    SmallVector<UnrealizedConversionCastOp> remaining;
    reconcileUnrealizedCasts(casts, &remaining);
    if (!remaining.empty()) {
      remaining.front().emitOpError(
          "could not be folded away while lowering to LLVM");
      return signalPassFailure();
    }

    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, kTargetTriple));
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(ctx, kDataLayout));
    auto features = LLVM::TargetFeaturesAttr::get(ctx, target->features);
    module.walk([&](LLVM::LLVMFuncOp fn) {
      fn.setTargetCpu(target->cpu);
      fn.setTargetFeaturesAttr(features);
    });
  }
};

} // namespace
