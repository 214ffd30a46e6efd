//===- VerifyRing.cpp - prove the placed ring accesses safe ---------------===//
//
// Replays every ring access of the placed model at compile time, with the
// bases vmcu-solve-offsets wrote and nothing else from the solver: each
// pool unit has an owner (a tensor or dead); a store may only land on a
// dead unit or one of its own tensor, a load or free only on a unit its
// tensor owns. A kernel's workspace dies at its end.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "RingAddress.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>
#include <limits>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUVERIFYRINGPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// No tensor owns the unit.
constexpr int kDead = -1;

/// The pool's owners, one per unit, and the tensors by index.
struct RingState {
  int64_t units = 0;
  int64_t unitBytes = 0;
  std::vector<int> owner;
  SmallVector<TensorBaseOp> tensors;

  std::string ownerName(int id) {
    return id == kDead ? std::string("no tensor (dead)")
                       : "tensor '" + tensors[id].getName().str() + "'";
  }
};

/// Interprets the affine loop nest of one kernel and replays its ring
/// accesses on the state.
class KernelReplay {
public:
  KernelReplay(KernelOp kernel, RingState &state,
               const DenseMap<Operation *, int> &tensorIds)
      : kernel(kernel), state(state), tensorIds(tensorIds) {
    kernel.getBody().walk([&](Operation *op) {
      if (!isa<RingLoadOp, RingStoreOp, RingViewOp, FreeOp>(op))
        return;
      for (Operation *p = op->getParentOp(); p != kernel; p = p->getParentOp())
        touchesRing.insert(p);
    });
  }

  LogicalResult run() {
    // A kernel split between cores applies its frees late (KernelPattern's
    // freeDelay): count its split iterations from -1 (none started).
    if (kernel.getCores() && !kernel.getSplitPhases())
      splitIteration = -1;
    if (failed(runBlock(kernel.getBody().front())))
      return failure();
    return applyFreesDueBy(std::numeric_limits<int64_t>::max());
  }

private:
  KernelOp kernel;
  RingState &state;
  const DenseMap<Operation *, int> &tensorIds;
  /// Ops whose regions hold ring accesses: others are skipped.
  DenseSet<Operation *> touchesRing;
  DenseMap<Value, int64_t> ivs;
  /// Enclosing loops, outermost first, for the error message.
  SmallVector<affine::AffineForOp> loops;
  /// A free of a split kernel, applied at the start of iteration `due`.
  struct PendingFree {
    int64_t due;
    Operation *op;
    int64_t first, last;
    int tensor;
  };

  /// In a kernel split between cores: the split iteration last started,
  /// and the frees that apply late.
  std::optional<int64_t> splitIteration;
  std::deque<PendingFree> pendingFrees;
  /// In a phase of a kernel split by phases: the units it stored, and
  /// those it loaded or freed.
  bool inPhase = false;
  /// The loop whose iterations the cores share in the current phase, the
  /// running count of its iterations, and per unit the iteration that
  /// stored (read) it, kManyIterations if several did.
  affine::AffineForOp phaseTarget;
  int64_t phaseIteration = 0;
  static constexpr int64_t kManyIterations = -1;
  DenseMap<int64_t, int64_t> phaseStored, phaseRead;

  FailureOr<int64_t> eval(Value v) {
    if (auto it = ivs.find(v); it != ivs.end())
      return it->second;
    APInt cst;
    if (matchPattern(v, m_ConstantInt(&cst)))
      return cst.getSExtValue();
    Operation *def = v.getDefiningOp();
    if (auto base = dyn_cast_or_null<TensorBaseOp>(def)) {
      if (!base.getBase())
        return base.emitOpError("has no base; run vmcu-solve-offsets first");
      return static_cast<int64_t>(*base.getBase());
    }
    if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def)) {
      auto values = evalAll(apply.getMapOperands());
      if (failed(values))
        return failure();
      return evalExpr(apply.getAffineMap().getResult(0), *values,
                      apply.getAffineMap().getNumDims());
    }
    if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
      auto lhs = eval(add.getLhs()), rhs = eval(add.getRhs());
      if (failed(lhs) || failed(rhs))
        return failure();
      return *lhs + *rhs;
    }
    return kernel.emitOpError(
        "has a ring address vmcu-verify-ring cannot evaluate (only affine "
        "maps and additions of loop indices, constants and tensor bases)");
  }

  FailureOr<SmallVector<int64_t>> evalAll(ValueRange values) {
    SmallVector<int64_t> out;
    for (Value v : values) {
      auto x = eval(v);
      if (failed(x))
        return failure();
      out.push_back(*x);
    }
    return out;
  }

  static int64_t evalExpr(AffineExpr e, ArrayRef<int64_t> operands,
                          unsigned numDims) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      return operands[dim.getPosition()];
    if (auto sym = dyn_cast<AffineSymbolExpr>(e))
      return operands[numDims + sym.getPosition()];
    if (auto cst = dyn_cast<AffineConstantExpr>(e))
      return cst.getValue();
    auto bin = cast<AffineBinaryOpExpr>(e);
    int64_t l = evalExpr(bin.getLHS(), operands, numDims);
    int64_t r = evalExpr(bin.getRHS(), operands, numDims);
    switch (bin.getKind()) {
    case AffineExprKind::Add:
      return l + r;
    case AffineExprKind::Mul:
      return l * r;
    case AffineExprKind::Mod:
      return ((l % r) + r) % r;
    case AffineExprKind::FloorDiv:
      return l / r - ((l % r != 0) && ((l < 0) != (r < 0)));
    case AffineExprKind::CeilDiv:
      return l / r + ((l % r != 0) && ((l < 0) == (r < 0)));
    default:
      return 0;
    }
  }

  /// max (lower) or min (upper) of the map's results.
  FailureOr<int64_t> bound(AffineMap map, ValueRange operands, bool lower) {
    auto values = evalAll(operands);
    if (failed(values))
      return failure();
    std::optional<int64_t> best;
    for (AffineExpr e : map.getResults()) {
      int64_t v = evalExpr(e, *values, map.getNumDims());
      if (!best || (lower ? v > *best : v < *best))
        best = v;
    }
    return *best;
  }

  LogicalResult runBlock(Block &block) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
        if (touchesRing.contains(loop) && failed(runLoop(loop)))
          return failure();
        continue;
      }
      if (auto ifOp = dyn_cast<affine::AffineIfOp>(op)) {
        if (touchesRing.contains(ifOp) && failed(runIf(ifOp)))
          return failure();
        continue;
      }
      if (touchesRing.contains(&op))
        return op.emitOpError("holds ring accesses vmcu-verify-ring cannot "
                              "replay (only affine.for and affine.if)");
      if (failed(replay(&op)))
        return failure();
    }
    return success();
  }

  LogicalResult runLoop(affine::AffineForOp loop) {
    auto lb = bound(loop.getLowerBoundMap(), loop.getLowerBoundOperands(),
                    /*lower=*/true);
    auto ub = bound(loop.getUpperBoundMap(), loop.getUpperBoundOperands(),
                    /*lower=*/false);
    if (failed(lb) || failed(ub))
      return failure();
    // A kernel split by phases: each loop in its split loop's rows that
    // accesses the ring is a phase, whose iterations two cores share.
    bool phase =
        kernel.getSplitPhases() && loops.size() == 1 && accessesRing(loop);
    if (phase) {
      inPhase = true;
      phaseStored.clear();
      phaseRead.clear();
      phaseTarget = loop;
      if (!loop.hasConstantBounds())
        for (Operation &op : *loop.getBody())
          if (auto inner = dyn_cast<affine::AffineForOp>(op))
            if (accessesRing(inner))
              phaseTarget = inner;
    }
    // Each iteration of a split loop starts a split iteration.
    bool split = isSplitLoop(loop);
    bool mainLoop = splitIteration && loops.empty() && accessesRing(loop);
    loops.push_back(loop);
    for (int64_t i = *lb; i < *ub; i += loop.getStepAsInt()) {
      ivs[loop.getInductionVar()] = i;
      if (inPhase && loop == phaseTarget)
        ++phaseIteration;
      if (split && failed(applyFreesDueBy(++*splitIteration)))
        return failure();
      if (failed(runBlock(*loop.getBody())))
        return failure();
    }
    inPhase &= !phase;
    // After the split kernel's main loop both cores meet: its frees all
    // apply, and the rest runs on one core.
    if (mainLoop) {
      splitIteration.reset();
      if (failed(applyFreesDueBy(std::numeric_limits<int64_t>::max())))
        return failure();
    }
    loops.pop_back();
    ivs.erase(loop.getInductionVar());
    return success();
  }

  /// Whether `loop`'s iterations are a split kernel's split iterations
  /// (before its main loop, the first top-level loop that accesses the
  /// ring, has finished): a top-level loop, or with split_depth 2 the loop
  /// inside the main loop that accesses the ring.
  bool isSplitLoop(affine::AffineForOp loop) {
    if (!splitIteration)
      return false;
    if (kernel.getSplitDepth().value_or(1) == 1)
      return loops.empty();
    return loops.size() == 1 && accessesRing(loop);
  }

  /// Applies the pending frees due by `iteration`: their units die.
  LogicalResult applyFreesDueBy(int64_t iteration) {
    while (!pendingFrees.empty() && pendingFrees.front().due <= iteration) {
      PendingFree free = pendingFrees.front();
      pendingFrees.pop_front();
      for (int64_t u = free.first; u <= free.last; ++u) {
        int &owner = state.owner[u % state.units];
        if (owner != free.tensor) {
          InFlightDiagnostic diag = kernel.emitError(llvm::formatv(
              "vmcu-verify-ring: kernel '{0}' frees pool unit {1} for tensor "
              "'{2}' {3} iterations late (two cores), but it holds {4}",
              kernel.getSymName(), u % state.units,
              state.tensors[free.tensor].getName(), core_split::kSplitFreeDelay,
              state.ownerName(owner)));
          diag.attachNote(free.op->getLoc()) << "the free";
          return diag;
        }
        owner = kDead;
      }
    }
    return success();
  }

  LogicalResult runIf(affine::AffineIfOp ifOp) {
    IntegerSet set = ifOp.getIntegerSet();
    auto values = evalAll(ifOp.getOperands());
    if (failed(values))
      return failure();
    bool holds = true;
    for (auto [e, isEq] :
         llvm::zip_equal(set.getConstraints(), set.getEqFlags())) {
      int64_t v = evalExpr(e, *values, set.getNumDims());
      holds &= isEq ? v == 0 : v >= 0;
    }
    if (holds)
      return runBlock(*ifOp.getThenBlock());
    if (ifOp.hasElse())
      return runBlock(*ifOp.getElseBlock());
    return success();
  }

  /// The id of the tensor whose base the address adds.
  std::optional<int> tensorOf(Value address) {
    auto it = tensorIds.find(addressedTensor(address));
    if (it == tensorIds.end())
      return std::nullopt;
    return it->second;
  }

  std::string iteration() {
    std::string text;
    for (auto [i, loop] : llvm::enumerate(loops))
      text += (i ? ", " : "") + std::to_string(ivs[loop.getInductionVar()]);
    return "(" + text + ")";
  }

  LogicalResult replay(Operation *op) {
    std::optional<RingAccess> access = getRingAccess(op, state.unitBytes);
    if (!access)
      return success();
    using Kind = RingAccess::Kind;
    Kind kind = access->kind;
    Value address = access->segment, offset = access->offset;
    int64_t bytes = access->bytes;
    std::optional<int> tensor = tensorOf(address);
    if (!tensor)
      return op->emitOpError("address does not add a tensor base");
    auto unit = eval(address);
    int64_t byteOffset = 0;
    if (offset) {
      auto o = eval(offset);
      if (failed(o))
        return failure();
      byteOffset = *o;
    }
    if (failed(unit))
      return failure();
    const char *what = kind == Kind::Load    ? "loads"
                       : kind == Kind::Store ? "stores over"
                       : kind == Kind::View  ? "reads in place"
                                             : "frees";
    auto fail = [&](const Twine &message) -> LogicalResult {
      InFlightDiagnostic diag = kernel.emitError(
          "vmcu-verify-ring: kernel '" + kernel.getSymName() + "' " + message +
          "; first at loop iteration " + iteration());
      diag.attachNote(op->getLoc()) << "the access";
      return diag;
    };
    // The lowering (RingToLLVM) subtracts the pool once from an address in
    // [0, 2N), then loads or stores the bytes contiguously: an access must
    // end inside the pool, as the runtime's checker requires. A view and a
    // free wrap.
    if (*unit < 0 || *unit >= 2 * state.units)
      return fail(llvm::formatv("{0} pool unit {1} for tensor '{2}', outside "
                                "[0, 2 x {3})",
                                what, *unit, state.tensors[*tensor].getName(),
                                state.units));
    int64_t start = *unit % state.units;
    if (auto view = dyn_cast<RingViewOp>(op)) {
      // Its word loads must not straddle the pool's end.
      int64_t align = static_cast<int64_t>(view.getAlignment());
      if ((start * state.unitBytes) % align != 0 ||
          (state.units * state.unitBytes) % align != 0)
        return fail(llvm::formatv("reads tensor '{0}' in place from byte {1} "
                                  "of a pool of {2} bytes, not both "
                                  "multiples of {3}",
                                  state.tensors[*tensor].getName(),
                                  start * state.unitBytes,
                                  state.units * state.unitBytes, align));
    }
    int64_t end = start + (byteOffset + bytes - 1) / state.unitBytes;
    if ((kind == Kind::Load || kind == Kind::Store) && end >= state.units)
      return fail(llvm::formatv("{0} {1} bytes from pool unit {2} for tensor "
                                "'{3}', past the end of the pool of {4} units",
                                what, bytes, start,
                                state.tensors[*tensor].getName(), state.units));
    int64_t first = start + byteOffset / state.unitBytes;
    if (kind == Kind::Free && splitIteration) {
      // Two cores: the free applies kSplitFreeDelay iterations late.
      pendingFrees.push_back({*splitIteration + core_split::kSplitFreeDelay, op,
                              first, end, *tensor});
      return success();
    }
    for (int64_t u = first; u <= end; ++u) {
      int64_t slot = u % state.units;
      int &owner = state.owner[slot];
      bool ok = kind == Kind::Store ? owner == kDead || owner == *tensor
                                    : owner == *tensor;

      if (!ok)
        return fail(llvm::formatv("{0} pool unit {1} for tensor '{2}', but "
                                  "it holds {3}",
                                  what, slot, state.tensors[*tensor].getName(),
                                  state.ownerName(owner)));
      if (inPhase && !notePhaseAccess(kind == Kind::Store, slot))
        return fail(llvm::formatv(
            "{0} pool unit {1} for tensor '{2}' in a phase whose other "
            "iterations also {3} it: the two cores share them in any order",
            what, slot, state.tensors[*tensor].getName(),
            kind == Kind::Store ? "read" : "store over"));
      owner = kind == Kind::Free ? kDead : *tensor;
    }
    return success();
  }

  /// Records a unit a phase stores (or reads or frees); false when another
  /// iteration of the phase's divided loop (maybe the other core's) reads
  /// (stores) it.
  bool notePhaseAccess(bool store, int64_t slot) {
    DenseMap<int64_t, int64_t> &mine = store ? phaseStored : phaseRead;
    DenseMap<int64_t, int64_t> &theirs = store ? phaseRead : phaseStored;
    auto [it, inserted] = mine.try_emplace(slot, phaseIteration);
    if (!inserted && it->second != phaseIteration)
      it->second = kManyIterations;
    auto other = theirs.find(slot);
    return other == theirs.end() || other->second == phaseIteration;
  }
};

struct VMCUVerifyRingPass : impl::VMCUVerifyRingPassBase<VMCUVerifyRingPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](SegmentPoolOp pool) {
      if (failed(verifyPool(pool)))
        signalPassFailure();
    });
  }

  LogicalResult verifyPool(SegmentPoolOp pool) {
    RingState state;
    state.units = static_cast<int64_t>(pool.getType().getSegments());
    state.unitBytes = static_cast<int64_t>(pool.getType().getSegmentBytes());
    state.owner.assign(state.units, kDead);
    DenseMap<Operation *, int> tensorIds;
    for (Operation *user : pool->getUsers())
      if (auto base = dyn_cast<TensorBaseOp>(user)) {
        tensorIds[base] = state.tensors.size();
        state.tensors.push_back(base);
        if (!base.isModelInput())
          continue;
        if (!base.getBase())
          return base.emitOpError("has no base; run vmcu-solve-offsets first");
        for (uint64_t i = 0; i < base.getSegments(); ++i)
          state.owner[(*base.getBase() + i) % state.units] = tensorIds[base];
      }
    for (Operation &op : *pool->getBlock()) {
      auto kernel = dyn_cast<KernelOp>(op);
      if (!kernel)
        continue;
      if (failed(KernelReplay(kernel, state, tensorIds).run()))
        return failure();
      ++numKernels;
      // The workspace lives for its kernel only.
      if (Value workspace = kernel.getWorkspace()) {
        int id = tensorIds.lookup(workspace.getDefiningOp());
        for (int &owner : state.owner)
          if (owner == id)
            owner = kDead;
      }
    }
    return success();
  }
};

} // namespace

} // namespace mlir::vmcu
