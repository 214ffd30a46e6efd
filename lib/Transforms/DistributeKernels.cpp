//===- DistributeKernels.cpp - the model's code for two cores -------------===//
//
// Turns vmcu_invoke's body into vmcu_run(core, epoch_base), which both
// cores run: split kernels (vmcu-split-kernels) take every other iteration
// of their top-level loop and wait for the other core's progress, other
// kernels run on core 0, and barriers separate them. vmcu_invoke() (core
// 0) and vmcu_worker() (core 1) start one inference each.
//
// Every published value is epoch_base plus a compile-time offset, and
// epoch_base grows by more than the largest offset per inference, so a
// counter is never reset and a stale value never satisfies a wait.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUDISTRIBUTEKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::core_split;

namespace {

/// The private function both cores run.
constexpr StringLiteral kRunFn = "vmcu_run";
/// A core waits before iteration i until the other finished i - 3.
constexpr int64_t kWaitLag = kSplitFreeDelay + 1;

/// Emits the sync ops and their arithmetic at a builder's insertion point.
struct SyncBuilder {
  OpBuilder &b;
  Location loc;
  Value core, epochBase;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(Value indexValue) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), indexValue);
  }
  /// epochBase + offset (+ extra, an index), as i32 (wrapping).
  Value counter(int64_t offset, Value extra = {}) {
    Value v = arith::AddIOp::create(
        b, loc, epochBase,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset));
    return extra ? arith::AddIOp::create(b, loc, v, i32(extra)) : v;
  }
  Value mySlot(int64_t first) {
    return arith::AddIOp::create(b, loc, index(first), core);
  }
  Value otherSlot(int64_t first) {
    return arith::SubIOp::create(b, loc, index(first + 1), core);
  }
  /// Both cores reach barrier `n` before either goes on.
  void barrier(int64_t n) {
    SyncSetOp::create(b, loc, mySlot(kArriveSlot), counter(n));
    SyncWaitOp::create(b, loc, otherSlot(kArriveSlot), counter(n));
  }
};

/// The top-level scf.for of a split kernel (the one holding its ring
/// stores).
scf::ForOp splitLoop(KernelOp kernel) {
  for (Operation &op : kernel.getBody().front())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      if (loop->walk([](RingStoreOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        return loop;
  return nullptr;
}

/// Core c runs the iterations c, c + 2, ... of `loop`; before iteration k
/// (counted from 0) it waits for the other core's k - kWaitLag, after it
/// publishes k (as doneOffset + k + 1). Returns the trip count.
FailureOr<int64_t> distributeLoop(scf::ForOp loop, SyncBuilder &sync,
                                  int64_t doneOffset) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return loop.emitOpError("vmcu-distribute-kernels: a split kernel's loop "
                            "needs constant bounds and a positive step");
  int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  OpBuilder &b = sync.b;
  b.setInsertionPoint(loop);
  Value first = arith::AddIOp::create(
      b, loop.getLoc(), loop.getLowerBound(),
      arith::MulIOp::create(b, loop.getLoc(), sync.core, loop.getStep()));
  Value twice = sync.index(2 * *step);
  loop.getLowerBoundMutable().assign(first);
  loop.getStepMutable().assign(twice);

  // k = (i - lb) / step.
  b.setInsertionPointToStart(loop.getBody());
  Location loc = loop.getLoc();
  Value k = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getInductionVar(), sync.index(*lb)),
      sync.index(*step));
  Value mustWait = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, k,
                                         sync.index(kWaitLag));
  auto ifWait = scf::IfOp::create(b, loc, mustWait, /*withElse=*/false);
  b.setInsertionPointToStart(ifWait.thenBlock());
  Value lagged = arith::SubIOp::create(b, loc, k, sync.index(kWaitLag));
  SyncWaitOp::create(b, loc, sync.otherSlot(kDoneSlot),
                     sync.counter(doneOffset + 1, lagged));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  SyncSetOp::create(b, loc, sync.mySlot(kDoneSlot),
                    sync.counter(doneOffset + 1, k));
  return trips;
}

/// Runs `kernel` on core 0 only.
void runOnFirstCore(KernelOp kernel, SyncBuilder &sync) {
  OpBuilder &b = sync.b;
  b.setInsertionPoint(kernel);
  Value isFirst = arith::CmpIOp::create(
      b, kernel.getLoc(), arith::CmpIPredicate::eq, sync.core, sync.index(0));
  auto ifFirst = scf::IfOp::create(b, kernel.getLoc(), isFirst, false);
  kernel->moveBefore(ifFirst.thenBlock()->getTerminator());
}

/// Distributes the kernels of `run`; returns the span of values one
/// inference publishes (the epoch stride).
FailureOr<int64_t> distributeKernels(func::FuncOp run, SyncBuilder &sync) {
  SmallVector<KernelOp> kernels;
  for (Operation &op : run.getBody().front())
    if (auto kernel = dyn_cast<KernelOp>(op))
      kernels.push_back(kernel);
  int64_t doneOffset = 0, barriers = 0;
  bool previousSplit = false;
  for (KernelOp kernel : kernels) {
    bool split = kernel.getCores().has_value();
    sync.b.setInsertionPoint(kernel);
    if (split && !previousSplit)
      sync.barrier(++barriers);
    if (!split) {
      runOnFirstCore(kernel, sync);
      previousSplit = false;
      continue;
    }
    scf::ForOp loop = splitLoop(kernel);
    if (!loop)
      return kernel.emitOpError("vmcu-distribute-kernels: a split kernel "
                                "needs a top-level scf.for with its stores");
    FailureOr<int64_t> trips = distributeLoop(loop, sync, doneOffset);
    if (failed(trips))
      return failure();
    doneOffset += *trips + 1;
    sync.b.setInsertionPointAfter(kernel);
    sync.barrier(++barriers);
    previousSplit = true;
  }
  return std::max(doneOffset, barriers) + 1;
}

/// Adds vmcu_invoke() and vmcu_worker() that call `run` with their core's
/// epoch base.
void createEntryPoints(ModuleOp module, func::FuncOp run, int64_t stride) {
  OpBuilder b(module.getContext());
  Location loc = run.getLoc();
  b.setInsertionPointToEnd(module.getBody());
  auto slot = [&](int64_t s) {
    return arith::ConstantIndexOp::create(b, loc, s);
  };
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  auto epochBase = [&](Value epoch) {
    return arith::MulIOp::create(b, loc, epoch, i32(stride));
  };
  // Core 0 starts epoch last + 1: it is the epoch slot's only writer.
  auto invoke = func::FuncOp::create(
      b, loc, model_abi::kInvokeFn,
      run.getFunctionType().clone({}, run.getResultTypes()));
  b.setInsertionPointToStart(invoke.addEntryBlock());
  Value last = SyncReadOp::create(b, loc, slot(kEpochSlot)).getValue();
  Value epoch = arith::AddIOp::create(b, loc, last, i32(1));
  SyncSetOp::create(b, loc, slot(kEpochSlot), epoch);
  auto call =
      func::CallOp::create(b, loc, run, ValueRange{slot(0), epochBase(epoch)});
  func::ReturnOp::create(b, loc, call.getResults());

  b.setInsertionPointToEnd(module.getBody());
  auto worker = func::FuncOp::create(b, loc, model_abi::kWorkerFn,
                                     b.getFunctionType({}, {}));
  b.setInsertionPointToStart(worker.addEntryBlock());
  Value joined = SyncReadOp::create(b, loc, slot(kWorkerEpochSlot)).getValue();
  Value next = arith::AddIOp::create(b, loc, joined, i32(1));
  SyncWaitOp::create(b, loc, slot(kEpochSlot), next);
  SyncSetOp::create(b, loc, slot(kWorkerEpochSlot), next);
  func::CallOp::create(b, loc, run, ValueRange{slot(1), epochBase(next)});
  func::ReturnOp::create(b, loc);
}

struct VMCUDistributeKernelsPass
    : vmcu::impl::VMCUDistributeKernelsPassBase<VMCUDistributeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (cores == 1)
      return;
    ModuleOp module = getOperation();
    if (cores != kSplitCores) {
      module.emitError("vmcu-distribute-kernels: cores must be 1 or ")
          << kSplitCores << ", got " << cores.getValue();
      return signalPassFailure();
    }
    if (module.lookupSymbol(ring_check_abi::kInitFn)) {
      module.emitError("vmcu-distribute-kernels: ring-check with cores=2 is "
                       "not supported: the runtime's ring checker follows "
                       "one core's accesses");
      return signalPassFailure();
    }
    auto invoke = module.lookupSymbol<func::FuncOp>(model_abi::kInvokeFn);
    if (!invoke || invoke.isExternal()) {
      module.emitError("vmcu-distribute-kernels: no ")
          << model_abi::kInvokeFn << " to distribute";
      return signalPassFailure();
    }
    func::FuncOp run = makeRunFunction(invoke);
    OpBuilder b(module.getContext());
    SyncBuilder sync{b, run.getLoc(), run.getArgument(0), run.getArgument(1)};
    FailureOr<int64_t> stride = distributeKernels(run, sync);
    if (failed(stride))
      return signalPassFailure();
    createEntryPoints(module, run, *stride);
  }

  /// Renames `invoke` to kRunFn, private, with the arguments (core: index,
  /// epoch_base: i32).
  static func::FuncOp makeRunFunction(func::FuncOp invoke) {
    MLIRContext *ctx = invoke.getContext();
    Type index = IndexType::get(ctx), i32 = IntegerType::get(ctx, 32);
    Block &entry = invoke.getBody().front();
    entry.addArgument(index, invoke.getLoc());
    entry.addArgument(i32, invoke.getLoc());
    invoke.setType(
        FunctionType::get(ctx, {index, i32}, invoke.getResultTypes()));
    invoke.setSymName(kRunFn);
    invoke.setPrivate();
    invoke->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
    return invoke;
  }
};

} // namespace
