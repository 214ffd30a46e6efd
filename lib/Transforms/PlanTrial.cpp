//===- PlanTrial.cpp - tile and place a copy of a model -------------------===//

#include "vmcu/Transforms/PlanTrial.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/Passes.h"

#include <numeric>

using namespace mlir;
using namespace mlir::vmcu;

func::FuncOp mlir::vmcu::entryFunction(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  return func && !func.isExternal() ? func : nullptr;
}

SmallVector<LayerOpInterface> mlir::vmcu::chainLayers(func::FuncOp func) {
  SmallVector<LayerOpInterface> layers;
  for (Operation &op : func.getBody().front())
    if (auto layer = dyn_cast<LayerOpInterface>(&op))
      layers.push_back(layer);
  return layers;
}

/// Whether `layer` is a fully connected layer over one row: its kernel
/// reads the row in place and stores its outputs a segment at a time.
static bool isOneRowProduct(LayerOpInterface layer) {
  auto fc = dyn_cast<FullyConnectedOp>(layer.getOperation());
  return fc && fc.getOutput().getType().getDimSize(0) == 1;
}

SmallVector<int64_t> mlir::vmcu::segmentSizeCandidates(LayerOpInterface layer) {
  int64_t g = 0;
  for (int64_t extent : layer.getSegmentedExtents())
    g = std::gcd(g, extent);
  // A one-row product's segments only group its outputs: a group is whole
  // segments and whole 1 x 4 int8 tiles, lcm(size, 4) channels. A size
  // that is neither a multiple nor a divisor of 4 makes tiles straddle
  // segments and groups of several tiles (3: lcm 12, three tiles), an
  // extra loop that LLVM spills around the 13-register block. Corpus FC
  // autoencoders seeds 3 and 6: 3-byte segments, frames of 44-48 bytes
  // against 12-32 for their other layers. Such a layer takes the largest
  // size dividing 4; multiples of 4 stay (not measured to spill). Over
  // paired weights 3- and 6-byte segments would make one-tile groups of
  // 1 x 6 tiles; not measured, so they are left out too. A 1x1
  // conv on a 1x1 map runs the same tiles but is not matched here: no
  // model measured has one.
  if (isOneRowProduct(layer) && g % kOneRowInt8TileChannels != 0)
    g = std::gcd(g, kOneRowInt8TileChannels);
  SmallVector<int64_t> sizes = {std::max<int64_t>(g, 1)};
  for (int64_t d = g - 1; d >= kDotLanes; --d)
    if (g % d == 0 && d % kDotLanes == 0)
      sizes.push_back(d);
  return sizes;
}

int64_t mlir::vmcu::segmentSizeOf(LayerOpInterface layer) {
  if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
    return static_cast<int64_t>(*fixed);
  return segmentSizeCandidates(layer).front();
}

int64_t mlir::vmcu::estimatedCycles(ArrayRef<LayerOpInterface> layers) {
  int64_t cycles = 0;
  for (LayerOpInterface layer : layers)
    cycles += analysis::estimateCycles(layerWork(layer, segmentSizeOf(layer)));
  return cycles;
}

OwningOpRef<ModuleOp>
mlir::vmcu::preparedCopy(ModuleOp module, StringRef entry,
                         function_ref<void(func::FuncOp)> prepare) {
  OwningOpRef<ModuleOp> copy(module.clone());
  func::FuncOp func = entryFunction(*copy, entry);
  if (!func)
    return nullptr;
  prepare(func);
  return copy;
}

FailureOr<PlanTrial>
mlir::vmcu::tryPlan(ModuleOp module, StringRef entry, int64_t cores,
                    function_ref<void(func::FuncOp)> prepare) {
  OwningOpRef<ModuleOp> copy = preparedCopy(module, entry, prepare);
  if (!copy)
    return failure();
  SmallVector<int64_t> scratch;
  for (LayerOpInterface layer : chainLayers(entryFunction(*copy, entry)))
    scratch.push_back(kernelScratchBytes(layer, segmentSizeOf(layer), cores));

  // The copy is not nested in a pass's operation, so it gets its own pass
  // manager rather than runPipeline.
  PassManager pm(module.getContext());
  // The copy is thrown away; the pipeline verifies the plan it keeps. Not
  // verifying the copy after each pass saves a sixth of a trial's time.
  pm.enableVerifier(false);
  VMCUTilePassOptions tile;
  tile.entry = entry.str();
  tile.cores = cores;
  pm.addPass(createVMCUTilePass(tile));
  pm.addPass(createVMCUSolveOffsetsPass());
  ScopedDiagnosticHandler silence(module.getContext(),
                                  [](Diagnostic &) { return success(); });
  if (failed(pm.run(*copy)))
    return failure();

  PlanTrial trial;
  trial.kernelScratchBytes = scratch;
  if (!scratch.empty())
    trial.scratchBytes = *llvm::max_element(scratch);
  copy->walk([&](SegmentPoolOp pool) {
    PoolType type = pool.getType();
    trial.arenaBytes = static_cast<int64_t>(type.getSegments()) *
                       static_cast<int64_t>(type.getSegmentBytes());
  });
  copy->walk([&](KernelOp kernel) {
    std::optional<int64_t> footprint = kernel.getFootprint();
    std::optional<int64_t> seg = kernel.getSegmentBytes();
    int64_t bytes = footprint && seg ? *footprint * *seg : 0;
    if (bytes > trial.worstBytes()) {
      trial.worstIndex = trial.footprintBytes.size();
      trial.worstLayer = kernel.getSymName().str();
    }
    trial.footprintBytes.push_back(bytes);
    trial.tensorLevelBytes = std::max(
        trial.tensorLevelBytes,
        static_cast<int64_t>(kernel.getTensorLevelBytes().value_or(0)));
  });
  return trial;
}
