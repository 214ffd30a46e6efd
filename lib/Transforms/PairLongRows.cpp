//===- PairLongRows.cpp - widened row pairs where the stack fits ----------===//
//
// A conv2d whose GEMM rows are longer than 256 bytes runs them one raw row
// at a time unless it is `paired_rows`. This pass pairs them, the largest
// estimated saving first, while the plan's SRAM stays within the budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/Passes.h"
#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUPAIRLONGROWSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// Without a budget, paired rows may raise the plan's SRAM by 1/kSramSlack
/// of it. Measured (bench/corpus.sh --all, M4 cycle model; corpus ResNet
/// seeds 1, 2 and 5, all their pairable convs paired): 4.1%, 6.9% and
/// 10.9% fewer cycles for 12.1%, 8.5% and 6.5% more SRAM (arena + stack).
constexpr int64_t kSramSlack = 8;

/// Without a budget, convs pair only if together they save at least
/// 1/kMinModelShare of the model's estimated cycles: smaller savings do not
/// buy their stack.
constexpr int64_t kMinModelShare = 50;

/// A conv that may pair: the cycles pairing saves, and its stack buffers
/// once paired.
struct Candidate {
  Conv2DOp conv;
  unsigned position;
  int64_t savedCycles;
  int64_t pairedScratchBytes;
};

/// The convs of `layers` with pairable long rows, the largest saving first
/// (in chain order among equals).
SmallVector<Candidate> candidates(ArrayRef<LayerOpInterface> layers,
                                  int64_t cores) {
  SmallVector<Candidate> found;
  for (unsigned position = 0; position < layers.size(); ++position) {
    LayerOpInterface layer = layers[position];
    if (!hasPairableLongRows(layer))
      continue;
    auto conv = cast<Conv2DOp>(layer.getOperation());
    conv.setPairedRows(true);
    int64_t bytes = kernelScratchBytes(layer, segmentSizeOf(layer), cores);
    conv.setPairedRows(false);
    found.push_back({conv, position, pairedRowsSavedCycles(layer), bytes});
  }
  llvm::sort(found, [](const Candidate &a, const Candidate &b) {
    if (a.savedCycles != b.savedCycles)
      return a.savedCycles > b.savedCycles;
    return a.position < b.position;
  });
  return found;
}

struct VMCUPairLongRowsPass
    : impl::VMCUPairLongRowsPassBase<VMCUPairLongRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = entryFunction(module, entry);
    if (!func)
      return; // vmcu-tile reports a missing entry.
    SmallVector<LayerOpInterface> layers = chainLayers(func);
    SmallVector<Candidate> found = candidates(layers, cores);
    if (found.empty())
      return;
    auto unchanged = [](func::FuncOp) {};
    FailureOr<PlanTrial> current = tryPlan(module, entry, cores, unchanged);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    int64_t sram = current->sramBytes();
    int64_t budget =
        ramKb > 0 ? ramKb * kBytesPerKiB : sram + sram / kSramSlack;
    SmallVector<Conv2DOp> paired;
    int64_t scratch = current->scratchBytes, saved = 0;
    for (const Candidate &c : found) {
      int64_t pairedScratch = std::max(scratch, c.pairedScratchBytes);
      if (current->arenaBytes + pairedScratch > budget)
        continue;
      scratch = pairedScratch;
      saved += c.savedCycles;
      paired.push_back(c.conv);
    }
    if (paired.empty() ||
        (ramKb <= 0 && saved * kMinModelShare < estimatedCycles(layers)))
      return;
    // Pairs gather and free two pixels' windows at a time: the arena may
    // grow, which one trial of the whole plan checks.
    for (Conv2DOp conv : paired)
      conv.setPairedRows(true);
    FailureOr<PlanTrial> trial = tryPlan(module, entry, cores, unchanged);
    if (failed(trial) || trial->sramBytes() > budget) {
      for (Conv2DOp conv : paired)
        conv.setPairedRows(false);
      return;
    }
    numPaired += paired.size();
  }
};

} // namespace

} // namespace mlir::vmcu
