//===- vmcu-gen.cpp - Seeded generator of int8 TOSA 1.0 models ------------===//
//
// Writes a random but realistically quantised int8 TOSA 1.0 model (func
// @main), and optionally the raw input bytes and the DRIVER.mlir that
// /work/shared/tools/tosa_ref.sh runs it with. The same options and seed
// always give byte-identical files.
//
//===----------------------------------------------------------------------===//

#include "Models.h"
#include "Random.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "vmcu/Support/OutputFile.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::gen;

namespace {

llvm::cl::OptionCategory genCategory("vmcu-gen options");

llvm::cl::opt<std::string> kindOpt(
    "kind", llvm::cl::value_desc("kind"), llvm::cl::cat(genCategory),
    llvm::cl::desc("Model to generate (required): conv, depthwise, fc, add, "
                   "avgpool, bottleneck, mcunet-vww-chain, concat, resize or "
                   "conv-pool"));
llvm::cl::opt<std::string> modelOpt(
    "model", llvm::cl::value_desc("file"), llvm::cl::cat(genCategory),
    llvm::cl::desc("Instead of --kind, take @main from an existing model: "
                   "TOSA .mlir or int8 .tflite (imported as vmcuc does); "
                   "--driver and --input then work as for a generated one"));
llvm::cl::opt<uint64_t>
    seedOpt("seed", llvm::cl::init(1), llvm::cl::value_desc("N"),
            llvm::cl::cat(genCategory),
            llvm::cl::desc("Random seed for weights, biases, zero points, "
                           "scales and input bytes (default 1)"));
llvm::cl::opt<std::string>
    outputOpt("o", llvm::cl::init("-"), llvm::cl::value_desc("model.mlir"),
              llvm::cl::cat(genCategory),
              llvm::cl::desc("Model file to write (default: stdout)"));
llvm::cl::opt<std::string> driverOpt(
    "driver", llvm::cl::value_desc("driver.mlir"), llvm::cl::cat(genCategory),
    llvm::cl::desc("Also write the tosa_ref.sh DRIVER.mlir: @entry calls "
                   "@main on the --input bytes and prints the result with "
                   "printMemrefI32"));
llvm::cl::opt<std::string> inputOpt(
    "input", llvm::cl::value_desc("in.bin"), llvm::cl::cat(genCategory),
    llvm::cl::desc("Also write the model input as raw int8 bytes (NHWC, "
                   "uniform over [-128, 127], drawn from the seed)"));

// Shape options. Each kind reads only some of them; giving one a kind does
// not read is an error.
llvm::cl::opt<int64_t> hOpt("h", llvm::cl::init(8), llvm::cl::value_desc("H"),
                            llvm::cl::cat(genCategory),
                            llvm::cl::desc("Input height (default 8)"));
llvm::cl::opt<int64_t> wOpt("w", llvm::cl::init(8), llvm::cl::value_desc("W"),
                            llvm::cl::cat(genCategory),
                            llvm::cl::desc("Input width (default 8)"));
llvm::cl::opt<int64_t>
    cOpt("c", llvm::cl::init(8), llvm::cl::value_desc("C"),
         llvm::cl::cat(genCategory),
         llvm::cl::desc("Channels of depthwise, add and avgpool (default 8)"));
llvm::cl::opt<int64_t>
    cinOpt("cin", llvm::cl::init(8), llvm::cl::value_desc("C"),
           llvm::cl::cat(genCategory),
           llvm::cl::desc("Input channels of conv and bottleneck (default 8)"));
llvm::cl::opt<int64_t>
    cmidOpt("cmid", llvm::cl::init(48), llvm::cl::value_desc("C"),
            llvm::cl::cat(genCategory),
            llvm::cl::desc("Bottleneck expansion channels (default 48)"));
llvm::cl::opt<int64_t> coutOpt(
    "cout", llvm::cl::init(16), llvm::cl::value_desc("C"),
    llvm::cl::cat(genCategory),
    llvm::cl::desc("Output channels of conv and bottleneck (default 16)"));
llvm::cl::opt<int64_t>
    kernelOpt("kernel", llvm::cl::init(3), llvm::cl::value_desc("R"),
              llvm::cl::cat(genCategory),
              llvm::cl::desc("RxR window of conv, depthwise, avgpool and the "
                             "bottleneck's depthwise (default 3)"));
llvm::cl::opt<int64_t>
    strideOpt("stride", llvm::cl::init(1), llvm::cl::value_desc("S"),
              llvm::cl::cat(genCategory),
              llvm::cl::desc("Stride of conv, depthwise and avgpool (default "
                             "1)"));
llvm::cl::opt<int64_t> poolOpt(
    "pool", llvm::cl::init(0), llvm::cl::value_desc("P"),
    llvm::cl::cat(genCategory),
    llvm::cl::desc("conv-pool: a PxP average pool of stride P (VALID) over "
                   "the conv's output; 0 (default): a global pool"));
llvm::cl::opt<std::string> paddingOpt(
    "padding", llvm::cl::init("same"), llvm::cl::value_desc("same|valid"),
    llvm::cl::cat(genCategory),
    llvm::cl::desc("Padding of conv, depthwise and avgpool: same (TFLite "
                   "pads, pad_after trimmed to TOSA's exact division) or "
                   "valid (default same)"));
llvm::cl::opt<int64_t> mOpt("m", llvm::cl::init(4), llvm::cl::value_desc("M"),
                            llvm::cl::cat(genCategory),
                            llvm::cl::desc("fc: rows of the [1, M, K] input "
                                           "(default 4)"));
llvm::cl::opt<int64_t> kOpt("k", llvm::cl::init(64), llvm::cl::value_desc("K"),
                            llvm::cl::cat(genCategory),
                            llvm::cl::desc("fc: input features (default 64)"));
llvm::cl::opt<int64_t> nOpt("n", llvm::cl::init(32), llvm::cl::value_desc("N"),
                            llvm::cl::cat(genCategory),
                            llvm::cl::desc("fc: output features (default "
                                           "32)"));
llvm::cl::opt<std::string> stridesOpt(
    "strides", llvm::cl::init("1,1,1"), llvm::cl::value_desc("s1,s2,s3"),
    llvm::cl::cat(genCategory),
    llvm::cl::desc("Bottleneck strides of expand, depthwise and project "
                   "(default 1,1,1)"));
llvm::cl::opt<bool> residualOpt(
    "residual", llvm::cl::cat(genCategory),
    llvm::cl::desc("Bottleneck: add the input to the projection (needs "
                   "--cin == --cout and --strides=1,1,1)"));

constexpr const char *kOverview =
    R"(vmcu-gen: seeded generator of int8 TOSA 1.0 models

Writes func.func @main(tensor<1xHxWxCxi8>) -> tensor<...xi8> (fc: [1, M, K])
as MLIR 22 parses TOSA 1.0. Weights are uniform int8 in [-127, 127]
(zero point 0), biases int32 with |b| < 2^12, the input zero point is in
[-128, 127], output zero points in [-20, 20], and every tosa.rescale maps
the accumulator's expected spread to ~30 int8 units (scale32, DOUBLE_ROUND,
per channel after convs and matmuls).

Kinds and the shape options they read:
  conv              --h --w --cin --cout --kernel --stride --padding
                    tosa.conv2d, rescale
  depthwise         --h --w --c --kernel --stride --padding
                    tosa.depthwise_conv2d (multiplier 1), rescale
  fc                --m --k --n
                    tosa.matmul [1,M,K]x[1,K,N], int32 bias add, rescale
  add               --h --w --c
                    x + ReLU6(conv1x1(x)): both int8 operands rescaled to
                    int32, tosa.add, rescale back (TFLite-to-TOSA add)
  avgpool           --h --w --c --kernel --stride --padding
                    tosa.avg_pool2d, output zero point = input zero point
  bottleneck        --h --w --cin --cmid --cout --kernel --strides --residual
                    pw expand + ReLU6, dw RxR (padding same) + ReLU6,
                    pw project [+ residual add]
  mcunet-vww-chain  (no shape options) MCUNet-5fps-VWW S1-S8 from the vMCU
                    paper's Table 2, input 1x20x20x16, joined by a 3x3
                    stride-2 depthwise conv where H/W halves and a 1x1 conv
                    where channels change
  concat            --h --w --cin --cmid --cout
                    a graph, not a chain: x feeds a 1x1 and a 3x3 conv
                    (cmid channels each, ReLU6); tosa.concat of both and x
                    along the channels; a 1x1 conv to cout
  resize            --h --w --c
                    tosa.resize 2x up (NEAREST_NEIGHBOR, TFLite's half-pixel
                    scale 4/2, offset -1, border 1), a 3x3 conv (ReLU6),
                    tosa.resize 2x down (scale 1/2), a 1x1 conv
  conv-pool         --h --w --cin --cout --kernel --stride --padding --pool
                    a network's head: tosa.conv2d, rescale (ReLU6), then
                    tosa.avg_pool2d over the conv's whole output plane, or
                    with --pool=P over its PxP windows (stride P, VALID)

With --model=FILE no model is generated: FILE's @main is written with
its --driver and --input, e.g. to run a .tflite model through tosa_ref.sh.

Example:
  vmcu-gen --kind=conv --h=8 --w=8 --cin=8 --cout=16 --seed=3 -o m.mlir \
           --driver=d.mlir --input=in.bin
  tosa_ref.sh m.mlir d.mlir out.bin
)";

void printError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "vmcu-gen") << message << "\n";
}

/// Shape options each kind reads, in --help order.
llvm::SmallVector<llvm::cl::Option *> optionsOf(Kind kind) {
  switch (kind) {
  case Kind::Conv:
    return {&hOpt,      &wOpt,      &cinOpt,    &coutOpt,
            &kernelOpt, &strideOpt, &paddingOpt};
  case Kind::ConvPool:
    return {&hOpt,      &wOpt,      &cinOpt,     &coutOpt,
            &kernelOpt, &strideOpt, &paddingOpt, &poolOpt};
  case Kind::Depthwise:
  case Kind::AvgPool:
    return {&hOpt, &wOpt, &cOpt, &kernelOpt, &strideOpt, &paddingOpt};
  case Kind::FullyConnected:
    return {&mOpt, &kOpt, &nOpt};
  case Kind::Add:
    return {&hOpt, &wOpt, &cOpt};
  case Kind::Bottleneck:
    return {&hOpt,    &wOpt,      &cinOpt,     &cmidOpt,
            &coutOpt, &kernelOpt, &stridesOpt, &residualOpt};
  case Kind::McunetVwwChain:
    return {};
  case Kind::Concat:
    return {&hOpt, &wOpt, &cinOpt, &cmidOpt, &coutOpt};
  case Kind::Resize:
    return {&hOpt, &wOpt, &cOpt};
  }
  llvm_unreachable("unknown kind");
}

llvm::SmallVector<llvm::cl::Option *> allShapeOptions() {
  return {&hOpt,    &wOpt,      &cOpt,       &cinOpt,      &cmidOpt,
          &coutOpt, &kernelOpt, &strideOpt,  &paddingOpt,  &mOpt,
          &kOpt,    &nOpt,      &stridesOpt, &residualOpt, &poolOpt};
}

/// `--name=value` of a shape option as the spec holds it.
std::string spellOption(llvm::cl::Option *opt, const ModelSpec &spec) {
  if (opt == &hOpt)
    return llvm::formatv("--h={0}", spec.h);
  if (opt == &wOpt)
    return llvm::formatv("--w={0}", spec.w);
  if (opt == &cOpt)
    return llvm::formatv("--c={0}", spec.c);
  if (opt == &cinOpt)
    return llvm::formatv("--cin={0}", spec.cin);
  if (opt == &cmidOpt)
    return llvm::formatv("--cmid={0}", spec.cmid);
  if (opt == &coutOpt)
    return llvm::formatv("--cout={0}", spec.cout);
  if (opt == &kernelOpt)
    return llvm::formatv("--kernel={0}", spec.kernel);
  if (opt == &strideOpt)
    return llvm::formatv("--stride={0}", spec.stride);
  if (opt == &paddingOpt)
    return spec.padding == Padding::Same ? "--padding=same" : "--padding=valid";
  if (opt == &mOpt)
    return llvm::formatv("--m={0}", spec.m);
  if (opt == &kOpt)
    return llvm::formatv("--k={0}", spec.k);
  if (opt == &nOpt)
    return llvm::formatv("--n={0}", spec.n);
  if (opt == &stridesOpt)
    return llvm::formatv("--strides={0},{1},{2}", spec.strides[0],
                         spec.strides[1], spec.strides[2]);
  if (opt == &residualOpt)
    return spec.residual ? "--residual" : "--residual=false";
  if (opt == &poolOpt)
    return llvm::formatv("--pool={0}", spec.pool);
  llvm_unreachable("not a shape option");
}

/// Parses "a,b,c" into three integers.
bool parseStrides(llvm::StringRef text, std::array<int64_t, 3> &strides) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  if (parts.size() != 3)
    return false;
  for (auto [part, value] : llvm::zip_equal(parts, strides))
    if (part.trim().getAsInteger(10, value))
      return false;
  return true;
}

/// Reads the command line into `spec`; prints an error and fails on a bad
/// kind, padding or strides spelling, or a shape option the kind ignores.
LogicalResult readSpec(ModelSpec &spec) {
  if (kindOpt.empty()) {
    printError("--kind is required (see --help)");
    return failure();
  }
  std::optional<Kind> kind = parseKind(kindOpt);
  if (!kind) {
    printError("unknown --kind '" + kindOpt +
               "'; expected conv, depthwise, fc, add, avgpool, bottleneck, "
               "mcunet-vww-chain, concat, resize or conv-pool");
    return failure();
  }
  spec.kind = *kind;
  llvm::SmallVector<llvm::cl::Option *> used = optionsOf(*kind);
  for (llvm::cl::Option *opt : allShapeOptions()) {
    if (opt->getNumOccurrences() == 0 || llvm::is_contained(used, opt))
      continue;
    printError("--" + opt->ArgStr + " is not an option of --kind=" +
               kindName(*kind) + " (see --help)");
    return failure();
  }

  spec.h = hOpt;
  spec.w = wOpt;
  spec.c = cOpt;
  spec.cin = cinOpt;
  spec.cmid = cmidOpt;
  spec.cout = coutOpt;
  spec.kernel = kernelOpt;
  spec.stride = strideOpt;
  spec.pool = poolOpt;
  spec.m = mOpt;
  spec.k = kOpt;
  spec.n = nOpt;
  spec.residual = residualOpt;
  if (paddingOpt == "same") {
    spec.padding = Padding::Same;
  } else if (paddingOpt == "valid") {
    spec.padding = Padding::Valid;
  } else {
    printError("--padding must be same or valid, got '" + paddingOpt + "'");
    return failure();
  }
  if (!parseStrides(stridesOpt, spec.strides)) {
    printError("--strides must be three integers s1,s2,s3, got '" + stridesOpt +
               "'");
    return failure();
  }
  return success();
}

/// The command that regenerates the model, minus the output paths.
std::string describe(const ModelSpec &spec, uint64_t seed) {
  std::string text = llvm::formatv("vmcu-gen --kind={0} --seed={1}",
                                   kindName(spec.kind), seed);
  for (llvm::cl::Option *opt : optionsOf(spec.kind))
    text += " " + spellOption(opt, spec);
  return text;
}

/// Adds `func.func @entry()`, which runs @main on `input` and prints the
/// result widened to i32, and the printMemrefI32 declaration.
void buildDriver(ModuleOp module, func::FuncOp main,
                 llvm::ArrayRef<int8_t> input) {
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  Location loc = b.getUnknownLoc();
  auto unranked = UnrankedTensorType::get(b.getI32Type());
  auto entry = func::FuncOp::create(b, loc, "entry", b.getFunctionType({}, {}));
  auto print = func::FuncOp::create(b, loc, "printMemrefI32",
                                    b.getFunctionType({unranked}, {}));
  print.setPrivate();

  b.setInsertionPointToStart(entry.addEntryBlock());
  auto inType = cast<RankedTensorType>(main.getArgumentTypes()[0]);
  auto outType = cast<RankedTensorType>(main.getResultTypes()[0]);
  Value in = tosa::ConstOp::create(b, loc, inType,
                                   DenseElementsAttr::get(inType, input));
  auto call = func::CallOp::create(b, loc, main, ValueRange{in});
  Value wide = tosa::CastOp::create(b, loc, outType.clone(b.getI32Type()),
                                    call.getResult(0));
  Value erased = tensor::CastOp::create(b, loc, unranked, wide);
  func::CallOp::create(b, loc, print, ValueRange{erased});
  func::ReturnOp::create(b, loc);
}

/// Prints `ops` one after another at top level, without a module wrapper:
/// tosa_ref.sh concatenates the model and the driver into one file.
void printTopLevel(llvm::raw_ostream &os, const std::string &header,
                   llvm::ArrayRef<Operation *> ops) {
  os << "// Generated by: " << header << "\n";
  for (Operation *op : ops) {
    op->print(os, OpPrintingFlags().useLocalScope());
    os << "\n";
  }
}

LogicalResult writeFile(llvm::StringRef path,
                        llvm::function_ref<void(llvm::raw_ostream &)> write) {
  return writeOutputFile(path, write, printError);
}

/// Parses or imports `path` into `module` and returns its @main.
llvm::Expected<func::FuncOp> loadModel(MLIRContext &context,
                                       llvm::StringRef path,
                                       OwningOpRef<ModuleOp> &module) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer)
    return llvm::createStringError(error);
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer->getBufferStart()),
      buffer->getBufferSize());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  if (isTFLiteFile(bytes))
    module = importTFLite(bytes, path, &context);
  else
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return llvm::createStringError("cannot read the model '" + path + "'");
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main || main.getNumArguments() != 1 || main.getNumResults() != 1 ||
      !isa<RankedTensorType>(main.getArgumentTypes()[0]) ||
      !isa<RankedTensorType>(main.getResultTypes()[0]))
    return llvm::createStringError(
        "'" + path +
        "' has no func.func @main with one tensor argument and "
        "one tensor result");
  return main;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::HideUnrelatedOptions(genCategory);
  llvm::cl::ParseCommandLineOptions(argc, argv, kOverview);

  MLIRContext context;
  context.loadDialect<func::FuncDialect, tensor::TensorDialect,
                      tosa::TosaDialect>();
  OwningOpRef<ModuleOp> module;
  std::string header;
  // Separate streams, so asking for --input does not change the model.
  Rng modelRng(seedOpt);
  Rng inputRng(~static_cast<uint64_t>(seedOpt));
  llvm::Expected<func::FuncOp> main = llvm::createStringError("no model");
  if (!modelOpt.empty()) {
    if (!kindOpt.empty()) {
      printError("--model and --kind exclude each other");
      return 1;
    }
    llvm::consumeError(main.takeError());
    main = loadModel(context, modelOpt, module);
    header =
        llvm::formatv("vmcu-gen --model={0} --seed={1}",
                      llvm::sys::path::filename(modelOpt), seedOpt.getValue());
  } else {
    ModelSpec spec;
    if (failed(readSpec(spec)))
      return 1;
    module = ModuleOp::create(UnknownLoc::get(&context));
    llvm::consumeError(main.takeError());
    main = buildModel(*module, spec, modelRng);
    header = describe(spec, seedOpt);
  }
  if (!main) {
    printError(llvm::toString(main.takeError()));
    return 1;
  }

  auto inType = cast<RankedTensorType>(main->getArgumentTypes()[0]);
  llvm::SmallVector<int8_t> input;
  input.reserve(inType.getNumElements());
  for (int64_t i = 0, e = inType.getNumElements(); i < e; ++i)
    input.push_back(static_cast<int8_t>(inputRng.uniformInt(-128, 127)));

  Operation *mainOp = *main;
  if (!driverOpt.empty())
    buildDriver(*module, *main, input);
  if (failed(verify(*module))) {
    printError("internal error: the generated module does not verify");
    return 1;
  }

  llvm::SmallVector<Operation *> driverOps;
  for (Operation &op : module->getBody()->getOperations())
    if (&op != mainOp)
      driverOps.push_back(&op);

  if (failed(writeFile(outputOpt, [&](llvm::raw_ostream &os) {
        printTopLevel(os, header, {mainOp});
      })))
    return 1;
  if (!driverOpt.empty() &&
      failed(writeFile(driverOpt, [&](llvm::raw_ostream &os) {
        printTopLevel(os, header + " (driver)", driverOps);
      })))
    return 1;
  if (!inputOpt.empty() &&
      failed(writeFile(inputOpt, [&](llvm::raw_ostream &os) {
        os.write(reinterpret_cast<const char *>(input.data()), input.size());
      })))
    return 1;
  return 0;
}
