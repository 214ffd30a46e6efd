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
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
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

/// Model inputs (outputs) a lowered model may have: far more than any
/// model has, and a bound on the tables built from vmcu.io_index.
constexpr size_t kMaxModelIO = 256;

/// The model's input and output tensors, by position.
struct ModelIO {
  SmallVector<TensorBaseOp> inputs, outputs;
};

/// Rejects what the patterns cannot lower, with a message that says which
/// earlier pass is missing; collects the model's inputs and outputs.
static LogicalResult verifyPlacedModule(ModuleOp module, ModelIO &io) {
  SegmentPoolOp pool;
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    if (op->getName().getDialectNamespace() == "tosa")
      return op->emitOpError("must be converted to vmcu before lowering to "
                             "LLVM; run --convert-tosa-to-vmcu first");
    if (isa<LayerOpInterface>(op))
      return op->emitOpError(
          "must be tiled before lowering to LLVM; run --vmcu-tile first");
    if (auto poolOp = dyn_cast<SegmentPoolOp>(op)) {
      // vmcu-outline-kernels clones the pool into each kernel function:
      // clones live in other functions and have the same type.
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
    }
    auto base = dyn_cast<TensorBaseOp>(op);
    if (!base)
      return WalkResult::advance();
    if (!base.getBase())
      return base.emitOpError("tensor '")
             << base.getName()
             << "' has no base segment; run --vmcu-solve-offsets first";
    // The dialect verifier has checked the marker's value.
    if (!base.isModelInput() && !base.isModelOutput())
      return WalkResult::advance();
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
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto [kind, list] : {std::pair(model_abi::kIOInput, &io.inputs),
                            std::pair(model_abi::kIOOutput, &io.outputs)})
    for (auto [i, base] : llvm::enumerate(*list))
      if (!base)
        return module.emitError("the model has no ")
               << kind << " #" << i << " but a later one";

  // The exported names must be free for the lowering to define them.
  for (StringRef name :
       {model_abi::kArena, model_abi::kArenaBytes, model_abi::kInputFn,
        model_abi::kInputBytes, model_abi::kOutputFn, model_abi::kOutputBytes,
        model_abi::kInputCount, model_abi::kOutputCount,
        model_abi::kInputOffsets, model_abi::kInputSizes,
        model_abi::kOutputOffsets, model_abi::kOutputSizes})
    if (Operation *clash = module.lookupSymbol(name))
      return clash->emitOpError("defines '")
             << name << "', which the vmcu lowering reserves";
  return success();
}

/// Alignment of the exported `unsigned` constants (AAPCS: a word).
constexpr uint64_t kWordAlignment = 4;

/// A constant `unsigned` array (external, so C code can read it).
static void createU32Array(OpBuilder &builder, ModuleOp module, StringRef name,
                           ArrayRef<int32_t> values) {
  auto type = LLVM::LLVMArrayType::get(builder.getI32Type(), values.size());
  LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         builder.getI32TensorAttr(values), kWordAlignment);
}

/// The model's input and output tables (model_abi::kInputCount and the
/// rest): counts, byte offsets in the arena and byte counts.
static void createIOTables(ModuleOp module, const ModelIO &io) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToStart(module.getBody());
  auto emit = [&](ArrayRef<TensorBaseOp> list, StringRef count,
                  StringRef offsets, StringRef sizes) {
    SmallVector<int32_t> offsetValues, sizeValues;
    for (TensorBaseOp base : list) {
      int64_t unit = base.getPool().getType().getSegmentBytes();
      offsetValues.push_back(static_cast<int32_t>(*base.getBase() * unit));
      sizeValues.push_back(static_cast<int32_t>(base.getSegments() * unit));
    }
    LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                           /*isConstant=*/true, LLVM::Linkage::External, count,
                           builder.getI32IntegerAttr(list.size()),
                           kWordAlignment);
    createU32Array(builder, module, offsets, offsetValues);
    createU32Array(builder, module, sizes, sizeValues);
  };
  if (io.inputs.empty() || io.outputs.empty())
    return;
  emit(io.inputs, model_abi::kInputCount, model_abi::kInputOffsets,
       model_abi::kInputSizes);
  emit(io.outputs, model_abi::kOutputCount, model_abi::kOutputOffsets,
       model_abi::kOutputSizes);
}

/// Lowers what the LLVM patterns below cannot take: the tiler's affine
/// loops and index maps, scf, and strided vector slices of segments. The
/// kernels must be outlined already (vmcu-outline-kernels): a kernel body is
/// a single block, so scf inside one cannot become cf.
static LogicalResult prepareForLLVM(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  WalkResult kernel = module.walk([](KernelOp op) {
    op.emitOpError("must be outlined before lowering; run "
                   "vmcu-outline-kernels");
    return WalkResult::interrupt();
  });
  if (kernel.wasInterrupted())
    return failure();

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

/// scf-to-cf copies an scf.for's `llvm.loop_annotation` (vmcu-tile puts
/// one on loops LLVM must not unroll) onto the loop's back edge as a
/// discardable attribute, which the translation to LLVM IR ignores: make
/// it the branch's own loop annotation, which becomes `!llvm.loop`.
static void moveLoopAnnotations(ModuleOp module) {
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
          << cpu << "' for convert-vmcu-to-llvm; expected "
          << nameList(kTargetCpus);
      return signalPassFailure();
    }
    ModelIO io;
    if (failed(verifyPlacedModule(module, io)) ||
        failed(prepareForLLVM(module)))
      return signalPassFailure();
    createIOTables(module, io);

    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(32);
    options.dataLayout = llvm::DataLayout(kDataLayout);
    LLVMTypeConverter converter(ctx, options);
    populateVMCUToLLVMTypeConversion(converter);

    RewritePatternSet patterns(ctx);
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

    moveLoopAnnotations(module);
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, target->triple));
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
