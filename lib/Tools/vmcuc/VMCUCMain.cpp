//===- VMCUCMain.cpp - the vmcuc compiler driver --------------------------===//
//
// Parses a model and compiles it with the steps of vmcu/Tools/vmcuc/
// Compiler.h (pipeline, LLVM IR at O2, object emitted in-process), writing
// the stage --emit asks for, plus the C header of the model API on request.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/VMCUCMain.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Support/OutputFile.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"
#include "vmcu/Tools/vmcuc/Compiler.h"
#include "vmcu/Tools/vmcuc/FlashBudget.h"
#include "vmcu/Tools/vmcuc/StackBound.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"

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

The input is int8 TOSA 1.0 MLIR (or a later vmcu stage, see --from) or an
int8 .tflite model, recognised by its TFL3 identifier and imported first
(--tflite-output stops at an earlier tensor). Its operators may be:
{0}
(QUANTIZE and DEQUANTIZE from or to float32 only at the model's edges).

It runs the vmcu-tosa-to-llvm pipeline (the same one vmcu-opt registers),
translates the result to LLVM IR, optimises it at O2 and emits the object
in-process. Errors are reported as `error:` with the source location and a
non-zero exit code; on success one summary line is printed.

Speed and SRAM: by default vmcuc picks, per inverted bottleneck, the fastest
schedule (separate layers, a line buffer, or recomputation) that keeps the
SRAM of the smallest plan, or up to a quarter more where recomputing would
cost a quarter of the model's cycles; convs with GEMM rows of 257 to 1024
bytes run them in pairs within an eighth more SRAM where that saves 2% of
the model's cycles; --ram-kb=N lets it spend up to N KiB.
--report lists each layer's schedule, MACs, estimated cycles and workspace,
and the object's flash_bytes.

Examples:
  vmcuc model.mlir --cpu=cortex-m7 --ram-kb=256 -o model.o --header model.h
  vmcuc mcunet-5fps-vww.tflite --report report.json --memory-svg ring.svg

MLIR debugging options (--mlir-print-ir-after-all, --mlir-timing,
--mlir-print-op-on-diagnostic to print the whole failing op after an error,
...) are listed by --help-hidden.
)";

struct VMCUCOptions {
  cl::OptionCategory category{"vmcuc options"};

  cl::opt<std::string> input{cl::Positional,
                             cl::desc("<model.mlir|model.tflite>"),
                             cl::init("-"), cl::cat(category)};
  cl::opt<std::string> output{
      "o",
      cl::desc("Output file. Default: the input's name with .o, .ll or "
               ".lowered.mlir (per --emit), in the working directory; '-' "
               "writes to stdout"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<EmitKind> emit{
      "emit", cl::desc("What to write:"), cl::init(EmitKind::Obj),
      cl::values(
          clEnumValN(EmitKind::MLIR, "mlir",
                     "the LLVM-dialect MLIR module after the pipeline"),
          clEnumValN(EmitKind::LLVM, "llvm",
                     "LLVM IR (.ll) after the O2 optimisation pipeline"),
          clEnumValN(EmitKind::Obj, "obj", "an ELF object file (default)")),
      cl::cat(category)};
  cl::opt<FromKind> from{
      "from", cl::desc("Stage of the input, i.e. where the pipeline starts:"),
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
      cl::desc("Also write the model's C header: the API prototypes, "
               "VMCU_ARENA_BYTES, VMCU_INPUT_BYTES, VMCU_OUTPUT_BYTES and, "
               "for a .tflite, the input's and output's scale and zero "
               "point with TFLite Micro's QUANTIZE/DEQUANTIZE as C "
               "functions (for float model edges)"),
      cl::value_desc("file"), cl::cat(category)};
  SharedCompileFlags shared{category};
  cl::opt<std::string> memorySvg{
      "memory-svg",
      cl::desc("Also draw the arena over the layers as SVG (one column per "
               "layer, one rectangle per live tensor range)"),
      cl::value_desc("file"), cl::cat(category)};
};

/// Prints `vmcuc: error: message` for errors without a source location.
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "vmcuc") << message << "\n";
  return 1;
}

/// `value` as a C float literal that every C and C++ compiler reads: nine
/// significant digits (a float round-trips), and a decimal point where
/// %g printed neither one nor an exponent ("1" would make "1f", which is
/// an integer with an invalid suffix).
static std::string cFloatLiteral(double value) {
  std::string digits = llvm::formatv("{0}", llvm::format("%.9g", value)).str();
  if (digits.find_first_of(".eE") == std::string::npos)
    digits += ".0";
  return digits + "f";
}

/// The header's C names under the model's --symbol-prefix: the API's
/// identifiers (vmcu_invoke -> <prefix>_invoke, as vmcu-prefix-symbols
/// renames them) and its macros (VMCU_ARENA_BYTES -> <PREFIX>_ARENA_BYTES).
struct HeaderNames {
  explicit HeaderNames(StringRef symbolPrefix)
      : prefix(symbolPrefix.str()), macroPrefix(symbolPrefix.upper()) {}
  /// `vmcu_<suffix>` renamed.
  std::string api(StringRef suffix) const {
    return prefix + "_" + suffix.str();
  }
  /// `VMCU_<suffix>` renamed.
  std::string macro(StringRef suffix) const {
    return macroPrefix + "_" + suffix.str();
  }
  bool isDefault() const { return prefix == model_abi::kSymbolPrefix; }

  std::string prefix, macroPrefix;
};

/// The quantisation of the model's input and output (when the source model
/// declares it: a .tflite) and the conversions TFLite Micro's QUANTIZE
/// (reference_ops::AffineQuantize) and DEQUANTIZE (reference_ops::Dequantize)
/// make at float edges, as static inline C.
static void printEdges(llvm::raw_ostream &os, const HeaderNames &n,
                       EdgeAttr input, EdgeAttr output) {
  auto scale = [](EdgeAttr edge) {
    return cFloatLiteral(edge.getScale().getValueAsDouble());
  };
  std::string inScale = n.macro("INPUT_SCALE"),
              inZp = n.macro("INPUT_ZERO_POINT");
  std::string outScale = n.macro("OUTPUT_SCALE"),
              outZp = n.macro("OUTPUT_ZERO_POINT");
  std::string quantize = n.api("quantize_input");
  std::string dequantize = n.api("dequantize_output");
  os << "/* Quantisation of the input and output: real = scale * (q - "
        "zero_point).\n"
     << " * *_IS_FLOAT: the source model's edge is float32; vmcu compiles "
        "its int8\n"
     << " * body and leaves the QUANTIZE / DEQUANTIZE to these functions. */\n"
     << "#define " << inScale << " " << scale(input) << "\n"
     << "#define " << inZp << " (" << input.getZeroPoint() << ")\n"
     << "#define " << n.macro("INPUT_IS_FLOAT") << " "
     << int(input.getIsFloat()) << "\n"
     << "#define " << outScale << " " << scale(output) << "\n"
     << "#define " << outZp << " (" << output.getZeroPoint() << ")\n"
     << "#define " << n.macro("OUTPUT_IS_FLOAT") << " "
     << int(output.getIsFloat()) << "\n\n"
     << "/* TFLite Micro's QUANTIZE of n floats to the input's int8 "
        "(rounded half\n"
     << " * away from zero in float, then clamped), e.g. into "
     << n.api("input") << "(). */\n"
     << "static inline void " << quantize
     << "(const float *x, int8_t *q, unsigned n) {\n"
     << "  for (unsigned i = 0; i < n; ++i) {\n"
     << "    float r = roundf(x[i] / " << inScale << ");\n"
     << "    /* Beyond +-255 (and NaN) every zero point clamps alike. */\n"
     << "    r = r >= -255.0f ? (r <= 255.0f ? r : 255.0f) : -255.0f;\n"
     << "    int32_t v = (int32_t)r + " << inZp << ";\n"
     << "    q[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);\n"
     << "  }\n"
     << "}\n\n"
     << "/* TFLite Micro's DEQUANTIZE of n int8 outputs, e.g. of "
     << n.api("output") << "(). */\n"
     << "static inline void " << dequantize
     << "(const int8_t *q, float *y, unsigned n) {\n"
     << "  for (unsigned i = 0; i < n; ++i)\n"
     << "    y[i] = (float)((double)" << outScale << " *\n"
     << "                   (double)(q[i] - " << outZp << "));\n"
     << "}\n\n";
}

/// Every input and output: the tables and the accessors of
/// runtime/vmcu_model_api.h (guarded, so both headers may be included), and
/// each one's size as a comment.
static void printIOTables(llvm::raw_ostream &os, const HeaderNames &n,
                          const ModelInfo &info) {
  for (auto [kind, sizes] : {std::pair(StringRef("input"), &info.inputSizes),
                             std::pair(StringRef("output"), &info.outputSizes)})
    for (auto [i, bytes] : llvm::enumerate(*sizes))
      os << "/* " << kind << " " << i << ": " << bytes << " bytes */\n";
  std::string arena = n.api("arena");
  os << "extern int8_t " << arena << "[];\n";
  for (StringRef table : {"input_count", "output_count"})
    os << "extern const unsigned " << n.api(table) << ";\n";
  for (StringRef table :
       {"input_offsets", "input_sizes", "output_offsets", "output_sizes"})
    os << "extern const unsigned " << n.api(table) << "[];\n";
  std::string guard = n.macro("IO_ACCESSORS");
  os << "\n#ifndef " << guard << "\n#define " << guard << "\n"
     << "static inline int8_t *" << n.api("input_at") << "(unsigned i) {\n"
     << "  return " << arena << " + " << n.api("input_offsets") << "[i];\n}\n"
     << "static inline const int8_t *" << n.api("output_at")
     << "(unsigned i) {\n"
     << "  return " << arena << " + " << n.api("output_offsets") << "[i];\n}\n"
     << "#endif\n\n";
}

/// VMCU_STACK_BYTES: the deepest stack vmcu_invoke() uses, or why there is
/// no bound.
static void printStackBound(llvm::raw_ostream &os, const HeaderNames &n,
                            const StackBound &bound) {
  std::string invoke = n.api("invoke");
  if (bound.bytes) {
    os << "/* Worst-case stack of " << invoke
       << "(), from the object's frames\n"
       << " * and calls (C library memset/memcpy counted as " << kLibcFrameBytes
       << " bytes, the\n * ring checker's functions as " << kRingCheckFrameBytes
       << "). */\n"
       << "#define " << n.macro("STACK_BYTES") << " " << *bound.bytes << "u\n";
    return;
  }
  os << "/* No " << n.macro("STACK_BYTES") << ": " << invoke << "() calls "
     << bound.unknown << ", whose stack the compiler does not know. */\n";
}

/// The C header of the model, compatible with runtime/vmcu_model_api.h
/// (identical prototypes and extern declarations, so both may be included)
/// under the default symbol prefix; under another, every name carries it,
/// so that the headers of several models may be included together.
static void printHeader(llvm::raw_ostream &os, const ModelInfo &info,
                        StringRef source, StringRef cpu, StringRef prefix,
                        EdgeAttr input, EdgeAttr output,
                        ArrayRef<char> object) {
  HeaderNames n(prefix);
  std::string guard = n.macro("GENERATED_MODEL_H");
  os << "/* Generated by vmcuc from " << llvm::sys::path::filename(source)
     << " for " << cpu << ". Do not edit.\n"
     << (n.isDefault()
             ? " * C API of the model object; runtime/vmcu_model_api.h "
               "declares the same. */\n"
             : " * C API of the model object, compiled with --symbol-prefix=" +
                   n.prefix + ". */\n")
     << "#ifndef " << guard << "\n"
     << "#define " << guard << "\n\n"
     << "#include <math.h>\n#include <stdint.h>\n\n"
     << "#define " << n.macro("ARENA_BYTES") << " "
     << info.arenaBytes.value_or(0) << "u\n"
     << "#define " << n.macro("INPUT_BYTES") << " " << *info.inputBytes << "u\n"
     << "#define " << n.macro("OUTPUT_BYTES") << " " << *info.outputBytes
     << "u\n"
     << "#define " << n.macro("INPUT_COUNT") << " "
     << std::max<size_t>(info.inputSizes.size(), 1) << "u\n"
     << "#define " << n.macro("OUTPUT_COUNT") << " "
     << std::max<size_t>(info.outputSizes.size(), 1) << "u\n";
  // The object's flash (code, weights and tables) and stack, known once it
  // exists.
  if (!object.empty()) {
    os << "#define " << n.macro("FLASH_BYTES") << " "
       << getObjectFlashBytes(object, prefix) << "u\n";
    printStackBound(os, n, getObjectStackBound(object, prefix));
  }
  os << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "int8_t *" << n.api("input") << "(void);\n"
     << "const int8_t *" << n.api("output") << "(void);\n"
     << "int " << n.api("invoke") << "(void);\n";
  if (info.hasWorker)
    os << "/* Compiled with --cores=2: the second core calls "
       << n.api("worker") << "() in a loop;\n   each call takes its part of "
       << "the next " << n.api("invoke") << "() on the first core,\n   which "
       << "returns once both have finished. */\n"
       << "#define " << n.macro("CORES") << " 2u\n"
       << "void " << n.api("worker") << "(void);\n";
  if (info.hasWorker && !object.empty())
    os << "/* RAM the object takes besides the arena and the two stacks: "
       << "the words the\n   cores synchronise through and the stems' line "
       << "buffers both cores share. */\n"
       << "#define " << n.macro("SHARED_BYTES") << " "
       << getObjectStaticRamBytes(object, prefix) << "u\n";
  os << "\n";
  for (StringRef count : {"input_bytes", "output_bytes", "arena_bytes"})
    os << "extern const unsigned " << n.api(count) << ";\n";
  os << "\n";
  printIOTables(os, n, info);
  if (input && output)
    printEdges(os, n, input, output);
  os << "#ifdef __cplusplus\n}\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
}

/// Writes `contents` through `print` to `path` ("-" is stdout).
static LogicalResult
writeFile(StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> print) {
  return writeOutputFile(path, print, [](const llvm::Twine &m) { fail(m); });
}

/// Total size of the object's .text sections.
static uint64_t getTextBytes(ArrayRef<char> object) {
  std::unique_ptr<llvm::object::ObjectFile> file = openELFObject(object);
  if (!file)
    return 0;
  uint64_t bytes = 0;
  for (const llvm::object::SectionRef &section : file->sections()) {
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

/// Adds the object's flash to the JSON memory report at `path`:
/// `flash_bytes`, `compact_levels` (the loop levels its compact kernels
/// unroll), and per layer `code_bytes` and `table_bytes`.
static LogicalResult addFlashToReport(StringRef path, ArrayRef<char> object,
                                      StringRef symbolPrefix,
                                      unsigned compactLevels) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    fail("cannot read memory report '" + path +
         "': " + buffer.getError().message());
    return failure();
  }
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*buffer)->getBuffer());
  if (!report) {
    fail("memory report '" + path +
         "' is not JSON: " + llvm::toString(report.takeError()));
    return failure();
  }
  llvm::json::Object *fields = report->getAsObject();
  if (!fields) {
    fail("memory report '" + path + "' is not a JSON object");
    return failure();
  }
  (*fields)["flash_bytes"] =
      static_cast<int64_t>(getObjectFlashBytes(object, symbolPrefix));
  (*fields)["compact_levels"] = static_cast<int64_t>(compactLevels);
  (*fields)["static_ram_bytes"] =
      static_cast<int64_t>(getObjectStaticRamBytes(object, symbolPrefix));
  // The header's VMCU_STACK_BYTES; null where there is no bound.
  StackBound stack = getObjectStackBound(object, symbolPrefix);
  (*fields)["stack_bound_bytes"] =
      stack.bytes ? llvm::json::Value(static_cast<int64_t>(*stack.bytes))
                  : llvm::json::Value(nullptr);
  llvm::json::Array *layers = fields->getArray("layers");
  SmallVector<StringRef> names;
  if (layers)
    for (const llvm::json::Value &layer : *layers)
      if (const llvm::json::Object *l = layer.getAsObject())
        if (std::optional<StringRef> name = l->getString("name"))
          names.push_back(*name);
  llvm::StringMap<LayerFlash> layerFlash = getLayerFlash(object, names);
  if (layers)
    for (llvm::json::Value &layer : *layers) {
      llvm::json::Object *l = layer.getAsObject();
      std::optional<StringRef> name = l ? l->getString("name") : std::nullopt;
      if (!name)
        continue;
      LayerFlash flash = layerFlash.lookup(*name);
      (*l)["code_bytes"] = static_cast<int64_t>(flash.codeBytes);
      (*l)["table_bytes"] = static_cast<int64_t>(flash.tableBytes);
    }
  return writeFile(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", *report) << "\n";
  });
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

/// `text` broken at spaces into lines of at most `width` columns.
std::string wrapped(StringRef text, size_t width) {
  std::string out;
  size_t lineStart = 0;
  for (StringRef word : llvm::split(text, ' ')) {
    if (out.size() > lineStart &&
        out.size() - lineStart + word.size() >= width) {
      out.back() = '\n';
      lineStart = out.size();
    }
    out += word.str() + " ";
  }
  if (!out.empty())
    out.pop_back();
  return out;
}

/// Width of the overview's hand-wrapped lines.
constexpr size_t kOverviewColumns = 76;

/// The pipeline's options from the command line, from the stage the input
/// is in.
CompileOptions compileOptionsFrom(VMCUCOptions &opts) {
  CompileOptions compileOptions;
  compileOptions.memorySvg = opts.memorySvg;
  opts.shared.apply(compileOptions);
  switch (opts.from) {
  case FromKind::Auto:
    break;
  case FromKind::Tosa:
    compileOptions.from = PipelineInput::Tosa;
    break;
  case FromKind::Layers:
    compileOptions.from = PipelineInput::Layers;
    break;
  case FromKind::Tiled:
    compileOptions.from = PipelineInput::Tiled;
    break;
  }
  return compileOptions;
}

/// writeOutputs' result where the object exceeds the default flash budget
/// and fitDefaultFlashBudget set a plan that fits it: compile again.
constexpr int kCompileAgain = -1;

/// Writes the lowered `module` as `opts.emit` asks to `outputPath`, the
/// header (with the object's flash and stack) through `writeHeader`, and the
/// summary line; 0 on success, kCompileAgain (nothing written) where the
/// object exceeds the default flash budget and a plan fits it.
int writeOutputs(VMCUCOptions &opts, ModuleOp module,
                 CompileOptions &compileOptions, const ModelInfo &info,
                 function_ref<bool(ArrayRef<char>)> writeHeader) {
  int64_t arenaBytes = info.arenaBytes.value_or(0);
  std::string outputPath = opts.output.empty()
                               ? getDefaultOutput(opts.input, opts.emit)
                               : opts.output.getValue();
  // The summary goes to stdout unless the output itself does.
  llvm::raw_ostream &summary = outputPath == "-" ? llvm::errs() : llvm::outs();
  auto wrote = [&]() {
    summary << "vmcuc: wrote " << outputPath << " (arena " << arenaBytes
            << " bytes)\n";
    return 0;
  };
  if (opts.emit == EmitKind::MLIR)
    return failed(writeFile(outputPath,
                            [&](llvm::raw_ostream &os) { module.print(os); }))
               ? 1
               : wrote();

  SmallVector<char, 0> object;
  if (opts.emit == EmitKind::Obj && compileOptions.compiledObject) {
    object = *compileOptions.compiledObject;
  } else {
    std::unique_ptr<llvm::TargetMachine> machine =
        createCortexMTargetMachine(compileOptions);
    if (!machine)
      return 1;
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule = translateAndOptimize(
        module, llvmContext, *machine, llvm::sys::path::filename(opts.input),
        compileOptions);
    if (!llvmModule)
      return 1;
    if (opts.emit == EmitKind::LLVM)
      return failed(writeFile(outputPath,
                              [&](llvm::raw_ostream &os) {
                                llvmModule->print(os, nullptr);
                              }))
                 ? 1
                 : wrote();
    if (failed(emitObject(*llvmModule, *machine, object, compileOptions)))
      return 1;
  }
  FailureOr<bool> again = fitDefaultFlashBudget(
      opts.input, compileOptions, object, info.referenceFlashBytes);
  if (failed(again))
    return 1;
  if (*again)
    return kCompileAgain;
  if (failed(checkFlashBudget(opts.input, object, compileOptions)) ||
      !writeHeader(object))
    return 1;
  if (failed(writeFile(outputPath, [&](llvm::raw_ostream &os) {
        os.write(object.data(), object.size());
      })))
    return 1;
  if (!opts.shared.report.empty() && opts.shared.report != "-" &&
      failed(addFlashToReport(opts.shared.report, object,
                              compileOptions.flags.symbolPrefix,
                              compileOptions.flashPlan.compactLevels)))
    return 1;
  summary << "vmcuc: wrote " << outputPath << " (" << getTextBytes(object)
          << " bytes .text, arena " << arenaBytes << " bytes)\n";
  return 0;
}

/// Compiles `opts.input` with `compileOptions` and writes what `opts` asks
/// for (writeOutputs): 0 on success, kCompileAgain where the default flash
/// budget set a plan in `compileOptions`.
int compileAndWrite(VMCUCOptions &opts, MLIRContext &context,
                    CompileOptions &compileOptions) {
  StringRef cpu = nameOf(kTargetCpus, opts.shared.flags.cpu);
  FailureOr<ModelSource> source =
      parseModelFile(opts.input, context, compileOptions);
  if (failed(source))
    return 1;
  OwningOpRef<ModuleOp> &module = source->module;
  auto *dialect = context.getOrLoadDialect<VMCUDialect>();
  EdgeAttr inputEdge = dialect->getInputEdgeAttrHelper().getAttr(*module);
  EdgeAttr outputEdge = dialect->getOutputEdgeAttrHelper().getAttr(*module);
  FailureOr<ModelInfo> info = lowerToLLVMDialect(*module, compileOptions);
  if (failed(info))
    return 1;

  if (!opts.header.empty() && (!info->hasInput || !info->hasOutput ||
                               !info->inputBytes || !info->outputBytes)) {
    emitError(module->getLoc())
        << "--header needs the model's input and output: mark their "
           "vmcu.tensor_base ops with "
        << model_abi::kIOAttrName << " = \"input\" / \"output\"";
    return 1;
  }
  // The header, with the object's flash and stack when there is an object.
  auto writeHeader = [&](ArrayRef<char> object) {
    return opts.header.empty() ||
           succeeded(writeFile(opts.header, [&](llvm::raw_ostream &os) {
             printHeader(os, *info, opts.input, cpu,
                         compileOptions.flags.symbolPrefix, inputEdge,
                         outputEdge, object);
           }));
  };
  if (opts.emit != EmitKind::Obj && !writeHeader({}))
    return 1;
  return writeOutputs(opts, *module, compileOptions, *info, writeHeader);
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
  std::string overview = llvm::formatv(
      kOverview.data(), wrapped(supportedTFLiteOperators(), kOverviewColumns));
  cl::ParseCommandLineOptions(argc, argv, overview);

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  applyDiagnosticDefaults(context);

  CompileOptions compileOptions = compileOptionsFrom(opts);
  if (compileOptions.flags.flashKb && opts.input == "-")
    return fail("--flash-kb compiles the model more than once and needs a "
                "model file, not standard input");
  if (failed(chooseFlashPlan(opts.input, compileOptions)))
    return 1;
  int rc = compileAndWrite(opts, context, compileOptions);
  // The second compile runs under the budget the first one set, which
  // leaves no default budget to apply.
  if (rc == kCompileAgain)
    rc = compileAndWrite(opts, context, compileOptions);
  assert(rc != kCompileAgain && "the default budget applies once");
  return rc;
}
