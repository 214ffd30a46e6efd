//===- SegmentSizer.cpp - choose the layers' segment sizes ----------------===//

#include "vmcu/Transforms/SegmentSizer.h"

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Transforms/LayerWork.h"
#include <numeric>
#include <tuple>

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

/// Plans fitting a budget evaluates at most before every layer's smallest
/// size (the MCUNet-VWW chain's lcm of 480 B has 24 divisors).
constexpr int kMaxBudgetTrials = 32;

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

/// The layers' segment sizes when each takes its largest option (from
/// `table`) that divides `align`; a layer with none takes the option that
/// raises the alignment least (the largest on a tie).
SmallVector<int64_t> sizesDividing(int64_t align,
                                   ArrayRef<SmallVector<int64_t>> table) {
  SmallVector<int64_t> sizes;
  for (ArrayRef<int64_t> options : table) {
    const int64_t *fit =
        llvm::find_if(options, [&](int64_t size) { return align % size == 0; });
    if (fit == options.end())
      fit = llvm::min_element(options, [&](int64_t a, int64_t b) {
        return std::lcm(a, align) < std::lcm(b, align);
      });
    sizes.push_back(*fit);
  }
  return sizes;
}

/// The arena the leveling accepts: the largest footprint plus up to
/// 1/kMaxWrapOverhead of it for faster segments, but never more than a
/// tensor-level planner (TFLite Micro) would need, unless the footprint
/// itself is more. vmcu's arena is meant to be the smaller one.
int64_t levelTarget(const PlanTrial &plan) {
  int64_t worst = plan.worstBytes();
  return std::min(worst + worst / kMaxWrapOverhead,
                  std::max(worst, plan.tensorLevelBytes));
}

} // namespace

SegmentSizer::SegmentSizer(ModuleOp module, StringRef entry, int64_t cores)
    : module(module), entry(entry.str()), cores(cores) {
  func::FuncOp func = entryFunction(module, entry);
  if (!func)
    return;
  layers = chainLayers(func);
  for (LayerOpInterface layer : layers) {
    if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
      candidates.push_back({static_cast<int64_t>(*fixed)});
    else
      candidates.push_back(segmentSizeCandidates(layer));
  }
}

SmallVector<int64_t> SegmentSizer::defaultSizes() const {
  SmallVector<int64_t> sizes;
  for (ArrayRef<int64_t> options : candidates)
    sizes.push_back(options.front());
  return sizes;
}

FailureOr<PlanTrial> SegmentSizer::evaluate(ArrayRef<int64_t> sizes) const {
  return tryPlan(module, entry, cores, [&](func::FuncOp func) {
    Builder b(func.getContext());
    for (auto [layer, size] : llvm::zip_equal(chainLayers(func), sizes))
      layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  });
}

bool SegmentSizer::levelWrapAlignment(SmallVectorImpl<int64_t> &sizes,
                                      PlanTrial &current) const {
  int64_t target = levelTarget(current);
  if (current.arenaBytes <= target)
    return false;
  int64_t worst = current.worstBytes();
  int64_t limit =
      std::min(worst + worst / kMaxWrapOverhead, current.arenaBytes - 1);
  bool changed = false;
  int trials = 0;
  for (const AlignmentOption &option :
       alignmentOptions(sizes, current, limit, target)) {
    FailureOr<PlanTrial> trial = evaluate(option.sizes);
    bool fits = succeeded(trial) && trial->arenaBytes <= target;
    if (fits ||
        (succeeded(trial) && trial->sramBytes() < current.sramBytes())) {
      sizes.assign(option.sizes);
      current = *trial;
      changed = true;
    }
    if (fits || ++trials == kMaxWrapTrials)
      break;
  }
  return changed;
}

LogicalResult SegmentSizer::fitBudget(int64_t budgetBytes,
                                      SmallVectorImpl<int64_t> &sizes,
                                      PlanTrial &current,
                                      PlanTrial &smallest) const {
  smallest = current;
  if (current.sramBytes() <= budgetBytes)
    return success();
  // An arena over the budget cannot fit (smaller segments may need smaller
  // stack buffers, so those are not subtracted). The largest alignment
  // first: its segments are the largest that fit.
  SmallVector<AlignmentOption> options =
      alignmentOptions(sizes, current, budgetBytes, budgetBytes);
  llvm::sort(options, [](const AlignmentOption &a, const AlignmentOption &b) {
    return a.align > b.align;
  });
  if (options.size() > kMaxBudgetTrials)
    options.resize(kMaxBudgetTrials);
  // Every layer's smallest size: the least SRAM segments can give.
  SmallVector<int64_t> least;
  for (ArrayRef<int64_t> table : divisorCandidates())
    least.push_back(table.back());
  if (ArrayRef<int64_t>(least) != ArrayRef<int64_t>(sizes) &&
      llvm::none_of(options, [&](const AlignmentOption &option) {
        return ArrayRef<int64_t>(option.sizes) == ArrayRef<int64_t>(least);
      }))
    options.push_back({1, least, 0, 0});
  for (const AlignmentOption &option : options) {
    FailureOr<PlanTrial> trial = evaluate(option.sizes);
    if (failed(trial))
      continue;
    if (trial->sramBytes() < smallest.sramBytes())
      smallest = *trial;
    if (trial->sramBytes() <= budgetBytes) {
      sizes.assign(option.sizes);
      current = *trial;
      return success();
    }
  }
  return failure();
}

/// The distinct size assignments of the alignments dividing the lcm of
/// `sizes` (each layer its largest divisor candidate dividing the
/// alignment), other than `sizes`, whose rounding of `current`'s largest
/// footprint stays within `limitBytes`: those within `targetBytes` first,
/// then the fastest by the cost model, then the largest alignment.
SmallVector<SegmentSizer::AlignmentOption>
SegmentSizer::alignmentOptions(ArrayRef<int64_t> sizes,
                               const PlanTrial &current, int64_t limitBytes,
                               int64_t targetBytes) const {
  std::optional<int64_t> lcm = segmentLcm(sizes);
  if (!lcm)
    return {};
  int64_t worst = current.worstBytes();

  SmallVector<SmallVector<int64_t>> divisors = divisorCandidates();
  SmallVector<AlignmentOption> options;
  for (int64_t align : divisorsDescending(*lcm)) {
    int64_t rounded = llvm::alignTo(worst, align);
    if (rounded > limitBytes)
      continue;
    SmallVector<int64_t> trialSizes = sizesDividing(align, divisors);
    if (ArrayRef<int64_t>(trialSizes) == sizes ||
        llvm::any_of(options, [&](const AlignmentOption &option) {
          return ArrayRef<int64_t>(option.sizes) ==
                 ArrayRef<int64_t>(trialSizes);
        }))
      continue;
    int64_t cycles = estimatedCycles(trialSizes);
    options.push_back({align, std::move(trialSizes), rounded, cycles});
  }
  llvm::sort(options, [&](const AlignmentOption &a, const AlignmentOption &b) {
    bool aFits = a.roundedBytes <= targetBytes;
    bool bFits = b.roundedBytes <= targetBytes;
    return std::make_tuple(!aFits, a.cycles, -a.align) <
           std::make_tuple(!bFits, b.cycles, -b.align);
  });
  return options;
}

/// The cost model's cycles of the layers with segments of `sizes`.
int64_t SegmentSizer::estimatedCycles(ArrayRef<int64_t> sizes) const {
  int64_t cycles = 0;
  for (auto [layer, size] : llvm::zip_equal(layers, sizes))
    cycles += analysis::estimateCycles(layerWork(layer, size));
  return cycles;
}

/// Each layer's candidates followed by the other divisors of its largest
/// candidate, largest first: sizes that are not SIMD multiples are slower
/// but let an odd channel count meet the others' alignment.
SmallVector<SmallVector<int64_t>> SegmentSizer::divisorCandidates() const {
  SmallVector<SmallVector<int64_t>> table;
  for (auto [options, layerRef] : llvm::zip_equal(candidates, layers)) {
    LayerOpInterface layer = layerRef;
    SmallVector<int64_t> all(options.begin(), options.end());
    // A segment_bytes set before the sizer is kept.
    bool fixed = layer.getSegmentSizeBytes().has_value();
    for (int64_t d = fixed ? 0 : options.front(); d >= 1; --d)
      if (options.front() % d == 0 && !llvm::is_contained(options, d))
        all.push_back(d);
    table.push_back(std::move(all));
  }
  return table;
}

unsigned SegmentSizer::shrinkLargestFrame(SmallVectorImpl<int64_t> &sizes,
                                          PlanTrial &current) const {
  SmallVector<int64_t> frames = current.kernelScratchBytes;
  if (frames.size() != sizes.size() || frames.size() < 2)
    return 0;
  unsigned k = llvm::max_element(frames) - frames.begin();
  int64_t others = 0;
  for (auto [i, bytes] : llvm::enumerate(frames))
    if (i != k)
      others = std::max(others, bytes);
  unsigned shrunk = 0;
  while (current.kernelScratchBytes[k] > others) {
    const int64_t *next = llvm::find_if(
        candidates[k], [&](int64_t size) { return size < sizes[k]; });
    if (next == candidates[k].end())
      break;
    SmallVector<int64_t> trialSizes(sizes.begin(), sizes.end());
    trialSizes[k] = *next;
    FailureOr<PlanTrial> trial = evaluate(trialSizes);
    if (failed(trial) || trial->sramBytes() >= current.sramBytes() ||
        trial->kernelScratchBytes.size() != frames.size())
      break;
    sizes.assign(trialSizes);
    current = *trial;
    ++shrunk;
  }
  return shrunk;
}

FailureOr<PlanTrial>
mlir::vmcu::tryLeveledPlan(ModuleOp module, StringRef entry, int64_t cores,
                           function_ref<void(func::FuncOp)> prepare) {
  OwningOpRef<ModuleOp> copy = preparedCopy(module, entry, prepare);
  if (!copy)
    return failure();
  SegmentSizer sizer(*copy, entry, cores);
  SmallVector<int64_t> sizes = sizer.defaultSizes();
  FailureOr<PlanTrial> plan = sizer.evaluate(sizes);
  if (succeeded(plan))
    sizer.levelWrapAlignment(sizes, *plan);
  return plan;
}

FailureOr<PlanTrial>
mlir::vmcu::tryBudgetPlan(ModuleOp module, StringRef entry, int64_t ramKb,
                          int64_t cores,
                          function_ref<void(func::FuncOp)> prepare) {
  if (ramKb <= 0)
    return tryPlan(module, entry, cores, prepare);
  return tryLeveledPlan(module, entry, cores, prepare);
}
