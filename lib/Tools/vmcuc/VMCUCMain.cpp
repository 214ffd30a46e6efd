//===- VMCUCMain.cpp - the vmcuc compiler driver --------------------------===//
//
// Parses a model, runs buildVMCUPipeline, translates to LLVM IR, optimises
// it at O2 for the Cortex-M target and emits an object file in-process,
// plus the C header of the model API on request.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/VMCUCMain.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllExtensions.h"
#include "vmcu/Pipelines/Pipelines.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace mlir;
using namespace mlir::vmcu;
namespace cl = llvm::cl;

namespace {

enum class EmitKind { MLIR, LLVM, Obj };

/// `auto` plus the pipeline's input stages.
enum class FromKind { Auto, Tosa, Layers, Tiled };

constexpr llvm::StringLiteral kOverview = R"(vmcu model compiler

Compiles an int8 model to an object file for Cortex-M4/M7 (Armv7E-M,
thumbv7em-none-eabi, soft-float ABI) whose tensors share one circular
segment pool (vMCU). The object defines the C API of
runtime/vmcu_model_api.h:

  int8_t *vmcu_input(void);        input buffer (inside the arena)
  const int8_t *vmcu_output(void); output buffer, valid after invoke
  int vmcu_invoke(void);           one inference, 0 on success
  const unsigned vmcu_input_bytes, vmcu_output_bytes, vmcu_arena_bytes;
  the arena itself: symbol vmcu_arena in section .vmcu_arena

It runs the vmcu-tosa-to-llvm pipeline (the same one vmcu-opt registers),
translates the result to LLVM IR, optimises it at O2 and emits the object
in-process. Errors are reported as `error:` with the source location and a
non-zero exit code; on success one summary line is printed.

Example:
  vmcuc model.mlir --cpu=cortex-m7 --ram-kb=256 -o model.o --header model.h

MLIR debugging options (--mlir-print-ir-after-all, --mlir-timing, ...) are
listed by --help-hidden.
)";

struct VMCUCOptions {
  cl::OptionCategory category{"vmcuc options"};

  cl::opt<std::string> input{cl::Positional, cl::desc("<model.mlir>"),
                             cl::init("-"), cl::cat(category)};
  cl::opt<std::string> output{
      "o",
      cl::desc("Output file. Default: the input's name with .o, .ll or "
               ".lowered.mlir (per --emit), in the working directory; '-' "
               "writes to stdout"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> cpu{
      "cpu", cl::desc("Target core: cortex-m4 (default) or cortex-m7"),
      cl::init("cortex-m4"), cl::cat(category)};
  cl::opt<unsigned> ramKb{
      "ram-kb",
      cl::desc("RAM budget for the tensor arena in KiB; compilation fails "
               "if the arena is larger. 0 (default) means unlimited"),
      cl::init(0), cl::cat(category)};
  cl::opt<EmitKind> emit{
      "emit", cl::desc("What to write:"), cl::init(EmitKind::Obj),
      cl::values(
          clEnumValN(EmitKind::MLIR, "mlir",
                     "the LLVM-dialect MLIR module after the pipeline"),
          clEnumValN(EmitKind::LLVM, "llvm",
                     "LLVM IR (.ll) after the O2 optimisation pipeline"),
          clEnumValN(EmitKind::Obj, "obj",
                     "an ELF object file (default)")),
      cl::cat(category)};
  cl::opt<FromKind> from{
      "from",
      cl::desc("Stage of the input, i.e. where the pipeline starts:"),
      cl::init(FromKind::Auto),
      cl::values(
          clEnumValN(FromKind::Auto, "auto",
                     "detect it (default): tosa ops -> tosa, vmcu layer ops "
                     "-> vmcu, vmcu kernels/ring ops -> vmcu-tiled"),
          clEnumValN(FromKind::Tosa, "tosa", "int8 TOSA functions"),
          clEnumValN(FromKind::Layers, "vmcu",
                     "vmcu layer ops (after convert-tosa-to-vmcu)"),
          clEnumValN(FromKind::Tiled, "vmcu-tiled",
                     "tiled kernels whose tensor_base ops have a `base` "
                     "(after vmcu-solve-offsets): only lower to LLVM")),
      cl::cat(category)};
  cl::opt<std::string> header{
      "header",
      cl::desc("Also write the model's C header: the API prototypes and "
               "VMCU_ARENA_BYTES, VMCU_INPUT_BYTES, VMCU_OUTPUT_BYTES"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> report{
      "report",
      cl::desc("Also write the JSON memory report of the offset solver "
               "(vmcu-solve-offsets). NOT AVAILABLE YET: the solver is not "
               "part of the pipeline in this build, so this option fails"),
      cl::value_desc("file"), cl::cat(category)};
};

/// Prints `vmcuc: error: message` for errors without a source location.
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "vmcuc") << message << "\n";
  return 1;
}

/// The stage `module` is in, for --from=auto.
static PipelineInput detectInput(ModuleOp module) {
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

static StringRef getInputName(PipelineInput input) {
  switch (input) {
  case PipelineInput::Tosa:
    return "tosa";
  case PipelineInput::Layers:
    return "vmcu";
  case PipelineInput::Tiled:
    return "vmcu-tiled";
  }
  llvm_unreachable("unknown pipeline input");
}

/// What the lowered module exports, read back from its LLVM dialect.
struct ModelInfo {
  LLVM::GlobalOp arena;
  std::optional<int64_t> arenaBytes, inputBytes, outputBytes;
  bool hasInput = false, hasOutput = false;
};

static std::optional<int64_t> readI32Global(ModuleOp module, StringRef name) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global)
    return std::nullopt;
  if (auto value = dyn_cast_or_null<IntegerAttr>(global.getValueOrNull()))
    return value.getInt();
  return std::nullopt;
}

static FailureOr<ModelInfo> readModelInfo(ModuleOp module) {
  ModelInfo info;
  auto invoke = module.lookupSymbol<LLVM::LLVMFuncOp>(model_abi::kInvokeFn);
  if (!invoke || invoke.isExternal())
    return module.emitError("the model defines no function @")
           << model_abi::kInvokeFn << " (the C entry point `int "
           << model_abi::kInvokeFn << "(void)`)";
  LLVM::LLVMFunctionType type = invoke.getFunctionType();
  if (type.getNumParams() != 0 || !type.getReturnType().isInteger(32))
    return invoke.emitError("@")
           << model_abi::kInvokeFn << " must have type () -> i32, got "
           << type;
  info.arena = module.lookupSymbol<LLVM::GlobalOp>(model_abi::kArena);
  info.arenaBytes = readI32Global(module, model_abi::kArenaBytes);
  info.inputBytes = readI32Global(module, model_abi::kInputBytes);
  info.outputBytes = readI32Global(module, model_abi::kOutputBytes);
  info.hasInput = static_cast<bool>(module.lookupSymbol(model_abi::kInputFn));
  info.hasOutput =
      static_cast<bool>(module.lookupSymbol(model_abi::kOutputFn));
  return info;
}

/// The C header of the model, compatible with runtime/vmcu_model_api.h
/// (identical prototypes and extern declarations, so both may be included).
static void printHeader(llvm::raw_ostream &os, const ModelInfo &info,
                        StringRef source, StringRef cpu) {
  os << "/* Generated by vmcuc from " << llvm::sys::path::filename(source)
     << " for " << cpu << ". Do not edit.\n"
     << " * C API of the model object; runtime/vmcu_model_api.h declares "
        "the same. */\n"
     << "#ifndef VMCU_GENERATED_MODEL_H\n"
     << "#define VMCU_GENERATED_MODEL_H\n\n"
     << "#include <stdint.h>\n\n"
     << "#define VMCU_ARENA_BYTES " << info.arenaBytes.value_or(0) << "u\n"
     << "#define VMCU_INPUT_BYTES " << *info.inputBytes << "u\n"
     << "#define VMCU_OUTPUT_BYTES " << *info.outputBytes << "u\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "int8_t *vmcu_input(void);\n"
     << "const int8_t *vmcu_output(void);\n"
     << "int vmcu_invoke(void);\n\n"
     << "extern const unsigned vmcu_input_bytes;\n"
     << "extern const unsigned vmcu_output_bytes;\n"
     << "extern const unsigned vmcu_arena_bytes;\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n"
     << "#endif /* VMCU_GENERATED_MODEL_H */\n";
}

/// Writes `contents` through `print` to `path` ("-" is stdout).
static LogicalResult
writeFile(StringRef path,
          llvm::function_ref<void(llvm::raw_ostream &)> print) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file) {
    fail(error);
    return failure();
  }
  print(file->os());
  file->keep();
  return success();
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const CortexMTarget &target) {
  LLVMInitializeARMTargetInfo();
  LLVMInitializeARMTarget();
  LLVMInitializeARMTargetMC();
  LLVMInitializeARMAsmPrinter();
  llvm::Triple triple(kTargetTriple);
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    fail("cannot find the ARM target: " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  // The runtime links soft-float objects; vmcu code has no floats anyway.
  options.FloatABIType = llvm::FloatABI::Soft;
  std::string features = llvm::join(target.features, ",");
  std::unique_ptr<llvm::TargetMachine> machine(
      llvmTarget->createTargetMachine(triple, target.cpu, features, options,
                                      llvm::Reloc::Static, std::nullopt,
                                      llvm::CodeGenOptLevel::Default));
  if (!machine)
    fail("cannot create a target machine for " + target.cpu);
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

/// Emits `module` as an ELF object into `object`.
static LogicalResult emitObject(llvm::Module &module,
                                llvm::TargetMachine &machine,
                                SmallVectorImpl<char> &object) {
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    fail("the ARM target cannot emit object files");
    return failure();
  }
  codegen.run(module);
  return success();
}

/// Total size of the object's .text sections.
static uint64_t getTextBytes(ArrayRef<char> object) {
  llvm::MemoryBufferRef ref(StringRef(object.data(), object.size()), "model");
  auto file = llvm::object::ObjectFile::createObjectFile(ref);
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  uint64_t bytes = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".text" || name->starts_with(".text."))
      bytes += section.getSize();
  }
  return bytes;
}

static std::string getDefaultOutput(StringRef input, EmitKind emit) {
  StringRef ext = emit == EmitKind::Obj    ? ".o"
                  : emit == EmitKind::LLVM ? ".ll"
                                           : ".lowered.mlir";
  if (input == "-")
    return ("model" + ext).str();
  SmallString<128> path(llvm::sys::path::filename(input));
  llvm::sys::path::replace_extension(path, "");
  return (path + ext).str();
}

} // namespace

int mlir::vmcu::runVMCUCMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  VMCUCOptions opts;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  std::optional<CortexMTarget> target = lookupCortexMTarget(opts.cpu);
  if (!target)
    return fail("unknown --cpu '" + opts.cpu +
                "'; expected cortex-m4 or cortex-m7");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(opts.input, &error);
  if (!buffer)
    return fail(error);
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  // The pipeline, from the stage the input is in.
  PipelineInput input = PipelineInput::Tosa;
  switch (opts.from) {
  case FromKind::Auto:
    input = detectInput(*module);
    break;
  case FromKind::Tosa:
    input = PipelineInput::Tosa;
    break;
  case FromKind::Layers:
    input = PipelineInput::Layers;
    break;
  case FromKind::Tiled:
    input = PipelineInput::Tiled;
    break;
  }
  if (!opts.report.empty() && !pipelineRunsOffsetSolver(input))
    return fail(
        "--report is not available yet: the memory report is written by "
        "vmcu-solve-offsets, which " +
        Twine(input == PipelineInput::Tiled
                  ? "the vmcu-tiled input stage skips"
                  : "is not part of this build's pipeline yet"));
  VMCUPipelineOptions pipelineOptions;
  pipelineOptions.cpu = opts.cpu;
  pipelineOptions.ramKb = opts.ramKb;
  pipelineOptions.from = getInputName(input).str();
  pipelineOptions.memoryReport = opts.report;
  if (failed(pipelineOptions.verify([](const Twine &m) { fail(m); })))
    return 1;

  PassManager pm(&context, ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(pm)))
    return fail("invalid pass manager options");
  applyDefaultTimingPassManagerCLOptions(pm);
  buildVMCUPipeline(pm, pipelineOptions);
  if (failed(pm.run(*module)))
    return 1;

  FailureOr<ModelInfo> info = readModelInfo(*module);
  if (failed(info))
    return 1;
  int64_t arenaBytes = info->arenaBytes.value_or(0);
  int64_t ramKb = opts.ramKb.getValue();
  if (ramKb && arenaBytes > ramKb * 1024) {
    Location loc = info->arena ? info->arena.getLoc() : module->getLoc();
    emitError(loc) << "the tensor arena needs " << arenaBytes
                   << " bytes but --ram-kb=" << ramKb << " allows "
                   << ramKb * 1024;
    return 1;
  }
  if (!opts.header.empty()) {
    if (!info->hasInput || !info->hasOutput || !info->inputBytes ||
        !info->outputBytes) {
      emitError(module->getLoc())
          << "--header needs the model's input and output: mark their "
             "vmcu.tensor_base ops with "
          << model_abi::kIOAttrName << " = \"input\" / \"output\"";
      return 1;
    }
    if (failed(writeFile(opts.header, [&](llvm::raw_ostream &os) {
          printHeader(os, *info, opts.input, target->cpu);
        })))
      return 1;
  }

  std::string outputPath =
      opts.output.empty() ? getDefaultOutput(opts.input, opts.emit)
                          : opts.output.getValue();
  // The summary goes to stdout unless the output itself does.
  llvm::raw_ostream &summary =
      outputPath == "-" ? llvm::errs() : llvm::outs();

  if (opts.emit == EmitKind::MLIR) {
    if (failed(writeFile(outputPath,
                         [&](llvm::raw_ostream &os) { module->print(os); })))
      return 1;
    summary << "vmcuc: wrote " << outputPath << " (arena " << arenaBytes
            << " bytes)\n";
    return 0;
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
      *module, llvmContext, llvm::sys::path::filename(opts.input));
  if (!llvmModule)
    return 1;
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(*target);
  if (!machine)
    return 1;
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  std::string verifyErrors;
  llvm::raw_string_ostream verifyOs(verifyErrors);
  if (llvm::verifyModule(*llvmModule, &verifyOs))
    return fail("invalid LLVM IR after translation:\n" + verifyErrors);
  optimizeO2(*llvmModule, *machine);

  if (opts.emit == EmitKind::LLVM) {
    if (failed(writeFile(outputPath, [&](llvm::raw_ostream &os) {
          llvmModule->print(os, nullptr);
        })))
      return 1;
    summary << "vmcuc: wrote " << outputPath << " (arena " << arenaBytes
            << " bytes)\n";
    return 0;
  }

  SmallVector<char, 0> object;
  if (failed(emitObject(*llvmModule, *machine, object)))
    return 1;
  if (failed(writeFile(outputPath, [&](llvm::raw_ostream &os) {
        os.write(object.data(), object.size());
      })))
    return 1;
  summary << "vmcuc: wrote " << outputPath << " (" << getTextBytes(object)
          << " bytes .text, arena " << arenaBytes << " bytes)\n";
  return 0;
}
