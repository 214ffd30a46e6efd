//===- SplitKernels.cpp - share kernels between two cores ----------------===//
//
// Marks the kernels two cores can share: core c takes the iterations c,
// c + 2, ... of the top-level loop that holds every ring load and store
// (vmcu-distribute-kernels emits that and the waits). The other core may
// still be one iteration behind, so each free applies two iterations late
// in the offset solver (core_split in ModelABI.h); a kernel is split only
// where that keeps its footprint within the model's largest one-core
// footprint, so the arena does not grow.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Analysis/KernelPatternFromIR.h"
#include "vmcu/Analysis/OffsetSolver.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSPLITKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// Kernel kinds whose top-level iterations share no state but the ring:
/// each iteration fills the stack buffers it reads (a line buffer carries
/// expanded rows from one iteration to the next).
bool hasIndependentIterations(KernelOp kernel) {
  std::optional<StringRef> schedule = kernel.getSchedule();
  using analysis::KernelKind;
  for (KernelKind kind : {KernelKind::FusedLineBuffer, KernelKind::FusedStem})
    if (schedule && *schedule == StringRef(analysis::kindName(kind)))
      return false;
  return schedule.has_value();
}

/// The top-level affine.for holding every ring load and store of `kernel`,
/// if there is one.
affine::AffineForOp splitLoop(KernelOp kernel) {
  Operation *loop = nullptr;
  bool single = true;
  kernel.getBody().walk([&](Operation *op) {
    if (!isa<RingLoadOp, RingViewOp, RingStoreOp>(op))
      return;
    Operation *top = kernel.getBody().front().findAncestorOpInBlock(*op);
    single &= !loop || loop == top;
    loop = top;
  });
  return single ? dyn_cast_or_null<affine::AffineForOp>(loop) : nullptr;
}

/// The loop's trip count when its bounds are constants.
std::optional<int64_t> tripCount(affine::AffineForOp loop) {
  if (!loop.hasConstantBounds())
    return std::nullopt;
  int64_t span = loop.getConstantUpperBound() - loop.getConstantLowerBound();
  return span <= 0 ? 0 : (span + loop.getStepAsInt() - 1) / loop.getStepAsInt();
}

/// The kernel's footprint in bytes with frees applied `freeDelay`
/// iterations late, over each of its ring inputs (the largest).
FailureOr<int64_t> footprintBytes(KernelOp kernel, int64_t freeDelay) {
  int64_t segmentBytes = static_cast<int64_t>(*kernel.getSegmentBytes());
  int64_t largest = 0;
  for (unsigned input = 0; input < kernel.getInputs().size(); ++input) {
    FailureOr<analysis::KernelPattern> pattern =
        buildKernelPattern(kernel, segmentBytes, input);
    if (failed(pattern))
      return failure();
    pattern->freeDelay = freeDelay;
    if (auto error = analysis::validate(*pattern))
      return kernel.emitOpError("vmcu-split-kernels: ") << *error;
    largest =
        std::max(largest, analysis::solveOffsets(*pattern).footprintSegments *
                              segmentBytes);
  }
  return largest;
}

struct VMCUSplitKernelsPass
    : vmcu::impl::VMCUSplitKernelsPassBase<VMCUSplitKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (cores == 1)
      return;
    if (cores != core_split::kSplitCores) {
      getOperation().emitError("vmcu-split-kernels: cores must be 1 or ")
          << core_split::kSplitCores << ", got " << cores.getValue();
      return signalPassFailure();
    }
    SmallVector<KernelOp> candidates;
    int64_t peakBytes = 0;
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getSegmentBytes() || kernel.getInputs().empty())
        return WalkResult::advance();
      FailureOr<int64_t> oneCore = footprintBytes(kernel, 0);
      if (failed(oneCore))
        return WalkResult::interrupt();
      peakBytes = std::max(peakBytes, *oneCore);
      affine::AffineForOp loop = splitLoop(kernel);
      std::optional<int64_t> trips = loop ? tripCount(loop) : std::nullopt;
      if (hasIndependentIterations(kernel) && trips &&
          *trips >= kMinSplitIterations)
        candidates.push_back(kernel);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (KernelOp kernel : candidates) {
      FailureOr<int64_t> split =
          footprintBytes(kernel, core_split::kSplitFreeDelay);
      if (failed(split))
        return signalPassFailure();
      if (*split <= peakBytes)
        kernel.setCores(core_split::kSplitCores);
    }
  }

  /// Fewer iterations leave a core idle for most of the kernel.
  static constexpr int64_t kMinSplitIterations = 4;
};

} // namespace
