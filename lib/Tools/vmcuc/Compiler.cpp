//===- Compiler.cpp - the vmcu model compiler as a library ----------------===//
//
// Pipeline, translation to LLVM IR, O2 and object emission, shared by vmcuc
// and vmcu-run.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/Compiler.h"
#include "vmcu/Tools/vmcuc/AsmAddressOffsets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllExtensions.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mlir::vmcu;

/// Where the compile's errors go: options.diagnostics, else stderr.
static llvm::raw_ostream &diagnosticStream(const CompileOptions &options) {
  return options.diagnostics ? *options.diagnostics : llvm::errs();
}

LogicalResult mlir::vmcu::failWithToolError(const CompileOptions &options,
                                            const llvm::Twine &message) {
  llvm::WithColor::error(diagnosticStream(options), options.toolName)
      << message << "\n";
  return failure();
}

static LogicalResult fail(const CompileOptions &options,
                          const llvm::Twine &message) {
  return failWithToolError(options, message);
}

void mlir::vmcu::applyDiagnosticDefaults(MLIRContext &context) {
  // mlir-opt's default prints the whole failing op after an error: on a
  // real layer a wall of per-channel multipliers and shifts. The op's
  // name, location and message are enough unless the user asks for it.
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-print-op-on-diagnostic");
  if (it == options.end() || it->second->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
}

void mlir::vmcu::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

PipelineInput mlir::vmcu::detectPipelineInput(ModuleOp module) {
  bool layers = false, tiled = false;
  WalkResult result = module.walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() == "tosa")
      return WalkResult::interrupt();
    layers |= isa<LayerOpInterface>(op);
    tiled |= isa<SegmentPoolOp, TensorBaseOp, KernelOp>(op);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return PipelineInput::Tosa;
  if (layers)
    return PipelineInput::Layers;
  return tiled ? PipelineInput::Tiled : PipelineInput::Tosa;
}

static std::optional<int64_t> readI32Global(ModuleOp module, StringRef name) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global)
    return std::nullopt;
  if (auto value = dyn_cast_or_null<IntegerAttr>(global.getValueOrNull()))
    return value.getInt();
  return std::nullopt;
}

/// The values of the `[N x i32]` constant global `name`, empty if absent.
static SmallVector<int64_t> readI32Array(ModuleOp module, StringRef name) {
  SmallVector<int64_t> values;
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(
          global ? global.getValueOrNull() : Attribute()))
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(v.getSExtValue());
  return values;
}

/// The C API of the lowered `module`, whose symbols start with `prefix`.
static FailureOr<ModelInfo> readModelInfo(ModuleOp module, StringRef prefix) {
  auto name = [&](StringRef symbol) {
    return model_abi::prefixed(symbol, prefix);
  };
  ModelInfo info;
  std::string invokeName = name(model_abi::kInvokeFn);
  auto invoke = module.lookupSymbol<LLVM::LLVMFuncOp>(invokeName);
  if (!invoke || invoke.isExternal())
    return module.emitError("the model defines no function @")
           << invokeName << " (the C entry point `int " << invokeName
           << "(void)`)";
  LLVM::LLVMFunctionType type = invoke.getFunctionType();
  if (type.getNumParams() != 0 || !type.getReturnType().isInteger(32))
    return invoke.emitError("@")
           << invokeName << " must have type () -> i32, got " << type;
  info.arena = module.lookupSymbol<LLVM::GlobalOp>(name(model_abi::kArena));
  info.arenaBytes = readI32Global(module, name(model_abi::kArenaBytes));
  info.inputBytes = readI32Global(module, name(model_abi::kInputBytes));
  info.outputBytes = readI32Global(module, name(model_abi::kOutputBytes));
  info.hasInput =
      static_cast<bool>(module.lookupSymbol(name(model_abi::kInputFn)));
  info.hasOutput =
      static_cast<bool>(module.lookupSymbol(name(model_abi::kOutputFn)));
  info.hasWorker =
      static_cast<bool>(module.lookupSymbol(name(model_abi::kWorkerFn)));
  info.inputSizes = readI32Array(module, name(model_abi::kInputSizes));
  info.outputSizes = readI32Array(module, name(model_abi::kOutputSizes));
  auto *dialect = module.getContext()->getOrLoadDialect<VMCUDialect>();
  if (IntegerAttr bytes =
          dialect->getReferenceFlashBytesAttrHelper().getAttr(module))
    info.referenceFlashBytes = bytes.getInt();
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    ArrayAttr replaced = dialect->getSharedKernelsAttrHelper().getAttr(func);
    if (!replaced)
      continue;
    std::vector<std::string> &group =
        info.sharedKernelFunctions.emplace_back(1, func.getSymName().str());
    for (auto name : replaced.getAsValueRange<StringAttr>())
      group.push_back(name.str());
  }
  return info;
}

FailureOr<ModelInfo>
mlir::vmcu::lowerToLLVMDialect(ModuleOp module, const CompileOptions &options) {
  PipelineInput input = options.from.value_or(detectPipelineInput(module));
  if (!options.memoryReport.empty() && !pipelineRunsOffsetSolver(input))
    return fail(
        options,
        "--report is not available yet: the memory report is written by "
        "vmcu-solve-offsets, which " +
            Twine(input == PipelineInput::Tiled
                      ? "the vmcu-tiled input stage skips"
                      : "is not part of this build's pipeline yet"));
  if (!options.memorySvg.empty() && !pipelineRunsOffsetSolver(input))
    return fail(options, "--memory-svg needs vmcu-solve-offsets, which the "
                         "vmcu-tiled input stage skips");
  PipelineIO io{input, options.memoryReport, options.memorySvg,
                options.flashPlan};
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (options.passInstrumentation) {
    if (failed(applyPassManagerCLOptions(pm)))
      return fail(options, "invalid pass manager options");
    applyDefaultTimingPassManagerCLOptions(pm);
  }
  pm.enableVerifier(options.verifyEachPass);
  buildVMCUPipeline(pm, options.flags, io);
  if (failed(pm.run(module)) ||
      (!options.verifyEachPass && failed(verify(module))))
    return failure();

  FailureOr<ModelInfo> info = readModelInfo(module, options.flags.symbolPrefix);
  if (failed(info))
    return failure();
  int64_t arenaBytes = info->arenaBytes.value_or(0);
  int64_t ramKb = options.flags.ramKb;
  if (ramKb && arenaBytes > ramKb * kBytesPerKiB) {
    Location loc = info->arena ? info->arena.getLoc() : module.getLoc();
    return emitError(loc) << "the tensor arena needs " << arenaBytes
                          << " bytes but --ram-kb=" << ramKb << " allows "
                          << ramKb * kBytesPerKiB;
  }
  return info;
}

std::unique_ptr<llvm::TargetMachine>
mlir::vmcu::createCortexMTargetMachine(const CompileOptions &options) {
  std::optional<CortexMTarget> target =
      lookupCortexMTarget(nameOf(kTargetCpus, options.flags.cpu));
  assert(target && "every TargetCpu has a target");
  // Once, before the flash budget's trials create machines on several
  // threads (registration writes LLVM's target registry).
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeARMTargetInfo();
    LLVMInitializeARMTarget();
    LLVMInitializeARMTargetMC();
    LLVMInitializeARMAsmPrinter();
    // vmcu.dot_block lowers to inline assembly, which the object streamer
    // assembles.
    LLVMInitializeARMAsmParser();
  });
  llvm::Triple triple(target->triple);
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    (void)fail(options, "cannot find the ARM target: " + error);
    return nullptr;
  }
  llvm::TargetOptions targetOptions;
  // The runtime links soft-float objects; vmcu code has no floats anyway.
  targetOptions.FloatABIType = llvm::FloatABI::Soft;
  // Each function's frame, for the header's stack bound (StackBound.h);
  // the sections are not allocated, so they cost no flash.
  targetOptions.EmitStackSizeSection = true;
  std::string features = llvm::join(target->features, ",");
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target->cpu, features, targetOptions, llvm::Reloc::Static,
      std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!machine)
    (void)fail(options, "cannot create a target machine for " + target->cpu);
  return machine;
}

/// LLVM's default O2 module pipeline, tuned for `machine`.
static void optimizeO2(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
}

/// The longest constant fill written inline rather than by a call to the C
/// library's memset: 32 word stores. LLVM's ARM backend calls memset past
/// 8 stores; newlib's costs about 100 cycles per 48-byte fill in vmcu-prof
/// (the depthwise kernels' zero-point padding taps, MCUNet-5fps-VWW), where
/// 12 stores take about 14. The GEMM gather fills whole windows of up to
/// 128 bytes per pixel (kWholeWindowFillBytes in TileConv.cpp): inline,
/// corpus ResNets run 1.8-3.8% faster for 0.3-0.8% more flash.
constexpr uint64_t kInlineFillMaxBytes = 128;
/// The same in a compact kernel (an `optsize` function), which trades
/// cycles for flash: 16 word stores, the bound before the gather's fills.
constexpr uint64_t kInlineFillMaxBytesOptSize = 64;

/// Rewrites O2's calls to memset of at most kInlineFillMaxBytes
/// (kInlineFillMaxBytesOptSize in compact kernels; MemCpyOpt merges a
/// kernel's adjacent padding stores into them) as memset.inline, which the
/// backend expands into stores.
static void inlineShortFills(llvm::Module &module) {
  SmallVector<llvm::MemSetInst *> fills;
  for (llvm::Function &function : module) {
    uint64_t maxBytes = function.hasOptSize() ? kInlineFillMaxBytesOptSize
                                              : kInlineFillMaxBytes;
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *fill = dyn_cast<llvm::MemSetInst>(&inst))
        if (auto *bytes = dyn_cast<llvm::ConstantInt>(fill->getLength()))
          if (!fill->isForceInlined() && !fill->isVolatile() &&
              bytes->getZExtValue() <= maxBytes)
            fills.push_back(fill);
  }
  for (llvm::MemSetInst *fill : fills) {
    llvm::IRBuilder<> builder(fill);
    builder.CreateMemSetInline(fill->getDest(), fill->getDestAlign(),
                               fill->getValue(), fill->getLength());
    fill->eraseFromParent();
  }
}

std::unique_ptr<llvm::Module> mlir::vmcu::translateAndOptimize(
    ModuleOp module, llvm::LLVMContext &llvmContext,
    llvm::TargetMachine &machine, StringRef moduleName,
    const CompileOptions &options) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, moduleName);
  if (!llvmModule)
    return nullptr;
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  std::string verifyErrors;
  llvm::raw_string_ostream verifyOs(verifyErrors);
  if (llvm::verifyModule(*llvmModule, &verifyOs)) {
    (void)fail(options, "invalid LLVM IR after translation:\n" + verifyErrors);
    return nullptr;
  }
  optimizeO2(*llvmModule, machine);
  inlineShortFills(*llvmModule);
  foldAsmAddressOffsets(*llvmModule);
  return llvmModule;
}

LogicalResult mlir::vmcu::emitObject(llvm::Module &module,
                                     llvm::TargetMachine &machine,
                                     SmallVectorImpl<char> &object,
                                     const CompileOptions &options) {
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return fail(options, "the ARM target cannot emit object files");
  codegen.run(module);
  return success();
}

FailureOr<ModelSource>
mlir::vmcu::parseModelFile(StringRef inputPath, MLIRContext &context,
                           const CompileOptions &options) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputPath, &error);
  if (!buffer)
    return fail(options, error);
  ModelSource source;
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer->getBufferStart()),
      buffer->getBufferSize());
  // A file named .tflite goes to the importer even without the TFLite
  // identifier, which the importer then reports, rather than to MLIR's
  // parser.
  bool tflite =
      isTFLiteFile(bytes) ||
      llvm::sys::path::extension(inputPath).equals_insensitive(".tflite");
  if (!tflite && !options.tfliteOutput.empty())
    return fail(options, "--tflite-output needs a .tflite model");
  source.sourceMgr = std::make_shared<llvm::SourceMgr>();
  source.sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  source.diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(
      *source.sourceMgr, &context, diagnosticStream(options));
  // MLIR's parser takes an empty file as an empty module: say so, rather
  // than let a pass miss its @main.
  if (bytes.empty())
    return emitError(FileLineColLoc::get(&context, inputPath, 0, 0))
           << "the file is empty: expected a .tflite model or a TOSA module "
              "(.mlir)";
  if (tflite)
    source.module = importTFLite(bytes, inputPath, &context,
                                 {/*outputTensor=*/options.tfliteOutput});
  else
    source.module =
        parseSourceFile<ModuleOp>(source.sourceMgr, ParserConfig(&context));
  // The parser verifies what it reads; the importer's module is verified
  // here, since the pipeline verifies only its own result by default.
  if (!source.module || (tflite && failed(verify(*source.module))))
    return failure();
  return source;
}

FailureOr<CompiledModel>
mlir::vmcu::compileModelFile(StringRef inputPath,
                             const CompileOptions &options) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createCortexMTargetMachine(options);
  if (!machine)
    return failure();

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  applyDiagnosticDefaults(context);
  FailureOr<ModelSource> source = parseModelFile(inputPath, context, options);
  if (failed(source))
    return failure();
  OwningOpRef<ModuleOp> &module = source->module;

  FailureOr<ModelInfo> info = lowerToLLVMDialect(*module, options);
  if (failed(info))
    return failure();
  if (!info->hasInput || !info->hasOutput || !info->inputBytes ||
      !info->outputBytes)
    return emitError(module->getLoc())
           << "the model has no input or output: mark their "
              "vmcu.tensor_base ops with "
           << model_abi::kIOAttrName << " = \"input\" / \"output\"";

  CompiledModel model;
  if (options.compiledObject) {
    model.object = *options.compiledObject;
  } else {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateAndOptimize(*module, llvmContext, *machine,
                             llvm::sys::path::filename(inputPath), options);
    if (!llvmModule ||
        failed(emitObject(*llvmModule, *machine, model.object, options)))
      return failure();
  }
  model.arenaBytes = info->arenaBytes.value_or(0);
  model.referenceFlashBytes = info->referenceFlashBytes;
  model.sharedKernelFunctions = info->sharedKernelFunctions;
  auto sum = [](ArrayRef<int64_t> sizes, int64_t first) {
    return sizes.empty()
               ? first
               : std::accumulate(sizes.begin(), sizes.end(), int64_t(0));
  };
  model.inputBytes = sum(info->inputSizes, *info->inputBytes);
  model.outputBytes = sum(info->outputSizes, *info->outputBytes);
  return model;
}

std::unique_ptr<llvm::object::ObjectFile>
mlir::vmcu::openELFObject(ArrayRef<char> object) {
  llvm::MemoryBufferRef ref(StringRef(object.data(), object.size()), "model");
  auto file = llvm::object::ObjectFile::createObjectFile(ref);
  if (!file) {
    llvm::consumeError(file.takeError());
    return nullptr;
  }
  if (!isa<llvm::object::ELFObjectFileBase>(file->get()))
    return nullptr;
  return std::move(*file);
}

/// The index of the section holding the arena (whatever --arena-section
/// named it), if the object has one.
static std::optional<uint64_t>
arenaSectionIndex(const llvm::object::ObjectFile &file,
                  StringRef symbolPrefix) {
  std::string arenaName = model_abi::prefixed(model_abi::kArena, symbolPrefix);
  for (const llvm::object::SymbolRef &symbol : file.symbols()) {
    std::optional<StringRef> name = llvm::expectedToOptional(symbol.getName());
    std::optional<llvm::object::section_iterator> section =
        llvm::expectedToOptional(symbol.getSection());
    if (name && section && *name == arenaName && *section != file.section_end())
      return (*section)->getIndex();
  }
  return std::nullopt;
}

ObjectFlash mlir::vmcu::getObjectFlash(ArrayRef<char> object,
                                       StringRef symbolPrefix) {
  ObjectFlash flash;
  std::unique_ptr<llvm::object::ObjectFile> file = openELFObject(object);
  auto *elf = dyn_cast_or_null<llvm::object::ELFObjectFileBase>(file.get());
  if (!elf)
    return flash;
  std::optional<uint64_t> arena = arenaSectionIndex(*elf, symbolPrefix);
  for (llvm::object::ELFSectionRef section : elf->sections()) {
    if (!(section.getFlags() & llvm::ELF::SHF_ALLOC) ||
        section.getType() == llvm::ELF::SHT_NOBITS ||
        section.getIndex() == arena)
      continue;
    if (section.getFlags() & llvm::ELF::SHF_EXECINSTR)
      flash.codeBytes += section.getSize();
    else
      flash.constantBytes += section.getSize();
  }
  return flash;
}

uint64_t mlir::vmcu::getObjectFlashBytes(ArrayRef<char> object,
                                         StringRef symbolPrefix) {
  return getObjectFlash(object, symbolPrefix).totalBytes();
}

uint64_t mlir::vmcu::getObjectStaticRamBytes(ArrayRef<char> object,
                                             StringRef symbolPrefix) {
  std::unique_ptr<llvm::object::ObjectFile> file = openELFObject(object);
  auto *elf = dyn_cast_or_null<llvm::object::ELFObjectFileBase>(file.get());
  if (!elf)
    return 0;
  // By symbol, not by section: the arena may share a section with them
  // (--arena-section=.bss).
  std::string arena = model_abi::prefixed(model_abi::kArena, symbolPrefix);
  uint64_t bytes = 0;
  for (llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    std::optional<StringRef> name = llvm::expectedToOptional(symbol.getName());
    std::optional<llvm::object::section_iterator> section =
        llvm::expectedToOptional(symbol.getSection());
    if (!name || *name == arena || !section || *section == elf->section_end() ||
        symbol.getELFType() != llvm::ELF::STT_OBJECT)
      continue;
    uint64_t flags = llvm::object::ELFSectionRef(**section).getFlags();
    if ((flags & llvm::ELF::SHF_ALLOC) && (flags & llvm::ELF::SHF_WRITE))
      bytes += symbol.getSize();
  }
  return bytes;
}

SharedCompileFlags::SharedCompileFlags(llvm::cl::OptionCategory &category)
    : binder(category),
      tfliteOutput(
          "tflite-output",
          llvm::cl::desc(
              "For a .tflite model: compile up to the tensor of this name "
              "instead of the model's output, e.g. the logits before a "
              "final SOFTMAX"),
          llvm::cl::value_desc("tensor"), llvm::cl::cat(category)),
      verifyEach(
          "verify-each",
          llvm::cl::desc(
              "Run MLIR's verifier after every pass of the pipeline, so that "
              "a pass that breaks the IR (a compiler bug) is named. Off "
              "(default): the input is verified when read and the module "
              "once after the pipeline, which saves 7% of "
              "MCUNet-5fps-VWW's compile"),
          llvm::cl::init(false), llvm::cl::cat(category)),
      report(
          "report",
          llvm::cl::desc("Also write the offset solver's JSON memory report "
                         "(vmcu-solve-offsets): each layer's schedule, MACs, "
                         "estimated cycles and workspace"),
          llvm::cl::value_desc("file"), llvm::cl::cat(category)) {
  flags.bind(binder);
}

void SharedCompileFlags::apply(CompileOptions &options) const {
  options.flags = flags;
  options.tfliteOutput = tfliteOutput;
  options.verifyEachPass = verifyEach;
  options.memoryReport = report;
}
