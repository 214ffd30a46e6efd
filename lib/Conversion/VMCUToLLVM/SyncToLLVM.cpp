//===- SyncToLLVM.cpp - two-core counters to LLVM atomics ----------------===//
//
// vmcu.sync_set, sync_read and sync_wait on the words `i32 vmcu_sync[]`
// (core_split in ModelABI.h): a store-release, a load-acquire, and a call
// of `vmcu_wait_sync`, whose loop of load-acquires ends once the word minus
// the target is non-negative as an int32. On Armv7-M / Armv8-M the acquire
// and release orderings become DMB barriers (or LDA/STL), which the
// Armv8-M memory model needs between one core's loads of a segment and
// the other core's stores over it.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ZeroGlobal.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::core_split;

namespace {

/// A 32-bit word's alignment in bytes.
constexpr unsigned kWordAlignment = 4;

/// The module's `vmcu_sync` words, created zero-initialised on first use.
LLVM::GlobalOp getOrCreateSyncWords(OpBuilder &builder, ModuleOp module,
                                    Location loc) {
  if (auto words = module.lookupSymbol<LLVM::GlobalOp>(kSyncWords))
    return words;
  auto type = LLVM::LLVMArrayType::get(builder.getI32Type(), kSyncSlots);
  return vmcu::detail::createZeroGlobal(builder, module, loc, type,
                                        LLVM::Linkage::Internal, kSyncWords,
                                        kWordAlignment);
}

/// The load-acquire of the i32 at `word`.
LLVM::LoadOp loadAcquire(OpBuilder &builder, Location loc, Value word) {
  return LLVM::LoadOp::create(
      builder, loc, builder.getI32Type(), word, kWordAlignment,
      /*isVolatile=*/false, /*isNonTemporal=*/false, /*isInvariant=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire);
}

/// The store-release of `value` to the i32 at `word`.
LLVM::StoreOp storeRelease(OpBuilder &builder, Location loc, Value value,
                           Value word) {
  return LLVM::StoreOp::create(
      builder, loc, value, word, kWordAlignment, /*isVolatile=*/false,
      /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
      LLVM::AtomicOrdering::release);
}

/// The internal, noinline `void vmcu_wait_sync(i32 *word, i32 target)`.
LLVM::LLVMFuncOp getOrCreateWaitFunction(OpBuilder &builder, ModuleOp module,
                                         Location loc) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kWaitFn))
    return fn;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  MLIRContext *ctx = builder.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = builder.getI32Type();
  auto fn = LLVM::LLVMFuncOp::create(
      builder, loc, kWaitFn,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, i32}),
      LLVM::Linkage::Internal);
  fn.setPassthroughAttr(builder.getStrArrayAttr({"noinline"}));
  Block *entry = fn.addEntryBlock(builder);
  Block *loop = builder.createBlock(&fn.getBody());
  Block *done = builder.createBlock(&fn.getBody());
  builder.setInsertionPointToEnd(entry);
  LLVM::BrOp::create(builder, loc, loop);
  builder.setInsertionPointToEnd(loop);
  Value word = loadAcquire(builder, loc, entry->getArgument(0));
  Value ahead = LLVM::SubOp::create(builder, loc, word, entry->getArgument(1));
  Value zero = LLVM::ConstantOp::create(builder, loc, i32, 0);
  Value reached =
      LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::sge, ahead, zero);
  LLVM::CondBrOp::create(builder, loc, reached, done, loop);
  builder.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  return fn;
}

/// The address of word `slot` of vmcu_sync.
Value syncWordAddress(ConversionPatternRewriter &rewriter, Operation *op,
                      Value slot) {
  auto module = op->getParentOfType<ModuleOp>();
  LLVM::GlobalOp words = getOrCreateSyncWords(rewriter, module, op->getLoc());
  Value base = LLVM::AddressOfOp::create(rewriter, op->getLoc(), words);
  return LLVM::GEPOp::create(rewriter, op->getLoc(), base.getType(),
                             rewriter.getI32Type(), base, ValueRange{slot});
}

struct SyncSetOpLowering : public ConvertOpToLLVMPattern<SyncSetOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SyncSetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value word = syncWordAddress(rewriter, op, adaptor.getSlot());
    rewriter.replaceOp(
        op, storeRelease(rewriter, op.getLoc(), adaptor.getValue(), word));
    return success();
  }
};

struct SyncReadOpLowering : public ConvertOpToLLVMPattern<SyncReadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SyncReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value word = syncWordAddress(rewriter, op, adaptor.getSlot());
    rewriter.replaceOp(op, loadAcquire(rewriter, op.getLoc(), word));
    return success();
  }
};

struct SyncWaitOpLowering : public ConvertOpToLLVMPattern<SyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    LLVM::LLVMFuncOp wait =
        getOrCreateWaitFunction(rewriter, module, op.getLoc());
    Value word = syncWordAddress(rewriter, op, adaptor.getSlot());
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op, wait, ValueRange{word, adaptor.getTarget()});
    return success();
  }
};

} // namespace

void mlir::vmcu::detail::populateSyncToLLVMPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SyncSetOpLowering, SyncReadOpLowering, SyncWaitOpLowering>(
      converter);
}
