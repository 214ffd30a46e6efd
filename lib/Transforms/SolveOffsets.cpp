//===- SolveOffsets.cpp - place tensors in the segment pool ---------------===//
//
// Runs the exact offset solver on every kernel (read back from the IR),
// places each kernel's output relative to its input (any earlier tensor of
// the graph, in program order) with every other live tensor, sizes
// the pool and optionally writes the memory report (JSON) and picture (SVG).
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/Passes.h"

#include "vmcu/Analysis/KernelPatternFromIR.h"
#include "vmcu/Analysis/OffsetSolver.h"
#include "vmcu/Support/MemoryReport.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSOLVEOFFSETSPASS
#include "vmcu/Transforms/Passes.h.inc"
namespace an = mlir::vmcu::analysis;

namespace {

/// One kernel of the graph with its solved placement. The model inputs are
/// the first tensors, each kernel's output the next.
struct PlacedKernel {
  KernelOp op;
  int64_t segmentBytes = 0;
  int64_t unitsPerSegment = 0;
  an::KernelPattern pattern;
  /// The distances at which its output would overwrite live input.
  std::vector<an::DistanceInterval> forbidden;
  /// The tensor its output is placed against, and its output.
  unsigned input = 0;
  unsigned output = 0;
  /// Earlier tensors it reads besides its input, each with the forbidden
  /// distances of its pattern (that tensor in the input role).
  SmallVector<unsigned> skips;
  std::vector<std::vector<an::DistanceInterval>> skipForbidden;
  int64_t distance = 0;       // kernel segments
  int64_t footprintUnits = 0; // pool units
};

int64_t lcm(int64_t a, int64_t b) { return a / std::gcd(a, b) * b; }

int64_t floorMod(int64_t a, int64_t m) { return ((a % m) + m) % m; }

bool isForbidden(ArrayRef<an::DistanceInterval> forbidden, int64_t d) {
  auto it = llvm::upper_bound(
      forbidden, d,
      [](int64_t v, const an::DistanceInterval &i) { return v < i.lo; });
  return it != forbidden.begin() && std::prev(it)->hi >= d;
}

/// The placement in bytes: tensors at their (wrapped) bases, one layer per
/// kernel, and the tensor-level and lower-bound figures.
MemoryReport buildReport(SegmentPoolOp pool, ArrayRef<PlacedKernel> kernels,
                         ArrayRef<TensorBaseOp> tensors, ArrayRef<int64_t> base,
                         int64_t capacity, ArrayRef<int64_t> lowerBoundUnits,
                         ArrayRef<SmallVector<unsigned>> held) {
  int64_t unit = pool.getType().getSegmentBytes();
  MemoryReport report;
  report.peakRamBytes = capacity * unit;
  report.poolUnitBytes = unit;
  report.poolSegments = pool.getType().getSegments();
  for (auto [t, tensorRef] : llvm::enumerate(tensors)) {
    TensorBaseOp tensor = tensorRef;
    report.tensors.push_back(
        {tensor.getName().str(), floorMod(base[t], capacity) * unit,
         static_cast<int64_t>(tensor.getSegments()) * unit});
  }
  for (auto [k, kernel] : llvm::enumerate(kernels)) {
    KernelOp op = kernel.op;
    int64_t in = report.tensors[kernel.input].bytes;
    int64_t out = report.tensors[kernel.output].bytes;
    ReportLayer layer;
    layer.name = op.getSymName().str();
    layer.op = "unknown";
    if (std::optional<StringRef> name = op.getLayer())
      layer.op = name->str();
    layer.segmentBytes = kernel.segmentBytes;
    layer.workspaceBytes =
        kernel.pattern.workspaceSegments * kernel.segmentBytes;
    layer.distanceSegments = kernel.distance;
    layer.footprintBytes = kernel.footprintUnits * unit;
    layer.tensorLevelBytes = in + out;
    if (std::optional<int64_t> bytes = op.getTensorLevelBytes())
      layer.tensorLevelBytes = *bytes;
    if (std::optional<StringRef> schedule = op.getSchedule())
      layer.schedule = schedule->str();
    layer.macs = op.getMacs().value_or(0);
    layer.executedMacs = op.getExecutedMacs().value_or(0);
    layer.ringAccesses = op.getRingAccesses().value_or(0);
    layer.estimatedCycles = op.getEstimatedCycles().value_or(0);
    layer.int8WeightCycles = op.getInt8WeightCycles().value_or(0);
    layer.int8Weights = op.getInt8Weights();
    layer.compact = op.getCompact();
    layer.compactCycles = op.getCompactCycles().value_or(0);
    layer.stackBytes = op.getStackBytes().value_or(0);
    layer.input = kernel.input;
    layer.output = kernel.output;
    layer.alsoLive.append(kernel.skips.begin(), kernel.skips.end());
    layer.alsoLive.append(held[k].begin(), held[k].end());
    layer.skips.append(kernel.skips.begin(), kernel.skips.end());
    report.tensorLevelBytes =
        std::max(report.tensorLevelBytes, layer.tensorLevelBytes);
    report.lowerBoundBytes =
        std::max(report.lowerBoundBytes, lowerBoundUnits[k] * unit);
    report.layers.push_back(std::move(layer));
  }
  return report;
}

/// The distances d in [lo, hi] whose output base `inBase - d * r` is a
/// multiple of `outAlign`, visited in increasing order. They repeat with the
/// period outAlign / gcd(r, outAlign), so each placement searches one
/// period beyond the safe range, not the whole pool's alignment (an lcm of
/// segment sizes that reached 40 M units on a generated model).
void forEachAlignedDistance(int64_t lo, int64_t hi, int64_t inBase, int64_t r,
                            int64_t outAlign,
                            function_ref<void(int64_t)> visit) {
  int64_t period = outAlign / std::gcd(r, outAlign);
  int64_t first = lo;
  while (first < lo + period && floorMod(inBase - first * r, outAlign) != 0)
    ++first;
  if (first == lo + period)
    return;
  for (int64_t d = first; d <= hi; d += period)
    visit(d);
}

/// Distances beyond the safe range searched for an aligned one.
int64_t alignmentSlack(int64_t r, int64_t outAlign) {
  return outAlign / std::gcd(r, outAlign) + 1;
}

/// Places the output of kernel `k` when more tensors than its input are
/// live: each skip tensor it reads constrains the distance through its own
/// exact forbidden set, and every `held` tensor must not be overlapped at
/// all. The footprint is the span of every live tensor plus the workspace;
/// a pool at least that large sees the same (linear) placement, so the
/// checks are exact on the ring.
LogicalResult placeWithLiveTensors(size_t k,
                                   MutableArrayRef<PlacedKernel> kernels,
                                   ArrayRef<unsigned> held,
                                   ArrayRef<int64_t> base,
                                   ArrayRef<int64_t> units, int64_t outAlign) {
  PlacedKernel &kernel = kernels[k];
  const an::KernelPattern &p = kernel.pattern;
  int64_t r = kernel.unitsPerSegment;
  int64_t outUnits = units[kernel.output];
  unsigned in = kernel.input;
  SmallVector<unsigned> live(held.begin(), held.end());
  live.append(kernel.skips.begin(), kernel.skips.end());
  int64_t lo = base[in], hi = base[in] + units[in];
  for (unsigned t : live) {
    lo = std::min(lo, base[t]);
    hi = std::max(hi, base[t] + units[t]);
  }

  // Output bases below `lo - outUnits` or above `hi` overlap nothing.
  int64_t slack = alignmentSlack(r, outAlign);
  int64_t dMin = (base[in] - hi) / r - slack;
  int64_t dMax = (base[in] - lo + outUnits) / r + slack;
  std::optional<int64_t> best;
  int64_t bestSpan = 0;
  forEachAlignedDistance(dMin, dMax, base[in], r, outAlign, [&](int64_t d) {
    int64_t outBase = base[in] - d * r;
    if (isForbidden(kernel.forbidden, d))
      return;
    bool safe = true;
    for (auto [i, skip] : llvm::enumerate(kernel.skips))
      safe &= !isForbidden(kernel.skipForbidden[i], (base[skip] - outBase) / r);
    for (unsigned t : held)
      safe &= outBase + outUnits <= base[t] || base[t] + units[t] <= outBase;
    if (!safe)
      return;
    int64_t span = std::max(hi, outBase + outUnits) - std::min(lo, outBase);
    auto key = [](int64_t spanUnits, int64_t dist) {
      return std::make_tuple(spanUnits, std::abs(dist), dist);
    };
    if (!best || key(span, d) < key(bestSpan, *best)) {
      best = d;
      bestSpan = span;
    }
  });
  if (!best)
    return kernel.op.emitOpError("found no safe aligned distance");
  kernel.distance = *best;
  kernel.footprintUnits = bestSpan + p.workspaceSegments * r;
  return success();
}

/// The end (in units, unwrapped) of what is live while kernel `k` runs: its
/// input and output, its skip tensors and the `held` ones.
int64_t liveEnd(size_t k, const PlacedKernel &kernel, ArrayRef<unsigned> held,
                ArrayRef<int64_t> base, ArrayRef<int64_t> units) {
  int64_t end = std::max(base[kernel.input] + units[kernel.input],
                         base[kernel.output] + units[kernel.output]);
  for (unsigned t : held)
    end = std::max(end, base[t] + units[t]);
  for (unsigned t : kernel.skips)
    end = std::max(end, base[t] + units[t]);
  return end;
}

/// Writes `path` through `print`; `what` names the file in the error.
LogicalResult writeTextFile(Operation *anchor, StringRef path, StringRef what,
                            function_ref<void(llvm::raw_ostream &)> print) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return anchor->emitError("cannot write ")
           << what << " '" << path << "': " << ec.message();
  print(os);
  return success();
}

/// Everything vmcu-solve-offsets computes for one pool. Tensors: the model
/// inputs (by position), then each kernel's output in program order.
struct PoolPlan {
  int64_t unit = 0;
  SmallVector<PlacedKernel, 0> kernels;
  SmallVector<TensorBaseOp> tensors;
  unsigned numInputs = 0;
  /// Per tensor: its size and alignment (units), its last reader (a model
  /// output: one past the last kernel) and its unwrapped base.
  SmallVector<int64_t> units, align;
  SmallVector<unsigned> lastReader;
  SmallVector<int64_t> base;
  /// Per kernel: the earlier tensors live across it that it does not read,
  /// the live bytes bound, and its workspace's unwrapped base.
  SmallVector<SmallVector<unsigned>> held;
  SmallVector<int64_t> lowerBoundUnits, workspaceBase;
  /// Every segment divides it; the pool capacity is a multiple.
  int64_t wrapAlign = 1;
  int64_t capacity = 0;
};

/// The model inputs, ordered by position (vmcu.io_index, which must count
/// 0, 1, ...).
LogicalResult readModelInputs(SegmentPoolOp pool, PoolPlan &plan) {
  for (Operation *user : pool->getUsers())
    if (auto base = dyn_cast<TensorBaseOp>(user))
      if (base.isModelInput())
        plan.tensors.push_back(base);
  // Indices are distinct, or rejected just below.
  llvm::sort(plan.tensors, [](TensorBaseOp a, TensorBaseOp b) {
    return a.getModelIOIndex() < b.getModelIOIndex();
  });
  if (plan.tensors.empty())
    return pool.emitOpError("needs a tensor_base marked "
                            "vmcu.io = \"input\"");
  for (auto [i, input] : llvm::enumerate(plan.tensors))
    if (input.getModelIOIndex() != static_cast<int64_t>(i))
      return input.emitOpError("is model input ")
             << input.getModelIOIndex() << " where input " << i
             << " is expected";
  plan.numInputs = plan.tensors.size();
  return success();
}

/// A validated ring access pattern and its forbidden distances.
struct CheckedPattern {
  an::KernelPattern pattern;
  std::vector<an::DistanceInterval> forbidden;
};

/// The ring access pattern of `kernel`'s `input`-th input, validated, and
/// its forbidden distances (one walk of its events for both).
FailureOr<CheckedPattern> readPattern(KernelOp kernel, int64_t seg,
                                      unsigned input) {
  auto pattern = buildKernelPattern(kernel, seg, input);
  if (failed(pattern))
    return failure();
  an::CheckedDistances checked =
      an::validateAndComputeForbiddenDistances(*pattern);
  if (checked.error)
    return kernel.emitOpError("has an invalid ring access pattern: ")
           << *checked.error;
  return CheckedPattern{std::move(*pattern), std::move(checked.forbidden)};
}

/// Reads one kernel: its patterns, the tensor its output is placed against
/// (its first input) and its other inputs, all earlier tensors.
FailureOr<PlacedKernel> readKernel(KernelOp kernel, const PoolPlan &plan) {
  std::optional<int64_t> seg = kernel.getSegmentBytes();
  if (!seg)
    return kernel.emitOpError("has no segment_bytes; run vmcu-tile");
  auto indexOf = [&](Value v) -> std::optional<unsigned> {
    auto it = llvm::find(plan.tensors, v.getDefiningOp<TensorBaseOp>());
    if (it == plan.tensors.end())
      return std::nullopt;
    return std::distance(plan.tensors.begin(), it);
  };
  std::optional<unsigned> input = indexOf(kernel.getInputs().front());
  if (!input)
    return kernel.emitOpError("must read the model input or an earlier "
                              "kernel's output");
  FailureOr<CheckedPattern> pattern = readPattern(kernel, *seg, 0);
  if (failed(pattern))
    return failure();
  PlacedKernel placed;
  placed.op = kernel;
  placed.segmentBytes = *seg;
  placed.unitsPerSegment = *seg / plan.unit;
  placed.pattern = std::move(pattern->pattern);
  placed.forbidden = std::move(pattern->forbidden);
  placed.input = *input;
  placed.output = static_cast<unsigned>(plan.tensors.size());
  for (auto [i, other] : llvm::enumerate(kernel.getInputs())) {
    if (i == 0)
      continue;
    std::optional<unsigned> skip = indexOf(other);
    if (!skip || *skip == *input || llvm::is_contained(placed.skips, *skip))
      return kernel.emitOpError("input #")
             << i << " must be another earlier tensor of the graph";
    FailureOr<CheckedPattern> skipPattern = readPattern(kernel, *seg, i);
    if (failed(skipPattern))
      return failure();
    placed.skips.push_back(*skip);
    placed.skipForbidden.push_back(std::move(skipPattern->forbidden));
  }
  return placed;
}

/// The kernels in program order; each output becomes the next tensor.
LogicalResult readKernels(SegmentPoolOp pool, PoolPlan &plan) {
  for (Operation &op : *pool->getBlock()) {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      continue;
    FailureOr<PlacedKernel> placed = readKernel(kernel, plan);
    if (failed(placed))
      return failure();
    plan.kernels.push_back(std::move(*placed));
    plan.tensors.push_back(kernel.getOutput().getDefiningOp<TensorBaseOp>());
  }
  if (plan.kernels.empty())
    return pool.emitOpError("has no vmcu.kernel to place");
  for (TensorBaseOp tensor : plan.tensors)
    plan.units.push_back(static_cast<int64_t>(tensor.getSegments()));
  return success();
}

/// The tensor of `plan` whose base the unwrapped address `segment` adds.
std::optional<unsigned> tensorOfAddress(const PoolPlan &plan, Value segment) {
  SmallVector<Value> terms{segment};
  if (auto apply = segment.getDefiningOp<affine::AffineApplyOp>())
    terms.assign(apply.getOperands().begin(), apply.getOperands().end());
  for (Value term : terms) {
    auto it = llvm::find(plan.tensors, term.getDefiningOp<TensorBaseOp>());
    if (it != plan.tensors.end())
      return std::distance(plan.tensors.begin(), it);
  }
  return std::nullopt;
}

/// Tensor t starts on a multiple of its producer's and readers' segments
/// (in units), and the capacity on a multiple of every segment, so no
/// segment straddles the wrap. A tensor a kernel reads in place
/// (vmcu.ring_view) starts, and the capacity ends, on a multiple of the
/// view's alignment too, so that no word straddles the wrap.
LogicalResult computeAlignment(PoolPlan &plan) {
  plan.align.assign(plan.tensors.size(), 1);
  auto alignTo = [&](unsigned t, int64_t units) {
    plan.align[t] = lcm(plan.align[t], units);
    plan.wrapAlign = lcm(plan.wrapAlign, units);
  };
  for (const PlacedKernel &kernel : plan.kernels) {
    int64_t r = kernel.unitsPerSegment;
    alignTo(kernel.input, r);
    alignTo(kernel.output, r);
    for (unsigned skip : kernel.skips)
      alignTo(skip, r);
    KernelOp op = kernel.op;
    WalkResult walk = op.walk([&](RingViewOp view) {
      std::optional<unsigned> t = tensorOfAddress(plan, view.getSegment());
      if (!t) {
        view.emitOpError("segment must add the base of a tensor of the pool");
        return WalkResult::interrupt();
      }
      int64_t bytes = static_cast<int64_t>(view.getAlignment());
      alignTo(*t, lcm(plan.unit, bytes) / plan.unit);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

/// A tensor stays live until its last reader (a model output to the end).
/// `held[k]` lists the earlier tensors live across kernel k that it does
/// not read: its output must not overlap them. The live bytes at a
/// kernel's start and end bound any plan.
void computeLiveness(PoolPlan &plan) {
  ArrayRef<PlacedKernel> kernels = plan.kernels;
  plan.lastReader.assign(plan.tensors.size(), 0);
  for (auto [k, kernel] : llvm::enumerate(kernels)) {
    plan.lastReader[kernel.input] =
        std::max<unsigned>(plan.lastReader[kernel.input], k);
    for (unsigned skip : kernel.skips)
      plan.lastReader[skip] = std::max<unsigned>(plan.lastReader[skip], k);
  }
  for (auto [t, tensor] : llvm::enumerate(plan.tensors))
    if (tensor.isModelOutput())
      plan.lastReader[t] = kernels.size();
  plan.held.assign(kernels.size(), {});
  plan.lowerBoundUnits.assign(kernels.size(), 0);
  for (auto [k, kernel] : llvm::enumerate(kernels)) {
    int64_t start = plan.units[kernel.input], end = plan.units[kernel.output];
    for (unsigned skip : kernel.skips)
      start += plan.units[skip];
    for (unsigned t = 0; t < kernel.output; ++t) {
      if (plan.lastReader[t] <= k)
        continue;
      end += plan.units[t];
      if (t != kernel.input && !llvm::is_contained(kernel.skips, t)) {
        plan.held[k].push_back(t);
        start += plan.units[t];
      }
    }
    plan.lowerBoundUnits[k] = std::max(start, end);
  }
}

/// Places the output of kernel `k` when only its input and output are live:
/// the best aligned safe distance of its pattern.
LogicalResult placeAlone(size_t k, PoolPlan &plan) {
  PlacedKernel &kernel = plan.kernels[k];
  const an::KernelPattern &p = kernel.pattern;
  int64_t r = kernel.unitsPerSegment;
  std::optional<int64_t> best;
  int64_t outAlign = plan.align[kernel.output];
  int64_t slack = alignmentSlack(r, outAlign);
  // Every d <= -I or >= O is safe; the best aligned one lies within.
  forEachAlignedDistance(-p.inputSegments - slack, p.outputSegments + slack,
                         plan.base[kernel.input], r, outAlign, [&](int64_t d) {
                           if (isForbidden(kernel.forbidden, d))
                             return;
                           if (!best || an::isBetterDistance(p, d, *best))
                             best = d;
                         });
  if (!best)
    return kernel.op.emitOpError("found no safe aligned distance");
  kernel.distance = *best;
  kernel.footprintUnits = an::footprintForDistance(p, *best) * r;
  return success();
}

/// Sequential placement with unbounded integers, wrapped at the end. The
/// model inputs start side by side, each on its alignment; a kernel's
/// workspace goes right after everything live while it runs.
LogicalResult placeKernels(PoolPlan &plan) {
  plan.base.assign(plan.tensors.size(), 0);
  for (unsigned i = 1; i < plan.numInputs; ++i)
    plan.base[i] =
        llvm::alignTo(plan.base[i - 1] + plan.units[i - 1], plan.align[i]);
  plan.workspaceBase.assign(plan.kernels.size(), 0);
  for (auto [k, kernel] : llvm::enumerate(plan.kernels)) {
    int64_t r = kernel.unitsPerSegment;
    if (kernel.skips.empty() && plan.held[k].empty()
            ? failed(placeAlone(k, plan))
            : failed(placeWithLiveTensors(k, plan.kernels, plan.held[k],
                                          plan.base, plan.units,
                                          plan.align[kernel.output])))
      return failure();
    plan.base[kernel.output] = plan.base[kernel.input] - kernel.distance * r;
    if (kernel.op.getWorkspace()) {
      // On a whole segment of the kernel, so none straddles the wrap; the
      // padding counts in the footprint.
      int64_t end = liveEnd(k, kernel, plan.held[k], plan.base, plan.units);
      plan.workspaceBase[k] = end + floorMod(-end, r);
      kernel.footprintUnits += plan.workspaceBase[k] - end;
    }
    plan.capacity = std::max(plan.capacity, kernel.footprintUnits);
  }
  return success();
}

/// Rounds the capacity up, then finds the rotation of the whole placement
/// (growing the pool if needed) that leaves every model input and output
/// contiguous, which the zero-copy vmcu_input_at()/vmcu_output_at()
/// pointers need; once the pool spans them all unwrapped, some rotation
/// does. Returns the rotation, applied to `plan.base`.
FailureOr<int64_t> rotateForModelIO(SegmentPoolOp pool, PoolPlan &plan) {
  int64_t wrapAlign = plan.wrapAlign;
  int64_t &capacity = plan.capacity;
  capacity = (capacity + wrapAlign - 1) / wrapAlign * wrapAlign;
  SmallVector<unsigned> io;
  int64_t ioUnits = 0, lo = plan.base.front(), hi = plan.base.front();
  for (auto [t, tensor] : llvm::enumerate(plan.tensors))
    if (tensor.isModelInput() || tensor.isModelOutput()) {
      io.push_back(t);
      ioUnits += plan.units[t];
      lo = std::min(lo, plan.base[t]);
      hi = std::max(hi, plan.base[t] + plan.units[t]);
    }
  auto contiguous = [&](int64_t x) {
    return llvm::all_of(io, [&](unsigned t) {
      return floorMod(plan.base[t] + x, capacity) + plan.units[t] <= capacity;
    });
  };
  int64_t shift = -1;
  for (int64_t limit = std::max(capacity + ioUnits, hi - lo) + wrapAlign;
       shift < 0 && capacity <= limit;) {
    for (int64_t x = 0; x < capacity && shift < 0; x += wrapAlign)
      if (contiguous(x))
        shift = x;
    if (shift < 0)
      capacity += wrapAlign;
  }
  if (shift < 0)
    return pool.emitOpError("could not place the model inputs and outputs "
                            "contiguously");
  for (int64_t &b : plan.base)
    b += shift;
  return shift;
}

/// Writes the placement into the IR: the pool's capacity, every base and
/// each kernel's distance and footprint.
void rewritePlacement(SegmentPoolOp pool, PoolPlan &plan, int64_t shift) {
  Builder b(pool.getContext());
  int64_t capacity = plan.capacity;
  pool.getResult().setType(
      PoolType::get(pool.getContext(), capacity, plan.unit));
  for (auto [t, tensor] : llvm::enumerate(plan.tensors))
    tensor.setBaseAttr(b.getI64IntegerAttr(floorMod(plan.base[t], capacity)));
  for (auto [k, kernel] : llvm::enumerate(plan.kernels))
    if (Value workspace = kernel.op.getWorkspace())
      workspace.getDefiningOp<TensorBaseOp>().setBaseAttr(b.getI64IntegerAttr(
          floorMod(plan.workspaceBase[k] + shift, capacity)));
  for (PlacedKernel &k : plan.kernels) {
    k.op.setDistance(k.distance);
    k.op.setFootprint(k.footprintUnits / k.unitsPerSegment);
  }
}

struct VMCUSolveOffsetsPass
    : impl::VMCUSolveOffsetsPassBase<VMCUSolveOffsetsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SegmentPoolOp> pools;
    getOperation().walk([&](SegmentPoolOp op) { pools.push_back(op); });
    if (pools.empty())
      return; // Nothing tiled.
    if (pools.size() != 1) {
      pools[1].emitOpError("a model has one pool; found ") << pools.size();
      return signalPassFailure();
    }
    if (failed(solve(pools.front())))
      signalPassFailure();
  }

  LogicalResult solve(SegmentPoolOp pool) {
    PoolPlan plan;
    plan.unit = pool.getType().getSegmentBytes();
    if (failed(readModelInputs(pool, plan)) ||
        failed(readKernels(pool, plan)) || failed(computeAlignment(plan)))
      return failure();
    computeLiveness(plan);
    if (failed(placeKernels(plan)))
      return failure();
    FailureOr<int64_t> shift = rotateForModelIO(pool, plan);
    if (failed(shift) || failed(checkBudget(plan)))
      return failure();
    rewritePlacement(pool, plan, *shift);
    return writeReports(pool, plan);
  }

  /// Fails with the arena size and the largest layer when the plan exceeds
  /// `max-arena-kb`.
  LogicalResult checkBudget(PoolPlan &plan) {
    int64_t arenaBytes = plan.capacity * plan.unit;
    int64_t limitKb = maxArenaKb;
    if (limitKb <= 0 || arenaBytes <= limitKb * kBytesPerKiB)
      return success();
    auto worst = llvm::max_element(
        plan.kernels, [](const PlacedKernel &a, const PlacedKernel &b) {
          return a.footprintUnits < b.footprintUnits;
        });
    return worst->op.emitError("model needs ")
           << arenaBytes
           << " bytes of arena, more than max-arena-kb=" << limitKb << " ("
           << limitKb * kBytesPerKiB << " bytes); layer '"
           << worst->op.getSymName() << "' alone needs "
           << worst->footprintUnits * plan.unit << " bytes";
  }

  /// The memory report (JSON) and picture (SVG), when asked for.
  LogicalResult writeReports(SegmentPoolOp pool, PoolPlan &plan) {
    if (memoryReport.empty() && memorySvg.empty())
      return success();
    MemoryReport report =
        buildReport(pool, plan.kernels, plan.tensors, plan.base, plan.capacity,
                    plan.lowerBoundUnits, plan.held);
    if (!memoryReport.empty() &&
        failed(writeTextFile(
            pool, memoryReport, "memory report", [&](llvm::raw_ostream &os) {
              os << llvm::formatv("{0:2}", toJSON(report)) << "\n";
            })))
      return failure();
    if (!memorySvg.empty() &&
        failed(writeTextFile(
            pool, memorySvg, "memory picture",
            [&](llvm::raw_ostream &os) { printMemorySVG(os, report); })))
      return failure();
    return success();
  }
};

} // namespace

} // namespace mlir::vmcu
