//===- FlashBudget.h - fit a model's object into --flash-kb -----*- C++ -*-===//
//
// The flash of an emitted object per layer (its kernel function and its
// tables, found by symbol name), and the choice of the layers that keep
// int8 weights or are emitted compact so that the object fits a flash
// budget.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_FLASHBUDGET_H
#define VMCU_TOOLS_VMCUC_FLASHBUDGET_H

#include "vmcu/Tools/vmcuc/Compiler.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::vmcu {

/// The flash one layer's kernel takes in an object.
struct LayerFlash {
  /// Its kernel function (`vmcu_kernel_<k>_<name>`).
  uint64_t codeBytes = 0;
  /// Its constant tables (`<name>_<suffix>` globals: weights, biases,
  /// requantization).
  uint64_t tableBytes = 0;
  uint64_t totalBytes() const { return codeBytes + tableBytes; }
};

/// Per kernel name, the flash of its code and tables in `object` (an
/// object emitted by emitObject()); empty if it is not an ELF object. The
/// kernels are those with a function and `layerNames` (the memory
/// report's): a function several layers share (vmcu-share-kernels) counts
/// for the first, and the others have only their tables.
llvm::StringMap<LayerFlash> getLayerFlash(ArrayRef<char> object,
                                          ArrayRef<StringRef> layerNames = {});

/// With options.flags.flashKb set, compiles `inputPath` with widened
/// weights, with int8 weights everywhere and with int8 weights and compact
/// kernels everywhere (together, on as many threads as the host has; an
/// error of the last two prints only where they are needed); where the
/// first exceeds the budget, chooses per
/// layer (per group of layers sharing a kernel function) int8 weights or
/// compact code with its int8 weights, fewest cycles lost (the cost
/// model's int8_weight_cycles and compact_cycles) per byte saved first,
/// until the object fits (verified by compiling it). Compact kernels
/// unroll kCompactLevelsFaster loop levels where every kernel compact so
/// fits the budget, else kCompactLevelsSmallest. Sets the plan in
/// options.flashPlan (empty if the default plan fits) and the trial's
/// object of it in options.compiledObject; without a budget, changes
/// nothing. Fails
/// with an error naming the code, weight and table bytes when even the
/// smaller of the two trials does not fit.
LogicalResult chooseFlashPlan(StringRef inputPath, CompileOptions &options);

/// The default flash budget in KiB (rounded down) of a model whose layers
/// CMSIS-NN would run in `referenceBytes` of flash
/// (vmcu.reference_flash_bytes): options.flags.cmsisFlashPercent of it. 0
/// (none) with --flash-kb, a percent of 0 or no estimate.
unsigned defaultFlashKb(const CompileOptions &options,
                        std::optional<int64_t> referenceBytes);

/// Where `object`, compiled from `inputPath` without a flash budget,
/// exceeds defaultFlashKb, chooses the plan chooseFlashPlan would under it
/// and sets it, with the budget and its object, in `options`: true when
/// the caller is to
/// compile again with them. False, with `options` unchanged, where the
/// object fits, the input is standard input, or even the smallest plan
/// exceeds the budget (then the default plan stays; a note says so).
FailureOr<bool> fitDefaultFlashBudget(StringRef inputPath,
                                      CompileOptions &options,
                                      ArrayRef<char> object,
                                      std::optional<int64_t> referenceBytes);

/// Fails with an error located at `inputPath` if `object` exceeds
/// options.flags.flashKb (when set).
LogicalResult checkFlashBudget(StringRef inputPath, ArrayRef<char> object,
                               const CompileOptions &options);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_FLASHBUDGET_H
