//===- Pipelines.cpp - the vmcu compilation pipeline ----------------------===//
//
// Builds and registers `vmcu-tosa-to-llvm`.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "vmcu/Conversion/Passes.h"
#include "vmcu/Transforms/Passes.h"
#include "vmcu/Transforms/ScheduleNames.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::vmcu;

std::optional<PipelineInput> mlir::vmcu::parsePipelineInput(StringRef name) {
  return llvm::StringSwitch<std::optional<PipelineInput>>(name)
      .Case("tosa", PipelineInput::Tosa)
      .Case("vmcu", PipelineInput::Layers)
      .Case("vmcu-tiled", PipelineInput::Tiled)
      .Default(std::nullopt);
}

VMCUPipelineOptions::VMCUPipelineOptions() {
  CompileFlags defaults;
  defaults.bind(flags);
}

LogicalResult
VMCUPipelineOptions::verify(function_ref<void(const Twine &)> emitError) const {
  if (!parsePipelineInput(from)) {
    emitError("unknown input stage '" + from +
              "'; expected tosa, vmcu or vmcu-tiled");
    return failure();
  }
  return success();
}

PipelineIO VMCUPipelineOptions::getIO() const {
  PipelineIO io;
  io.from = parsePipelineInput(from).value_or(PipelineInput::Tosa);
  io.memoryReport = memoryReport;
  io.memorySvg = memorySvg;
  return io;
}

bool mlir::vmcu::pipelineRunsOffsetSolver(PipelineInput input) {
  return input != PipelineInput::Tiled;
}

/// A planning pass's options with the SRAM budget and core count of
/// `flags`, which every pass that fits a plan to the budget reads.
template <typename Options>
static Options budgetOptions(const CompileFlags &flags) {
  Options options;
  options.ramKb = flags.ramKb;
  options.cores = flags.cores;
  return options;
}

/// The passes that plan and place the layers: fusion, schedules, segment
/// sizes, traversal orders, tiling, offsets and their proof.
static void addPlanningPasses(OpPassManager &pm, const CompileFlags &flags,
                              const PipelineIO &io) {
  // On the layers as the model has them: the default flash budget's base.
  pm.addPass(createVMCUEstimateReferenceFlashPass());
  pm.addNestedPass<func::FuncOp>(createVMCUFuseBottleneckPass());
  // Before the schedules and segment sizes: a fold removes a conv's plane.
  pm.addPass(createVMCUFuseWindowPoolPass(
      budgetOptions<VMCUFuseWindowPoolPassOptions>(flags)));
  auto pool = budgetOptions<VMCUFuseGlobalPoolPassOptions>(flags);
  // Under a budget, a fold that fits it is made before the schedules and
  // segment sizes are fitted to the budget: a head conv's output that the
  // fold removes may be what puts every plan over it.
  if (flags.ramKb > 0)
    pm.addPass(createVMCUFuseGlobalPoolPass(pool));
  auto choose = budgetOptions<VMCUChooseSchedulePassOptions>(flags);
  choose.schedule = nameOf(kSchedules, flags.schedule).str();
  pm.addPass(createVMCUChooseSchedulePass(choose));
  // After the schedules: a stem run as separate layers keeps its channels.
  pm.addNestedPass<func::FuncOp>(createVMCUPadStemChannelsPass());
  pm.addNestedPass<func::FuncOp>(createVMCUFuseResidualAddPass());
  pm.addPass(createVMCUSelectSegmentSizesPass(
      budgetOptions<VMCUSelectSegmentSizesPassOptions>(flags)));
  pm.addPass(createVMCUFuseGlobalPoolPass(pool));
  pm.addPass(createVMCUPairLongRowsPass(
      budgetOptions<VMCUPairLongRowsPassOptions>(flags)));
  VMCUChooseTraversalPassOptions traversal;
  traversal.order = nameOf(kTraversalOrders, flags.order).str();
  pm.addPass(createVMCUChooseTraversalPass(traversal));
  VMCUTilePassOptions tile;
  tile.windowCache = flags.windowCache;
  tile.cores = flags.cores;
  tile.widenWeights = flags.widenWeights;
  // A flash budget chooses the int8 layers itself, from a widened plan.
  tile.widenCyclesPerByte = flags.flashKb > 0 ? 0 : flags.widenCyclesPerByte;
  tile.flashSlowdownPercent =
      flags.flashKb > 0 ? 0 : flags.flashSlowdownPercent;
  tile.flashWaitStates = flags.flashWaitStates;
  tile.int8WeightKernels.assign(io.flashPlan.int8WeightKernels.begin(),
                                io.flashPlan.int8WeightKernels.end());
  tile.compactKernels.assign(io.flashPlan.compactKernels.begin(),
                             io.flashPlan.compactKernels.end());
  pm.addPass(createVMCUTilePass(tile));
  pm.addPass(createVMCUSplitKernelsPass(
      budgetOptions<VMCUSplitKernelsPassOptions>(flags)));
  VMCUSolveOffsetsPassOptions solve;
  solve.maxArenaKb = flags.ramKb;
  solve.memoryReport = io.memoryReport;
  solve.memorySvg = io.memorySvg;
  pm.addPass(createVMCUSolveOffsetsPass(solve));
  if (flags.verifyRing)
    pm.addPass(createVMCUVerifyRingPass());
}

/// The lowering of the outlined kernels to LLVM for `flags.cpu`.
static void addLLVMLoweringPasses(OpPassManager &pm,
                                  const CompileFlags &flags) {
  pm.addPass(createVMCULowerVectorSlicesPass());
  // Only after the outlining: cf cannot live in a vmcu.kernel body (a
  // single block). Per function, so that the kernels convert in parallel.
  pm.addNestedPass<func::FuncOp>(createSCFToControlFlowPass());
  // Before the conversion, which folds away the tensor bases' I/O markers.
  pm.addPass(createVMCUCreateIOTablesPass());
  pm.addPass(createConvertVMCUToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createVMCUShareKernelsPass());
  pm.addPass(createVMCUTailCallKernelsPass());
  VMCUSetTargetPassOptions target;
  target.cpu = nameOf(kTargetCpus, flags.cpu).str();
  pm.addPass(createVMCUSetTargetPass(target));
  VMCUAssignSectionsPassOptions sections;
  sections.arenaSection = flags.arenaSection;
  sections.weightsSection = flags.weightsSection;
  pm.addPass(createVMCUAssignSectionsPass(sections));
  VMCUPrefixSymbolsPassOptions symbols;
  symbols.prefix = flags.symbolPrefix;
  pm.addPass(createVMCUPrefixSymbolsPass(symbols));
}

void mlir::vmcu::buildVMCUPipeline(OpPassManager &pm, const CompileFlags &flags,
                                   const PipelineIO &io) {
  if (io.from == PipelineInput::Tosa)
    pm.addNestedPass<func::FuncOp>(createConvertTosaToVMCUPass());
  if (io.from != PipelineInput::Tiled)
    addPlanningPasses(pm, flags, io);

  pm.addPass(createCanonicalizerPass());
  // After the ring verifier, which reads no affine.if; before the unroller,
  // which unrolls the interior copies.
  pm.addNestedPass<func::FuncOp>(createVMCUVersionBorderLoopsPass());
  VMCUUnrollMicroKernelsPassOptions unroll;
  unroll.compactLevels = io.flashPlan.compactLevels;
  pm.addNestedPass<func::FuncOp>(createVMCUUnrollMicroKernelsPass(unroll));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After the ring verifier: it reads one segment per access.
  pm.addNestedPass<func::FuncOp>(createVMCUCoalesceRingAccessesPass());
  pm.addPass(createLowerAffinePass());
  if (flags.ringCheck)
    pm.addPass(createVMCUInsertRingChecksPass());
  VMCUDistributeKernelsPassOptions distribute;
  distribute.cores = flags.cores;
  pm.addPass(createVMCUDistributeKernelsPass(distribute));
  if (flags.cores > 1 && flags.verifyRing)
    pm.addPass(createVMCUVerifyTwoCoresPass());
  pm.addPass(createVMCUOutlineKernelsPass());
  pm.addPass(createVMCUEraseFreesPass());
  addLLVMLoweringPasses(pm, flags);
}

void mlir::vmcu::registerVMCUPipelines() {
  registerPassPipeline(
      "vmcu-tosa-to-llvm",
      "Compile an int8 TOSA model (or a later vmcu stage, see `from`) to "
      "LLVM dialect for Cortex-M4/M7",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        VMCUPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string error;
        if (failed(options.verify(
                [&](const Twine &message) { error = message.str(); })))
          return errorHandler("vmcu-tosa-to-llvm: " + error);
        buildVMCUPipeline(pm, options.getFlags(), options.getIO());
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(VMCUPipelineOptions());
      });
}
