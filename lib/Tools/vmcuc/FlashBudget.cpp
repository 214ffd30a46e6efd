//===- FlashBudget.cpp - fit a model's object into --flash-kb -------------===//
//
// Widened (int16) weights make GEMM tiles and depthwise windows faster and
// double those weights' flash. Under a flash budget the layers give them up
// where they buy the least cycles per byte: the cycles from the cost model
// (vmcu.kernel's int8_weight_cycles, fitted on measured kernels), the bytes
// from the two compiled objects.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/FlashBudget.h"

#include "vmcu/Support/Units.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>

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

/// The cycles int8 weights would add to every layer in the memory report at
/// `path`, by name.
llvm::StringMap<int64_t> readInt8WeightCycles(StringRef path) {
  llvm::StringMap<int64_t> cycles;
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
        cycles[*name] = l->getInteger("int8_weight_cycles").value_or(0);
  return cycles;
}

/// A compiled object and the memory report written with it.
struct Trial {
  SmallVector<char, 0> object;
  llvm::StringMap<int64_t> int8WeightCycles;
};

FailureOr<Trial> compileTrial(StringRef inputPath, CompileOptions options) {
  SmallString<128> report;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("vmcu-flash", "json", report)) {
    (void)failWithToolError(options,
                            "cannot create a temporary file: " + ec.message());
    return failure();
  }
  options.memoryReport = report.str().str();
  options.memorySvg.clear();
  FailureOr<CompiledModel> model = compileModelFile(inputPath, options);
  Trial trial;
  if (succeeded(model)) {
    trial.object = std::move(model->object);
    trial.int8WeightCycles = readInt8WeightCycles(report);
  }
  llvm::sys::fs::remove(report);
  if (failed(model))
    return failure();
  return trial;
}

/// A layer whose int8 weights save flash.
struct Candidate {
  std::string kernel;
  uint64_t savedBytes;
  /// The cycles the cost model expects int8 weights to add.
  int64_t cycles;
};

/// The layers that take less flash with int8 weights, fewest cycles lost
/// per byte saved first.
std::vector<Candidate> rankCandidates(const Trial &wide, const Trial &narrow) {
  SmallVector<StringRef> layers;
  for (const auto &entry : wide.int8WeightCycles)
    layers.push_back(entry.getKey());
  llvm::StringMap<LayerFlash> wideFlash = getLayerFlash(wide.object, layers);
  llvm::StringMap<LayerFlash> narrowFlash =
      getLayerFlash(narrow.object, layers);
  std::vector<Candidate> candidates;
  for (const auto &entry : wideFlash) {
    auto it = narrowFlash.find(entry.getKey());
    if (it == narrowFlash.end() ||
        it->second.totalBytes() >= entry.getValue().totalBytes())
      continue;
    candidates.push_back(
        {entry.getKey().str(),
         entry.getValue().totalBytes() - it->second.totalBytes(),
         wide.int8WeightCycles.lookup(entry.getKey())});
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate &a, const Candidate &b) {
              // a.cycles / a.saved < b.cycles / b.saved, without division.
              __int128 lhs = static_cast<__int128>(a.cycles) * b.savedBytes;
              __int128 rhs = static_cast<__int128>(b.cycles) * a.savedBytes;
              return lhs != rhs ? lhs < rhs : a.kernel < b.kernel;
            });
  return candidates;
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

FailureOr<std::vector<std::string>>
mlir::vmcu::chooseInt8WeightKernels(StringRef inputPath,
                                    const CompileOptions &options) {
  std::vector<std::string> chosen;
  if (options.flags.flashKb == 0)
    return chosen;
  uint64_t budget = budgetBytes(options);
  FailureOr<Trial> wide = compileTrial(inputPath, options);
  if (failed(wide))
    return failure();
  ObjectFlash wideFlash =
      getObjectFlash(wide->object, options.flags.symbolPrefix);
  if (wideFlash.totalBytes() <= budget)
    return chosen;
  if (!options.flags.widenWeights) {
    reportOverBudget(inputPath, options, "the model", wideFlash);
    return failure();
  }
  CompileOptions narrowOptions = options;
  narrowOptions.flags.widenWeights = false;
  FailureOr<Trial> narrow = compileTrial(inputPath, narrowOptions);
  if (failed(narrow))
    return failure();
  ObjectFlash narrowFlash =
      getObjectFlash(narrow->object, options.flags.symbolPrefix);
  if (narrowFlash.totalBytes() > budget) {
    reportOverBudget(inputPath, options,
                     "the model, with int8 weights everywhere,", narrowFlash);
    return failure();
  }

  // Take layers in rank order until the measured sizes predict a fit, then
  // check the prediction on the object; the layers are compiled
  // independently, so it holds up to section alignment.
  std::vector<Candidate> ranked = rankCandidates(*wide, *narrow);
  uint64_t predicted = wideFlash.totalBytes();
  size_t taken = 0;
  while (taken < ranked.size()) {
    while (taken < ranked.size() && predicted > budget)
      predicted -= std::min(predicted, ranked[taken++].savedBytes);
    chosen.clear();
    for (size_t i = 0; i < taken; ++i)
      chosen.push_back(ranked[i].kernel);
    CompileOptions trialOptions = options;
    trialOptions.int8WeightKernels = chosen;
    FailureOr<Trial> trial = compileTrial(inputPath, trialOptions);
    if (failed(trial))
      return failure();
    uint64_t measured =
        getObjectFlash(trial->object, options.flags.symbolPrefix).totalBytes();
    if (measured <= budget)
      return chosen;
    predicted = measured;
  }
  // Every ranked layer taken: int8 everywhere, which fits.
  chosen.clear();
  for (const Candidate &candidate : ranked)
    chosen.push_back(candidate.kernel);
  return chosen;
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
