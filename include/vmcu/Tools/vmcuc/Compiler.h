//===- Compiler.h - the vmcu model compiler as a library --------*- C++ -*-===//
//
// The steps vmcuc runs (pipeline, LLVM IR at O2, ELF object), reusable by
// other drivers such as vmcu-run. Errors are MLIR diagnostics where the
// module has a location for them, otherwise `<tool>: error: ...` on stderr.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_COMPILER_H
#define VMCU_TOOLS_VMCUC_COMPILER_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "vmcu/Pipelines/Pipelines.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class SourceMgr;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class DialectRegistry;

namespace vmcu {

/// Options of one compilation.
struct CompileOptions {
  /// The options the pipeline and the tools share (cpu, ram-kb, ...).
  CompileFlags flags;
  /// Stage of the input; std::nullopt detects it (detectPipelineInput).
  std::optional<PipelineInput> from;
  /// Where vmcu-solve-offsets writes its JSON memory report (empty: none).
  std::string memoryReport;
  /// Where vmcu-solve-offsets draws the arena as SVG (empty: none).
  std::string memorySvg;
  /// The flash budget's per-layer choices (chooseFlashPlan).
  FlashPlan flashPlan;
  /// The object these options give, where the flash budget compiled it
  /// already (its trial of `flashPlan`): the model is still lowered (its
  /// checks, memory report and header) but not compiled by LLVM again.
  std::shared_ptr<const SmallVector<char, 0>> compiledObject;
  /// For a .tflite input: compile up to this tensor instead of the model's
  /// output (empty: the output).
  std::string tfliteOutput;
  /// Run MLIR's verifier after every pass of the pipeline, not only once
  /// after it (a pass that breaks the IR is then named).
  bool verifyEachPass = false;
  /// Prefix of errors that have no source location.
  std::string toolName = "vmcuc";
  /// Where errors are printed (null: stderr). The flash budget's trials,
  /// compiled on several threads, each print to their own buffer.
  llvm::raw_ostream *diagnostics = nullptr;
  /// Whether the pipeline takes MLIR's command-line pass instrumentation
  /// (--mlir-timing, --mlir-print-ir-*, ...); the flash budget's trials do
  /// not, so that it reports the compile of the plan chosen.
  bool passInstrumentation = true;
};

/// Prints `<options.toolName>: error: message` for an error without a
/// source location; fails.
LogicalResult failWithToolError(const CompileOptions &options,
                                const llvm::Twine &message);

/// What a lowered module exports, read back from its LLVM dialect.
struct ModelInfo {
  LLVM::GlobalOp arena;
  std::optional<int64_t> arenaBytes, inputBytes, outputBytes;
  bool hasInput = false, hasOutput = false;
  /// Whether it defines vmcu_worker(), the second core's entry (--cores=2).
  bool hasWorker = false;
  /// Bytes of every input and output, in order (input and output 0 are
  /// `inputBytes` and `outputBytes`).
  SmallVector<int64_t> inputSizes, outputSizes;
  /// The flash CMSIS-NN would take for the model's layers
  /// (vmcu.reference_flash_bytes), when the pipeline estimated it.
  std::optional<int64_t> referenceFlashBytes;
  /// Each function vmcu-share-kernels kept for several kernels, first, then
  /// those it replaced (vmcu.shared_kernels), by function name.
  std::vector<std::vector<std::string>> sharedKernelFunctions;
};

/// A compiled model: the ELF object and the sizes of its C API. The input
/// and output bytes are those of every input (output) together, as the
/// harness reads (writes) them one after another.
struct CompiledModel {
  SmallVector<char, 0> object;
  int64_t arenaBytes = 0;
  int64_t inputBytes = 0;
  int64_t outputBytes = 0;
  /// ModelInfo::referenceFlashBytes.
  std::optional<int64_t> referenceFlashBytes;
  /// ModelInfo::sharedKernelFunctions.
  std::vector<std::vector<std::string>> sharedKernelFunctions;
};

/// Registers every dialect and translation the compiler needs.
void registerCompilerDialects(DialectRegistry &registry);

/// The stage `module` is in: tosa ops -> Tosa, vmcu layer ops -> Layers,
/// vmcu kernels/ring ops -> Tiled.
PipelineInput detectPipelineInput(ModuleOp module);

/// Runs the vmcu pipeline on `module` (down to the LLVM dialect) and checks
/// the arena against `ramKb`. The caller must have registered MLIR's pass
/// manager command-line options (registerPassManagerCLOptions).
FailureOr<ModelInfo> lowerToLLVMDialect(ModuleOp module,
                                        const CompileOptions &options);

/// A thumbv7em or thumbv8m.main target machine for `options.cpu`.
std::unique_ptr<llvm::TargetMachine>
createCortexMTargetMachine(const CompileOptions &options);

/// Translates a lowered module to LLVM IR, verifies it and optimises it at
/// O2 for `machine`.
std::unique_ptr<llvm::Module>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &machine, StringRef moduleName,
                     const CompileOptions &options);

/// Emits `module` as an ELF object into `object`.
LogicalResult emitObject(llvm::Module &module, llvm::TargetMachine &machine,
                         SmallVectorImpl<char> &object,
                         const CompileOptions &options);

/// All of the above for the model file `inputPath` ("-" is stdin), with
/// diagnostics printed against its source. Fails unless the model exports
/// its input and output.
/// The flash an object emitted by emitObject() takes, by kind: code
/// (executable sections) and constants (weights, requantization tables,
/// .data's load image, .ARM.exidx). The arena, which the runtime's linker
/// scripts place NOLOAD in RAM, is not counted.
struct ObjectFlash {
  uint64_t codeBytes = 0;
  uint64_t constantBytes = 0;
  uint64_t totalBytes() const { return codeBytes + constantBytes; }
};
/// Zeros if `object` is not an ELF object. `symbolPrefix`: the model's
/// --symbol-prefix, which names its arena.
ObjectFlash getObjectFlash(ArrayRef<char> object, StringRef symbolPrefix);

/// `object` (bytes emitted by emitObject()) read as an ELF object file;
/// null if it is not one.
std::unique_ptr<llvm::object::ObjectFile> openELFObject(ArrayRef<char> object);

/// Bytes an object emitted by emitObject() puts in flash: its allocated
/// sections with contents (.text, .rodata, .data's load image, .ARM.exidx)
/// but the arena, which the runtime's linker scripts place NOLOAD in RAM.
/// 0 if `object` is not an ELF object.
uint64_t getObjectFlashBytes(ArrayRef<char> object, StringRef symbolPrefix);

/// Bytes of RAM an object emitted by emitObject() defines besides its
/// arena: its other data objects in writable sections (.bss, .data). With
/// --cores=2, the words the cores synchronise through and the stems' line
/// buffers both cores share; the arena and the stacks are not counted.
/// 0 if `object` is not an ELF object.
uint64_t getObjectStaticRamBytes(ArrayRef<char> object, StringRef symbolPrefix);

/// A parsed model file and the diagnostic handler that prints errors with
/// their locations in it; keep it alive while the module is compiled.
struct ModelSource {
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
};

/// Errors print the op's name, location and message but not the whole op,
/// unless --mlir-print-op-on-diagnostic was given on the command line.
void applyDiagnosticDefaults(MLIRContext &context);

/// Reads and parses `inputPath` into `context`. An unreadable file is a
/// `<toolName>: error:`, a syntax error a located diagnostic.
FailureOr<ModelSource> parseModelFile(StringRef inputPath, MLIRContext &context,
                                      const CompileOptions &options);

FailureOr<CompiledModel> compileModelFile(StringRef inputPath,
                                          const CompileOptions &options);

/// The flags vmcuc and vmcu-run share, in `category`: every CompileFlags
/// option, bound from its one declaration, --tflite-output, --verify-each
/// and --report.
struct SharedCompileFlags {
  explicit SharedCompileFlags(llvm::cl::OptionCategory &category);
  /// Copies the flags into `options`.
  void apply(CompileOptions &options) const;

  CompileFlags flags;
  CommandLineBinder binder;
  llvm::cl::opt<std::string> tfliteOutput;
  llvm::cl::opt<bool> verifyEach;
  llvm::cl::opt<std::string> report;
};

} // namespace vmcu
} // namespace mlir

#endif // VMCU_TOOLS_VMCUC_COMPILER_H
