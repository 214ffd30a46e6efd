//===- FlashBudget.cpp - fit a model's object into --flash-kb -------------===//
//
// Widened (int16) weights make GEMM tiles and depthwise windows faster and
// double those weights' flash. Under a flash budget the layers give them up
// where they buy the least cycles per byte: the cycles from the cost model
// (vmcu.kernel's int8_weight_cycles, fitted on measured kernels), the bytes
// from the compiled objects. A layer can also be emitted compact (rolled
// loops, vmcu.kernel's `compact`), priced by its compact_cycles; both
// choices of every layer (of layers sharing a kernel function together)
// are ranked in one list (FlashRanking.h).
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/FlashBudget.h"
#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/KernelLists.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <cassert>

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// The prefix of a kernel's function symbol, before `<k>_<name>`
/// (vmcu-outline-kernels).
constexpr llvm::StringLiteral kKernelSymbolPrefix = "vmcu_kernel_";
/// The prefix LLVM gives private globals' local symbols.
constexpr llvm::StringLiteral kPrivateSymbolPrefix = ".L";

/// The kernel name in a function symbol `vmcu_kernel_<k>_<name>`, else "".
StringRef kernelOfFunction(StringRef symbol) {
  if (!symbol.consume_front(kKernelSymbolPrefix))
    return {};
  StringRef digits = symbol.take_while(llvm::isDigit);
  if (digits.empty() || !symbol.drop_front(digits.size()).starts_with("_"))
    return {};
  return symbol.drop_front(digits.size() + 1);
}

/// The sized symbols of an ELF object, by name.
std::vector<std::pair<std::string, uint64_t>>
sizedSymbols(ArrayRef<char> object, bool code) {
  std::vector<std::pair<std::string, uint64_t>> symbols;
  std::unique_ptr<llvm::object::ObjectFile> file = openELFObject(object);
  auto *elf = dyn_cast_or_null<llvm::object::ELFObjectFileBase>(file.get());
  if (!elf)
    return symbols;
  for (llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    llvm::Expected<StringRef> name = symbol.getName();
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    if (!name || !type) {
      if (!name)
        llvm::consumeError(name.takeError());
      if (!type)
        llvm::consumeError(type.takeError());
      continue;
    }
    bool isCode = *type == llvm::object::SymbolRef::ST_Function;
    if (isCode == code && symbol.getSize() > 0)
      symbols.emplace_back(name->str(), symbol.getSize());
  }
  return symbols;
}

/// The cost model's figures of one layer in a memory report.
struct LayerCycles {
  /// The cycles int8 weights would add.
  int64_t int8Weight = 0;
  /// The cycles compact code would add.
  int64_t compact = 0;
};

/// The cost model's figures of every layer in the memory report at `path`,
/// by name.
llvm::StringMap<LayerCycles> readLayerCycles(StringRef path) {
  llvm::StringMap<LayerCycles> cycles;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return cycles;
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*buffer)->getBuffer());
  if (!report) {
    llvm::consumeError(report.takeError());
    return cycles;
  }
  const llvm::json::Object *fields = report->getAsObject();
  const llvm::json::Array *layers =
      fields ? fields->getArray("layers") : nullptr;
  if (!layers)
    return cycles;
  for (const llvm::json::Value &layer : *layers)
    if (const llvm::json::Object *l = layer.getAsObject())
      if (std::optional<StringRef> name = l->getString("name"))
        cycles[*name] = {l->getInteger("int8_weight_cycles").value_or(0),
                         l->getInteger("compact_cycles").value_or(0)};
  return cycles;
}

/// A plan and the object a trial compiled for it.
struct FlashChoice {
  FlashPlan plan;
  std::shared_ptr<const SmallVector<char, 0>> object;
};

/// A compiled object and the memory report written with it.
struct Trial {
  SmallVector<char, 0> object;
  llvm::StringMap<LayerCycles> layers;
  /// The kernels of each function several layers share, by kernel name
  /// ("" for a function that is not a kernel's).
  std::vector<std::vector<std::string>> sharedKernels;
  uint64_t flashBytes(const CompileOptions &options) const {
    return getObjectFlash(object, options.flags.symbolPrefix).totalBytes();
  }
  /// `plan`, which this trial compiled, with its object (moved out).
  FlashChoice choose(FlashPlan plan) {
    return {std::move(plan),
            std::make_shared<const SmallVector<char, 0>>(std::move(object))};
  }
};

/// The trial of `plan`; its errors go to `diagnostics` (null: stderr).
FailureOr<Trial> compileTrial(StringRef inputPath, CompileOptions options,
                              const FlashPlan &plan,
                              llvm::raw_ostream *diagnostics = nullptr) {
  options.diagnostics = diagnostics;
  options.passInstrumentation = false;
  SmallString<128> report;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("vmcu-flash", "json", report)) {
    (void)failWithToolError(options,
                            "cannot create a temporary file: " + ec.message());
    return failure();
  }
  options.memoryReport = report.str().str();
  options.memorySvg.clear();
  options.flashPlan = plan;
  options.compiledObject = nullptr;
  // A trial only measures its object; the compile of the plan chosen
  // verifies the ring (it lowers the model again).
  options.flags.verifyRing = false;
  FailureOr<CompiledModel> model = compileModelFile(inputPath, options);
  Trial trial;
  if (succeeded(model)) {
    trial.object = std::move(model->object);
    trial.layers = readLayerCycles(report);
    for (const std::vector<std::string> &functions :
         model->sharedKernelFunctions) {
      std::vector<std::string> &kernels = trial.sharedKernels.emplace_back();
      for (const std::string &function : functions)
        kernels.push_back(kernelOfFunction(function).str());
    }
  }
  llvm::sys::fs::remove(report);
  if (failed(model))
    return failure();
  return trial;
}

/// A trial compiled on a pool thread, or the errors it printed.
struct ConcurrentTrial {
  std::optional<Trial> trial;
  std::string diagnostics;
  /// The trial, where the caller needs it: if it failed, its errors are
  /// printed then (null).
  Trial *require() {
    if (!trial)
      llvm::errs() << diagnostics;
    return trial ? &*trial : nullptr;
  }
};

/// The trials of `plans`, compiled concurrently: each has its own MLIR and
/// LLVM contexts, and keeps its errors until the caller requires it.
SmallVector<ConcurrentTrial> compileTrials(StringRef inputPath,
                                           const CompileOptions &options,
                                           ArrayRef<FlashPlan> plans) {
  SmallVector<ConcurrentTrial> trials(plans.size());
  llvm::DefaultThreadPool pool(llvm::optimal_concurrency(plans.size()));
  for (auto [plan, result] : llvm::zip_equal(plans, trials))
    pool.async([&, &plan = plan, &result = result] {
      llvm::raw_string_ostream os(result.diagnostics);
      if (FailureOr<Trial> trial = compileTrial(inputPath, options, plan, &os);
          succeeded(trial))
        result.trial = std::move(*trial);
    });
  pool.wait();
  return trials;
}

/// Each layer of `layers` in `larger` and `smaller`: its bytes in both,
/// and the cycles `cyclesOf` its figures in `larger` say the smaller plan
/// costs it.
llvm::StringMap<LayerTrade>
layerTrades(ArrayRef<std::string> layers, const Trial &larger,
            const Trial &smaller,
            function_ref<int64_t(const LayerCycles &)> cyclesOf) {
  SmallVector<StringRef> names(layers.begin(), layers.end());
  llvm::StringMap<LayerFlash> largerFlash = getLayerFlash(larger.object, names);
  llvm::StringMap<LayerFlash> smallerFlash =
      getLayerFlash(smaller.object, names);
  llvm::StringMap<LayerTrade> trades;
  for (StringRef layer : names)
    trades[layer] = {
        static_cast<int64_t>(largerFlash.lookup(layer).totalBytes()),
        static_cast<int64_t>(smallerFlash.lookup(layer).totalBytes()),
        cyclesOf(larger.layers.lookup(layer))};
  return trades;
}

uint64_t budgetBytes(const CompileOptions &options) {
  return static_cast<uint64_t>(options.flags.flashKb) * kBytesPerKiB;
}

std::string describe(const ObjectFlash &flash) {
  return llvm::formatv("{0} B (code {1} B, weights and tables {2} B)",
                       flash.totalBytes(), flash.codeBytes, flash.constantBytes)
      .str();
}

/// Prints `<model file>: error: <what> needs ... of flash, more than
/// flash-kb=K (B B)`.
void reportOverBudget(StringRef inputPath, const CompileOptions &options,
                      StringRef what, const ObjectFlash &flash) {
  llvm::WithColor::error(llvm::errs(), inputPath)
      << llvm::formatv("{0} needs {1} of flash, more than flash-kb={2} ({3} B)",
                       what, describe(flash), options.flags.flashKb,
                       budgetBytes(options))
      << "\n";
}

} // namespace

llvm::StringMap<LayerFlash>
mlir::vmcu::getLayerFlash(ArrayRef<char> object,
                          ArrayRef<StringRef> layerNames) {
  llvm::StringMap<LayerFlash> layers;
  for (StringRef name : layerNames)
    layers.try_emplace(name);
  for (const auto &[name, size] : sizedSymbols(object, /*code=*/true)) {
    StringRef kernel = kernelOfFunction(name);
    if (!kernel.empty())
      layers[kernel].codeBytes += size;
  }
  for (const auto &[symbol, size] : sizedSymbols(object, /*code=*/false)) {
    StringRef name = symbol;
    name.consume_front(kPrivateSymbolPrefix);
    // The longest kernel name the table's name extends with `_<suffix>`.
    StringRef owner;
    for (const auto &entry : layers) {
      StringRef kernel = entry.getKey();
      if (kernel.size() > owner.size() && name.size() > kernel.size() &&
          name.starts_with(kernel) && name[kernel.size()] == '_')
        owner = kernel;
    }
    if (!owner.empty())
      layers[owner].tableBytes += size;
  }
  return layers;
}

/// Whether two plans make the same choices.
static bool samePlan(const FlashPlan &a, const FlashPlan &b) {
  return a.int8WeightKernels == b.int8WeightKernels &&
         a.compactKernels == b.compactKernels &&
         a.compactLevels == b.compactLevels;
}

/// The plan that takes `taken` without the candidates `spareBytes` cover
/// (dropUnneeded), or std::nullopt if they cover none.
static std::optional<FlashPlan>
planWithoutUnneeded(ArrayRef<FlashCandidate> taken, uint64_t spareBytes,
                    unsigned levels) {
  std::vector<FlashCandidate> kept =
      dropUnneeded(taken, static_cast<int64_t>(spareBytes));
  if (kept.size() == taken.size())
    return std::nullopt;
  return planOf(kept, kept.size(), levels);
}

/// `choice`, which takes `taken` and fits with `spareBytes` to spare, or,
/// where the spare bytes cover some of its candidates, the plan without
/// them if its object fits too. `guess` is a trial compiled already, of
/// the plan without the candidates the predicted spare bytes covered: the
/// same plan where the prediction held.
static FailureOr<FlashChoice>
withoutUnneeded(StringRef inputPath, const CompileOptions &options,
                ArrayRef<FlashCandidate> taken, uint64_t spareBytes,
                FlashChoice choice, std::optional<FlashChoice> guess) {
  std::optional<FlashPlan> faster =
      planWithoutUnneeded(taken, spareBytes, choice.plan.compactLevels);
  if (!faster)
    return choice;
  if (!guess || !samePlan(guess->plan, *faster)) {
    FailureOr<Trial> trial = compileTrial(inputPath, options, *faster);
    if (failed(trial))
      return failure();
    guess = trial->choose(std::move(*faster));
  }
  if (getObjectFlash(*guess->object, options.flags.symbolPrefix).totalBytes() <=
      budgetBytes(options))
    return std::move(*guess);
  return choice;
}

/// The plan that takes the `ranked` candidates in order until the object
/// fits `budget`: candidates are taken until their measured savings
/// predict a fit (from `startBytes`, the object without any), then the
/// prediction is checked by compiling. The choices were measured one kind
/// at a time, so it holds up to section alignment and kernels
/// vmcu-share-kernels merges in one plan only; more candidates follow if
/// it misses. A plan that fits gives back the candidates its spare bytes
/// cover (withoutUnneeded); the plan without those the predicted spare
/// bytes cover compiles alongside it. If every ranked candidate taken
/// still misses (kernels that only merge when all are compact), the plan
/// is `smallest`, which fits. Compact kernels unroll `compactLevels` loop
/// levels, those the ranked savings were measured at.
static FailureOr<FlashChoice>
takeUntilFit(StringRef inputPath, const CompileOptions &options,
             ArrayRef<FlashCandidate> ranked, uint64_t startBytes,
             FlashChoice smallest, unsigned compactLevels) {
  uint64_t budget = budgetBytes(options);
  uint64_t predicted = startBytes;
  size_t taken = 0;
  while (taken < ranked.size()) {
    while (taken < ranked.size() && predicted > budget) {
      assert(ranked[taken].savedBytes > 0 && "ranked candidates save bytes");
      predicted -= std::min(predicted,
                            static_cast<uint64_t>(ranked[taken++].savedBytes));
    }
    SmallVector<FlashPlan, 2> plans{planOf(ranked, taken, compactLevels)};
    if (predicted <= budget)
      if (std::optional<FlashPlan> guess = planWithoutUnneeded(
              ranked.take_front(taken), budget - predicted, compactLevels))
        plans.push_back(std::move(*guess));
    SmallVector<ConcurrentTrial> trials =
        compileTrials(inputPath, options, plans);
    Trial *trial = trials.front().require();
    if (!trial)
      return failure();
    uint64_t measured = trial->flashBytes(options);
    if (measured <= budget) {
      // A guess that failed compiles again where it is needed, printing
      // its errors then.
      std::optional<FlashChoice> guess;
      if (plans.size() > 1 && trials.back().trial)
        guess = trials.back().trial->choose(std::move(plans.back()));
      return withoutUnneeded(
          inputPath, options, ranked.take_front(taken), budget - measured,
          trial->choose(std::move(plans.front())), std::move(guess));
    }
    predicted = measured;
  }
  return smallest;
}

/// Every layer of a trial's memory report.
static std::vector<std::string> allLayers(const Trial &trial) {
  std::vector<std::string> names;
  for (const auto &entry : trial.layers)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

/// The plan with int8 weights and compact kernels, unrolling
/// `compactLevels`, everywhere.
static FlashPlan compactEverywhere(unsigned compactLevels) {
  std::vector<std::string> every{kEveryKernel.str()};
  return FlashPlan{every, every, compactLevels};
}

/// The trials of the three plans a budget compares, compiled together:
/// widened weights where the pipeline widens them, int8 weights everywhere
/// (unless --widen-weights=false, where the first is that), and compact
/// kernels everywhere too at `compactLevels`.
static SmallVector<ConcurrentTrial>
compileEverywhereTrials(StringRef inputPath, const CompileOptions &options,
                        unsigned compactLevels) {
  SmallVector<FlashPlan> plans{FlashPlan()};
  if (options.flags.widenWeights)
    plans.push_back(FlashPlan{{kEveryKernel.str()}, {}});
  plans.push_back(compactEverywhere(compactLevels));
  SmallVector<ConcurrentTrial> trials =
      compileTrials(inputPath, options, plans);
  if (!options.flags.widenWeights)
    trials.insert(trials.begin() + 1, trials.front());
  return trials;
}

/// The plan under options.flags.flashKb (see chooseFlashPlan) and its
/// object; with `required` false, std::nullopt instead of an error where
/// even the smallest plan exceeds it.
static FailureOr<std::optional<FlashChoice>>
planUnderBudget(StringRef inputPath, const CompileOptions &options,
                bool required) {
  uint64_t budget = budgetBytes(options);
  SmallVector<ConcurrentTrial> trials =
      compileEverywhereTrials(inputPath, options, kCompactLevelsFaster);
  Trial *widened = trials[0].require();
  if (!widened)
    return failure();
  uint64_t wideBytes = widened->flashBytes(options);
  if (wideBytes <= budget)
    return std::optional(widened->choose(FlashPlan()));
  // Past the widened plan, the two smaller trials are needed.
  Trial *int8 = trials[1].require();
  Trial *compacted = int8 ? trials[2].require() : nullptr;
  if (!compacted)
    return failure();
  Trial &wide = *widened, &narrow = *int8, &compact = *compacted;

  // Compact kernels everywhere unroll two levels where that fits the
  // budget, else one (the smallest plan).
  std::vector<std::string> layers = allLayers(wide);
  FlashPlan compactPlan{layers, layers, kCompactLevelsFaster};
  if (compact.flashBytes(options) > budget) {
    compactPlan.compactLevels = kCompactLevelsSmallest;
    FailureOr<Trial> smaller = compileTrial(
        inputPath, options, compactEverywhere(kCompactLevelsSmallest));
    if (failed(smaller))
      return failure();
    compact = std::move(*smaller);
  }
  // The smaller of the two is the floor (compact code can take more, where
  // kernels unrolled less stop sharing a function).
  ObjectFlash narrowFlash =
      getObjectFlash(narrow.object, options.flags.symbolPrefix);
  ObjectFlash compactFlash =
      getObjectFlash(compact.object, options.flags.symbolPrefix);
  bool compactIsFloor = compactFlash.totalBytes() <= narrowFlash.totalBytes();
  ObjectFlash smallest = compactIsFloor ? compactFlash : narrowFlash;
  if (smallest.totalBytes() > budget) {
    if (!required)
      return std::optional<FlashChoice>();
    reportOverBudget(inputPath, options,
                     compactIsFloor
                         ? "the model, with int8 weights and compact kernels "
                           "everywhere,"
                         : "the model, with int8 weights everywhere (compact "
                           "kernels take more),",
                     smallest);
    return failure();
  }

  // One ranking of both choices by cycles lost per byte saved: the cost
  // model's int8_weight_cycles and compact_cycles. Layers that share a
  // function in a trial compared are one choice; compact code's groups
  // join those of all three trials, so each holds whole int8 groups.
  std::vector<FlashCandidate> candidates = groupCandidates(
      layerTrades(layers, wide, narrow,
                  [](const LayerCycles &c) { return c.int8Weight; }),
      {wide.sharedKernels, narrow.sharedKernels},
      &FlashPlan::int8WeightKernels);
  llvm::append_range(
      candidates,
      groupCandidates(
          layerTrades(layers, narrow, compact,
                      [](const LayerCycles &c) { return c.compact; }),
          {wide.sharedKernels, narrow.sharedKernels, compact.sharedKernels},
          &FlashPlan::compactKernels));
  joinCompactWithInt8(candidates);
  rankCandidates(candidates);
  FlashChoice smallestChoice = compactIsFloor
                                   ? compact.choose(compactPlan)
                                   : narrow.choose(FlashPlan{layers, {}});
  FailureOr<FlashChoice> choice =
      takeUntilFit(inputPath, options, candidates, wideBytes,
                   std::move(smallestChoice), compactPlan.compactLevels);
  if (failed(choice))
    return failure();
  return std::optional(std::move(*choice));
}

LogicalResult mlir::vmcu::chooseFlashPlan(StringRef inputPath,
                                          CompileOptions &options) {
  if (options.flags.flashKb == 0)
    return success();
  FailureOr<std::optional<FlashChoice>> choice =
      planUnderBudget(inputPath, options, /*required=*/true);
  if (failed(choice))
    return failure();
  options.flashPlan = std::move((*choice)->plan);
  options.compiledObject = std::move((*choice)->object);
  return success();
}

unsigned mlir::vmcu::defaultFlashKb(const CompileOptions &options,
                                    std::optional<int64_t> referenceBytes) {
  if (options.flags.flashKb || !options.flags.cmsisFlashPercent ||
      !referenceBytes)
    return 0;
  return *referenceBytes * options.flags.cmsisFlashPercent / kPercent /
         kBytesPerKiB;
}

FailureOr<bool>
mlir::vmcu::fitDefaultFlashBudget(StringRef inputPath, CompileOptions &options,
                                  ArrayRef<char> object,
                                  std::optional<int64_t> referenceBytes) {
  unsigned kb = defaultFlashKb(options, referenceBytes);
  if (kb == 0 || inputPath == "-")
    return false;
  ObjectFlash flash = getObjectFlash(object, options.flags.symbolPrefix);
  if (flash.totalBytes() <= static_cast<uint64_t>(kb) * kBytesPerKiB)
    return false;
  CompileOptions budgeted = options;
  budgeted.flags.flashKb = kb;
  FailureOr<std::optional<FlashChoice>> plan =
      planUnderBudget(inputPath, budgeted, /*required=*/false);
  if (failed(plan))
    return failure();
  auto *os = &llvm::errs();
  llvm::WithColor::note(*os, inputPath) << llvm::formatv(
      "the object takes {0} B of flash, over the default "
      "budget of {1} KiB ({2}% of the {3} B CMSIS-NN would "
      "take, --cmsis-flash-percent); ",
      flash.totalBytes(), kb, options.flags.cmsisFlashPercent, *referenceBytes);
  if (!*plan) {
    *os << "even the smallest plan exceeds it, so the default plan stays\n";
    return false;
  }
  *os << llvm::formatv("compiling again within it (int8 weights in {0} "
                       "layers, compact code in {1}",
                       (*plan)->plan.int8WeightKernels.size(),
                       (*plan)->plan.compactKernels.size());
  if (!(*plan)->plan.compactKernels.empty())
    *os << llvm::formatv(", unrolling {0} loop level{1}",
                         (*plan)->plan.compactLevels,
                         (*plan)->plan.compactLevels == 1 ? "" : "s");
  *os << ")\n";
  options.flags.flashKb = kb;
  options.flashPlan = std::move((*plan)->plan);
  options.compiledObject = std::move((*plan)->object);
  return true;
}

LogicalResult mlir::vmcu::checkFlashBudget(StringRef inputPath,
                                           ArrayRef<char> object,
                                           const CompileOptions &options) {
  ObjectFlash flash = getObjectFlash(object, options.flags.symbolPrefix);
  if (options.flags.flashKb == 0 || flash.totalBytes() <= budgetBytes(options))
    return success();
  reportOverBudget(inputPath, options, "the model", flash);
  return failure();
}
