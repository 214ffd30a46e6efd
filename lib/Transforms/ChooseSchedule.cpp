//===- ChooseSchedule.cpp - fused or unfused, per block, under a budget ---===//
//
// vmcu-fuse-bottleneck fuses every inverted bottleneck: the minimum-RAM
// plan. This pass unfuses the blocks where the separate ring layers fit the
// RAM budget, fastest saving first, since a fused block re-expands every
// input pixel once per depthwise tap.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include <numeric>
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCHOOSESCHEDULEPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

constexpr int64_t kBytesPerKiB = 1024;

/// What unfused layers must keep: the all-fused plan's pool alignment (the
/// lcm of its segment sizes) and its largest kernel stack buffers.
struct FusedPlanLimits {
  int64_t alignment = 1;
  int64_t scratchBytes = 0;
};

/// The largest segment size of `layer` that divides the alignment and whose
/// buffers fit the scratch limit, so neither the pool nor the stack grows;
/// else its smallest.
int64_t fittingSegmentSize(LayerOpInterface layer,
                           const FusedPlanLimits &limits) {
  SmallVector<int64_t> sizes = segmentSizeCandidates(layer);
  for (int64_t size : sizes)
    if (limits.alignment % size == 0 &&
        kernelScratchBytes(layer, size) <= limits.scratchBytes)
      return size;
  return sizes.back();
}

/// Replaces `op` by the layers of its body, each with a segment size that
/// fits `limits`.
void unfuse(BottleneckOp op, const FusedPlanLimits &limits) {
  OpBuilder b(op);
  IRMapping mapping;
  Block &body = op.getBody().front();
  mapping.map(body.getArgument(0), op.getInput());
  for (Operation &inner : body.without_terminator()) {
    Operation *copy = b.clone(inner, mapping);
    auto layer = dyn_cast<LayerOpInterface>(copy);
    if (layer && !layer.getSegmentSizeBytes())
      copy->setAttr("segment_bytes",
                    b.getI64IntegerAttr(fittingSegmentSize(layer, limits)));
  }
  Value result = mapping.lookup(body.getTerminator()->getOperand(0));
  op.getOutput().replaceAllUsesWith(result);
  op.erase();
}

/// A plan: which bottlenecks (indices in program order) run as separate
/// layers and which keep a line buffer; the others recompute.
struct Schedule {
  SmallVector<unsigned> unfused;
  SmallVector<unsigned> lineBuffer;
};

/// The top-level bottlenecks of `func`, in order.
SmallVector<BottleneckOp> bottlenecks(func::FuncOp func) {
  SmallVector<BottleneckOp> ops;
  for (Operation &op : func.getBody().front())
    if (auto fused = dyn_cast<BottleneckOp>(&op))
      ops.push_back(fused);
  return ops;
}

/// Estimated cycles of bottleneck `op` run as separate layers.
int64_t separateCycles(BottleneckOp op) {
  int64_t cycles = 0;
  for (Operation &inner : op.getBody().front())
    if (auto l = dyn_cast<LayerOpInterface>(&inner))
      cycles += analysis::estimateCycles(layerWork(l, segmentSizeOf(l)));
  return cycles;
}

/// Estimated cycles of `op` with a line buffer.
int64_t lineBufferCycles(BottleneckOp op) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  analysis::KernelWork work = layerWork(layer, segmentSizeOf(layer));
  work.kind = analysis::KernelKind::FusedLineBuffer;
  work.macs = layerMacs(layer);
  return analysis::estimateCycles(work);
}

/// Estimated cycles saved against the recomputing fused kernel of `op`.
int64_t savedCycles(BottleneckOp op, int64_t cycles) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  return analysis::estimateCycles(layerWork(layer, segmentSizeOf(layer))) -
         cycles;
}

/// Applies `schedule` to the bottlenecks of `func`.
void applySchedule(func::FuncOp func, const Schedule &schedule,
                   const FusedPlanLimits &limits) {
  SmallVector<BottleneckOp> ops = bottlenecks(func);
  for (unsigned i : schedule.lineBuffer)
    ops[i].setLineBuffer(true);
  for (unsigned i : schedule.unfused)
    unfuse(ops[i], limits);
}

struct VMCUChooseSchedulePass
    : vmcu::impl::VMCUChooseSchedulePassBase<VMCUChooseSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal() || bottlenecks(func).empty())
      return; // vmcu-tile reports a missing entry.
    FailureOr<PlanTrial> fused = plan(Schedule());
    if (failed(fused))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    int64_t budget = ramKb > 0 ? ramKb * kBytesPerKiB : fused->arenaBytes;
    if (fused->arenaBytes > budget)
      return; // vmcu-select-segment-sizes shrinks segments or reports.
    limits = FusedPlanLimits();
    for (LayerOpInterface layer : chainLayers(func)) {
      int64_t size = segmentSizeOf(layer);
      limits.alignment = std::lcm(limits.alignment, size);
      limits.scratchBytes =
          std::max(limits.scratchBytes, kernelScratchBytes(layer, size));
    }

    Schedule schedule;
    schedule.unfused = candidates(budget);
    // Footprints are local to a block but the pool's alignment is not:
    // drop the smallest saving until the whole plan fits.
    for (;;) {
      FailureOr<PlanTrial> trial = plan(schedule);
      if (schedule.unfused.empty() ||
          (succeeded(trial) && trial->arenaBytes <= budget))
        break;
      schedule.unfused.pop_back();
    }
    chooseLineBuffers(schedule, budget);
    applySchedule(func, schedule, limits);
    numUnfused += schedule.unfused.size();
    numLineBuffer += schedule.lineBuffer.size();
  }

  /// Gives each still fused bottleneck a line buffer where the plan stays
  /// within `budget`, largest estimated saving first.
  void chooseLineBuffers(Schedule &schedule, int64_t budget) {
    auto func = getOperation().lookupSymbol<func::FuncOp>(entry);
    SmallVector<std::pair<int64_t, unsigned>> ranked;
    for (auto [i, op] : llvm::enumerate(bottlenecks(func))) {
      if (llvm::is_contained(schedule.unfused, i) || !op.supportsLineBuffer())
        continue;
      int64_t saves = savedCycles(op, lineBufferCycles(op));
      if (saves > 0)
        ranked.push_back({saves, static_cast<unsigned>(i)});
    }
    llvm::stable_sort(ranked,
                      [](auto &a, auto &b) { return a.first > b.first; });
    for (auto &[saves, i] : ranked) {
      schedule.lineBuffer.push_back(i);
      FailureOr<PlanTrial> trial = plan(schedule);
      if (failed(trial) || trial->arenaBytes > budget)
        schedule.lineBuffer.pop_back();
    }
  }

  FusedPlanLimits limits;

  /// Plans a copy of the model with `schedule`.
  FailureOr<PlanTrial> plan(const Schedule &schedule) {
    return tryPlan(getOperation(), entry, [&](func::FuncOp func) {
      applySchedule(func, schedule, limits);
    });
  }

  /// The bottlenecks whose separate layers each fit `budget` when all are
  /// unfused, largest estimated saving first.
  SmallVector<unsigned> candidates(int64_t budget) {
    auto func = getOperation().lookupSymbol<func::FuncOp>(entry);
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    // The block (or -1) of each kernel of the all-unfused plan.
    SmallVector<int> blockOf;
    for (LayerOpInterface layer : chainLayers(func)) {
      auto it = llvm::find(ops, dyn_cast<BottleneckOp>(layer.getOperation()));
      if (it == ops.end()) {
        blockOf.push_back(-1);
        continue;
      }
      for (Operation &inner : it->getBody().front())
        if (isa<LayerOpInterface>(inner))
          blockOf.push_back(static_cast<int>(it - ops.begin()));
    }
    SmallVector<unsigned> all = llvm::to_vector(llvm::seq<unsigned>(0, ops.size()));
    FailureOr<PlanTrial> separate = plan(Schedule{all, {}});
    if (failed(separate) || separate->footprintBytes.size() != blockOf.size())
      return {};
    SmallVector<bool> fits(ops.size(), true);
    for (auto [k, block] : llvm::enumerate(blockOf))
      if (block >= 0 && separate->footprintBytes[k] > budget)
        fits[block] = false;
    SmallVector<std::pair<int64_t, unsigned>> ranked;
    for (auto [i, op] : llvm::enumerate(ops)) {
      int64_t saves = savedCycles(op, separateCycles(op));
      if (fits[i] && saves > 0)
        ranked.push_back({saves, static_cast<unsigned>(i)});
    }
    llvm::stable_sort(ranked, [](auto &a, auto &b) { return a.first > b.first; });
    SmallVector<unsigned> chosen;
    for (auto &[saves, i] : ranked)
      chosen.push_back(i);
    return chosen;
  }
};

} // namespace
