//===- SplitKernels.cpp - share kernels between two cores ----------------===//
//
// Marks the kernels two cores can share. Rows or pixels: core c takes the
// iterations c, c + 2, ... of the first top-level loop that accesses the
// ring (with split_depth 2, of the loop inside it, counted across rows;
// ring accesses after that loop run on core 0), and waits for the other
// core's progress (vmcu-distribute-kernels emits that). The other core
// may still be one iteration behind, so each free applies two iterations
// late in the offset solver (core_split in ModelABI.h). Phases: a line
// buffer in the pool is filled and read row by row, each phase shared out,
// with no delay (a stem's line buffer, on the stack on one core, is then a
// buffer both cores see). A split is kept where the placed arena stays within
// `max-growth-percent` more than the one-core arena (and within `ram-kb`).
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "CoresOption.h"

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Analysis/KernelPatternFromIR.h"
#include "vmcu/Analysis/OffsetSolver.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Support/Units.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"

#include <tuple>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSPLITKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// Whether `kernel` was tiled with the schedule of `kind`.
bool hasSchedule(KernelOp kernel, analysis::KernelKind kind) {
  std::optional<StringRef> schedule = kernel.getSchedule();
  return schedule && *schedule == StringRef(analysis::kindName(kind));
}

/// Kernel kinds whose top-level iterations share no state but the ring:
/// each iteration fills the stack buffers it reads (a line buffer carries
/// expanded rows from one iteration to the next; a kernel that
/// `accumulates` adds every iteration into sums).
bool hasIndependentIterations(KernelOp kernel) {
  if (kernel.getAccumulates())
    return false;
  using analysis::KernelKind;
  for (KernelKind kind : {KernelKind::FusedLineBuffer, KernelKind::FusedStem})
    if (hasSchedule(kernel, kind))
      return false;
  return kernel.getSchedule().has_value();
}

/// Whether `kernel` reads a buffer both cores see: a global of the module
/// that is not a constant (a stem's line buffer tiled for two cores; tiled
/// for one, it is a stack buffer, which each core has its own of).
bool readsSharedBuffer(KernelOp kernel) {
  auto module = kernel->getParentOfType<ModuleOp>();
  WalkResult found = kernel.walk([&](memref::GetGlobalOp get) {
    auto global =
        module ? module.lookupSymbol<memref::GlobalOp>(get.getName()) : nullptr;
    return global && !global.getConstant() ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The first op of `block` that accesses the ring, if it is an affine.for
/// with constant bounds and, when `sole`, no later op accesses the ring.
affine::AffineForOp accessLoop(Block &block, bool sole) {
  Operation *first = nullptr;
  for (Operation &op : block) {
    if (!accessesRing(&op))
      continue;
    if (first && sole)
      return nullptr;
    first = first ? first : &op;
  }
  auto loop = dyn_cast_or_null<affine::AffineForOp>(first);
  return loop && loop.hasConstantBounds() ? loop : nullptr;
}

int64_t tripCount(affine::AffineForOp loop) {
  int64_t span = loop.getConstantUpperBound() - loop.getConstantLowerBound();
  return span <= 0 ? 0 : (span + loop.getStepAsInt() - 1) / loop.getStepAsInt();
}

/// The split iterations of `kernel` at split_depth `depth` (0 when it has
/// no such loop): those of its first top-level loop that accesses the ring
/// (splitLoopHolder: views of the input before it aside; ring accesses
/// after it run on one core), or with depth 2 those of the one loop inside
/// it that does, over all rows.
int64_t splitIterations(KernelOp kernel, int64_t depth) {
  auto rows = dyn_cast_or_null<affine::AffineForOp>(
      splitLoopHolder(kernel.getBody().front()));
  if (!rows || !rows.hasConstantBounds())
    return 0;
  if (depth == 1)
    return tripCount(rows);
  affine::AffineForOp pixels = accessLoop(*rows.getBody(), /*sole=*/true);
  return pixels ? tripCount(rows) * tripCount(pixels) : 0;
}

/// The loops a phased split divides between the cores, one per phase: a
/// loop that accesses the ring inside a top-level loop (a row of the
/// line buffer's prologue or of the kernel) is a phase; the phase itself
/// is divided when its bounds are constants, else the first loop inside it
/// that accesses the ring (the ring accesses after it, a last odd pixel,
/// run on one core). Empty when some ring access fits none of that.
SmallVector<affine::AffineForOp> phaseLoops(KernelOp kernel) {
  SmallVector<affine::AffineForOp> targets;
  for (Operation &top : kernel.getBody().front()) {
    if (!accessesRing(&top))
      continue;
    auto rows = dyn_cast<affine::AffineForOp>(top);
    if (!rows || !rows.hasConstantBounds())
      return {};
    for (Operation &op : *rows.getBody()) {
      if (!accessesRing(&op))
        continue;
      auto phase = dyn_cast<affine::AffineForOp>(op);
      if (!phase)
        return {};
      affine::AffineForOp target =
          phase.hasConstantBounds()
              ? phase
              : accessLoop(*phase.getBody(), /*sole=*/false);
      if (!target)
        return {};
      targets.push_back(target);
    }
  }
  return targets;
}

/// The kernel's footprint in bytes with frees applied `freeDelay` split
/// iterations (at `depth`) late, over each of its ring inputs (the
/// largest).
FailureOr<int64_t> footprintBytes(KernelOp kernel, int64_t freeDelay,
                                  int64_t depth) {
  int64_t segmentBytes = static_cast<int64_t>(*kernel.getSegmentBytes());
  int64_t largest = 0;
  for (unsigned input = 0; input < kernel.getInputs().size(); ++input) {
    FailureOr<analysis::KernelPattern> pattern =
        buildKernelPattern(kernel, segmentBytes, input);
    if (failed(pattern))
      return failure();
    pattern->freeDelay = freeDelay;
    pattern->splitDepth = depth;
    if (auto error = analysis::validate(*pattern))
      return kernel.emitOpError("vmcu-split-kernels: ") << *error;
    largest =
        std::max(largest, analysis::solveOffsets(*pattern).footprintSegments *
                              segmentBytes);
  }
  return largest;
}

/// The arena the offset solver gives a copy of `module`, in bytes.
FailureOr<int64_t> placedArenaBytes(ModuleOp module) {
  OwningOpRef<ModuleOp> copy(module.clone());
  // The copy is not nested in the pass's operation: its own pass manager.
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  pm.addPass(createVMCUSolveOffsetsPass());
  ScopedDiagnosticHandler silence(module.getContext(),
                                  [](Diagnostic &) { return success(); });
  if (failed(pm.run(*copy)))
    return failure();
  int64_t bytes = 0;
  copy->walk([&](SegmentPoolOp pool) {
    bytes = static_cast<int64_t>(pool.getType().getSegments()) *
            static_cast<int64_t>(pool.getType().getSegmentBytes());
  });
  return bytes;
}

struct VMCUSplitKernelsPass
    : impl::VMCUSplitKernelsPassBase<VMCUSplitKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyCoresOption(getOperation(), getArgument(), cores)))
      return signalPassFailure();
    if (cores == 1)
      return;
    SmallVector<KernelOp> candidates;
    int64_t peakBytes = 0, stackBytes = 0;
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      stackBytes =
          std::max<int64_t>(stackBytes, kernel.getStackBytes().value_or(0));
      if (!kernel.getSegmentBytes() || kernel.getInputs().empty())
        return WalkResult::advance();
      FailureOr<int64_t> oneCore = footprintBytes(kernel, 0, 1);
      if (failed(oneCore))
        return WalkResult::interrupt();
      peakBytes = std::max(peakBytes, *oneCore);
      if (hasIndependentIterations(kernel))
        candidates.push_back(kernel);
      else
        splitPhases(kernel);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    FailureOr<int64_t> oneCoreArena = placedArenaBytes(getOperation());
    if (failed(oneCoreArena))
      return; // vmcu-solve-offsets reports why it cannot place the model.
    // The arena holds every kernel's footprint and the tensors live beside
    // it, so it is at least the peak footprint: the growth is judged
    // against it, and keepArenaWithin checks the placed arena.
    int64_t limitBytes =
        footprintLimit(std::max(peakBytes, *oneCoreArena), stackBytes);
    for (KernelOp kernel : candidates)
      if (failed(split(kernel, limitBytes)))
        return signalPassFailure();
    keepArenaWithin(limitBytes, candidates);
  }

  /// A kernel's footprint bounds the arena only with the other live
  /// tensors (a concatenation's branches): while the placed arena exceeds
  /// `limitBytes`, the split kernel with the largest footprint under late
  /// frees runs on one core again.
  void keepArenaWithin(int64_t limitBytes, ArrayRef<KernelOp> candidates) {
    // (footprint, position among the candidates, kernel)
    SmallVector<std::tuple<int64_t, unsigned, KernelOp>> delayed;
    for (unsigned position = 0; position < candidates.size(); ++position) {
      KernelOp kernel = candidates[position];
      if (!kernel.getCores())
        continue;
      FailureOr<int64_t> bytes =
          footprintBytes(kernel, core_split::kSplitFreeDelay,
                         kernel.getSplitDepth().value_or(1));
      if (succeeded(bytes))
        delayed.push_back({*bytes, position, kernel});
    }
    // Largest first; equals in candidate order.
    llvm::sort(delayed, [](const auto &a, const auto &b) {
      if (std::get<0>(a) != std::get<0>(b))
        return std::get<0>(a) > std::get<0>(b);
      return std::get<1>(a) < std::get<1>(b);
    });
    for (auto &[bytes, position, kernel] : delayed) {
      FailureOr<int64_t> arena = placedArenaBytes(getOperation());
      if (failed(arena) || *arena <= limitBytes)
        return;
      kernel.removeCoresAttr();
      kernel.removeSplitDepthAttr();
    }
  }

  /// Marks a line-buffer kernel (its buffer in the pool or, a stem's, in a
  /// buffer vmcu-tile shares between two cores) split by phases: each row's
  /// expansion into the buffer, then its output pixels, each divided between
  /// the cores, who meet after each. Each phase only loads what an earlier
  /// phase stored, so the one-core placement holds; the arena does not grow.
  void splitPhases(KernelOp kernel) {
    using analysis::KernelKind;
    if (!(hasSchedule(kernel, KernelKind::FusedLineBuffer) &&
          kernel.getWorkspace()) &&
        !(hasSchedule(kernel, KernelKind::FusedStem) &&
          readsSharedBuffer(kernel)))
      return;
    SmallVector<affine::AffineForOp> loops = phaseLoops(kernel);
    if (loops.empty())
      return;
    kernel.setCores(core_split::kSplitCores);
    kernel.setSplitDepth(core_split::kMaxSplitDepth);
    kernel.setSplitPhases(true);
  }

  /// Marks `kernel` split at the first depth, in order of preference, that
  /// has enough iterations and keeps its footprint within `limitBytes`:
  /// rows when there are enough of them to balance the cores, else the
  /// pixels of each row.
  LogicalResult split(KernelOp kernel, int64_t limitBytes) {
    int64_t rows = splitIterations(kernel, 1);
    SmallVector<int64_t, 2> depths = {1, core_split::kMaxSplitDepth};
    if (rows < kBalancedSplitIterations)
      std::swap(depths[0], depths[1]);
    for (int64_t depth : depths) {
      if (splitIterations(kernel, depth) < kMinSplitIterations)
        continue;
      FailureOr<int64_t> bytes =
          footprintBytes(kernel, core_split::kSplitFreeDelay, depth);
      if (failed(bytes))
        return failure();
      if (*bytes > limitBytes)
        continue;
      kernel.setCores(core_split::kSplitCores);
      if (depth != 1)
        kernel.setSplitDepth(depth);
      return success();
    }
    return success();
  }

  /// The largest footprint a split kernel (and the arena) may have:
  /// `baseBytes` plus max-growth-percent, and at most what ram-kb (when
  /// set) leaves beside the largest kernel's stack buffers, `stackBytes`
  /// (vmcu-tile's stack_bytes), unless `baseBytes` alone exceeds that.
  int64_t footprintLimit(int64_t baseBytes, int64_t stackBytes) const {
    int64_t limit = baseBytes + baseBytes * maxGrowthPercent / kPercent;
    if (ramKb > 0)
      limit = std::min(limit,
                       std::max(baseBytes, ramKb * kBytesPerKiB - stackBytes));
    return limit;
  }

  /// Fewer iterations leave a core idle for most of the kernel.
  static constexpr int64_t kMinSplitIterations = 4;
  /// Rows enough that an odd count idles a core for at most 1/16 of the
  /// kernel; with fewer, each row's pixels are split instead.
  static constexpr int64_t kBalancedSplitIterations = 16;
};

} // namespace

} // namespace mlir::vmcu
