//===- Pipelines.h - the vmcu compilation pipeline --------------*- C++ -*-===//
//
// The TOSA -> LLVM dialect pipeline shared by vmcu-opt (as
// `vmcu-tosa-to-llvm`) and vmcuc, so the two cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_PIPELINES_PIPELINES_H
#define VMCU_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class OpPassManager;

namespace vmcu {

/// Where the pipeline starts, i.e. how far the input has been lowered.
enum class PipelineInput {
  /// TOSA (int8) functions: the whole pipeline.
  Tosa,
  /// vmcu layer ops on tensors (after convert-tosa-to-vmcu).
  Layers,
  /// Tiled kernels with placed tensors (after vmcu-solve-offsets): only the
  /// lowering to LLVM.
  Tiled,
};

/// Parses "tosa", "vmcu" or "vmcu-tiled".
std::optional<PipelineInput> parsePipelineInput(StringRef name);

struct VMCUPipelineOptions : public PassPipelineOptions<VMCUPipelineOptions> {
  PassOptions::Option<std::string> cpu{
      *this, "cpu", llvm::cl::desc("Target core: cortex-m4 or cortex-m7"),
      llvm::cl::init("cortex-m4")};
  PassOptions::Option<unsigned> ramKb{
      *this, "ram-kb",
      llvm::cl::desc("SRAM budget in KiB, the arena and the largest "
                     "kernel's stack buffers: vmcu-choose-schedule spends "
                     "it on speed, vmcu-select-segment-sizes shrinks "
                     "segments to fit it or fails (0: the all-fused plan's "
                     "arena, an outlier kernel's stack frame levelled)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> from{
      *this, "from",
      llvm::cl::desc("Input stage: tosa (default), vmcu (layer ops) or "
                     "vmcu-tiled (placed kernels: only lower to LLVM)"),
      llvm::cl::init("tosa")};
  PassOptions::Option<std::string> memoryReport{
      *this, "memory-report",
      llvm::cl::desc("Write the offset solver's JSON memory report to this "
                     "file (needs the solver stage)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> memorySvg{
      *this, "memory-svg",
      llvm::cl::desc("Draw the arena over the layers as SVG into this file "
                     "(needs the solver stage)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> ringCheck{
      *this, "ring-check",
      llvm::cl::desc("Instrument ring accesses for the runtime's ring-safety "
                     "checker (vmcu-insert-ring-checks); link "
                     "runtime/vmcu_ring_check.c"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("How fused bottlenecks run (vmcu-choose-schedule): "
                     "auto, fused, line-buffer, line-buffer-paired or "
                     "unfused"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> verifyRing{
      *this, "verify-ring",
      llvm::cl::desc("After placing the tensors, replay every ring access at "
                     "compile time and fail on a store over live data "
                     "(vmcu-verify-ring; needs the solver stage)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> windowCache{
      *this, "window-cache",
      llvm::cl::desc("Stack bytes a fused bottleneck may spend caching its "
                     "R x R window of expanded pixels (vmcu-tile"
                     "{window-cache}); 0 (default): none"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> widenWeights{
      *this, "widen-weights",
      llvm::cl::desc("Keep GEMM tiles' weights as int16 pairs where their "
                     "rows are widened or single (vmcu-tile{widen-weights}): "
                     "faster, twice those weights' flash"),
      llvm::cl::init(true)};

  /// Checks `cpu` and `from`; on failure calls `emitError` and fails.
  LogicalResult verify(function_ref<void(const Twine &)> emitError) const;
  /// `from` as an enum; only valid after verify() succeeded.
  PipelineInput getInput() const;
};

/// Adds the vmcu pipeline, from `options.from` to pure LLVM dialect:
///   [convert-tosa-to-vmcu] -> [vmcu-fuse-bottleneck -> vmcu-tile ->
///   vmcu-solve-offsets] -> canonicalize, cse -> lower-affine ->
///   [vmcu-insert-ring-checks] -> vmcu-outline-kernels ->
///   convert-vmcu-to-llvm{cpu} (then
///   scf -> cf) -> reconcile-unrealized-casts.
/// `options` must have passed verify().
void buildVMCUPipeline(OpPassManager &pm, const VMCUPipelineOptions &options);

/// True if the pipeline built from `input` contains the offset solver, which
/// is what writes the memory report.
bool pipelineRunsOffsetSolver(PipelineInput input);

/// Registers `vmcu-tosa-to-llvm` with the options above (also declared in
/// vmcu/InitAllPasses.h).
void registerVMCUPipelines();

} // namespace vmcu
} // namespace mlir

#endif // VMCU_PIPELINES_PIPELINES_H
