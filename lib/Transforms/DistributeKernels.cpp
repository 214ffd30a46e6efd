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
// counter is never reset and a stale value never satisfies a wait. With
// the ring checker (vmcu-insert-ring-checks), core 0 resets it in
// vmcu_invoke() before it releases the worker.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "CoresOption.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUDISTRIBUTEKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"
using namespace core_split;

namespace {

/// A core waits before iteration i until the other finished i - 3.
constexpr int64_t kWaitLag = kSplitFreeDelay + 1;

/// Emits the sync ops and their arithmetic at a builder's insertion point.
/// Callers create one op-building argument per statement: C++ leaves the
/// order of argument evaluation to the compiler, and the IR must not
/// depend on which compiler built vmcu.
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
  /// Both cores reach barrier `n` (+ `extra`) before either goes on.
  void barrier(int64_t n, Value extra = {}) {
    Value mine = mySlot(kArriveSlot);
    SyncSetOp::create(b, loc, mine, counter(n, extra));
    Value other = otherSlot(kArriveSlot);
    SyncWaitOp::create(b, loc, other, counter(n, extra));
  }
};

/// The first op of `block` that accesses the ring, if it is an scf.for.
scf::ForOp firstAccessLoop(Block &block) {
  for (Operation &op : block)
    if (accessesRing(&op))
      return dyn_cast<scf::ForOp>(op);
  return nullptr;
}

/// A loop with constant bounds and step.
struct ConstantLoop {
  scf::ForOp loop;
  int64_t lb, step, trips;
};

FailureOr<ConstantLoop> constantLoop(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return loop.emitOpError("vmcu-distribute-kernels: a split kernel's loop "
                            "needs constant bounds and a positive step");
  int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  return ConstantLoop{loop, *lb, *step, trips};
}

/// (iv - lb) / step of `loop` at the builder's insertion point (inside
/// its body): the index of the iteration running.
Value iterationIndex(ConstantLoop loop, SyncBuilder &sync) {
  OpBuilder &b = sync.b;
  scf::ForOp forOp = loop.loop;
  Location loc = forOp.getLoc();
  Value offset = arith::SubIOp::create(b, loc, forOp.getInductionVar(),
                                       sync.index(loop.lb));
  return arith::DivUIOp::create(b, loc, offset, sync.index(loop.step));
}

/// Core c runs the split iterations k = c, c + 2, ... of `split.loop`,
/// whose iteration j is split iteration rowBase + j (rowBase: the
/// iterations of earlier rows, with split_depth 2; else none). Before
/// iteration k it waits for the other core's k - kWaitLag; after, it
/// publishes k (as doneOffset + k + 1).
void distributeLoop(const ConstantLoop &split, SyncBuilder &sync,
                    int64_t doneOffset, Value rowBase) {
  scf::ForOp loop = split.loop;
  OpBuilder &b = sync.b;
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  // The core's first j: (core + rowBase) mod 2.
  Value parity = sync.core;
  if (rowBase) {
    Value pixel = arith::AddIOp::create(b, loc, sync.core, rowBase);
    parity = arith::RemUIOp::create(b, loc, pixel, sync.index(kSplitCores));
  }
  Value first = arith::AddIOp::create(
      b, loc, loop.getLowerBound(),
      arith::MulIOp::create(b, loc, parity, loop.getStep()));
  loop.getLowerBoundMutable().assign(first);
  loop.getStepMutable().assign(sync.index(kSplitCores * split.step));

  // k = rowBase + (i - lb) / step.
  b.setInsertionPointToStart(loop.getBody());
  Value k = iterationIndex(split, sync);
  if (rowBase)
    k = arith::AddIOp::create(b, loc, rowBase, k);
  Value mustWait = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, k,
                                         sync.index(kWaitLag));
  auto ifWait = scf::IfOp::create(b, loc, mustWait, /*withElse=*/false);
  b.setInsertionPointToStart(ifWait.thenBlock());
  Value lagged = arith::SubIOp::create(b, loc, k, sync.index(kWaitLag));
  Value otherDone = sync.otherSlot(kDoneSlot);
  SyncWaitOp::create(b, loc, otherDone, sync.counter(doneOffset + 1, lagged));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value myDone = sync.mySlot(kDoneSlot);
  SyncSetOp::create(b, loc, myDone, sync.counter(doneOffset + 1, k));
}

/// Core c runs the iterations c, c + 2, ... of `loop`.
void takeEveryOther(ConstantLoop split, SyncBuilder &sync) {
  OpBuilder &b = sync.b;
  scf::ForOp loop = split.loop;
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  Value first = arith::AddIOp::create(
      b, loc, loop.getLowerBound(),
      arith::MulIOp::create(b, loc, sync.core, loop.getStep()));
  loop.getLowerBoundMutable().assign(first);
  loop.getStepMutable().assign(sync.index(kSplitCores * split.step));
}

/// Runs `ops` (consecutive: a kernel, a phase no loop of which can be
/// shared, or a split loop's tail) on core `core` only.
void runOnCore(ArrayRef<Operation *> ops, SyncBuilder &sync, int64_t core) {
  OpBuilder &b = sync.b;
  Location loc = ops.front()->getLoc();
  b.setInsertionPoint(ops.front());
  Value isCore = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       sync.core, sync.index(core));
  auto ifCore = scf::IfOp::create(b, loc, isCore, false);
  for (Operation *op : ops)
    op->moveBefore(ifCore.thenBlock()->getTerminator());
}

void runOnFirstCore(ArrayRef<Operation *> ops, SyncBuilder &sync) {
  runOnCore(ops, sync, 0);
}

/// The ops after `loop` in its block, its terminator aside (in a phase,
/// its last pixel, computed by a few loops in turn after the loop over
/// pixel pairs).
SmallVector<Operation *> opsAfter(scf::ForOp loop) {
  SmallVector<Operation *> tail;
  for (Operation *op = loop->getNextNode();
       op && !op->hasTrait<OpTrait::IsTerminator>(); op = op->getNextNode())
    tail.push_back(op);
  return tail;
}

/// The loop of a phase whose iterations the cores take in turn: the phase
/// itself when its bounds are constants, else the loop inside it that
/// accesses the ring; null when there is none (a loop unrolled).
scf::ForOp sharedLoop(Operation *phase) {
  auto loop = dyn_cast<scf::ForOp>(phase);
  if (!loop || (getConstantIntValue(loop.getLowerBound()) &&
                getConstantIntValue(loop.getUpperBound())))
    return loop;
  scf::ForOp inner = firstAccessLoop(*loop.getBody());
  return inner && getConstantIntValue(inner.getLowerBound()) &&
                 getConstantIntValue(inner.getUpperBound())
             ? inner
             : nullptr;
}

/// The stack buffers (memref.alloca outside `op`) that `op` reads and
/// writes; an op without declared effects does both to its buffers.
void stackEffects(Operation *op, DenseSet<Value> &reads,
                  DenseSet<Value> &writes) {
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      auto alloca = operand.getDefiningOp<memref::AllocaOp>();
      if (!alloca || op->isAncestor(alloca))
        continue;
      auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
      if (!effects) {
        reads.insert(operand);
        writes.insert(operand);
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffectsOnValue(operand, list);
      for (const MemoryEffects::EffectInstance &effect : list) {
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads.insert(operand);
        if (isa<MemoryEffects::Write>(effect.getEffect()))
          writes.insert(operand);
      }
    }
  });
}

/// Whether `op` hands nothing to `later` through stack buffers: none of
/// them reads a buffer `op` writes (each core has its own stack).
bool handsNothingTo(Operation *op, ArrayRef<Operation *> later) {
  DenseSet<Value> reads, writes;
  stackEffects(op, reads, writes);
  for (Operation *laterOp : later) {
    DenseSet<Value> laterReads, laterWrites;
    stackEffects(laterOp, laterReads, laterWrites);
    if (llvm::any_of(writes, [&](Value v) { return laterReads.contains(v); }))
      return false;
  }
  return true;
}

/// Whether a phase of a row may be shared out: no stack buffer carries
/// values into it from an earlier op of the row, or out of it to a later
/// one (each core has its own stack). A pixel left over after the row's
/// pixel loop is computed by a few loops in turn through stack buffers:
/// those run on core 0.
bool isSelfContained(Operation *phase) {
  DenseSet<Value> reads, writes;
  stackEffects(phase, reads, writes);
  for (Operation *op = phase->getPrevNode(); op; op = op->getPrevNode()) {
    DenseSet<Value> earlierReads, earlierWrites;
    stackEffects(op, earlierReads, earlierWrites);
    if (llvm::any_of(reads, [&](Value v) { return earlierWrites.contains(v); }))
      return false;
  }
  SmallVector<Operation *> later;
  for (Operation *op = phase->getNextNode(); op; op = op->getNextNode())
    later.push_back(op);
  return handsNothingTo(phase, later);
}

/// A kernel split by phases: in each row, each loop that accesses the ring
/// (or, when its bounds vary, the loop inside it that does) is shared out
/// iteration by iteration, and both cores meet after it. Barrier values
/// from `barriers` + 1 on, one per phase and row; returns how many.
int64_t distributePhases(scf::ForOp top, const ConstantLoop &rows,
                         SyncBuilder &sync, int64_t barriers) {
  SmallVector<Operation *> phases;
  for (Operation &op : *top.getBody())
    if (accessesRing(&op))
      phases.push_back(&op);
  OpBuilder &b = sync.b;
  Location loc = top.getLoc();
  b.setInsertionPointToStart(top.getBody());
  Value row = iterationIndex(rows, sync);
  int64_t count = static_cast<int64_t>(phases.size());
  Value rowBarriers = arith::MulIOp::create(b, loc, row, sync.index(count));
  for (auto [index, phase] : llvm::enumerate(phases)) {
    scf::ForOp loop = isSelfContained(phase) ? sharedLoop(phase) : nullptr;
    // A loop inside the phase: the ops after it (its last pixel) run on one
    // core, so the loop must hand them nothing through the stack.
    SmallVector<Operation *> tail;
    if (loop && loop != phase) {
      tail = opsAfter(loop);
      if (!handsNothingTo(loop, tail))
        loop = nullptr;
    }
    FailureOr<ConstantLoop> target =
        loop ? constantLoop(loop) : FailureOr<ConstantLoop>(failure());
    if (succeeded(target)) {
      takeEveryOther(*target, sync);
      // The tail, if it accesses the ring, on the core that took fewer of
      // the loop's iterations.
      if (llvm::any_of(tail, accessesRing))
        runOnCore(tail, sync, target->trips % kSplitCores);
    } else {
      runOnFirstCore(phase, sync);
    }
    // After the phase (inside the scf.if when core 0 runs it alone).
    Operation *end = phase->getParentOp() == top.getOperation()
                         ? phase
                         : phase->getParentOp();
    b.setInsertionPointAfter(end);
    sync.barrier(barriers + 1 + static_cast<int64_t>(index), rowBarriers);
  }
  return rows.trips * count;
}

/// Distributes a split kernel's iterations; returns how many there are.
FailureOr<int64_t> distributeKernel(KernelOp kernel, SyncBuilder &sync,
                                    int64_t doneOffset, int64_t &barriers) {
  auto top =
      dyn_cast_or_null<scf::ForOp>(splitLoopHolder(kernel.getBody().front()));
  if (!top)
    return kernel.emitOpError("vmcu-distribute-kernels: a split kernel "
                              "needs a top-level scf.for before its other "
                              "ring accesses");
  FailureOr<ConstantLoop> rows = constantLoop(top);
  if (failed(rows))
    return failure();
  if (kernel.getSplitPhases()) {
    SmallVector<Operation *> accesses;
    for (Operation &op : kernel.getBody().front())
      if (accessesRing(&op))
        accesses.push_back(&op);
    for (Operation *op : accesses) {
      auto container = dyn_cast<scf::ForOp>(op);
      if (!container) {
        // Not a loop of rows (unrolled): core 0 runs it, then both meet.
        runOnFirstCore(op, sync);
        sync.b.setInsertionPointAfter(op->getParentOp());
        sync.barrier(++barriers);
        continue;
      }
      FailureOr<ConstantLoop> containerRows = constantLoop(container);
      if (failed(containerRows))
        return failure();
      barriers += distributePhases(container, *containerRows, sync, barriers);
    }
    return 0;
  }
  if (kernel.getSplitDepth().value_or(1) == 1) {
    distributeLoop(*rows, sync, doneOffset, /*rowBase=*/Value());
    return rows->trips;
  }
  scf::ForOp inner = firstAccessLoop(*top.getBody());
  if (!inner)
    return kernel.emitOpError("vmcu-distribute-kernels: split_depth 2 "
                              "needs a loop with the stores in each row");
  FailureOr<ConstantLoop> pixels = constantLoop(inner);
  if (failed(pixels))
    return failure();
  // rowBase = (row - lb) / step * pixels per row.
  OpBuilder &b = sync.b;
  Location loc = top.getLoc();
  b.setInsertionPoint(inner);
  Value row = iterationIndex(*rows, sync);
  Value rowBase = arith::MulIOp::create(b, loc, row, sync.index(pixels->trips));
  distributeLoop(*pixels, sync, doneOffset, rowBase);
  return rows->trips * pixels->trips;
}

/// The ring accesses after a split kernel's split loop (a remainder of
/// its pixels) run on core 0 once both cores have finished the loop.
void runTailOnFirstCore(KernelOp kernel, SyncBuilder &sync, int64_t &barriers) {
  Operation *loop = splitLoopHolder(kernel.getBody().front());
  SmallVector<Operation *> tail;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    tail.push_back(op);
  if (llvm::none_of(tail, accessesRing))
    return;
  sync.b.setInsertionPointAfter(loop);
  sync.barrier(++barriers);
  runOnFirstCore(tail, sync);
}

/// Whether `value` is computed from `core` (a shared loop's bounds, a
/// one-core branch's condition).
bool dependsOnCore(Value value, Value core) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == core)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(v).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Whether both cores run `op`: no loop around it in its kernel is shared
/// out and no branch around it is one core's.
bool bothCoresRun(Operation *op, Value core) {
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent);
        loop && dependsOnCore(loop.getLowerBound(), core))
      return false;
    if (auto branch = dyn_cast<scf::IfOp>(parent);
        branch && dependsOnCore(branch.getCondition(), core))
      return false;
  }
  return true;
}

/// The ring checker's frees (vmcu-insert-ring-checks) that both cores would
/// run, outside the loops they share (a split loop's tail of frees, a
/// line buffer row's frees), run on core 0: a segment is freed once. The
/// frees themselves emit no code and change no byte.
void checkFreesOnce(func::FuncOp run, SyncBuilder &sync) {
  SmallVector<Operation *> calls;
  run.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    auto kernel = call->getParentOfType<KernelOp>();
    if (callee && *callee == ring_check_abi::kFreeSharedFn && kernel &&
        kernel.getCores() && bothCoresRun(call, sync.core))
      calls.push_back(call);
  });
  for (Operation *call : calls)
    runOnFirstCore(call, sync);
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
      runOnFirstCore(kernel.getOperation(), sync);
      previousSplit = false;
      continue;
    }
    FailureOr<int64_t> trips =
        distributeKernel(kernel, sync, doneOffset, barriers);
    if (failed(trips))
      return failure();
    if (!kernel.getSplitPhases())
      runTailOnFirstCore(kernel, sync, barriers);
    doneOffset += *trips + 1;
    sync.b.setInsertionPointAfter(kernel);
    sync.barrier(++barriers);
    previousSplit = true;
  }
  return std::max(doneOffset, barriers) + 1;
}

/// Whether `op` calls the ring checker's setup (vmcu-insert-ring-checks):
/// its init, which resets the checker's state, or a further model input.
bool isCheckerSetup(Operation &op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  std::optional<StringRef> callee = call ? call.getCallee() : std::nullopt;
  return callee && (*callee == ring_check_abi::kInitFn ||
                    *callee == ring_check_abi::kInputFn);
}

/// Moves the ring checker's setup calls of `run` (with the constants they
/// take) to the builder's insertion point in vmcu_invoke(): core 0 resets
/// the checker once per inference, before it releases the worker, instead
/// of each core resetting it whenever it starts.
void moveCheckerSetup(func::FuncOp run, OpBuilder &b) {
  SmallVector<Operation *> setup;
  for (Operation &op : run.getBody().front())
    if (isCheckerSetup(op))
      setup.push_back(&op);
  IRMapping mapping;
  for (Operation *call : setup) {
    for (Value operand : call->getOperands()) {
      Operation *def = operand.getDefiningOp();
      // vmcu-insert-ring-checks passes constants and the names' address.
      assert((!def || def->getNumOperands() == 0) &&
             "the checker's setup takes values without operands");
      if (def && !mapping.contains(operand))
        b.clone(*def, mapping);
    }
    b.clone(*call, mapping);
    call->erase();
  }
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
  moveCheckerSetup(run, b);
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
    : impl::VMCUDistributeKernelsPassBase<VMCUDistributeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyCoresOption(module, getArgument(), cores)))
      return signalPassFailure();
    if (cores == 1)
      return;
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
    checkFreesOnce(run, sync);
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

} // namespace mlir::vmcu
