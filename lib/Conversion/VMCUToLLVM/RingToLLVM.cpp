//===- RingToLLVM.cpp - lower the segment pool and its accesses -----------===//
//
// Lowers the ring ops: the pool becomes one byte array (the arena), tensor
// bases become constants (plus the model I/O accessors), ring accesses
// become loads and stores at a wrapped address, kernels are inlined and
// frees vanish.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ZeroGlobal.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// The exported `const unsigned NAME = value;` of the model API.
static void createByteCountGlobal(OpBuilder &builder, ModuleOp module,
                                  Location loc, StringRef name, int64_t value) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  LLVM::GlobalOp::create(builder, loc, builder.getI32Type(),
                         /*isConstant=*/true, LLVM::Linkage::External, name,
                         builder.getI32IntegerAttr(value), /*alignment=*/4);
}

/// Returns the arena global of `module`, creating it (and
/// `vmcu_arena_bytes`) on first use: `pool`'s capacity in bytes, zero
/// initialised so it gets no file contents, in section `.vmcu_arena`.
static LLVM::GlobalOp getOrCreateArena(OpBuilder &builder, ModuleOp module,
                                       Location loc, PoolType pool,
                                       uint64_t alignment) {
  if (auto arena = module.lookupSymbol<LLVM::GlobalOp>(model_abi::kArena))
    return arena;
  auto arrayType =
      LLVM::LLVMArrayType::get(builder.getI8Type(), pool.getCapacityBytes());
  LLVM::GlobalOp arena = vmcu::detail::createZeroGlobal(
      builder, module, loc, arrayType, LLVM::Linkage::External,
      model_abi::kArena, alignment);
  arena.setSection(model_abi::kArenaSection);
  createByteCountGlobal(builder, module, loc, model_abi::kArenaBytes,
                        pool.getCapacityBytes());
  return arena;
}

/// Alignment of the arena, 1 if it does not exist (yet).
static uint64_t getArenaAlignment(ModuleOp module) {
  auto arena = module.lookupSymbol<LLVM::GlobalOp>(model_abi::kArena);
  if (!arena || !arena.getAlignment())
    return 1;
  return *arena.getAlignment();
}

/// `base + bytes`: an inbounds GEP over i8.
static Value offsetInBounds(OpBuilder &builder, Location loc, Value base,
                            Value bytes) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(), base,
                             ValueRange{bytes}, LLVM::GEPNoWrapFlags::inbounds);
}

/// Largest power of two dividing `value` (value > 0).
static uint64_t powerOfTwoFactor(uint64_t value) {
  return value & (~value + 1);
}

//===----------------------------------------------------------------------===//
// segment_pool
//===----------------------------------------------------------------------===//

struct SegmentPoolOpLowering : public ConvertOpToLLVMPattern<SegmentPoolOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SegmentPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "pool is not inside a module");
    LLVM::GlobalOp arena = getOrCreateArena(rewriter, module, op.getLoc(),
                                            op.getType(), op.getAlignment());
    auto arrayType = dyn_cast<LLVM::LLVMArrayType>(arena.getGlobalType());
    if (!arrayType ||
        arrayType.getNumElements() !=
            static_cast<uint64_t>(op.getType().getCapacityBytes()))
      return rewriter.notifyMatchFailure(
          op, "the module already has a different vmcu_arena");
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(op, arena);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// tensor_base
//===----------------------------------------------------------------------===//

struct TensorBaseOpLowering : public ConvertOpToLLVMPattern<TensorBaseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TensorBaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<uint64_t> base = op.getBase();
    if (!base)
      return rewriter.notifyMatchFailure(
          op, "no base segment; run --vmcu-solve-offsets first");
    // vmcu_input()/vmcu_output() are input and output 0; the tables give
    // every one (createIOTables).
    if (auto io = op->getAttrOfType<StringAttr>(model_abi::kIOAttrName))
      if (op.getModelIOIndex() == 0 &&
          failed(createIOAccessor(op, io.getValue(), *base, rewriter)))
        return failure();
    rewriter.replaceOp(op, createIndexAttrConstant(rewriter, op.getLoc(),
                                                   getIndexType(), *base));
    return success();
  }

private:
  /// Emits `vmcu_input()`/`vmcu_output()` returning the tensor's first byte
  /// (the solver keeps model I/O contiguous) and its byte count.
  LogicalResult createIOAccessor(TensorBaseOp op, StringRef io, uint64_t base,
                                 ConversionPatternRewriter &rewriter) const {
    StringRef fnName, bytesName;
    if (io == model_abi::kIOInput) {
      fnName = model_abi::kInputFn;
      bytesName = model_abi::kInputBytes;
    } else if (io == model_abi::kIOOutput) {
      fnName = model_abi::kOutputFn;
      bytesName = model_abi::kOutputBytes;
    } else {
      return rewriter.notifyMatchFailure(op, "vmcu.io must be input or output");
    }
    auto module = op->getParentOfType<ModuleOp>();
    if (!module || module.lookupSymbol(fnName))
      return rewriter.notifyMatchFailure(op, "I/O accessor already exists");

    Location loc = op.getLoc();
    PoolType pool = op.getPool().getType();
    uint64_t alignment = 8;
    if (auto poolOp = op.getPool().getDefiningOp<SegmentPoolOp>())
      alignment = poolOp.getAlignment();
    LLVM::GlobalOp arena =
        getOrCreateArena(rewriter, module, loc, pool, alignment);

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(module.getBody());
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto fn = LLVM::LLVMFuncOp::create(
        rewriter, loc, fnName, LLVM::LLVMFunctionType::get(ptrType, {}));
    rewriter.setInsertionPointToStart(fn.addEntryBlock(rewriter));
    Value ptr = LLVM::AddressOfOp::create(rewriter, loc, arena);
    if (uint64_t offset = base * pool.getSegmentBytes()) {
      Value index =
          createIndexAttrConstant(rewriter, loc, getIndexType(), offset);
      ptr = offsetInBounds(rewriter, loc, ptr, index);
    }
    LLVM::ReturnOp::create(rewriter, loc, ptr);
    createByteCountGlobal(rewriter, module, loc, bytesName,
                          op.getSegments() * pool.getSegmentBytes());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// kernel and free
//===----------------------------------------------------------------------===//

struct KernelOpLowering : public ConvertOpToLLVMPattern<KernelOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(KernelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.inlineBlockBefore(&op.getBody().front(), op);
    rewriter.eraseOp(op);
    return success();
  }
};

struct FreeOpLowering : public ConvertOpToLLVMPattern<FreeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(FreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ring_load and ring_store
//===----------------------------------------------------------------------===//

/// Offsets within the pool neither wrap nor overflow as signed.
static constexpr LLVM::IntegerOverflowFlags kNoWrap =
    LLVM::IntegerOverflowFlags::nuw | LLVM::IntegerOverflowFlags::nsw;

/// `(segment mod N) * S`, the byte of a ring access's segment in the pool.
/// The tiler keeps `segment` in [0, 2N), so the wrap is one `and` when N is
/// a power of two and otherwise one compare and select; never a division.
static Value wrappedSegmentByte(OpBuilder &b, Location loc, Value segment,
                                PoolType pool, Type indexType) {
  auto cst = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, indexType, b.getIndexAttr(v));
  };
  int64_t n = pool.getSegments();
  Value wrapped;
  if (llvm::isPowerOf2_64(n)) {
    wrapped = LLVM::AndOp::create(b, loc, segment, cst(n - 1));
  } else {
    Value count = cst(n);
    Value past =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, segment, count);
    Value lowered = LLVM::SubOp::create(b, loc, segment, count);
    wrapped = LLVM::SelectOp::create(b, loc, past, lowered, segment);
  }
  if (pool.getSegmentBytes() == 1)
    return wrapped;
  return LLVM::MulOp::create(b, loc, wrapped, cst(pool.getSegmentBytes()),
                             kNoWrap);
}

/// Shared lowering of the two ring accesses.
template <typename RingOp>
struct RingAccessLowering : public ConvertOpToLLVMPattern<RingOp> {
  using ConvertOpToLLVMPattern<RingOp>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename RingOp::Adaptor;

protected:
  /// Returns `pool + (segment mod N) * S + offset`.
  Value computeAddress(RingOp op, OpAdaptor adaptor,
                       ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value byte =
        wrappedSegmentByte(rewriter, loc, adaptor.getSegment(),
                           op.getPool().getType(), this->getIndexType());
    if (Value offset = adaptor.getOffset())
      byte = LLVM::AddOp::create(rewriter, loc, byte, offset, kNoWrap);
    return offsetInBounds(rewriter, loc, adaptor.getPool(), byte);
  }

  /// The alignment every execution of `op` provably has: the arena's, the
  /// segment size's and the constant offset's common power of two; 1 with a
  /// dynamic offset.
  static unsigned provableAlignment(RingOp op) {
    auto module = op->template getParentOfType<ModuleOp>();
    uint64_t align = module ? getArenaAlignment(module) : 1;
    align = std::min(
        align, powerOfTwoFactor(op.getPool().getType().getSegmentBytes()));
    if (Value offset = op.getOffset()) {
      APInt cst;
      if (!matchPattern(offset, m_ConstantInt(&cst)))
        return 1;
      if (uint64_t off = cst.getZExtValue())
        align = std::min(align, powerOfTwoFactor(off));
    }
    return static_cast<unsigned>(align);
  }
};

struct RingLoadOpLowering : public RingAccessLowering<RingLoadOp> {
  using RingAccessLowering::RingAccessLowering;

  LogicalResult
  matchAndRewrite(RingLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "cannot convert the result type");
    Value addr = computeAddress(op, adaptor, rewriter);
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, type, addr,
                                              provableAlignment(op));
    return success();
  }
};

struct RingStoreOpLowering : public RingAccessLowering<RingStoreOp> {
  using RingAccessLowering::RingAccessLowering;

  LogicalResult
  matchAndRewrite(RingStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value addr = computeAddress(op, adaptor, rewriter);
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getValue(), addr,
                                               provableAlignment(op));
    return success();
  }
};

/// The pool as a memref<?xi8> descriptor over the arena, the run's wrapped
/// byte offset and the bytes from there to the pool's end.
struct RingViewOpLowering : public ConvertOpToLLVMPattern<RingViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(RingViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PoolType pool = op.getPool().getType();
    Type viewType = getTypeConverter()->convertType(op.getView().getType());
    if (!viewType)
      return rewriter.notifyMatchFailure(op, "cannot convert the view type");
    auto cst = [&](int64_t v) {
      return createIndexAttrConstant(rewriter, loc, getIndexType(), v);
    };
    auto view = MemRefDescriptor::poison(rewriter, loc, viewType);
    view.setAllocatedPtr(rewriter, loc, adaptor.getPool());
    view.setAlignedPtr(rewriter, loc, adaptor.getPool());
    view.setOffset(rewriter, loc, cst(0));
    view.setSize(rewriter, loc, 0, cst(pool.getCapacityBytes()));
    view.setStride(rewriter, loc, 0, cst(1));
    Value offset = wrappedSegmentByte(rewriter, loc, adaptor.getSegment(), pool,
                                      getIndexType());
    Value contiguous = LLVM::SubOp::create(
        rewriter, loc, cst(pool.getCapacityBytes()), offset);
    rewriter.replaceOp(op, {Value(view), offset, contiguous});
    return success();
  }
};

} // namespace

void mlir::vmcu::detail::populateRingToLLVMPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SegmentPoolOpLowering, TensorBaseOpLowering, KernelOpLowering,
               FreeOpLowering, RingLoadOpLowering, RingStoreOpLowering,
               RingViewOpLowering>(converter);
}
