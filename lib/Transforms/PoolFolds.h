//===- PoolFolds.h - fold pools into the convs they average -----*- C++ -*-===//
//
// What vmcu-fuse-global-pool and vmcu-fuse-window-pool share: folding each
// matched pool into its conv, and the trial plans that decide whether the
// folds are made.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_POOLFOLDS_H
#define VMCU_LIB_TRANSFORMS_POOLFOLDS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Transforms/PlanTrial.h"

#include <optional>

namespace mlir::vmcu {

/// Applies `fold` to every op of `func`'s body that `match` accepts, in
/// order; returns how many.
template <typename Match>
int64_t foldEachMatch(func::FuncOp func,
                      function_ref<std::optional<Match>(Operation *)> match,
                      function_ref<void(IRRewriter &, Match)> fold) {
  IRRewriter rewriter(func.getContext());
  int64_t folded = 0;
  for (Operation &op : llvm::make_early_inc_range(func.getBody().getOps())) {
    if (std::optional<Match> matched = match(&op)) {
      fold(rewriter, *matched);
      ++folded;
    }
  }
  return folded;
}

/// Replaces `pool` with `conv` computing its result: a conv folding the
/// average `global` or `window`; `conv` is erased.
void replaceWithPoolingConv(IRRewriter &rewriter, Operation *pool,
                            Conv2DOp conv, GlobalAvgPoolAttr global,
                            WindowAvgPoolAttr window);

/// Makes the folds `foldAll` makes in `module`'s `entry` function where a
/// trial plan (tiled and placed) with them needs no more SRAM than one
/// without them, or, with `ramKb` > 0, fits that budget; with `cores` > 1,
/// unless a folded conv still `splitsAcrossCores`, only where they lower
/// the SRAM. Returns how many folds were made.
int64_t foldWhereSramAllows(ModuleOp module, StringRef entry, int64_t ramKb,
                            int64_t cores, bool splitsAcrossCores,
                            function_ref<int64_t(func::FuncOp)> foldAll);

/// foldWhereSramAllows with the folds foldEachMatch makes, if `module` has
/// an `entry` function with one to make (vmcu-tile reports a missing
/// entry).
template <typename Match>
int64_t foldMatchesWhereSramAllows(ModuleOp module, StringRef entry,
                                   int64_t ramKb, int64_t cores,
                                   bool splitsAcrossCores,
                                   std::optional<Match> (*match)(Operation *),
                                   void (*fold)(IRRewriter &, Match)) {
  func::FuncOp func = entryFunction(module, entry);
  if (!func || llvm::none_of(func.getBody().getOps(), [&](Operation &op) {
        return match(&op).has_value();
      }))
    return 0;
  return foldWhereSramAllows(
      module, entry, ramKb, cores, splitsAcrossCores,
      [&](func::FuncOp f) { return foldEachMatch<Match>(f, match, fold); });
}

} // namespace mlir::vmcu

#endif // VMCU_LIB_TRANSFORMS_POOLFOLDS_H
