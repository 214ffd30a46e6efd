//===- vmcu-run.cpp - compile, link and run a model on QEMU ---------------===//
//
// vmcu-run compiles a model in-process (vmcu/Tools/vmcuc/Compiler.h), links
// it with runtime/ using arm-none-eabi-gcc, runs it on QEMU's MPS2 board
// for the core and writes the output bytes. One summary line on success.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Tools/vmcuc/Compiler.h"
#include "vmcu/Tools/vmcuc/FlashBudget.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::vmcu;
namespace cl = llvm::cl;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

constexpr llvm::StringLiteral kToolName = "vmcu-run";
constexpr llvm::StringLiteral kCcName = "arm-none-eabi-gcc";
constexpr llvm::StringLiteral kCcPackages =
    "gcc-arm-none-eabi libnewlib-arm-none-eabi";
constexpr llvm::StringLiteral kQemuName = "qemu-system-arm";
constexpr llvm::StringLiteral kQemuPackages = "qemu-system-arm";
/// The runtime directory's marker file.
constexpr llvm::StringLiteral kHarnessSource = "harness.c";
/// Linked only with --ring-check.
constexpr llvm::StringLiteral kRingCheckSource = "vmcu_ring_check.c";
/// Prefix of the harness's summary line on the semihosting console.
constexpr llvm::StringLiteral kSummaryPrefix = "vmcu: arena=";
constexpr unsigned kDefaultTimeoutSeconds = 120;

#ifdef VMCU_RUNTIME_SOURCE_DIR
constexpr llvm::StringLiteral kSourceRuntimeDir = VMCU_RUNTIME_SOURCE_DIR;
#else
constexpr llvm::StringLiteral kSourceRuntimeDir = "";
#endif
/// The installed runtime, relative to the directory of the executable.
constexpr llvm::StringLiteral kInstalledRuntimeDir = "../share/vmcu/runtime";

/// A QEMU board and the runtime linker script for one core.
struct Board {
  TargetCpu cpu;
  llvm::StringRef machine;
  llvm::StringRef linkerScript;
  /// The FLASH region of the linker script (its VMCU_FLASH_SIZE).
  uint64_t flashBytes;
  /// The RAM region of the linker script (its VMCU_RAM_SIZE).
  uint64_t ramBytes;
  /// The core clock QEMU 7.2 gives SysTick (the runtime's
  /// VMCU_RT_CORE_CLOCK_HZ): 25 MHz on the MPS2 boards, 20 MHz on the
  /// IoTKit ones (39,999 ticks per 2 M instructions under -icount shift=0).
  uint64_t systickHz;
};

/// Every MPS2 board maps 4 MiB of ZBT SSRAM1 as flash and 4 MiB of
/// SSRAM2&3 as RAM (runtime/boards/mps2-an386.ld, mps2-an500.ld and
/// mps2-an505.ld, the last at the IoTKit's secure aliases).
constexpr uint64_t kMps2FlashBytes = 4 * kBytesPerKiB * kBytesPerKiB;
constexpr uint64_t kMps2RamBytes = 4 * kBytesPerKiB * kBytesPerKiB;
constexpr uint64_t kMps2SystickHz = 25000000;
constexpr uint64_t kIoTKitSystickHz = 20000000;

constexpr Board kBoards[] = {
    {TargetCpu::CortexM4, "mps2-an386", "boards/mps2-an386.ld", kMps2FlashBytes,
     kMps2RamBytes, kMps2SystickHz},
    {TargetCpu::CortexM7, "mps2-an500", "boards/mps2-an500.ld", kMps2FlashBytes,
     kMps2RamBytes, kMps2SystickHz},
    {TargetCpu::CortexM33, "mps2-an505", "boards/mps2-an505.ld",
     kMps2FlashBytes, kMps2RamBytes, kIoTKitSystickHz},
};

/// What GNU ld prints when a section does not fit its memory region.
constexpr llvm::StringLiteral kLinkerOverflowMessage = "overflowed by";
/// What it prints when the RAM region is the one that does not fit.
constexpr llvm::StringLiteral kLinkerRamOverflowMessage = "region `RAM'";

/// Flags of runtime/README.md's link command (besides -mcpu and -T).
constexpr llvm::StringLiteral kLinkFlags[] = {
    "-mthumb",
    "-mfloat-abi=soft",
    "-O2",
    "-ffunction-sections",
    "-fdata-sections",
    "-nostartfiles",
    "--specs=nano.specs",
    "--specs=nosys.specs",
    "-Wl,--gc-sections",
    "-Wl,--no-enum-size-warning",
    "-Wl,-z,noexecstack",
};
constexpr llvm::StringLiteral kRuntimeSources[] = {
    "startup.c", "vmcu_runtime.c", kHarnessSource};

/// QEMU flags of runtime/README.md: no display, no monitor, semihosting
/// console on stderr.
constexpr llvm::StringLiteral kQemuFlags[] = {"-nographic",
                                              "-monitor",
                                              "none",
                                              "-serial",
                                              "none",
                                              "-semihosting-config",
                                              "enable=on,target=native"};

/// runtime/vmcu_ring_check.h's default VMCU_RING_CHECK_MAX_SEGMENTS.
constexpr int64_t kRingCheckDefaultSegments = 16384;

/// With --icount: the harness measures vmcu_invoke() in virtual time, and
/// QEMU's `-icount shift=0` advances it 1 ns per instruction, so the
/// harness's `vmcu: vtime_ns=N` line counts instructions (runtime/README.md;
/// resolution 40 instructions, the SysTick granularity).
constexpr llvm::StringLiteral kHarnessVtimeDefine = "-DVMCU_HARNESS_VTIME";
constexpr llvm::StringLiteral kQemuIcountShift = "shift=0";
constexpr llvm::StringLiteral kVtimePrefix = "vmcu: vtime_ns=";

/// QEMU exit codes the harness and the fault handler use
/// (runtime/vmcu_runtime.h), by value.
constexpr llvm::StringLiteral kStatusMeanings[] = {
    "ok",
    "vmcu_invoke() returned non-zero",
    "input or output file error",
    "HardFault or another unexpected exception",
    "stack overflow",
    "ring-safety violation",
};

constexpr llvm::StringLiteral kOverview = R"(vmcu model runner

Compiles an int8 model exactly as vmcuc does (in-process), links it with the
bare-metal runtime (runtime/) using arm-none-eabi-gcc, runs one inference on
QEMU's MPS2 board for the core (cortex-m4: mps2-an386, cortex-m7:
mps2-an500, cortex-m33: mps2-an505) and writes the output bytes. On success it prints one line:

  vmcu-run: cortex-m4 arena=1096 B stack=264 B flash=3318 B status=0

  arena  the model's tensor arena (vmcu_arena_bytes)
  stack  the stack high-water mark measured on the board (runtime and model)
  flash  the compiled model object's share of flash: .text, .rodata
         (weights, tables), .data and .ARM.exidx, i.e. what `size` calls
         text + data minus the arena; the runtime is not included

The input file must hold exactly the model's input bytes (int8, NHWC). The
exit code is 0 on success and 1 on any error: a compile error (printed with
its source location), a missing tool, a wrong input size, a model whose
flash (code, weights and tables) exceeds the board's 4 MiB (checked before
linking), a link error, a timeout, or a non-zero board status (the board's
console is printed; with --ring-check, a ring-safety violation is one).

Needs arm-none-eabi-gcc with newlib (Debian: gcc-arm-none-eabi
libnewlib-arm-none-eabi) and qemu-system-arm, found on PATH unless --cc and
--qemu name them.

The model is TOSA MLIR or an int8 .tflite file, as for vmcuc.

Examples:
  vmcu-run model.mlir --cpu=cortex-m7 --input in.bin --output out.bin
  vmcu-run mcunet-5fps-vww.tflite --ring-check --icount --input in.bin

MLIR debugging options (--mlir-print-ir-after-all, ...) are listed by
--help-hidden.
)";

struct RunOptions {
  cl::OptionCategory category{"vmcu-run options"};

  cl::opt<std::string> model{cl::Positional, cl::Required,
                             cl::desc("<model.mlir|model.tflite>"),
                             cl::cat(category)};
  cl::opt<std::string> input{
      "input", cl::Required,
      cl::desc("Input bytes of the model (exactly its input size)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> output{
      "output", cl::desc("Where to write the output bytes (default: nowhere)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> report{
      "report", cl::desc("Also write the offset solver's JSON memory report"),
      cl::value_desc("file"), cl::cat(category)};
  SharedCompileFlags shared{category};
  cl::opt<std::string> keepTemps{
      "keep-temps",
      cl::desc("Build and run in this directory and keep its files "
               "(model.o, model.elf, link.log, console.log, in.bin, "
               "out.bin) instead of a deleted temporary directory"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> runtimeDir{
      "runtime-dir",
      cl::desc("The vmcu runtime sources. Default: the source tree's "
               "runtime/ if it exists, else ../share/vmcu/runtime next to "
               "this executable"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> qemu{
      "qemu", cl::desc("QEMU to run (default: qemu-system-arm on PATH)"),
      cl::value_desc("path"), cl::cat(category)};
  cl::opt<std::string> cc{"cc",
                          cl::desc("Compiler driver that links (default: "
                                   "arm-none-eabi-gcc on PATH)"),
                          cl::value_desc("path"), cl::cat(category)};
  cl::opt<bool> icount{
      "icount",
      cl::desc("Count the instructions vmcu_invoke() executes: QEMU runs "
               "with -icount shift=0 and the summary adds instructions=N"),
      cl::init(false), cl::cat(category)};
  cl::opt<unsigned> timeout{
      "timeout", cl::desc("Seconds QEMU may run before it is killed"),
      cl::init(kDefaultTimeoutSeconds), cl::cat(category)};
};

/// The values of the harness's summary line
/// `vmcu: arena=<N> stack=<N> status=<N>`.
struct BoardSummary {
  uint64_t arena = 0, stack = 0;
  int64_t status = 0;
};

} // namespace

/// Prints `vmcu-run: error: message` and returns the exit code 1.
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), kToolName) << message << "\n";
  return 1;
}

/// "the model needs N B of flash (code C B, weights and tables W B), the
/// board's flash is F B".
static std::string describeFlash(const ObjectFlash &flash, const Board &board) {
  return llvm::formatv("the model needs {0} B of flash (code {1} B, weights "
                       "and tables {2} B), and {3}'s flash holds {4} B",
                       flash.totalBytes(), flash.codeBytes, flash.constantBytes,
                       board.machine, board.flashBytes)
      .str();
}

static const Board &lookupBoard(TargetCpu cpu) {
  for (const Board &board : kBoards)
    if (board.cpu == cpu)
      return board;
  llvm_unreachable("every TargetCpu has a board");
}

/// `override` if set (a path, or a name looked up on PATH), else `name` on
/// PATH.
static std::optional<std::string> findTool(llvm::StringRef override,
                                           llvm::StringRef name) {
  llvm::StringRef wanted = override.empty() ? name : override;
  if (path::has_parent_path(wanted))
    return fs::can_execute(wanted) ? std::optional(wanted.str()) : std::nullopt;
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(wanted);
  return found ? std::optional(*found) : std::nullopt;
}

/// The runtime directory: --runtime-dir, the source tree's, or the
/// installed one. Empty if none holds the harness.
static std::string findRuntimeDir(llvm::StringRef option, const char *argv0) {
  auto hasHarness = [](llvm::StringRef dir) {
    llvm::SmallString<256> file(dir);
    path::append(file, kHarnessSource);
    return fs::exists(file);
  };
  if (!option.empty())
    return hasHarness(option) ? option.str() : std::string();
  if (!kSourceRuntimeDir.empty() && hasHarness(kSourceRuntimeDir))
    return kSourceRuntimeDir.str();
  static int anchor;
  llvm::SmallString<256> installed(
      path::parent_path(fs::getMainExecutable(argv0, &anchor)));
  path::append(installed, kInstalledRuntimeDir);
  path::remove_dots(installed, /*remove_dot_dot=*/true);
  return hasHarness(installed) ? installed.str().str() : std::string();
}

static LogicalResult writeBytes(llvm::StringRef file, ArrayRef<char> bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec, fs::OF_None);
  if (ec) {
    fail("cannot write '" + file + "': " + ec.message());
    return failure();
  }
  os.write(bytes.data(), bytes.size());
  return success();
}

/// Runs `args` with stdin closed and stdout and stderr in `log`. Returns the
/// exit code, or -1 with `error` set if it did not run or did not finish.
static int execute(llvm::StringRef program, ArrayRef<std::string> args,
                   llvm::StringRef log, unsigned timeoutSeconds,
                   std::string &error) {
  SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  // The redirects open the log without truncating it: a shorter output
  // would leave the tail of a previous run's (--keep-temps) in it.
  fs::remove(log);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), log, log};
  int rc = llvm::sys::ExecuteAndWait(program, argRefs, std::nullopt, redirects,
                                     timeoutSeconds,
                                     /*MemoryLimit=*/0, &error);
  return rc < 0 ? -1 : rc;
}

static std::optional<BoardSummary> parseSummary(llvm::StringRef console) {
  SmallVector<llvm::StringRef> lines;
  console.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.consume_front(kSummaryPrefix))
      continue;
    BoardSummary summary;
    auto [arena, rest] = line.split(" stack=");
    auto [stack, status] = rest.split(" status=");
    if (arena.getAsInteger(10, summary.arena) ||
        stack.getAsInteger(10, summary.stack) ||
        status.getAsInteger(10, summary.status))
      return std::nullopt;
    return summary;
  }
  return std::nullopt;
}

static int runMain(int argc, char **argv) {
  RunOptions opts;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  // Everything that can be checked before compiling.
  const CompileFlags &flags = opts.shared.flags;
  const Board &board = lookupBoard(flags.cpu);
  StringRef cpu = nameOf(kTargetCpus, flags.cpu);
  std::optional<std::string> cc = findTool(opts.cc, kCcName);
  if (!cc)
    return opts.cc.empty()
               ? fail(Twine(kCcName) + " not found; install " + kCcPackages)
               : fail("--cc '" + opts.cc + "' not found");
  std::optional<std::string> qemu = findTool(opts.qemu, kQemuName);
  if (!qemu)
    return opts.qemu.empty()
               ? fail(Twine(kQemuName) + " not found; install " + kQemuPackages)
               : fail("--qemu '" + opts.qemu + "' not found");
  std::string runtime = findRuntimeDir(opts.runtimeDir, argv[0]);
  if (runtime.empty())
    return fail(opts.runtimeDir.empty()
                    ? Twine("cannot find the vmcu runtime; pass "
                            "--runtime-dir=<vmcu source>/runtime")
                    : "--runtime-dir '" + opts.runtimeDir + "' has no " +
                          kHarnessSource);
  llvm::SmallString<256> ringCheckSource(runtime);
  path::append(ringCheckSource, kRingCheckSource);
  if (flags.ringCheck && !fs::exists(ringCheckSource))
    return fail("--ring-check needs " + ringCheckSource +
                ", which this runtime does not have");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> inputBytes =
      llvm::MemoryBuffer::getFile(opts.input, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!inputBytes)
    return fail("cannot open input file '" + opts.input +
                "': " + inputBytes.getError().message());

  CompileOptions compileOptions;
  compileOptions.memoryReport = opts.report;
  opts.shared.apply(compileOptions);
  compileOptions.toolName = kToolName.str();
  FailureOr<std::vector<std::string>> int8Kernels =
      chooseInt8WeightKernels(opts.model, compileOptions);
  if (failed(int8Kernels))
    return 1;
  compileOptions.int8WeightKernels = *int8Kernels;
  FailureOr<CompiledModel> model = compileModelFile(opts.model, compileOptions);
  if (failed(model) ||
      failed(checkFlashBudget(opts.model, model->object, compileOptions)))
    return 1;
  ObjectFlash flash = getObjectFlash(model->object);
  if (flash.totalBytes() > board.flashBytes)
    return fail(describeFlash(flash, board) +
                llvm::formatv("; it does not fit (try --flash-kb={0}, which "
                              "keeps int8 weights where they fit least)",
                              board.flashBytes / kBytesPerKiB)
                    .str());
  if (static_cast<uint64_t>(model->arenaBytes) > board.ramBytes)
    return fail(llvm::formatv("the model's arena needs {0} B of RAM, and "
                              "{1}'s RAM holds {2} B",
                              model->arenaBytes, board.machine, board.ramBytes)
                    .str());
  uint64_t inputSize = (*inputBytes)->getBufferSize();
  if (inputSize != static_cast<uint64_t>(model->inputBytes))
    return fail("input file '" + opts.input + "' has " + Twine(inputSize) +
                " bytes, but the model's input has " +
                Twine(model->inputBytes));

  // The work directory. Semihosting paths are whitespace-separated and
  // relative to QEMU's working directory, so they are absolute and without
  // spaces.
  llvm::SmallString<256> dir;
  if (!opts.keepTemps.empty()) {
    dir = opts.keepTemps;
    if (std::error_code ec = fs::create_directories(dir))
      return fail("cannot create '" + dir + "': " + ec.message());
  } else if (std::error_code ec = fs::createUniqueDirectory(kToolName, dir)) {
    return fail("cannot create a temporary directory: " + ec.message());
  }
  llvm::scope_exit removeTemps([&] {
    if (opts.keepTemps.empty())
      fs::remove_directories(dir);
  });
  if (std::error_code ec = fs::make_absolute(dir))
    return fail("cannot resolve '" + dir + "': " + ec.message());
  if (llvm::any_of(dir.str(), llvm::isSpace))
    return fail("the work directory '" + dir +
                "' contains white space, which QEMU's semihosting command "
                "line cannot carry; use --keep-temps with another directory");
  auto inDir = [&](llvm::StringRef name) {
    llvm::SmallString<256> file(dir);
    path::append(file, name);
    return file.str().str();
  };
  std::string objectFile = inDir("model.o"), elfFile = inDir("model.elf");
  std::string inFile = inDir("in.bin"), outFile = inDir("out.bin");
  std::string linkLog = inDir("link.log"), consoleLog = inDir("console.log");
  if (failed(writeBytes(objectFile, model->object)) ||
      failed(writeBytes(
          inFile, ArrayRef<char>((*inputBytes)->getBufferStart(), inputSize))))
    return 1;
  fs::remove(outFile);

  // Link, as runtime/README.md does.
  auto inRuntime = [&](llvm::StringRef name) {
    llvm::SmallString<256> file(runtime);
    path::append(file, name);
    return file.str().str();
  };
  std::vector<std::string> link = {*cc, ("-mcpu=" + cpu).str()};
  for (llvm::StringRef flag : kLinkFlags)
    link.push_back(flag.str());
  link.push_back("-I" + runtime);
  link.push_back("-T");
  link.push_back(inRuntime(board.linkerScript));
  for (llvm::StringRef source : kRuntimeSources)
    link.push_back(inRuntime(source));
  if (flags.ringCheck)
    link.push_back(ringCheckSource.str().str());
  // The checker's owner table needs one entry per pool segment; a segment
  // is at least one byte, so the arena size always suffices.
  if (flags.ringCheck && model->arenaBytes > kRingCheckDefaultSegments)
    link.push_back("-DVMCU_RING_CHECK_MAX_SEGMENTS=" +
                   std::to_string(model->arenaBytes) + "u");
  if (opts.icount)
    link.push_back(kHarnessVtimeDefine.str());
  link.push_back("-DVMCU_RT_CORE_CLOCK_HZ=" + std::to_string(board.systickHz) +
                 "u");
  link.insert(link.end(), {objectFile, "-lm", "-o", elfFile});
  std::string error;
  int rc = execute(*cc, link, linkLog, /*timeoutSeconds=*/0, error);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(linkLog);
    if (log && (*log)->getBuffer().contains(kLinkerRamOverflowMessage))
      return fail(llvm::formatv("the model's arena ({0} B), the runtime's "
                                "data and its stack do not fit {1}'s RAM "
                                "({2} B; the linker: {3})",
                                model->arenaBytes, board.machine,
                                board.ramBytes, (*log)->getBuffer().trim())
                      .str());
    if (log && (*log)->getBuffer().contains(kLinkerOverflowMessage))
      return fail(describeFlash(flash, board) +
                  "; with the runtime it does not fit (the linker: " +
                  (*log)->getBuffer().trim() + ")");
    if (log)
      llvm::errs() << (*log)->getBuffer();
    return fail(rc < 0 ? "cannot run " + *cc + ": " + error
                       : "linking failed (" + Twine(kCcName) + " exited " +
                             Twine(rc) + ")");
  }

  // Run.
  std::vector<std::string> run = {*qemu, "-M", board.machine.str()};
  for (llvm::StringRef flag : kQemuFlags)
    run.push_back(flag.str());
  if (opts.icount)
    run.insert(run.end(), {"-icount", kQemuIcountShift.str()});
  run.insert(run.end(),
             {"-kernel", elfFile, "-append", inFile + " " + outFile});
  rc = execute(*qemu, run, consoleLog, opts.timeout, error);
  std::string console;
  if (auto log = llvm::MemoryBuffer::getFile(consoleLog))
    console = (*log)->getBuffer().str();
  std::optional<BoardSummary> summary = parseSummary(console);
  if (rc != 0 || !summary || summary->status != 0) {
    llvm::errs() << console;
    if (rc < 0)
      return fail("QEMU did not finish: " +
                  (error.empty()
                       ? "killed after --timeout=" + Twine(opts.timeout) + " s"
                       : Twine(error)));
    if (rc == 0 && !summary)
      return fail("the board printed no summary line");
    int status = rc != 0 ? rc : summary->status;
    llvm::StringRef meaning = "see the console above";
    if (status > 0 && static_cast<size_t>(status) < std::size(kStatusMeanings))
      meaning = kStatusMeanings[status];
    return fail("the board exited with status " + Twine(status) + " (" +
                meaning + ")");
  }
  // Anything else the board said (e.g. vtime) goes to stderr.
  SmallVector<llvm::StringRef> lines;
  llvm::StringRef(console).split(lines, '\n', /*MaxSplit=*/-1,
                                 /*KeepEmpty=*/false);
  std::optional<uint64_t> instructions;
  for (llvm::StringRef line : lines) {
    llvm::StringRef text = line.trim();
    uint64_t count = 0;
    if (opts.icount && text.consume_front(kVtimePrefix) &&
        !text.getAsInteger(10, count)) {
      instructions = count;
      continue;
    }
    if (!line.trim().starts_with(kSummaryPrefix))
      llvm::errs() << line << "\n";
  }
  if (opts.icount && !instructions)
    return fail("the board printed no instruction count");

  if (!opts.output.empty()) {
    uint64_t outSize = 0;
    if (fs::file_size(outFile, outSize) ||
        outSize != static_cast<uint64_t>(model->outputBytes))
      return fail("the board wrote no output of " + Twine(model->outputBytes) +
                  " bytes");
    if (std::error_code ec = fs::copy_file(outFile, opts.output))
      return fail("cannot write '" + opts.output + "': " + ec.message());
  }
  llvm::outs() << kToolName << ": " << cpu << " arena=" << summary->arena
               << " B stack=" << summary->stack
               << " B flash=" << flash.totalBytes()
               << " B status=" << summary->status;
  if (instructions)
    llvm::outs() << " instructions=" << *instructions;
  llvm::outs() << "\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  return runMain(argc, argv);
}
