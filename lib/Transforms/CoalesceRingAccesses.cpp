//===- CoalesceRingAccesses.cpp - merge accesses of adjacent segments -----===//
//
// Replaces straight-line runs of single-segment ring loads (stores) that
// move adjacent segments into (out of) adjacent bytes of one local buffer
// by one copy of the run, or, where the run crosses the pool's end, one
// copy per pool unit.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/LoopAnnotations.h"
#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCOALESCERINGACCESSESPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// `b - a` when it is a constant: both the same value, both constants, or
/// both affine.apply of the same operands whose results differ by one.
std::optional<int64_t> constantDifference(Value a, Value b) {
  if (a == b)
    return 0;
  APInt ca, cb;
  if (matchPattern(a, m_ConstantInt(&ca)) &&
      matchPattern(b, m_ConstantInt(&cb)))
    return cb.getSExtValue() - ca.getSExtValue();
  auto applyA = a.getDefiningOp<affine::AffineApplyOp>();
  auto applyB = b.getDefiningOp<affine::AffineApplyOp>();
  if (!applyA || !applyB ||
      applyA.getMapOperands() != applyB.getMapOperands())
    return std::nullopt;
  AffineMap mapA = applyA.getAffineMap(), mapB = applyB.getAffineMap();
  if (mapA.getNumDims() != mapB.getNumDims() ||
      mapA.getNumSymbols() != mapB.getNumSymbols())
    return std::nullopt;
  AffineExpr diff = simplifyAffineExpr(mapB.getResult(0) - mapA.getResult(0),
                                       mapA.getNumDims(), mapA.getNumSymbols());
  if (auto cst = dyn_cast<AffineConstantExpr>(diff))
    return cst.getValue();
  return std::nullopt;
}

/// One segment moved between the ring and a 1-D local buffer: a ring load
/// whose value is stored whole into the buffer (a gather), or a buffer
/// load whose value is ring-stored whole (a scatter). `head` comes first
/// in the block, `tail` (the value's only user) after it, with only pure
/// ops between them.
struct Transfer {
  bool gather;
  Operation *head, *tail;
  Value pool, segment, buffer, index;
  int64_t bytes;
};

/// True if only memory-effect-free ops lie strictly between `from` and
/// `to` in their block.
bool onlyPureBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op != to; op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return false;
  return true;
}

/// The transfer `op` starts, if it is the head of one.
std::optional<Transfer> transferOf(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return std::nullopt;
  Operation *user = *op->getUsers().begin();
  if (user->getBlock() != op->getBlock() || !onlyPureBetween(op, user))
    return std::nullopt;
  if (auto load = dyn_cast<RingLoadOp>(op)) {
    auto store = dyn_cast<vector::StoreOp>(user);
    if (load.getOffset() || !store ||
        store.getValueToStore() != load.getResult() ||
        store.getBase().getType().getRank() != 1)
      return std::nullopt;
    return Transfer{true,
                    op,
                    user,
                    load.getPool(),
                    load.getSegment(),
                    store.getBase(),
                    store.getIndices().front(),
                    load.getType().getNumElements()};
  }
  auto load = dyn_cast<vector::LoadOp>(op);
  auto store = dyn_cast<RingStoreOp>(user);
  if (!load || !store || store.getOffset() ||
      store.getValue() != load.getResult() ||
      load.getBase().getType().getRank() != 1)
    return std::nullopt;
  return Transfer{false,
                  op,
                  user,
                  store.getPool(),
                  store.getSegment(),
                  load.getBase(),
                  load.getIndices().front(),
                  load.getVectorType().getNumElements()};
}

/// True if `next` continues `run`: the same direction and pool, whole
/// pool units (so the per-unit branch covers every byte), the segment
/// after the run's last one, the buffer bytes right after its.
bool continues(ArrayRef<Transfer> run, const Transfer &next,
               int64_t maxBytes) {
  const Transfer &last = run.back();
  int64_t unitBytes = cast<PoolType>(last.pool.getType()).getSegmentBytes();
  int64_t bytes = 0;
  for (const Transfer &t : run)
    bytes += t.bytes;
  if (next.gather != last.gather || next.pool != last.pool ||
      next.buffer != last.buffer || bytes + next.bytes > maxBytes ||
      last.bytes % unitBytes != 0 || next.bytes % unitBytes != 0)
    return false;
  return constantDifference(last.segment, next.segment) ==
             last.bytes / unitBytes &&
         constantDifference(last.index, next.index) == last.bytes;
}

/// Moves `bytes` bytes between segment `segment` of `pool` and `buffer` at
/// `index`, in the run's direction.
void move(OpBuilder &b, Location loc, bool gather, Value pool, Value segment,
          Value buffer, Value index, int64_t bytes) {
  auto type = VectorType::get({bytes}, b.getI8Type());
  if (gather) {
    Value v = RingLoadOp::create(b, loc, type, pool, segment, Value());
    vector::StoreOp::create(b, loc, v, buffer, index);
    return;
  }
  Value v = vector::LoadOp::create(b, loc, type, buffer, index);
  RingStoreOp::create(b, loc, v, pool, segment, Value());
}

/// A run that straddles the pool's end moves unit by unit: up to this many
/// units unrolled, more in a loop kept rolled. Only the tiles at the wrap
/// take that path, so the loop costs little time, where 32 unrolled 1-byte
/// moves (each with its own wrap) cost about 400 B of code. Of 2, 4 and
/// no limit, 4 gave the fewest cycles summed over the shared models
/// (vmcu-prof; KWS alone was 0.2% faster with 2).
constexpr int64_t kMaxUnrolledUnits = 4;

/// Moves `units` pool units of the run that starts with `first` one at a
/// time, from segment `wrapped` on: unrolled up to kMaxUnrolledUnits, else
/// in a rolled loop.
void moveUnits(OpBuilder &b, Location loc, const Transfer &first, Value wrapped,
               int64_t units, int64_t unitBytes) {
  auto index = [&](OpBuilder &at, int64_t v) {
    return arith::ConstantIndexOp::create(at, loc, v).getResult();
  };
  Value stride = index(b, unitBytes);
  auto moveUnit = [&](OpBuilder &at, Value u) {
    Value unit = at.createOrFold<arith::AddIOp>(loc, wrapped, u);
    Value offset = at.createOrFold<arith::MulIOp>(loc, u, stride);
    Value bufferAt = at.createOrFold<arith::AddIOp>(loc, first.index, offset);
    move(at, loc, first.gather, first.pool, unit, first.buffer, bufferAt,
         unitBytes);
  };
  if (units <= kMaxUnrolledUnits) {
    for (int64_t u = 0; u < units; ++u)
      moveUnit(b, index(b, u));
    return;
  }
  Value lower = index(b, 0), upper = index(b, units), step = index(b, 1);
  auto loop =
      scf::ForOp::create(b, loc, lower, upper, step, ValueRange{},
                         [&](OpBuilder &body, Location, Value u, ValueRange) {
                           moveUnit(body, u);
                           scf::YieldOp::create(body, loc);
                         });
  setNoUnroll(loop);
}

/// The run as one move where it stays below the pool's end, else one move
/// per pool unit from the wrapped start (each below 2N, as the ring ops
/// require).
void moveRun(OpBuilder &b, Location loc, ArrayRef<Transfer> run,
             int64_t bytes) {
  const Transfer &first = run.front();
  auto pool = cast<PoolType>(first.pool.getType());
  int64_t unitBytes = pool.getSegmentBytes(), units = bytes / unitBytes;
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value count = index(pool.getSegments());
  Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                     first.segment, count);
  Value lowered = arith::SubIOp::create(b, loc, first.segment, count);
  Value wrapped =
      arith::SelectOp::create(b, loc, past, lowered, first.segment);
  Value end = arith::AddIOp::create(b, loc, wrapped, index(units));
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                       count);
  scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &then, Location l) {
        move(then, l, first.gather, first.pool, first.segment, first.buffer,
             first.index, bytes);
        scf::YieldOp::create(then, l);
      },
      [&](OpBuilder &other, Location l) {
        moveUnits(other, l, first, wrapped, units, unitBytes);
        scf::YieldOp::create(other, l);
      });
}

/// The run's move at its last tail, where every operand it reads is
/// defined. Between the run's first head and there lie only pure ops and
/// the run's own ops: no ring access, no other write of the buffer.
void coalesce(ArrayRef<Transfer> run) {
  int64_t bytes = 0;
  for (const Transfer &t : run)
    bytes += t.bytes;
  OpBuilder b(run.back().tail);
  moveRun(b, run.front().head->getLoc(), run, bytes);
  for (const Transfer &t : run) {
    t.tail->erase();
    t.head->erase();
  }
}

/// Coalesces the runs of `block`'s top-level ops.
void coalesceBlock(Block &block, int64_t maxBytes) {
  SmallVector<SmallVector<Transfer>> runs;
  SmallVector<Transfer> run;
  // The current run's tails: the only effects allowed inside it.
  DenseSet<Operation *> tails;
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
    run.clear();
    tails.clear();
  };
  for (Operation &op : block) {
    if (tails.contains(&op) || isMemoryEffectFree(&op))
      continue;
    std::optional<Transfer> t = transferOf(&op);
    if (!t || (!run.empty() && !continues(run, *t, maxBytes)))
      flush();
    if (t) {
      run.push_back(*t);
      tails.insert(t->tail);
    }
  }
  flush();
  for (ArrayRef<Transfer> r : runs)
    coalesce(r);
}

struct VMCUCoalesceRingAccessesPass
    : impl::VMCUCoalesceRingAccessesPassBase<VMCUCoalesceRingAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](KernelOp kernel) {
      kernel.walk([&](Block *block) { blocks.push_back(block); });
    });
    for (Block *block : blocks)
      coalesceBlock(*block, maxBytes);
  }
};

} // namespace

} // namespace mlir::vmcu
