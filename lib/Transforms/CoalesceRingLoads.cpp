//===- CoalesceRingLoads.cpp - merge loads of adjacent ring segments ------===//
//
// Replaces straight-line runs of single-segment ring loads that gather
// adjacent segments into adjacent buffer bytes by one load of the run
// (or, where the run crosses the pool's end, one load per pool unit).
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCOALESCERINGLOADSPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

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

/// A ring load whose whole result goes into one local buffer.
struct Gather {
  mutable RingLoadOp load;
  mutable vector::StoreOp store;

  int64_t bytes() const { return load.getType().getNumElements(); }
  Value index() const { return store.getIndices().front(); }
};

/// The gather `load` starts, if it is one: a plain single-use load whose
/// user is a store of the whole value into a 1-D buffer, later in the
/// same block with only pure ops in between.
std::optional<Gather> gatherOf(RingLoadOp load) {
  if (load.getOffset() || !load->hasOneUse())
    return std::nullopt;
  auto store = dyn_cast<vector::StoreOp>(*load->getUsers().begin());
  if (!store || store.getValueToStore() != load.getResult() ||
      store->getBlock() != load->getBlock() ||
      store.getBase().getType().getRank() != 1)
    return std::nullopt;
  for (Operation *op = load->getNextNode(); op != store; op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return std::nullopt;
  return Gather{load, store};
}

/// True if `next` continues `run`: the segment after the run's last one in
/// the same pool, stored right after its bytes in the same buffer.
bool continues(ArrayRef<Gather> run, const Gather &next, int64_t maxBytes) {
  const Gather &last = run.back();
  PoolType pool = last.load.getPool().getType();
  int64_t bytes = 0;
  for (const Gather &g : run)
    bytes += g.bytes();
  if (next.load.getPool() != last.load.getPool() ||
      next.store.getBase() != last.store.getBase() ||
      bytes + next.bytes() > maxBytes ||
      last.bytes() % pool.getSegmentBytes() != 0)
    return false;
  int64_t units = last.bytes() / pool.getSegmentBytes();
  return constantDifference(last.load.getSegment(), next.load.getSegment()) ==
             units &&
         constantDifference(last.index(), next.index()) == last.bytes();
}

/// Copies the run's bytes into its buffer: one
/// ring load and store where the run stays below the pool's end, else one
/// per pool unit from the wrapped address on (each below 2N, as the ring
/// ops require). The branches store themselves: a vector merged through
/// the branches' join would be rebuilt byte by byte.
void copyRun(OpBuilder &b, Location loc, ArrayRef<Gather> run,
             int64_t bytes) {
  RingLoadOp first = run.front().load;
  Value buffer = run.front().store.getBase(), at = run.front().index();
  PoolType pool = first.getPool().getType();
  int64_t unitBytes = pool.getSegmentBytes(), units = bytes / unitBytes;
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value segment = first.getSegment();
  Value count = index(pool.getSegments());
  Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                     segment, count);
  Value lowered = arith::SubIOp::create(b, loc, segment, count);
  Value wrapped = arith::SelectOp::create(b, loc, past, lowered, segment);
  Value end = arith::AddIOp::create(b, loc, wrapped, index(units));
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                       count);
  Type i8Type = first.getType().getElementType();
  auto type = VectorType::get({bytes}, i8Type);
  auto unitType = VectorType::get({unitBytes}, i8Type);
  scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &then, Location l) {
        Value v = RingLoadOp::create(then, l, type, first.getPool(), segment,
                                     Value());
        vector::StoreOp::create(then, l, v, buffer, at);
        scf::YieldOp::create(then, l);
      },
      [&](OpBuilder &other, Location l) {
        for (int64_t u = 0; u < units; ++u) {
          Value unit = arith::AddIOp::create(other, l, wrapped, index(u));
          Value piece = RingLoadOp::create(other, l, unitType,
                                           first.getPool(), unit, Value());
          Value to = arith::AddIOp::create(other, l, at, index(u * unitBytes));
          vector::StoreOp::create(other, l, piece, buffer, to);
        }
        scf::YieldOp::create(other, l);
      });
}

/// The run's copy at its last store, where every operand it reads is
/// defined; no ring access lies between the run's loads and that point.
void coalesce(ArrayRef<Gather> run) {
  int64_t bytes = 0;
  for (const Gather &g : run)
    bytes += g.bytes();
  OpBuilder b(run.back().store);
  copyRun(b, run.front().load.getLoc(), run, bytes);
  for (const Gather &g : run) {
    g.store.erase();
    g.load.erase();
  }
}

/// Coalesces the runs of `block`'s top-level ops.
void coalesceBlock(Block &block, int64_t maxBytes) {
  SmallVector<SmallVector<Gather>> runs;
  SmallVector<Gather> run;
  // The current run's stores: the only writes allowed inside it.
  DenseSet<Operation *> runStores;
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
    run.clear();
    runStores.clear();
  };
  for (Operation &op : block) {
    if (auto load = dyn_cast<RingLoadOp>(op)) {
      std::optional<Gather> g = gatherOf(load);
      if (!g || (!run.empty() && !continues(run, *g, maxBytes)))
        flush();
      if (g) {
        run.push_back(*g);
        runStores.insert(g->store);
      }
      continue;
    }
    if (runStores.contains(&op) || isMemoryEffectFree(&op))
      continue;
    flush();
  }
  flush();
  for (ArrayRef<Gather> r : runs)
    coalesce(r);
}

struct VMCUCoalesceRingLoadsPass
    : vmcu::impl::VMCUCoalesceRingLoadsPassBase<VMCUCoalesceRingLoadsPass> {
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
