//===- SelectSegmentSizes.cpp - fit the arena by shrinking segments -------===//
//
// Greedy per-layer segment-size selection under a RAM budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSELECTSEGMENTSIZESPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

constexpr int64_t kBytesPerKiB = 1024;
/// Segments of smaller sizes are multiples of the 4 int8 lanes of one
/// vmcu.dot (SMLAD pair), so the inner level stays SIMD.
constexpr int64_t kSimdLanes = 4;

/// The layers of `func`'s chain, in order (top-level layer ops only: the
/// convs inside a vmcu.bottleneck belong to it).
SmallVector<LayerOpInterface> chainLayers(func::FuncOp func) {
  SmallVector<LayerOpInterface> layers;
  for (Operation &op : func.getBody().front())
    if (auto layer = dyn_cast<LayerOpInterface>(&op))
      layers.push_back(layer);
  return layers;
}

/// Segment sizes `layer` may use, largest (fastest) first: the gcd of its
/// extents, then its divisors that are multiples of kSimdLanes.
SmallVector<int64_t> candidateSizes(LayerOpInterface layer) {
  int64_t g = 0;
  for (int64_t extent : layer.getSegmentedExtents())
    g = std::gcd(g, extent);
  SmallVector<int64_t> sizes = {std::max<int64_t>(g, 1)};
  for (int64_t d = g - 1; d >= kSimdLanes; --d)
    if (g % d == 0 && d % kSimdLanes == 0)
      sizes.push_back(d);
  return sizes;
}

/// What tiling and placing the model with given sizes gives.
struct Trial {
  int64_t arenaBytes = 0;
  /// The kernel with the largest footprint (its index in the chain and
  /// name) and that footprint in bytes.
  unsigned worstIndex = 0;
  std::string worstLayer;
  int64_t worstBytes = 0;
};

struct VMCUSelectSegmentSizesPass
    : vmcu::impl::VMCUSelectSegmentSizesPassBase<VMCUSelectSegmentSizesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (ramKb <= 0)
      return;
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      return; // vmcu-tile reports a missing entry.
    SmallVector<LayerOpInterface> layers = chainLayers(func);
    SmallVector<SmallVector<int64_t>> candidates;
    for (LayerOpInterface layer : layers) {
      if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
        candidates.push_back({static_cast<int64_t>(*fixed)});
      else
        candidates.push_back(candidateSizes(layer));
    }

    int64_t budget = ramKb * kBytesPerKiB;
    SmallVector<int64_t> sizes;
    for (ArrayRef<int64_t> options : candidates)
      sizes.push_back(options.front());
    FailureOr<Trial> current = evaluate(sizes);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    // The pool capacity is a multiple of every segment size, so the lcm of
    // the sizes is what shrinking buys. Try alignments A from the default
    // lcm down, each layer taking its largest size dividing A: the first
    // that fits keeps the largest (fastest) segments.
    int64_t lcm = 1;
    for (int64_t size : sizes)
      lcm = std::lcm(lcm, size);
    Trial smallest = *current;
    for (int64_t align = lcm; align >= 1 && current->arenaBytes > budget;
         --align) {
      if (lcm % align != 0)
        continue;
      SmallVector<int64_t> trialSizes;
      for (ArrayRef<int64_t> options : candidates) {
        const int64_t *fit = llvm::find_if(
            options, [&](int64_t size) { return align % size == 0; });
        trialSizes.push_back(fit != options.end() ? *fit : options.back());
      }
      if (trialSizes == sizes)
        continue;
      FailureOr<Trial> trial = evaluate(trialSizes);
      if (failed(trial))
        continue;
      if (trial->arenaBytes < smallest.arenaBytes)
        smallest = *trial;
      if (trial->arenaBytes <= budget) {
        sizes = trialSizes;
        current = trial;
      }
    }
    if (current->arenaBytes > budget) {
      layers[smallest.worstIndex]->emitError("model needs ")
          << smallest.arenaBytes << " bytes of arena at best, more than "
          << "ram-kb=" << static_cast<int64_t>(ramKb) << " (" << budget
          << " bytes); layer '" << smallest.worstLayer << "' alone needs "
          << smallest.worstBytes << " bytes";
      return signalPassFailure();
    }

    Builder b(&getContext());
    for (auto [layer, size] : llvm::zip_equal(layers, sizes))
      if (!layer.getSegmentSizeBytes())
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  }

  /// Tiles and places a copy of the module with `sizes` and reads the arena
  /// back; diagnostics of failed trials are dropped.
  FailureOr<Trial> evaluate(ArrayRef<int64_t> sizes) {
    OwningOpRef<ModuleOp> copy(getOperation().clone());
    auto func = copy->lookupSymbol<func::FuncOp>(entry);
    Builder b(&getContext());
    for (auto [layer, size] : llvm::zip_equal(chainLayers(func), sizes))
      layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));

    // The copy is not nested in the pass's operation, so it gets its own
    // pass manager rather than runPipeline.
    PassManager pm(&getContext());
    VMCUTilePassOptions tile;
    tile.entry = entry;
    pm.addPass(createVMCUTilePass(tile));
    pm.addPass(createVMCUSolveOffsetsPass());
    ScopedDiagnosticHandler silence(&getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(pm.run(*copy)))
      return failure();

    Trial trial;
    copy->walk([&](SegmentPoolOp pool) {
      PoolType type = pool.getType();
      trial.arenaBytes = static_cast<int64_t>(type.getSegments()) *
                         static_cast<int64_t>(type.getSegmentBytes());
    });
    unsigned index = 0;
    copy->walk([&](KernelOp kernel) {
      unsigned kernelIndex = index++;
      auto footprint = kernel->getAttrOfType<IntegerAttr>("vmcu.footprint");
      auto seg = kernel->getAttrOfType<IntegerAttr>("vmcu.segment_bytes");
      if (!footprint || !seg)
        return;
      int64_t bytes = footprint.getInt() * seg.getInt();
      if (bytes > trial.worstBytes) {
        trial.worstBytes = bytes;
        trial.worstIndex = kernelIndex;
        trial.worstLayer = kernel.getSymName().str();
      }
    });
    return trial;
  }
};

} // namespace
