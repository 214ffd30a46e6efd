//===- VerifyTwoCores.cpp - prove the two cores' ring accesses ordered ----===//
//
// Checks the code vmcu-distribute-kernels emitted, not the model it was
// emitted from. It replays vmcu_run once per core: each core's ring loads,
// views and stores and its sync ops, in program order. Then it runs the
// two streams together as the sync ops allow (a wait goes on once the
// other core has set the slot to at least its target, and is credited to
// the earliest such set: the least ordering any interleaving gives), with
// a vector clock per core, and proves:
//  - the cores cannot deadlock;
//  - each store to a pool byte is ordered, by set -> wait edges, with
//    every load, view and store of that byte by the other core. Then
//    every interleaving the sync allows puts each byte's stores at the
//    same places among its accesses, so what this one run sees, every run
//    sees;
//  - each load or view finds its own tensor's data in every unit it reads
//    (the last store there was its tensor's; the model inputs hold their
//    units at the start), and the model outputs hold theirs at the end.
// A store over data that is still to be read therefore fails at that
// read. Frees change no byte and are not replayed: the ring checker that
// counts them runs with one core only.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "RingAddress.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUVERIFYTWOCORESPASS
#include "vmcu/Transforms/Passes.h.inc"
using namespace core_split;

namespace {

/// Before an inference, every sync word holds a value below its epoch
/// base (the previous epoch's, or 0 at reset below a base >= 1). The
/// replay runs at epoch base 0, so the words start one below it.
constexpr int64_t kWordBeforeEpoch = -1;

/// One step of a core's stream.
struct Event {
  enum class Kind { Load, View, Store, SyncSet, SyncWait };
  Kind kind;
  Operation *op;
  /// Accesses: the bytes [first, last] of the unwrapped pool and the
  /// tensor. Syncs: the slot and the value (set) or target (wait).
  int64_t first = 0, last = 0;
  int tensor = -1;
};

/// Interprets vmcu_run for one core: the index and i32 arithmetic, the
/// scf loops and ifs that hold ring or sync ops, and records the events.
class CoreReplay {
public:
  CoreReplay(const DenseSet<Operation *> &holders,
             const DenseMap<Operation *, int> &tensorIds, int64_t unitBytes)
      : holders(holders), tensorIds(tensorIds), unitBytes(unitBytes) {}

  FailureOr<std::vector<Event>> run(func::FuncOp fn, int64_t core) {
    values[fn.getArgument(0)] = core;
    values[fn.getArgument(1)] = 0;
    if (failed(runBlock(fn.getBody().front())))
      return failure();
    return std::move(events);
  }

private:
  const DenseSet<Operation *> &holders;
  const DenseMap<Operation *, int> &tensorIds;
  int64_t unitBytes;
  DenseMap<Value, int64_t> values;
  std::vector<Event> events;

  LogicalResult runBlock(Block &block) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (holders.contains(loop) && failed(runLoop(loop)))
          return failure();
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        if (holders.contains(ifOp) && failed(runIf(ifOp)))
          return failure();
      } else if (auto kernel = dyn_cast<KernelOp>(op)) {
        if (failed(runBlock(kernel.getBody().front())))
          return failure();
      } else if (op.getNumRegions() != 0 && holders.contains(&op)) {
        return op.emitOpError("holds ring or sync ops vmcu-verify-two-cores "
                              "cannot replay (only scf.for and scf.if)");
      } else if (failed(step(&op))) {
        return failure();
      }
    }
    return success();
  }

  FailureOr<int64_t> valueOf(Operation *user, Value v) {
    if (auto it = values.find(v); it != values.end())
      return it->second;
    return user->emitOpError("has an operand vmcu-verify-two-cores cannot "
                             "evaluate (only index and integer arithmetic "
                             "of the loops, constants and tensor bases)");
  }

  LogicalResult runLoop(scf::ForOp loop) {
    auto lb = valueOf(loop, loop.getLowerBound());
    auto ub = valueOf(loop, loop.getUpperBound());
    auto stepValue = valueOf(loop, loop.getStep());
    if (failed(lb) || failed(ub) || failed(stepValue))
      return failure();
    if (*stepValue <= 0)
      return loop.emitOpError("has a step vmcu-verify-two-cores cannot replay "
                              "(not positive)");
    Block &body = *loop.getBody();
    copyKnown(loop.getInitArgs(), loop.getRegionIterArgs());
    for (int64_t i = *lb; i < *ub; i += *stepValue) {
      values[loop.getInductionVar()] = i;
      if (failed(runBlock(body)))
        return failure();
      copyKnown(body.getTerminator()->getOperands(), loop.getRegionIterArgs());
    }
    copyKnown(loop.getRegionIterArgs(), loop.getResults());
    return success();
  }

  LogicalResult runIf(scf::IfOp ifOp) {
    auto condition = valueOf(ifOp, ifOp.getCondition());
    if (failed(condition))
      return failure();
    Region &region = *condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (region.empty())
      return success();
    if (failed(runBlock(region.front())))
      return failure();
    copyKnown(region.front().getTerminator()->getOperands(), ifOp.getResults());
    return success();
  }

  /// to[i] = from[i] where from[i] is known; else to[i] is unknown.
  void copyKnown(ValueRange from, ValueRange to) {
    for (auto [source, target] : llvm::zip_equal(from, to)) {
      auto it = values.find(source);
      if (it == values.end())
        values.erase(target);
      else
        values[target] = it->second;
    }
  }

  LogicalResult step(Operation *op) {
    if (auto set = dyn_cast<SyncSetOp>(op))
      return recordSync(Event::Kind::SyncSet, op, set.getSlot(),
                        set.getValue());
    if (auto wait = dyn_cast<SyncWaitOp>(op))
      return recordSync(Event::Kind::SyncWait, op, wait.getSlot(),
                        wait.getTarget());
    if (std::optional<RingAccess> access = getRingAccess(op, unitBytes))
      return recordAccess(op, *access);
    if (auto base = dyn_cast<TensorBaseOp>(op)) {
      if (!base.getBase())
        return base.emitOpError("has no base; run vmcu-solve-offsets first");
      values[base] = static_cast<int64_t>(*base.getBase());
      return success();
    }
    if (std::optional<int64_t> result = evaluate(op))
      values[op->getResult(0)] = *result;
    return success();
  }

  LogicalResult recordSync(Event::Kind kind, Operation *op, Value slot,
                           Value value) {
    auto s = valueOf(op, slot), v = valueOf(op, value);
    if (failed(s) || failed(v))
      return failure();
    events.push_back({kind, op, *s, *v});
    return success();
  }

  LogicalResult recordAccess(Operation *op, const RingAccess &access) {
    std::optional<Event::Kind> kind = eventKind(access.kind);
    if (!kind)
      return success();
    auto unit = valueOf(op, access.segment);
    int64_t offset = 0;
    if (access.offset) {
      auto o = valueOf(op, access.offset);
      if (failed(o))
        return failure();
      offset = *o;
    }
    if (failed(unit))
      return failure();
    std::optional<int> tensor = tensorOf(access.segment);
    if (!tensor)
      return op->emitOpError("address does not add a tensor base");
    int64_t first = *unit * unitBytes + offset;
    events.push_back({*kind, op, first, first + access.bytes - 1, *tensor});
    return success();
  }

  static std::optional<Event::Kind> eventKind(RingAccess::Kind kind) {
    switch (kind) {
    case RingAccess::Kind::Load:
      return Event::Kind::Load;
    case RingAccess::Kind::View:
      return Event::Kind::View;
    case RingAccess::Kind::Store:
      return Event::Kind::Store;
    case RingAccess::Kind::Free:
      return std::nullopt;
    }
    llvm_unreachable("a ring access kind");
  }

  /// The id of the tensor whose base the address adds.
  std::optional<int> tensorOf(Value address) {
    auto it = tensorIds.find(addressedTensor(address));
    if (it == tensorIds.end())
      return std::nullopt;
    return it->second;
  }

  /// The result of a scalar integer arith op whose operands are known.
  std::optional<int64_t> evaluate(Operation *op) {
    if (op->getNumResults() != 1 ||
        !op->getResult(0).getType().isIntOrIndex() || !isArithOp(op))
      return std::nullopt;
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(cst.getValue());
      if (!attr)
        return std::nullopt;
      return attr.getType().isInteger(1) ? attr.getValue().getZExtValue()
                                         : attr.getValue().getSExtValue();
    }
    SmallVector<int64_t, 3> in;
    for (Value operand : op->getOperands()) {
      auto it = values.find(operand);
      if (it == values.end())
        return std::nullopt;
      in.push_back(it->second);
    }
    return evaluateArith(op, in);
  }

  static std::optional<int64_t> evaluateArith(Operation *op,
                                              ArrayRef<int64_t> in) {
    auto floorDiv = [](int64_t a, int64_t b) {
      return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
    };
    return TypeSwitch<Operation *, std::optional<int64_t>>(op)
        .Case([&](arith::AddIOp) { return in[0] + in[1]; })
        .Case([&](arith::SubIOp) { return in[0] - in[1]; })
        .Case([&](arith::MulIOp) { return in[0] * in[1]; })
        .Case<arith::DivSIOp, arith::DivUIOp>(
            [&](Operation *) -> std::optional<int64_t> {
              if (in[1] == 0)
                return std::nullopt;
              return in[0] / in[1];
            })
        .Case<arith::RemSIOp, arith::RemUIOp>(
            [&](Operation *) -> std::optional<int64_t> {
              if (in[1] == 0)
                return std::nullopt;
              return in[0] % in[1];
            })
        .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
          if (in[1] == 0)
            return std::nullopt;
          return floorDiv(in[0], in[1]);
        })
        .Case([&](arith::CeilDivSIOp) -> std::optional<int64_t> {
          if (in[1] == 0)
            return std::nullopt;
          return -floorDiv(-in[0], in[1]);
        })
        .Case([&](arith::AndIOp) { return in[0] & in[1]; })
        .Case([&](arith::OrIOp) { return in[0] | in[1]; })
        .Case([&](arith::XOrIOp) { return in[0] ^ in[1]; })
        .Case([&](arith::MinSIOp) { return std::min(in[0], in[1]); })
        .Case([&](arith::MaxSIOp) { return std::max(in[0], in[1]); })
        .Case([&](arith::MinUIOp) { return std::min(in[0], in[1]); })
        .Case([&](arith::MaxUIOp) { return std::max(in[0], in[1]); })
        .Case([&](arith::SelectOp) { return in[0] ? in[1] : in[2]; })
        .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp>([&](Operation *) { return in[0]; })
        .Case([&](arith::CmpIOp cmp) { return compare(cmp, in[0], in[1]); })
        .Default([](Operation *) { return std::nullopt; });
  }

  /// The replayed values are small and non-negative where unsigned
  /// predicates apply (indices), so both orders agree.
  static int64_t compare(arith::CmpIOp cmp, int64_t a, int64_t b) {
    using P = arith::CmpIPredicate;
    switch (cmp.getPredicate()) {
    case P::eq:
      return a == b;
    case P::ne:
      return a != b;
    case P::slt:
    case P::ult:
      return a < b;
    case P::sle:
    case P::ule:
      return a <= b;
    case P::sgt:
    case P::ugt:
      return a > b;
    case P::sge:
    case P::uge:
      return a >= b;
    }
    return 0;
  }
};

/// Per pool byte: the last store, and the loads and views since, per core
/// (positions are 1-based indices into that core's stream; 0: none).
struct ByteHistory {
  int storer = -1;
  int64_t storePos = 0;
  Operation *storeOp = nullptr;
  int64_t readPos[kSplitCores] = {0, 0};
  Operation *readOp[kSplitCores] = {nullptr, nullptr};
};

/// Per pool unit: the tensor whose data it holds (the last store's, or a
/// model input's at the start), and that store.
struct UnitData {
  int tensor = -1;
  Operation *store = nullptr;
};

/// Runs the two streams as the sync ops allow and checks them.
class TwoCoreRun {
public:
  TwoCoreRun(ArrayRef<std::vector<Event>> streams, SegmentPoolOp pool,
             ArrayRef<TensorBaseOp> tensors)
      : streams(streams), tensors(tensors.begin(), tensors.end()) {
    units = static_cast<int64_t>(pool.getType().getSegments());
    unitBytes = static_cast<int64_t>(pool.getType().getSegmentBytes());
    data.assign(units, UnitData{});
    bytes.resize(units * unitBytes);
    for (auto [id, base] : llvm::enumerate(this->tensors))
      if (base.isModelInput())
        for (int64_t u : unitsOf(base))
          data[u].tensor = id;
  }

  LogicalResult run() {
    size_t next[kSplitCores] = {0, 0};
    auto done = [&](int c) { return next[c] == streams[c].size(); };
    while (!done(0) || !done(1)) {
      bool moved = false;
      for (int core = 0; core < kSplitCores; ++core) {
        while (!done(core)) {
          FailureOr<bool> went = advance(core, next[core]);
          if (failed(went))
            return failure();
          if (!*went)
            break;
          ++next[core];
          moved = true;
        }
      }
      if (!moved)
        return deadlock(next);
    }
    return checkOutputs();
  }

private:
  ArrayRef<std::vector<Event>> streams;
  SmallVector<TensorBaseOp> tensors;
  int64_t units = 0, unitBytes = 0;
  std::vector<UnitData> data;
  std::vector<ByteHistory> bytes;
  /// Per core: the last position of the other core ordered before its
  /// current one (its vector clock's other entry).
  int64_t seen[kSplitCores] = {0, 0};
  /// Per slot: its writer, and each value it set with its position.
  struct SlotHistory {
    int writer = -1;
    std::vector<std::pair<int64_t, int64_t>> sets;
  };
  DenseMap<int64_t, SlotHistory> slots;

  SmallVector<int64_t> unitsOf(TensorBaseOp base) {
    SmallVector<int64_t> out;
    for (uint64_t i = 0; i < base.getSegments(); ++i)
      out.push_back(static_cast<int64_t>((*base.getBase() + i) % units));
    return out;
  }

  /// Takes event `index` of `core`; false when it is a wait not yet met.
  FailureOr<bool> advance(int core, size_t index) {
    const Event &e = streams[core][index];
    int64_t pos = static_cast<int64_t>(index) + 1;
    switch (e.kind) {
    case Event::Kind::SyncSet:
      if (failed(set(core, pos, e)))
        return failure();
      return true;
    case Event::Kind::SyncWait:
      return wait(core, e);
    default:
      if (failed(access(core, pos, e)))
        return failure();
      return true;
    }
  }

  LogicalResult set(int core, int64_t pos, const Event &e) {
    SlotHistory &slot = slots[e.first];
    if (slot.writer != -1 && slot.writer != core)
      return e.op->emitOpError(llvm::formatv(
          "vmcu-verify-two-cores: both cores set sync slot {0}", e.first));
    if (!slot.sets.empty() && e.last < slot.sets.back().first)
      return e.op->emitOpError(llvm::formatv(
          "vmcu-verify-two-cores: core {0} lowers sync slot {1} from {2} to "
          "{3}; the counters only grow",
          core, e.first, slot.sets.back().first, e.last));
    slot.writer = core;
    slot.sets.push_back({e.last, pos});
    return success();
  }

  /// A wait goes on at the earliest set of its slot that reaches the
  /// target; the setting core's events up to it happen before.
  FailureOr<bool> wait(int core, const Event &e) {
    auto it = slots.find(e.first);
    if (it == slots.end())
      return kWordBeforeEpoch >= e.last;
    SlotHistory &slot = it->second;
    auto met = llvm::partition_point(
        slot.sets, [&](auto set) { return set.first < e.last; });
    if (met == slot.sets.end())
      return false;
    if (slot.writer != core)
      seen[core] = std::max(seen[core], met->second);
    return true;
  }

  LogicalResult access(int core, int64_t pos, const Event &e) {
    if (failed(checkOrdered(core, e)))
      return failure();
    bool store = e.kind == Event::Kind::Store;
    for (int64_t u = e.first / unitBytes; u <= e.last / unitBytes; ++u) {
      UnitData &unit = data[u % units];
      if (store)
        unit = UnitData{e.tensor, e.op};
      else if (unit.tensor != e.tensor)
        return wrongDataError(core, e, u % units);
    }
    int64_t poolBytes = units * unitBytes;
    for (int64_t byte = e.first; byte <= e.last; ++byte) {
      ByteHistory &h = bytes[byte % poolBytes];
      if (store) {
        h = ByteHistory{};
        h.storer = core;
        h.storePos = pos;
        h.storeOp = e.op;
      } else {
        h.readPos[core] = pos;
        h.readOp[core] = e.op;
      }
    }
    return success();
  }

  /// The race check: the access after (by set -> wait edges) the other
  /// core's last store of each byte, and a store also after the other
  /// core's loads and views since.
  LogicalResult checkOrdered(int core, const Event &e) {
    int other = 1 - core;
    int64_t poolBytes = units * unitBytes;
    for (int64_t byte = e.first; byte <= e.last; ++byte) {
      const ByteHistory &h = bytes[byte % poolBytes];
      if (h.storer == other && h.storePos > seen[core])
        return raceError(core, e, byte % poolBytes, h.storeOp, "stores");
      if (e.kind == Event::Kind::Store && h.readPos[other] > seen[core])
        return raceError(core, e, byte % poolBytes, h.readOp[other], "reads");
    }
    return success();
  }

  LogicalResult checkOutputs() {
    for (auto [index, base] : llvm::enumerate(tensors)) {
      if (!base.isModelOutput())
        continue;
      int id = static_cast<int>(index);
      for (int64_t u : unitsOf(base)) {
        if (data[u].tensor == id)
          continue;
        InFlightDiagnostic diag = base.emitOpError(llvm::formatv(
            "vmcu-verify-two-cores: at the end, pool unit {0} of output '{1}' "
            "holds {2}",
            u, base.getName(), dataName(data[u].tensor)));
        if (data[u].store)
          diag.attachNote(data[u].store->getLoc()) << "the last store there";
        return diag;
      }
    }
    return success();
  }

  static StringRef verb(const Event &e) {
    switch (e.kind) {
    case Event::Kind::Load:
      return "loads";
    case Event::Kind::View:
      return "reads in place";
    default:
      return "stores over";
    }
  }

  static std::string kernelOf(Operation *op) {
    auto kernel = op->getParentOfType<KernelOp>();
    return kernel ? "kernel '" + kernel.getSymName().str() + "'"
                  : std::string("no kernel");
  }

  std::string dataName(int id) {
    return id < 0 ? std::string("no tensor's data")
                  : "the data of tensor '" + tensors[id].getName().str() + "'";
  }

  LogicalResult wrongDataError(int core, const Event &e, int64_t unit) {
    const UnitData &found = data[unit];
    InFlightDiagnostic diag = e.op->emitError(llvm::formatv(
        "vmcu-verify-two-cores: core {0} {1} pool unit {2} for tensor '{3}' "
        "in {4}, but it holds {5}",
        core, verb(e), unit, tensors[e.tensor].getName(), kernelOf(e.op),
        dataName(found.tensor)));
    if (found.store)
      diag.attachNote(found.store->getLoc())
          << "the last store there, in " << kernelOf(found.store);
    return diag;
  }

  LogicalResult raceError(int core, const Event &e, int64_t byte,
                          Operation *otherOp, StringRef otherDid) {
    InFlightDiagnostic diag = e.op->emitError(llvm::formatv(
        "vmcu-verify-two-cores: core {0} {1} pool byte {2} (tensor '{3}', "
        "{4}) that core {5} also {6}, and no sync op orders the two",
        core, verb(e), byte, tensors[e.tensor].getName(), kernelOf(e.op),
        1 - core, otherDid));
    diag.attachNote(otherOp->getLoc())
        << "core " << 1 - core << "'s access, in " << kernelOf(otherOp);
    return diag;
  }

  LogicalResult deadlock(const size_t *next) {
    int core = next[0] < streams[0].size() ? 0 : 1;
    InFlightDiagnostic diag = streams[core][next[core]].op->emitError(
        llvm::formatv("vmcu-verify-two-cores: deadlock: core {0} waits here "
                      "for a value the other core never sets",
                      core));
    if (core == 0 && next[1] < streams[1].size())
      diag.attachNote(streams[1][next[1]].op->getLoc())
          << "while core 1 waits here";
    return diag;
  }
};

struct VMCUVerifyTwoCoresPass
    : impl::VMCUVerifyTwoCoresPassBase<VMCUVerifyTwoCoresPass> {
  using Base::Base;

  void runOnOperation() override {
    auto run = getOperation().lookupSymbol<func::FuncOp>(kRunFn);
    if (!run || run.isExternal())
      return;
    if (failed(verify(run)))
      signalPassFailure();
  }

  LogicalResult verify(func::FuncOp run) {
    SegmentPoolOp pool;
    run.walk([&](SegmentPoolOp p) { pool = p; });
    if (!pool)
      return success();
    SmallVector<TensorBaseOp> tensors;
    DenseMap<Operation *, int> tensorIds;
    for (Operation *user : pool->getUsers())
      if (auto base = dyn_cast<TensorBaseOp>(user)) {
        if (!base.getBase())
          return base.emitOpError("has no base; run vmcu-solve-offsets first");
        tensorIds[base] = tensors.size();
        tensors.push_back(base);
      }
    DenseSet<Operation *> holders = syncOrRingHolders(run);
    int64_t unitBytes = static_cast<int64_t>(pool.getType().getSegmentBytes());
    std::vector<Event> streams[kSplitCores];
    for (int core = 0; core < kSplitCores; ++core) {
      FailureOr<std::vector<Event>> stream =
          CoreReplay(holders, tensorIds, unitBytes).run(run, core);
      if (failed(stream))
        return failure();
      streams[core] = std::move(*stream);
      numEvents += streams[core].size();
    }
    return TwoCoreRun(streams, pool, tensors).run();
  }

  /// The ops that hold a ring access or a sync op.
  static DenseSet<Operation *> syncOrRingHolders(func::FuncOp run) {
    DenseSet<Operation *> holders;
    run.walk([&](Operation *op) {
      if (!getRingAccess(op, 1) && !isa<SyncSetOp, SyncWaitOp>(op))
        return;
      for (Operation *p = op->getParentOp(); p != run; p = p->getParentOp())
        if (!holders.insert(p).second)
          break;
    });
    return holders;
  }
};

} // namespace

} // namespace mlir::vmcu
