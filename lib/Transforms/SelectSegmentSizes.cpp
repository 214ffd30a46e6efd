//===- SelectSegmentSizes.cpp - fit the arena by shrinking segments -------===//
//
// Greedy per-layer segment-size selection under a RAM budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"
#include <algorithm>
#include <numeric>
#include <tuple>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSELECTSEGMENTSIZESPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// The pool's rounding to the segments' lcm may add at most 1/8 of the
/// largest layer's footprint before smaller segments are tried. The
/// MCUNet-VWW chain's default plan rounds 6,736 B up to 7,200 B (6.9%):
/// leveled, its 96-byte segments would halve for 240 B and about 2.8% more
/// cycles (docs/passes/vmcu-select-segment-sizes.md), a trade the default
/// leaves to --ram-kb; the three shared models are within it as well.
constexpr int64_t kMaxWrapOverhead = 8;

/// Plans the wrap leveling evaluates at most (each tiles and places a copy
/// of the module).
constexpr int kMaxWrapTrials = 8;

/// Above this the pool's alignment is no longer a usable plan, and its
/// divisors are not enumerated.
constexpr int64_t kMaxAlignment = int64_t(1) << 40;

/// The lcm of the segment sizes, if it stays below kMaxAlignment.
std::optional<int64_t> segmentLcm(ArrayRef<int64_t> sizes) {
  int64_t lcm = 1;
  for (int64_t size : sizes) {
    lcm = std::lcm(lcm, size);
    if (lcm > kMaxAlignment)
      return std::nullopt;
  }
  return lcm;
}

/// The divisors of `n`, largest first.
SmallVector<int64_t> divisorsDescending(int64_t n) {
  SmallVector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0)
      continue;
    small.push_back(d);
    if (d != n / d)
      large.push_back(n / d);
  }
  SmallVector<int64_t> all(large.begin(), large.end());
  all.append(small.rbegin(), small.rend());
  return all;
}

struct VMCUSelectSegmentSizesPass
    : vmcu::impl::VMCUSelectSegmentSizesPassBase<VMCUSelectSegmentSizesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      return; // vmcu-tile reports a missing entry.
    layers = chainLayers(func);
    candidates.clear();
    for (LayerOpInterface layer : layers) {
      if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
        candidates.push_back({static_cast<int64_t>(*fixed)});
      else
        candidates.push_back(segmentSizeCandidates(layer));
    }
    SmallVector<int64_t> sizes;
    for (ArrayRef<int64_t> options : candidates)
      sizes.push_back(options.front());
    FailureOr<PlanTrial> current = evaluate(sizes);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    if (ramKb > 0 && failed(fitBudget(sizes, *current)))
      return signalPassFailure();
    if (ramKb <= 0) {
      levelWrapAlignment(sizes, *current);
      shrinkLargestFrame(sizes, *current);
    }

    Builder b(&getContext());
    for (auto [layer, size] : llvm::zip_equal(layers, sizes))
      if (!layer.getSegmentSizeBytes())
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  }

  /// Shrinks segments until the plan's SRAM (arena and the largest kernel's
  /// stack buffers) fits ram-kb. The pool capacity is a multiple of every
  /// segment size, so the lcm of the sizes is what shrinking buys: tries
  /// alignments A from the default lcm down, each layer taking its largest
  /// size dividing A; the first that fits keeps the largest (fastest)
  /// segments. Without one, reports the smallest plan found.
  LogicalResult fitBudget(SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    int64_t budget = ramKb * kBytesPerKiB;
    std::optional<int64_t> lcm = segmentLcm(sizes);
    PlanTrial smallest = current;
    for (int64_t align :
         lcm ? divisorsDescending(*lcm) : SmallVector<int64_t>{1}) {
      if (current.sramBytes() <= budget)
        break;
      SmallVector<int64_t> trialSizes = sizesDividing(align);
      if (ArrayRef<int64_t>(trialSizes) == ArrayRef<int64_t>(sizes))
        continue;
      FailureOr<PlanTrial> trial = evaluate(trialSizes);
      if (failed(trial))
        continue;
      if (trial->sramBytes() < smallest.sramBytes())
        smallest = *trial;
      if (trial->sramBytes() <= budget) {
        sizes.assign(trialSizes);
        current = *trial;
      }
    }
    if (current.sramBytes() <= budget)
      return success();
    layers[smallest.worstIndex]->emitError("model needs ")
        << smallest.sramBytes() << " bytes of SRAM at best (arena "
        << smallest.arenaBytes << " + kernel stack buffers "
        << smallest.scratchBytes
        << "), more than ram-kb=" << static_cast<int64_t>(ramKb) << " ("
        << budget << " bytes); layer '" << smallest.worstLayer
        << "' alone needs " << smallest.worstBytes() << " bytes of arena";
    return failure();
  }

  /// The layers' segment sizes when each takes its largest option (from
  /// `table`) that divides `align`; a layer with none takes the option
  /// that raises the alignment least (the largest on a tie).
  static SmallVector<int64_t>
  sizesDividing(int64_t align, ArrayRef<SmallVector<int64_t>> table) {
    SmallVector<int64_t> sizes;
    for (ArrayRef<int64_t> options : table) {
      const int64_t *fit = llvm::find_if(
          options, [&](int64_t size) { return align % size == 0; });
      if (fit == options.end())
        fit = llvm::min_element(options, [&](int64_t a, int64_t b) {
          return std::lcm(a, align) < std::lcm(b, align);
        });
      sizes.push_back(*fit);
    }
    return sizes;
  }
  SmallVector<int64_t> sizesDividing(int64_t align) const {
    return sizesDividing(align, candidates);
  }

  /// Without a budget, the pool's capacity is still a multiple of every
  /// segment size. Where channel counts with different odd factors make
  /// that lcm large (layers of 27, 47 and 80 channels: an lcm of
  /// 101,520 B over a largest layer of 23,328 B), the rounding, not any
  /// layer, sets the arena. Then the pass plans with the segments of an
  /// alignment A dividing the lcm (each layer its largest divisor of A,
  /// SIMD multiples first) whose rounding of the largest footprint stays
  /// within 1/kMaxWrapOverhead of it: those that round it to levelTarget
  /// first, the fastest by the cost model first (narrow segments cost
  /// ring accesses), and keeps the first plan within levelTarget, else the
  /// one needing the least SRAM.
  void levelWrapAlignment(SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    int64_t target = levelTarget(current);
    if (current.arenaBytes <= target)
      return;
    std::optional<int64_t> lcm = segmentLcm(sizes);
    if (!lcm)
      return;
    int trials = 0;
    for (const LevelOption &option :
         levelOptions(*lcm, sizes, current, target)) {
      FailureOr<PlanTrial> trial = evaluate(option.sizes);
      bool fits = succeeded(trial) && trial->arenaBytes <= target;
      if (fits ||
          (succeeded(trial) && trial->sramBytes() < current.sramBytes())) {
        sizes.assign(option.sizes);
        current = *trial;
        ++numLeveledAlignments;
      }
      if (fits || ++trials == kMaxWrapTrials)
        return;
    }
  }

  /// One alignment's segment sizes, its rounding of the largest footprint
  /// and the cost model's cycles of the layers with them.
  struct LevelOption {
    int64_t align;
    SmallVector<int64_t> sizes;
    int64_t roundedBytes;
    int64_t cycles;
  };

  /// The distinct size assignments of the divisors of `lcm`, other than
  /// `sizes` (the current plan's), whose rounding of the largest footprint
  /// stays within 1/kMaxWrapOverhead of it and below the current arena:
  /// those within `target` first, then the fastest, then the largest
  /// alignment.
  SmallVector<LevelOption> levelOptions(int64_t lcm, ArrayRef<int64_t> sizes,
                                        const PlanTrial &current,
                                        int64_t target) const {
    int64_t worst = current.worstBytes();
    SmallVector<SmallVector<int64_t>> divisors = divisorCandidates();
    SmallVector<LevelOption> options;
    for (int64_t align : divisorsDescending(lcm)) {
      int64_t rounded = llvm::alignTo(worst, align);
      if (rounded > worst + worst / kMaxWrapOverhead ||
          rounded >= current.arenaBytes)
        continue;
      SmallVector<int64_t> trialSizes = sizesDividing(align, divisors);
      if (ArrayRef<int64_t>(trialSizes) == sizes ||
          llvm::any_of(options, [&](const LevelOption &option) {
            return ArrayRef<int64_t>(option.sizes) ==
                   ArrayRef<int64_t>(trialSizes);
          }))
        continue;
      int64_t cycles = estimatedCycles(trialSizes);
      options.push_back({align, std::move(trialSizes), rounded, cycles});
    }
    llvm::sort(options, [&](const LevelOption &a, const LevelOption &b) {
      bool aFits = a.roundedBytes <= target, bFits = b.roundedBytes <= target;
      return std::make_tuple(!aFits, a.cycles, -a.align) <
             std::make_tuple(!bFits, b.cycles, -b.align);
    });
    return options;
  }

  /// The cost model's cycles of the layers with segments of `sizes`.
  int64_t estimatedCycles(ArrayRef<int64_t> sizes) const {
    int64_t cycles = 0;
    for (auto [layer, size] : llvm::zip_equal(layers, sizes))
      cycles += analysis::estimateCycles(layerWork(layer, size));
    return cycles;
  }

  /// The arena the leveling accepts: the largest footprint plus up to
  /// 1/kMaxWrapOverhead of it for faster segments, but never more than a
  /// tensor-level planner (TFLite Micro) would need, unless the footprint
  /// itself is more. vmcu's arena is meant to be the smaller one.
  static int64_t levelTarget(const PlanTrial &plan) {
    int64_t worst = plan.worstBytes();
    return std::min(worst + worst / kMaxWrapOverhead,
                    std::max(worst, plan.tensorLevelBytes));
  }

  /// Each layer's candidates followed by the other divisors of its largest
  /// candidate, largest first: sizes that are not SIMD multiples are slower
  /// but let an odd channel count meet the others' alignment.
  SmallVector<SmallVector<int64_t>> divisorCandidates() const {
    SmallVector<SmallVector<int64_t>> table;
    for (auto [options, layerRef] : llvm::zip_equal(candidates, layers)) {
      LayerOpInterface layer = layerRef;
      SmallVector<int64_t> all(options.begin(), options.end());
      // A segment_bytes set before this pass is kept.
      bool fixed = layer.getSegmentSizeBytes().has_value();
      for (int64_t d = fixed ? 0 : options.front(); d >= 1; --d)
        if (options.front() % d == 0 && !llvm::is_contained(options, d))
          all.push_back(d);
      table.push_back(std::move(all));
    }
    return table;
  }

  /// Without a budget, a kernel whose stack buffers stand above every
  /// other kernel's sets the stack alone: it takes smaller segments while
  /// its buffers exceed the next largest kernel's and that lowers the
  /// plan's SRAM. Only that kernel pays in speed, and only down to what the
  /// rest of the model needs anyway (a model of one kernel keeps its
  /// segments).
  void shrinkLargestFrame(SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    ArrayRef<int64_t> frames = current.kernelScratchBytes;
    if (frames.size() != sizes.size() || frames.size() < 2)
      return;
    unsigned k = llvm::max_element(frames) - frames.begin();
    int64_t others = 0;
    for (auto [i, bytes] : llvm::enumerate(frames))
      if (i != k)
        others = std::max(others, bytes);
    while (current.kernelScratchBytes[k] > others) {
      const int64_t *next = llvm::find_if(
          candidates[k], [&](int64_t size) { return size < sizes[k]; });
      if (next == candidates[k].end())
        return;
      SmallVector<int64_t> trialSizes(sizes.begin(), sizes.end());
      trialSizes[k] = *next;
      FailureOr<PlanTrial> trial = evaluate(trialSizes);
      if (failed(trial) || trial->sramBytes() >= current.sramBytes() ||
          trial->kernelScratchBytes.size() != frames.size())
        return;
      sizes.assign(trialSizes);
      current = *trial;
      ++numShrunkFrames;
    }
  }

  SmallVector<LayerOpInterface> layers;
  SmallVector<SmallVector<int64_t>> candidates;

  /// Tiles and places a copy of the module with `sizes`.
  FailureOr<PlanTrial> evaluate(ArrayRef<int64_t> sizes) {
    return tryPlan(getOperation(), entry, [&](func::FuncOp func) {
      Builder b(func.getContext());
      for (auto [layer, size] : llvm::zip_equal(chainLayers(func), sizes))
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
    });
  }
};

} // namespace
