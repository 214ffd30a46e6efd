//===- ChooseSchedule.cpp - fused or unfused, per block, under a budget ---===//
//
// vmcu-fuse-bottleneck fuses every inverted bottleneck: the minimum-RAM
// plan, whose kernel re-expands every input pixel once per depthwise tap
// (a stem's, a KxK expansion, keeps a line buffer instead). This pass gives
// each block the fastest of recomputing, a line buffer or separate ring
// layers (by the cost model) whose SRAM fits the budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"
#include "vmcu/Transforms/ScheduleNames.h"
#include "vmcu/Transforms/SegmentSizer.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCHOOSESCHEDULEPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// How much more a paired-projection kernel's stack frame exceeds its
/// buffer estimate (kernelScratchBytes) than the plan's largest frame
/// exceeds the largest estimate: the spills around its 2-row tiles.
/// Measured on MCUNet-5fps-VWW: a paired kernel estimated at 792 bytes
/// took a 1,380-byte frame, against the plan's largest estimate of 960
/// and largest frame of 1,280 bytes (a 7x7 depthwise kernel).
constexpr int64_t kPairedFrameMargin = 256;

/// The least estimated saving, as a fraction of the base option's cycles,
/// for which a block takes an option that needs more SRAM than its base:
/// below it the estimate cannot tell them apart. The cost model's kernels
/// are off by up to 28% each (bench/cost-model.sh); MCUNet-5fps-VWW's stem
/// run as separate layers was estimated 0.3% faster than fused and measured
/// 2% slower, with a 14 KB larger arena.
constexpr double kMinEstimatedSaving = 0.05;

/// Without a budget, a block whose option in the smallest plan is slow (a
/// recompute, or a line buffer over narrow segments) may take a faster
/// option that raises the plan's SRAM by at most 1/kSlowBlockSlack of the
/// smallest plan's, if the cost model puts it at kMinSlowBlockSpeedup times
/// faster or more and the cycles it saves are at least 1/kMinModelShare of
/// the whole model's: the faster options cost flash (separate kernels, line
/// buffers), which the default spends only where the model's speed turns
/// on it. A corpus MobileNetV1 (make-tflite.py --kind corpus-mobilenet-v1
/// --seed 6) recomputed its last block to save 124 B of 18.5 KB of SRAM:
/// 14.4 M cycles against 5.1 M with the block as separate layers
/// (vmcu-prof), for 34 KB more flash. The MCUNet-VWW chain's third block
/// would save 10% of its cycles for 32 KB (8%) more flash: not taken.
/// Corpus MobileNetV1 seed 5 needs 1/4: its first block, whose line buffer
/// fits alone but not beside the other blocks' picks, recomputed 3.5 M of
/// the model's 4.9 M estimated cycles to keep a 4.4 KB arena that the line
/// buffer grows by 552 B (12.5%). Corpus MobileNetV2 seed 3 line-buffered a
/// block over 1-byte segments in 10.5 M of its 20 M cycles when its window
/// took one channel at a time, where separate layers take 4.1 M for 8.4 KB
/// (21%) more arena; in channel groups (lineBufferChannelGroup) its line
/// buffers are no longer slow and stay.
constexpr int64_t kSlowBlockSlack = 4;
constexpr int64_t kMinSlowBlockSpeedup = 2;
constexpr int64_t kMinModelShare = 4;

/// What unfused layers must keep: the all-fused plan's pool alignment (the
/// lcm of its segment sizes) and its largest kernel stack buffers on
/// `cores` cores.
struct FusedPlanLimits {
  int64_t alignment = 1;
  int64_t scratchBytes = 0;
  int64_t cores = 1;
};

/// The largest segment size of `layer` that divides the alignment and whose
/// buffers fit the scratch limit, so neither the pool nor the stack grows;
/// else its smallest.
int64_t fittingSegmentSize(LayerOpInterface layer,
                           const FusedPlanLimits &limits) {
  SmallVector<int64_t> sizes = segmentSizeCandidates(layer);
  for (int64_t size : sizes)
    if (limits.alignment % size == 0 &&
        kernelScratchBytes(layer, size, limits.cores) <= limits.scratchBytes)
      return size;
  return sizes.back();
}

/// Replaces `op` by the layers of its body, each with a segment size that
/// fits `limits`. A layer whose default segments fit is left unset, so that
/// vmcu-select-segment-sizes may still level it with the others.
void unfuse(BottleneckOp op, const FusedPlanLimits &limits) {
  OpBuilder b(op);
  IRMapping mapping;
  Block &body = op.getBody().front();
  mapping.map(body.getArgument(0), op.getInput());
  for (Operation &inner : body.without_terminator()) {
    Operation *copy = b.clone(inner, mapping);
    auto layer = dyn_cast<LayerOpInterface>(copy);
    if (!layer || layer.getSegmentSizeBytes())
      continue;
    int64_t size = fittingSegmentSize(layer, limits);
    if (size != segmentSizeOf(layer))
      copy->setAttr("segment_bytes", b.getI64IntegerAttr(size));
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
  /// Line-buffered blocks that project their output pixels in pairs.
  SmallVector<unsigned> paired;
};

/// Whether `op` may take a line buffer: unit strides, and a segment size
/// (if one is set) that also divides the expanded channels of a line
/// buffer in the pool (a stem's is on the stack).
bool canLineBuffer(BottleneckOp op) {
  int64_t cmid = op.getExpand().getOutput().getType().getDimSize(3);
  std::optional<uint64_t> seg = op.getSegmentBytes();
  return op.supportsLineBuffer() &&
         (op.isStem() || !seg || cmid % static_cast<int64_t>(*seg) == 0);
}

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
  return estimatedCycles(
      llvm::to_vector(op.getBody().front().getOps<LayerOpInterface>()));
}

/// Estimated cycles of `op` with a line buffer.
int64_t lineBufferCycles(BottleneckOp op) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  return analysis::estimateCycles(
      bottleneckWork(op, segmentSizeOf(layer), /*lineBuffer=*/true));
}

/// Estimated cycles of `op` recomputing (the fused kernel as it is).
int64_t recomputeCycles(BottleneckOp op) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  return analysis::estimateCycles(
      bottleneckWork(op, segmentSizeOf(layer), /*lineBuffer=*/false));
}

enum class BlockPlan { Recompute, LineBuffer, Unfused };

struct BlockOption {
  BlockPlan plan;
  int64_t cycles;
};

/// Cycles option `i` of `opts` saves against the next one.
int64_t saving(ArrayRef<BlockOption> opts, unsigned i) {
  return opts[i + 1].cycles - opts[i].cycles;
}

/// The block (among those `eligible` marks; all if it is empty) that
/// saves least against its next option, if any has one.
std::optional<unsigned> leastSaving(ArrayRef<SmallVector<BlockOption>> options,
                                    ArrayRef<unsigned> pick,
                                    ArrayRef<bool> eligible) {
  std::optional<unsigned> least;
  for (auto [i, opts] : llvm::enumerate(options))
    if (pick[i] + 1 < opts.size() && (eligible.empty() || eligible[i]) &&
        (!least ||
         saving(opts, pick[i]) < saving(options[*least], pick[*least])))
      least = i;
  return least;
}

/// The schedule that takes option `pick[i]` for bottleneck i.
Schedule scheduleOf(ArrayRef<SmallVector<BlockOption>> options,
                    ArrayRef<unsigned> pick) {
  Schedule result;
  for (auto [i, opts] : llvm::enumerate(options)) {
    BlockPlan plan = opts[pick[i]].plan;
    if (plan == BlockPlan::Unfused)
      result.unfused.push_back(i);
    else if (plan == BlockPlan::LineBuffer)
      result.lineBuffer.push_back(i);
  }
  return result;
}

/// Applies `schedule` to the bottlenecks of `func`.
void applySchedule(func::FuncOp func, const Schedule &schedule,
                   const FusedPlanLimits &limits) {
  SmallVector<BottleneckOp> ops = bottlenecks(func);
  for (unsigned i : schedule.lineBuffer)
    ops[i].setLineBuffer(true);
  for (unsigned i : schedule.paired)
    ops[i].setPairedProjection(true);
  for (unsigned i : schedule.unfused)
    unfuse(ops[i], limits);
}

struct VMCUChooseSchedulePass
    : impl::VMCUChooseSchedulePassBase<VMCUChooseSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = entryFunction(module, entry);
    if (!func || bottlenecks(func).empty())
      return; // vmcu-tile reports a missing entry.
    limits = FusedPlanLimits();
    limits.cores = cores;
    for (LayerOpInterface layer : chainLayers(func)) {
      int64_t size = segmentSizeOf(layer);
      limits.alignment = std::lcm(limits.alignment, size);
      limits.scratchBytes =
          std::max(limits.scratchBytes, kernelScratchBytes(layer, size, cores));
    }
    if (!isScheduleName(schedule)) {
      module.emitError("vmcu-choose-schedule: unknown schedule '")
          << schedule << "'; expected " << scheduleNameList();
      return signalPassFailure();
    }
    if (schedule != "auto")
      return applyFixedSchedule(func);
    FailureOr<PlanTrial> fused = plan(Schedule());
    if (failed(fused))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    // The budget is on SRAM: the arena plus the largest kernel's stack
    // buffers (estimated, as kernelScratchBytes).
    int64_t budget = ramKb > 0 ? ramKb * kBytesPerKiB : fused->sramBytes();
    if (fused->sramBytes() > budget)
      return; // vmcu-select-segment-sizes shrinks segments or reports.

    SmallVector<SmallVector<BlockOption>> options =
        blockOptions(budget, fused->arenaBytes);
    // Without a budget, slow blocks may spend 1/kSlowBlockSlack more.
    int64_t relaxed = budget + budget / kSlowBlockSlack;
    if (ramKb <= 0)
      budget = relaxSlowBlocks(options, budget, relaxed, fused->arenaBytes);
    Selection selected = select(options, budget);
    if (ramKb <= 0)
      budget = relaxFallenBackBlocks(options, selected, budget, relaxed);
    SmallVector<unsigned> &pick = selected.pick;
    FailureOr<PlanTrial> &trial = selected.trial;
    Schedule chosen = scheduleOf(options, pick);
    if (succeeded(trial) && trial->sramBytes() <= budget)
      chosen.paired = pairedProjections(func, chosen, *trial, budget);
    applySchedule(func, chosen, limits);
    numPaired += chosen.paired.size();
    numUnfused += chosen.unfused.size();
    numLineBuffer += chosen.lineBuffer.size();
  }

  FusedPlanLimits limits;

  /// Each block's pick among its options, and the plan they give.
  struct Selection {
    SmallVector<unsigned> pick;
    FailureOr<PlanTrial> trial = failure();
  };

  /// Each block starts at its fastest option that fits on its own;
  /// footprints are local to a block but the pool's alignment is not, so
  /// while the whole plan is over budget the block whose option saves
  /// least falls back to its next one.
  Selection select(ArrayRef<SmallVector<BlockOption>> options, int64_t budget) {
    Selection s{SmallVector<unsigned>(options.size(), 0)};
    for (;;) {
      Schedule current = scheduleOf(options, s.pick);
      s.trial = plan(current);
      if (succeeded(s.trial) && s.trial->sramBytes() <= budget)
        return s;
      // The one fallback that brings the plan within the budget at the
      // least cost, if one does; else the blocks whose kernels put the plan
      // over the budget fall back first.
      if (std::optional<std::pair<unsigned, PlanTrial>> fix =
              fittingFallback(options, s.pick, budget)) {
        ++s.pick[fix->first];
        s.trial = std::move(fix->second);
        return s;
      }
      SmallVector<bool> atFault(options.size(), true);
      if (succeeded(s.trial))
        atFault = blocksOverBudget(current, *s.trial, budget);
      std::optional<unsigned> least = leastSaving(options, s.pick, atFault);
      if (!least)
        least = leastSaving(options, s.pick, {});
      if (!least)
        return s;
      ++s.pick[*least];
    }
  }

  /// Whether `option` costs at least kMinSlowBlockSpeedup times the cycles
  /// of an option at `faster`, and the difference is at least
  /// 1/kMinModelShare of `modelCycles`.
  static bool isSlowOption(const BlockOption &option, int64_t faster,
                           int64_t modelCycles) {
    return faster * kMinSlowBlockSpeedup <= option.cycles &&
           (option.cycles - faster) * kMinModelShare >= modelCycles;
  }

  /// Without a budget: when the plan made a block fall back to a slow
  /// option (its faster options fit alone, not with the others), plans
  /// again within `relaxed` (the smallest plan's SRAM and 1/kSlowBlockSlack
  /// more), with the other blocks kept at their picks; keeps that plan if
  /// such a block then runs faster. Returns the budget the plan then has.
  int64_t
  relaxFallenBackBlocks(SmallVectorImpl<SmallVector<BlockOption>> &options,
                        Selection &selected, int64_t budget, int64_t relaxed) {
    int64_t modelCycles = estimatedCycles(options);
    SmallVector<SmallVector<BlockOption>> retry;
    bool candidate = false;
    for (auto [opts, pick] : llvm::zip_equal(options, selected.pick)) {
      bool fellBack = pick > 0 && isSlowOption(opts[pick], opts.front().cycles,
                                               modelCycles);
      candidate |= fellBack;
      retry.push_back(fellBack ? opts : SmallVector<BlockOption>{opts[pick]});
    }
    if (!candidate || relaxed <= budget)
      return budget;
    Selection wider = select(retry, relaxed);
    if (failed(wider.trial) || wider.trial->sramBytes() > relaxed)
      return budget;
    bool faster = false;
    for (auto [opts, pick] : llvm::zip_equal(retry, wider.pick))
      faster |= opts.size() > 1 && pick + 1 < opts.size();
    if (!faster)
      return budget;
    options.assign(retry.begin(), retry.end());
    selected = std::move(wider);
    return relaxed;
  }

  /// The line-buffered blocks of `chosen` (planned as `trial`) that may
  /// project in pairs: in order, each whose larger stack buffers keep the
  /// plan's SRAM (arena plus the largest kernel's buffers) within
  /// `budget`, on the arena of `trial`. Pairs store a block's two output
  /// pixels interleaved by segment, which the offset solver re-solves; the
  /// in-place overlap holds, so the arena is taken as unchanged (it is on
  /// the shared models; a re-plan to check it cost 0.5 s of MCUNet's
  /// compile time, over its 5 s budget).
  SmallVector<unsigned> pairedProjections(func::FuncOp func,
                                          const Schedule &chosen,
                                          const PlanTrial &trial,
                                          int64_t budget) {
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    int64_t scratch = trial.scratchBytes;
    SmallVector<unsigned> paired;
    for (unsigned i : chosen.lineBuffer) {
      BottleneckOp op = ops[i];
      // The attributes only for the estimate: applySchedule sets them (a
      // stem has its line buffer from vmcu-fuse-bottleneck).
      bool lineBuffer = op.getLineBuffer();
      op.setLineBuffer(true);
      op.setPairedProjection(true);
      auto layer = cast<LayerOpInterface>(op.getOperation());
      int64_t bytes = kernelScratchBytes(layer, segmentSizeOf(layer), cores);
      op.setLineBuffer(lineBuffer);
      op.setPairedProjection(false);
      if (trial.arenaBytes + std::max(scratch, bytes + kPairedFrameMargin) >
          budget)
        continue;
      scratch = std::max(scratch, bytes);
      paired.push_back(i);
    }
    return paired;
  }

  /// Applies the `schedule` option's plan to every bottleneck.
  void applyFixedSchedule(func::FuncOp func) {
    Schedule fixed;
    for (auto [i, op] : llvm::enumerate(bottlenecks(func))) {
      if (schedule == "unfused")
        fixed.unfused.push_back(i);
      bool paired = schedule == "line-buffer-paired";
      if ((schedule == "line-buffer" || paired) && canLineBuffer(op)) {
        fixed.lineBuffer.push_back(i);
        if (paired)
          fixed.paired.push_back(i);
      }
    }
    applySchedule(func, fixed, limits);
    numUnfused += fixed.unfused.size();
    numLineBuffer += fixed.lineBuffer.size();
    numPaired += fixed.paired.size();
  }

  /// Plans a copy of the model with `schedule`. Under a budget its
  /// segments are sized as vmcu-select-segment-sizes sizes them without
  /// one, so that a schedule is not judged by an arena that the pool's
  /// rounding to the lcm of odd channel counts inflates (which the budget
  /// path then levels). Without a budget each layer keeps its fastest
  /// segments: the default's budget is the all-fused plan's SRAM with them.
  FailureOr<PlanTrial> plan(const Schedule &chosen) {
    return tryBudgetPlan(
        getOperation(), entry, ramKb, cores,
        [&](func::FuncOp func) { applySchedule(func, chosen, limits); });
  }

  /// For each bottleneck, the options whose kernels fit `budget` (in a plan
  /// where every bottleneck takes that kind) and are estimated at least
  /// kMinEstimatedSaving faster than its base, fastest first, down to the
  /// base (the all-fused plan's option), which always fits. `minArena` is
  /// the all-fused plan's arena, the least any plan needs.
  SmallVector<SmallVector<BlockOption>> blockOptions(int64_t budget,
                                                     int64_t minArena) {
    func::FuncOp func = entryFunction(getOperation(), entry);
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    auto all = llvm::to_vector(llvm::seq<unsigned>(0, ops.size()));
    SmallVector<unsigned> lineBuffered;
    for (auto [i, op] : llvm::enumerate(ops))
      if (canLineBuffer(op))
        lineBuffered.push_back(i);
    SmallVector<bool> unfusedFits =
        fitting(Schedule{all, {}, {}}, budget, minArena);
    SmallVector<bool> lineBufferFits =
        fitting(Schedule{{}, lineBuffered, {}}, budget, minArena);

    SmallVector<SmallVector<BlockOption>> options;
    for (auto [i, op] : llvm::enumerate(ops)) {
      // The all-fused plan's option, which always fits: recomputing, or a
      // stem's line buffer (its only fused schedule).
      BlockOption base = {BlockPlan::Recompute, recomputeCycles(op)};
      if (op.isStem())
        base = {BlockPlan::LineBuffer, lineBufferCycles(op)};
      SmallVector<BlockOption> opts = {base};
      auto addIfFaster = [&](BlockOption option) {
        if (option.cycles < base.cycles * (1.0 - kMinEstimatedSaving))
          opts.push_back(option);
      };
      if (unfusedFits[i])
        addIfFaster({BlockPlan::Unfused, separateCycles(op)});
      if (!op.isStem() && lineBufferFits[i] && canLineBuffer(op))
        addIfFaster({BlockPlan::LineBuffer, lineBufferCycles(op)});
      // Fastest first; of equals, unfused (the order they were added in).
      llvm::sort(opts, [](const BlockOption &a, const BlockOption &b) {
        if (a.cycles != b.cycles)
          return a.cycles < b.cycles;
        return a.plan == BlockPlan::Unfused && b.plan != BlockPlan::Unfused;
      });
      options.push_back(std::move(opts));
    }
    return options;
  }

  /// Without a budget: gives each block whose fastest fitting option is
  /// slow the options that fit within `relaxed` (1/kSlowBlockSlack more
  /// SRAM), if one of them is at least kMinSlowBlockSpeedup times faster and
  /// saves at least 1/kMinModelShare of the model's cycles. Returns the
  /// budget the plan then has.
  int64_t relaxSlowBlocks(SmallVectorImpl<SmallVector<BlockOption>> &options,
                          int64_t budget, int64_t relaxed, int64_t minArena) {
    int64_t modelCycles = estimatedCycles(options);
    auto slow = [&](const BlockOption &option, int64_t faster) {
      return isSlowOption(option, faster, modelCycles);
    };
    // A block's options cost no more cycles than its fastest schedule's
    // estimate: without such a block, the trials below cannot change the
    // plan, and are skipped.
    SmallVector<BottleneckOp> ops = entryBottlenecks();
    bool candidate = false;
    for (auto [opts, op] : llvm::zip_equal(options, ops))
      candidate |= slow(opts.front(), fastestCycles(op));
    if (!candidate)
      return budget;

    SmallVector<SmallVector<BlockOption>> wider =
        blockOptions(relaxed, minArena);
    bool any = false;
    for (auto [opts, widerOpts] : llvm::zip_equal(options, wider)) {
      if (!slow(opts.front(), widerOpts.front().cycles))
        continue;
      opts = widerOpts;
      any = true;
    }
    return any ? relaxed : budget;
  }

  /// The fewest cycles any schedule of `op` is estimated at.
  static int64_t fastestCycles(BottleneckOp op) {
    int64_t cycles = std::min(recomputeCycles(op), separateCycles(op));
    if (canLineBuffer(op))
      cycles = std::min(cycles, lineBufferCycles(op));
    return cycles;
  }

  /// Estimated cycles of the model with each block at its first option.
  int64_t estimatedCycles(ArrayRef<SmallVector<BlockOption>> options) {
    int64_t cycles = 0;
    for (const SmallVector<BlockOption> &opts : options)
      cycles += opts.front().cycles;
    func::FuncOp func = entryFunction(getOperation(), entry);
    SmallVector<LayerOpInterface> layers = chainLayers(func);
    llvm::erase_if(layers, [](LayerOpInterface layer) {
      return isa<BottleneckOp>(layer.getOperation());
    });
    return cycles + vmcu::estimatedCycles(layers);
  }

  /// The block whose fallback to its next option alone brings the plan
  /// `pick` within `budget` at the least estimated cost, if any does, with
  /// the plan that fallback gives.
  std::optional<std::pair<unsigned, PlanTrial>>
  fittingFallback(ArrayRef<SmallVector<BlockOption>> options,
                  ArrayRef<unsigned> pick, int64_t budget) {
    std::optional<std::pair<unsigned, PlanTrial>> best;
    for (auto [i, opts] : llvm::enumerate(options)) {
      if (pick[i] + 1 >= opts.size() ||
          (best && saving(opts, pick[i]) >=
                       saving(options[best->first], pick[best->first])))
        continue;
      SmallVector<unsigned> fallback(pick);
      ++fallback[i];
      FailureOr<PlanTrial> trial = plan(scheduleOf(options, fallback));
      if (succeeded(trial) && trial->sramBytes() <= budget)
        best.emplace(i, std::move(*trial));
    }
    return best;
  }

  /// The top-level bottlenecks of the entry function, in order.
  SmallVector<BottleneckOp> entryBottlenecks() {
    return bottlenecks(entryFunction(getOperation(), entry));
  }

  /// The block (or -1) of each kernel of the plan with `schedule`, in
  /// chain order.
  SmallVector<int> kernelBlocks(const Schedule &schedule) {
    func::FuncOp func = entryFunction(getOperation(), entry);
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    SmallVector<int> blockOf;
    for (LayerOpInterface layer : chainLayers(func)) {
      auto it = llvm::find(ops, dyn_cast<BottleneckOp>(layer.getOperation()));
      if (it == ops.end()) {
        blockOf.push_back(-1);
        continue;
      }
      int block = static_cast<int>(it - ops.begin());
      if (!llvm::is_contained(schedule.unfused, block)) {
        blockOf.push_back(block);
        continue;
      }
      for (Operation &inner : it->getBody().front())
        if (isa<LayerOpInterface>(inner))
          blockOf.push_back(block);
    }
    return blockOf;
  }

  /// The blocks with a kernel that alone puts `trial` (planned with
  /// `schedule`) over `budget`: its footprint beside the plan's largest
  /// stack buffers, or its stack buffers beside the arena.
  SmallVector<bool> blocksOverBudget(const Schedule &schedule,
                                     const PlanTrial &trial, int64_t budget) {
    SmallVector<int> blockOf = kernelBlocks(schedule);
    SmallVector<bool> over(entryBottlenecks().size(), false);
    if (trial.footprintBytes.size() != blockOf.size() ||
        trial.kernelScratchBytes.size() != blockOf.size())
      return over;
    for (auto [k, block] : llvm::enumerate(blockOf))
      if (block >= 0 &&
          (trial.footprintBytes[k] + trial.scratchBytes > budget ||
           trial.arenaBytes + trial.kernelScratchBytes[k] > budget))
        over[block] = true;
    return over;
  }

  /// Whether each bottleneck's kernels fit `budget` in the plan `trial`:
  /// footprint plus stack buffers, and the stack buffers beside the least
  /// arena any plan has, `minArena` (the stack is not in the arena, so a
  /// plan's SRAM is at least that much). False for all if the trial cannot
  /// be planned.
  SmallVector<bool> fitting(const Schedule &trialSchedule, int64_t budget,
                            int64_t minArena) {
    SmallVector<BottleneckOp> ops = entryBottlenecks();
    SmallVector<int> blockOf = kernelBlocks(trialSchedule);
    SmallVector<bool> fits(ops.size(), false);
    FailureOr<PlanTrial> trial = plan(trialSchedule);
    if (failed(trial) || trial->footprintBytes.size() != blockOf.size() ||
        trial->kernelScratchBytes.size() != blockOf.size())
      return fits;
    fits.assign(ops.size(), true);
    for (auto [k, block] : llvm::enumerate(blockOf))
      if (block >= 0 &&
          (trial->footprintBytes[k] + trial->kernelScratchBytes[k] > budget ||
           minArena + trial->kernelScratchBytes[k] > budget))
        fits[block] = false;
    return fits;
  }
};

} // namespace

} // namespace mlir::vmcu
