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
#include "vmcu/Pipelines/CompileFlags.h"
#include "vmcu/Transforms/CompactLevels.h"

#include <optional>
#include <string>
#include <vector>

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

/// What a flash budget (FlashBudget.h) chose per layer: vmcu-tile's
/// int8-weight-kernels and compact-kernels.
struct FlashPlan {
  /// Layers that keep int8 weights.
  std::vector<std::string> int8WeightKernels;
  /// Layers emitted for less code (vmcu.kernel's `compact`).
  std::vector<std::string> compactKernels;
  /// Loop levels their kernels unroll (vmcu-unroll-microkernels'
  /// compact-levels).
  unsigned compactLevels = kCompactLevelsSmallest;
};

/// What the pipeline reads and writes besides the model: its input stage and
/// the solver's reports.
struct PipelineIO {
  PipelineInput from = PipelineInput::Tosa;
  /// Where vmcu-solve-offsets writes its JSON memory report (empty: none).
  std::string memoryReport;
  /// Where vmcu-solve-offsets draws the arena as SVG (empty: none).
  std::string memorySvg;
  /// The flash budget's per-layer choices (empty: none).
  FlashPlan flashPlan;
};

/// The options of `vmcu-tosa-to-llvm`: every CompileFlags option (bound
/// from its one declaration) and the pipeline's I/O.
struct VMCUPipelineOptions : public PassPipelineOptions<VMCUPipelineOptions> {
  VMCUPipelineOptions();

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

  /// The compile flags the options hold.
  CompileFlags getFlags() const { return flags.read(); }
  /// Checks `from`; on failure calls `emitError` and fails.
  LogicalResult verify(function_ref<void(const Twine &)> emitError) const;
  /// The I/O options; only valid after verify() succeeded.
  PipelineIO getIO() const;

private:
  PassOptionsBinder flags{*this};
};

/// Adds the vmcu pipeline, from `io.from` to pure LLVM dialect:
///   [convert-tosa-to-vmcu] -> [vmcu-fuse-bottleneck -> vmcu-choose-schedule
///   -> vmcu-select-segment-sizes -> vmcu-choose-traversal -> vmcu-tile ->
///   vmcu-solve-offsets -> vmcu-verify-ring] -> canonicalize, cse ->
///   lower-affine -> [vmcu-insert-ring-checks] -> vmcu-outline-kernels ->
///   vmcu-lower-vector-slices -> convert-scf-to-cf -> vmcu-create-io-tables
///   -> convert-vmcu-to-llvm -> reconcile-unrealized-casts ->
///   vmcu-set-target{cpu} -> vmcu-assign-sections.
void buildVMCUPipeline(OpPassManager &pm, const CompileFlags &flags,
                       const PipelineIO &io);

/// True if the pipeline built from `input` contains the offset solver, which
/// is what writes the memory report.
bool pipelineRunsOffsetSolver(PipelineInput input);

/// Registers `vmcu-tosa-to-llvm` with the options above (also declared in
/// vmcu/InitAllPasses.h).
void registerVMCUPipelines();

} // namespace vmcu
} // namespace mlir

#endif // VMCU_PIPELINES_PIPELINES_H
