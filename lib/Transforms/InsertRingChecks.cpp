//===- InsertRingChecks.cpp - instrument ring accesses for the checker ----===//
//
// Calls into the runtime's ring-safety checker (runtime/vmcu_ring_check.c)
// next to the pool and every ring access, so a run stops at the first store
// over a live segment of another kernel, load of a dead segment or free of
// a dead one. It runs on vmcu ops before the kernels are outlined (that is
// where kernel ids are known) and adds only LLVM calls, LLVM constants and
// index casts.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUINSERTRINGCHECKSPASS
#include "vmcu/Transforms/Passes.h.inc"
namespace abi = mlir::vmcu::ring_check_abi;

namespace {

/// The checker's entry points, declared in the module.
struct RingCheckFns {
  LLVM::LLVMFuncOp init, input, load, store, view, free, freeShared, release;
};

/// Emits the checker calls; every argument is an i32.
class RingCheckBuilder {
public:
  explicit RingCheckBuilder(ModuleOp module)
      : module(module), builder(module.getContext()),
        i32(builder.getI32Type()) {}

  LogicalResult run();

private:
  ModuleOp module;
  OpBuilder builder;
  Type i32;
  RingCheckFns fns;
  DenseMap<Operation *, uint32_t> kernelIds;

  /// Declares the entry points; release only with `withRelease`,
  /// free_shared only with `withSharedFree`.
  LogicalResult declareFunctions(bool withRelease, bool withSharedFree);
  /// `@vmcu_ring_check_kernel_names`, or a null pointer without kernels.
  Value getKernelNames(Location loc, ArrayRef<KernelOp> kernels);

  Value constant(Location loc, int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, i32,
                                    builder.getI32IntegerAttr(value));
  }
  Value toI32(Location loc, Value index) {
    return arith::IndexCastUIOp::create(builder, loc, i32, index);
  }
  /// Id of `kernel`, abi::kNoKernel for none.
  Value kernelId(Location loc, KernelOp kernel) {
    uint32_t id = kernel ? kernelIds.lookup(kernel) : abi::kNoKernel;
    return constant(loc, static_cast<int32_t>(id));
  }
  /// Id of the kernel `op` is in.
  Value kernelIdOf(Operation *op) {
    return kernelId(op->getLoc(), op->getParentOfType<KernelOp>());
  }
  void call(LLVM::LLVMFuncOp fn, Location loc, ArrayRef<Value> args) {
    LLVM::CallOp::create(builder, loc, fn, args);
  }

  void instrumentPool(SegmentPoolOp pool, Value names, int64_t kernelCount);
  template <typename RingOp>
  void instrumentAccess(RingOp op, LLVM::LLVMFuncOp fn, VectorType accessType);
};

} // namespace

LogicalResult RingCheckBuilder::declareFunctions(bool withRelease,
                                                 bool withSharedFree) {
  Type ptr = LLVM::LLVMPointerType::get(module.getContext());
  Type voidType = LLVM::LLVMVoidType::get(module.getContext());
  auto declare = [&](StringRef name, ArrayRef<Type> params,
                     LLVM::LLVMFuncOp &fn) -> LogicalResult {
    FailureOr<LLVM::LLVMFuncOp> decl =
        LLVM::lookupOrCreateFn(builder, module, name, params, voidType,
                               /*isVarArg=*/false, /*isReserved=*/true);
    if (failed(decl))
      return failure();
    fn = *decl;
    return success();
  };
  return success(
      succeeded(
          declare(abi::kInitFn, {i32, i32, i32, i32, ptr, i32}, fns.init)) &&
      succeeded(declare(abi::kInputFn, {i32, i32}, fns.input)) &&
      succeeded(declare(abi::kLoadFn, {i32, i32, i32, i32}, fns.load)) &&
      succeeded(declare(abi::kStoreFn, {i32, i32, i32, i32}, fns.store)) &&
      succeeded(declare(abi::kViewFn, {i32, i32, i32, i32}, fns.view)) &&
      succeeded(declare(abi::kFreeFn, {i32, i32, i32}, fns.free)) &&
      (!withRelease ||
       succeeded(declare(abi::kReleaseFn, {i32, i32, i32}, fns.release))) &&
      (!withSharedFree || succeeded(declare(abi::kFreeSharedFn, {i32, i32, i32},
                                            fns.freeShared))));
}

Value RingCheckBuilder::getKernelNames(Location loc,
                                       ArrayRef<KernelOp> kernels) {
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  if (kernels.empty())
    return LLVM::ZeroOp::create(builder, loc, ptr);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(abi::kKernelNames);
  if (!global) { // One per module, even with several pools.
    std::string names;
    for (KernelOp kernel : kernels) {
      names += kernel.getSymName();
      names.push_back('\0');
    }
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), names.size());
    global = LLVM::GlobalOp::create(
        builder, module.getLoc(), type, /*isConstant=*/true,
        LLVM::Linkage::Private, abi::kKernelNames, builder.getStringAttr(names),
        /*alignment=*/1);
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

/// init(segments, segment_bytes, input_base, input_segments, names,
/// kernel_count) right after the pool: model input 0 is live from there;
/// then input(base, segments) for each further model input.
void RingCheckBuilder::instrumentPool(SegmentPoolOp pool, Value names,
                                      int64_t kernelCount) {
  SmallVector<TensorBaseOp> found;
  module.walk([&](TensorBaseOp base) {
    if (base.getPool() == pool.getPool() && base.isModelInput())
      found.push_back(base);
  });
  // (base, segments) by index. vmcu-create-io-tables bounds the index
  // (kMaxModelIO); an index past the inputs found is no input of this model.
  SmallVector<std::pair<int64_t, int64_t>> inputs;
  for (TensorBaseOp base : found) {
    auto index = static_cast<size_t>(base.getModelIOIndex());
    if (!base.getBase() || index >= found.size())
      continue;
    if (inputs.size() <= index)
      inputs.resize(index + 1, {0, 0});
    inputs[index] = {static_cast<int64_t>(*base.getBase()),
                     static_cast<int64_t>(base.getSegments())};
  }
  if (inputs.empty())
    inputs.push_back({0, 0});
  Location loc = pool.getLoc();
  PoolType type = pool.getType();
  call(fns.init, loc,
       {constant(loc, type.getSegments()),
        constant(loc, type.getSegmentBytes()), constant(loc, inputs[0].first),
        constant(loc, inputs[0].second), names, constant(loc, kernelCount)});
  for (auto [base, segments] : ArrayRef(inputs).drop_front())
    call(fns.input, loc, {constant(loc, base), constant(loc, segments)});
}

/// load/store(segment, offset, bytes, kernel) right before the access.
template <typename RingOp>
void RingCheckBuilder::instrumentAccess(RingOp op, LLVM::LLVMFuncOp fn,
                                        VectorType accessType) {
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value offset = op.getOffset() ? toI32(loc, op.getOffset()) : constant(loc, 0);
  call(fn, loc,
       {toI32(loc, op.getSegment()), offset,
        constant(loc, accessType.getNumElements()), kernelIdOf(op)});
}

LogicalResult RingCheckBuilder::run() {
  if (Operation *clash = module.lookupSymbol(abi::kKernelNames))
    return clash->emitOpError("defines '")
           << abi::kKernelNames << "', which the vmcu ring-check mode reserves";
  SmallVector<KernelOp> kernels;
  SmallVector<SegmentPoolOp> pools;
  SmallVector<Operation *> accesses;
  module.walk([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      kernelIds[kernel] = kernels.size();
      kernels.push_back(kernel);
    } else if (auto pool = dyn_cast<SegmentPoolOp>(op)) {
      pools.push_back(pool);
    } else if (isa<RingLoadOp, RingStoreOp, RingViewOp, FreeOp>(op)) {
      accesses.push_back(op);
    }
  });
  bool hasWorkspace = llvm::any_of(
      kernels, [](KernelOp kernel) { return kernel.getWorkspace(); });
  bool hasSplit = llvm::any_of(
      kernels, [](KernelOp kernel) { return kernel.getCores().has_value(); });
  if (failed(declareFunctions(hasWorkspace, hasSplit)))
    return failure();

  for (SegmentPoolOp pool : pools) {
    builder.setInsertionPointAfter(pool);
    Value names = getKernelNames(pool.getLoc(), kernels);
    instrumentPool(pool, names, kernels.size());
  }

  for (Operation *op : accesses) {
    if (auto load = dyn_cast<RingLoadOp>(op)) {
      instrumentAccess(load, fns.load, load.getType());
    } else if (auto store = dyn_cast<RingStoreOp>(op)) {
      instrumentAccess(store, fns.store, store.getValue().getType());
    } else if (auto view = dyn_cast<RingViewOp>(op)) {
      builder.setInsertionPoint(view);
      Location loc = view.getLoc();
      call(fns.view, loc,
           {toI32(loc, view.getSegment()),
            constant(loc, static_cast<int64_t>(view.getCount())),
            constant(loc, static_cast<int64_t>(view.getAlignment())),
            kernelIdOf(view)});
    } else if (auto free = dyn_cast<FreeOp>(op)) {
      builder.setInsertionPoint(free);
      Location loc = free.getLoc();
      // In a kernel two cores share, the other core may still read it.
      auto kernel = free->getParentOfType<KernelOp>();
      bool shared = kernel && kernel.getCores();
      call(shared ? fns.freeShared : fns.free, loc,
           {toI32(loc, free.getSegment()),
            constant(loc, static_cast<int64_t>(free.getCount())),
            kernelIdOf(free)});
    }
  }

  // A workspace lives for its kernel only; nothing frees it.
  for (KernelOp kernel : kernels) {
    Value workspace = kernel.getWorkspace();
    if (!workspace)
      continue;
    builder.setInsertionPointToEnd(&kernel.getBody().front());
    Location loc = kernel.getLoc();
    int64_t segments = static_cast<int64_t>(
        workspace.getDefiningOp<TensorBaseOp>().getSegments());
    call(fns.release, loc,
         {toI32(loc, workspace), constant(loc, segments),
          kernelId(loc, kernel)});
  }
  return success();
}

namespace {

struct VMCUInsertRingChecksPass
    : impl::VMCUInsertRingChecksPassBase<VMCUInsertRingChecksPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(RingCheckBuilder(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace

} // namespace mlir::vmcu
