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
#include "vmcu/Pipelines/FlagNames.h"
#include "vmcu/Tools/ModelIOFlags.h"
#include "vmcu/Tools/vmcuc/Compiler.h"
#include "vmcu/Tools/vmcuc/FlashBudget.h"
#include "vmcu/Tools/vmcuc/StackBound.h"
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

/// --cores=2: the SSE-200 pair (two Cortex-M33, the an505 memory map).
/// QEMU 7.2 models its core 0 without the DSP extension, so the run is
/// vmcu-prof --cores=2's (two emulated M33 with DSP over shared memory).
constexpr Board kTwoCoreBoard = {TargetCpu::CortexM33,   "mps2-an521",
                                 "boards/mps2-an521.ld", kMps2FlashBytes,
                                 kMps2RamBytes,          kIoTKitSystickHz};
constexpr llvm::StringLiteral kProfName = "vmcu-prof";
/// The harness's define that releases core 1 into vmcu_worker().
constexpr llvm::StringLiteral kHarnessTwoCoresDefine = "-DVMCU_HARNESS_CORES=2";
/// And the one that sizes core 1's stack: the model's stack bound (of
/// vmcu_invoke(), whose call tree vmcu_worker() shares) plus a margin for
/// the frames above it on core 1 (core1_reset's loop and vmcu_worker's
/// own, a few words each; 256 B is an allowance, not a measurement).
constexpr llvm::StringLiteral kHarnessCore1StackDefine =
    "-DVMCU_HARNESS_CORE1_STACK_BYTES=";
constexpr uint64_t kCore1StackMarginBytes = 256;

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
  ModelIOFlags io{category};
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

/// findTool into `found`, or the error: the option's value not found, or
/// `name` not on PATH and the packages that install it.
static LogicalResult findToolOrFail(llvm::StringRef override,
                                    llvm::StringRef option,
                                    llvm::StringRef name,
                                    llvm::StringRef packages,
                                    std::string &found) {
  std::optional<std::string> tool = findTool(override, name);
  if (tool) {
    found = *tool;
    return success();
  }
  if (override.empty())
    fail(Twine(name) + " not found; install " + packages);
  else
    fail(option + " '" + override + "' not found");
  return failure();
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

/// The programs and runtime files a run needs, found before compiling.
struct Toolchain {
  std::string cc, qemu, runtime;
  /// runtime/vmcu_ring_check.c, linked with --ring-check.
  llvm::SmallString<256> ringCheckSource;
};

/// The files of a run in its work directory.
struct WorkFiles {
  std::string object, elf, in, out, linkLog, console;
};

/// Finds the linker driver, QEMU and the runtime (with the ring checker if
/// --ring-check asks for it); prints the error if one is missing.
static LogicalResult findToolchain(const RunOptions &opts, const char *argv0,
                                   Toolchain &tools) {
  if (failed(findToolOrFail(opts.cc, "--cc", kCcName, kCcPackages, tools.cc)) ||
      failed(findToolOrFail(opts.qemu, "--qemu", kQemuName, kQemuPackages,
                            tools.qemu)))
    return failure();
  tools.runtime = findRuntimeDir(opts.runtimeDir, argv0);
  if (tools.runtime.empty()) {
    fail(opts.runtimeDir.empty() ? Twine("cannot find the vmcu runtime; pass "
                                         "--runtime-dir=<vmcu source>/runtime")
                                 : "--runtime-dir '" + opts.runtimeDir +
                                       "' has no " + kHarnessSource);
    return failure();
  }
  tools.ringCheckSource = tools.runtime;
  path::append(tools.ringCheckSource, kRingCheckSource);
  if (opts.shared.flags.ringCheck && !fs::exists(tools.ringCheckSource)) {
    fail("--ring-check needs " + tools.ringCheckSource +
         ", which this runtime does not have");
    return failure();
  }
  return success();
}

/// Compiles the model as vmcuc does (its errors are printed with their
/// source locations) and measures its flash.
static LogicalResult compileModel(const RunOptions &opts, CompiledModel &model,
                                  ObjectFlash &flash) {
  CompileOptions compileOptions;
  opts.shared.apply(compileOptions);
  compileOptions.toolName = kToolName.str();
  if (failed(chooseFlashPlan(opts.model, compileOptions)))
    return failure();
  FailureOr<CompiledModel> compiled =
      compileModelFile(opts.model, compileOptions);
  if (failed(compiled))
    return failure();
  FailureOr<bool> again =
      fitDefaultFlashBudget(opts.model, compileOptions, compiled->object,
                            compiled->referenceFlashBytes);
  if (failed(again))
    return failure();
  if (*again)
    compiled = compileModelFile(opts.model, compileOptions);
  if (failed(compiled) ||
      failed(checkFlashBudget(opts.model, compiled->object, compileOptions)))
    return failure();
  model = std::move(*compiled);
  flash = getObjectFlash(model.object, compileOptions.flags.symbolPrefix);
  return success();
}

/// Checks that the model fits the board's flash and RAM and that the input
/// file has the model's input size.
static LogicalResult checkFits(const RunOptions &opts, const Board &board,
                               const CompiledModel &model,
                               const ObjectFlash &flash, uint64_t inputSize) {
  if (flash.totalBytes() > board.flashBytes) {
    fail(describeFlash(flash, board) +
         llvm::formatv("; it does not fit (try --flash-kb={0}, which "
                       "keeps int8 weights where they fit least)",
                       board.flashBytes / kBytesPerKiB)
             .str());
    return failure();
  }
  if (static_cast<uint64_t>(model.arenaBytes) > board.ramBytes) {
    fail(llvm::formatv("the model's arena needs {0} B of RAM, and "
                       "{1}'s RAM holds {2} B",
                       model.arenaBytes, board.machine, board.ramBytes)
             .str());
    return failure();
  }
  if (inputSize != static_cast<uint64_t>(model.inputBytes)) {
    fail("input file '" + opts.io.input + "' has " + Twine(inputSize) +
         " bytes, but the model's input has " + Twine(model.inputBytes));
    return failure();
  }
  return success();
}

/// Creates the work directory: --keep-temps, else a temporary one.
static LogicalResult createWorkDir(llvm::StringRef keepTemps,
                                   llvm::SmallString<256> &dir) {
  if (!keepTemps.empty()) {
    dir = keepTemps;
    if (std::error_code ec = fs::create_directories(dir)) {
      fail("cannot create '" + dir + "': " + ec.message());
      return failure();
    }
  } else if (std::error_code ec = fs::createUniqueDirectory(kToolName, dir)) {
    fail("cannot create a temporary directory: " + ec.message());
    return failure();
  }
  return success();
}

/// Makes `dir` absolute and checks it has no white space: semihosting
/// paths are whitespace-separated and relative to QEMU's working directory.
static LogicalResult makeSemihostingPath(llvm::SmallString<256> &dir) {
  if (std::error_code ec = fs::make_absolute(dir)) {
    fail("cannot resolve '" + dir + "': " + ec.message());
    return failure();
  }
  if (llvm::any_of(dir.str(), llvm::isSpace)) {
    fail("the work directory '" + dir +
         "' contains white space, which QEMU's semihosting command "
         "line cannot carry; use --keep-temps with another directory");
    return failure();
  }
  return success();
}

static WorkFiles getWorkFiles(llvm::StringRef dir) {
  auto inDir = [&](llvm::StringRef name) {
    llvm::SmallString<256> file(dir);
    path::append(file, name);
    return file.str().str();
  };
  return {inDir("model.o"), inDir("model.elf"), inDir("in.bin"),
          inDir("out.bin"), inDir("link.log"),  inDir("console.log")};
}

/// The link command of runtime/README.md for `model`.
static std::vector<std::string>
buildLinkCommand(const RunOptions &opts, const Board &board, StringRef cpu,
                 const Toolchain &tools, const CompiledModel &model,
                 const WorkFiles &files) {
  const CompileFlags &flags = opts.shared.flags;
  auto inRuntime = [&](llvm::StringRef name) {
    llvm::SmallString<256> file(tools.runtime);
    path::append(file, name);
    return file.str().str();
  };
  std::vector<std::string> link = {tools.cc, ("-mcpu=" + cpu).str()};
  for (llvm::StringRef flag : kLinkFlags)
    link.push_back(flag.str());
  link.push_back("-I" + tools.runtime);
  link.push_back("-T");
  link.push_back(inRuntime(board.linkerScript));
  for (llvm::StringRef source : kRuntimeSources)
    link.push_back(inRuntime(source));
  if (flags.ringCheck)
    link.push_back(tools.ringCheckSource.str().str());
  // The checker's owner table needs one entry per pool segment; a segment
  // is at least one byte, so the arena size always suffices.
  if (flags.ringCheck && model.arenaBytes > kRingCheckDefaultSegments)
    link.push_back("-DVMCU_RING_CHECK_MAX_SEGMENTS=" +
                   std::to_string(model.arenaBytes) + "u");
  if (opts.icount)
    link.push_back(kHarnessVtimeDefine.str());
  if (flags.cores == core_split::kSplitCores) {
    link.push_back(kHarnessTwoCoresDefine.str());
    if (std::optional<uint64_t> bound =
            getObjectStackBound(model.object, flags.symbolPrefix).bytes)
      link.push_back(kHarnessCore1StackDefine.str() +
                     std::to_string(*bound + kCore1StackMarginBytes) + "u");
  }
  link.push_back("-DVMCU_RT_CORE_CLOCK_HZ=" + std::to_string(board.systickHz) +
                 "u");
  // The harness calls the model's C API by its default names.
  if (flags.symbolPrefix != model_abi::kSymbolPrefix)
    for (llvm::StringRef symbol : model_abi::kExportedSymbols)
      link.push_back(("-D" + symbol + "=" +
                      model_abi::prefixed(symbol, flags.symbolPrefix))
                         .str());
  link.insert(link.end(), {files.object, "-lm", "-o", files.elf});
  return link;
}

/// Runs the link; on failure explains it (RAM or flash overflow, else the
/// linker's log).
static LogicalResult linkModel(llvm::ArrayRef<std::string> command,
                               const Board &board, const Toolchain &tools,
                               const CompiledModel &model,
                               const ObjectFlash &flash,
                               const WorkFiles &files) {
  std::string error;
  int rc =
      execute(tools.cc, command, files.linkLog, /*timeoutSeconds=*/0, error);
  if (rc == 0)
    return success();
  auto log = llvm::MemoryBuffer::getFile(files.linkLog);
  if (log && (*log)->getBuffer().contains(kLinkerRamOverflowMessage))
    fail(llvm::formatv("the model's arena ({0} B), the runtime's "
                       "data and its stack do not fit {1}'s RAM "
                       "({2} B; the linker: {3})",
                       model.arenaBytes, board.machine, board.ramBytes,
                       (*log)->getBuffer().trim())
             .str());
  else if (log && (*log)->getBuffer().contains(kLinkerOverflowMessage))
    fail(describeFlash(flash, board) +
         "; with the runtime it does not fit (the linker: " +
         (*log)->getBuffer().trim() + ")");
  else {
    if (log)
      llvm::errs() << (*log)->getBuffer();
    fail(rc < 0 ? "cannot run " + tools.cc + ": " + error
                : "linking failed (" + Twine(kCcName) + " exited " + Twine(rc) +
                      ")");
  }
  return failure();
}

/// Runs the ELF on QEMU and reads the board's console and summary line;
/// on failure prints the console and the reason.
static LogicalResult runOnBoard(const RunOptions &opts, const Board &board,
                                const Toolchain &tools, const WorkFiles &files,
                                std::string &console, BoardSummary &summary) {
  std::vector<std::string> run = {tools.qemu, "-M", board.machine.str()};
  for (llvm::StringRef flag : kQemuFlags)
    run.push_back(flag.str());
  if (opts.icount)
    run.insert(run.end(), {"-icount", kQemuIcountShift.str()});
  run.insert(run.end(),
             {"-kernel", files.elf, "-append", files.in + " " + files.out});
  std::string error;
  int rc = execute(tools.qemu, run, files.console, opts.timeout, error);
  if (auto log = llvm::MemoryBuffer::getFile(files.console))
    console = (*log)->getBuffer().str();
  std::optional<BoardSummary> parsed = parseSummary(console);
  if (rc == 0 && parsed && parsed->status == 0) {
    summary = *parsed;
    return success();
  }
  llvm::errs() << console;
  if (rc < 0) {
    fail("QEMU did not finish: " +
         (error.empty() ? "killed after --timeout=" + Twine(opts.timeout) + " s"
                        : Twine(error)));
    return failure();
  }
  if (rc == 0 && !parsed) {
    fail("the board printed no summary line");
    return failure();
  }
  int status = rc != 0 ? rc : parsed->status;
  fail("the board exited with status " + Twine(status) + " (" +
       model_abi::runtimeStatusMeaning(status) + ")");
  return failure();
}

/// --cores=2: runs the ELF under `vmcu-prof --cores=2` (found next to this
/// executable, else on PATH) and prints its line as the summary.
static LogicalResult runOnTwoCores(const RunOptions &opts, const char *argv0,
                                   const WorkFiles &files,
                                   const ObjectFlash &flash,
                                   const CompiledModel &model) {
  static int anchor;
  llvm::SmallString<256> prof(
      path::parent_path(fs::getMainExecutable(argv0, &anchor)));
  path::append(prof, kProfName);
  std::optional<std::string> tool = fs::can_execute(prof)
                                        ? std::optional(prof.str().str())
                                        : findTool("", kProfName);
  if (!tool) {
    fail("--cores=2 runs on vmcu-prof, which is not built here (it needs "
         "libunicorn and libcapstone)");
    return failure();
  }
  StringRef cpu = nameOf(kTargetCpus, kTwoCoreBoard.cpu);
  std::vector<std::string> run = {
      *tool,
      files.elf,
      ("--" + flag_names::kCpu + "=" + cpu).str(),
      ("--" + flag_names::kCores + "=" + Twine(core_split::kSplitCores)).str(),
      "--input",
      files.in,
      "--output",
      files.out};
  std::string error;
  int rc = execute(*tool, run, files.console, opts.timeout, error);
  auto log = llvm::MemoryBuffer::getFile(files.console);
  llvm::StringRef console = log ? (*log)->getBuffer() : "";
  if (rc != 0) {
    llvm::errs() << console;
    fail(rc < 0 ? "vmcu-prof did not finish: " + error
                : "vmcu-prof --cores=2 exited " + Twine(rc));
    return failure();
  }
  SmallVector<llvm::StringRef> lines;
  console.split(lines, '\n', -1, /*KeepEmpty=*/false);
  bool summarized = false;
  for (llvm::StringRef line : lines) {
    if (!line.consume_front("vmcu-prof: cortex-m33 cores=2 ")) {
      llvm::errs() << line << "\n";
      continue;
    }
    llvm::outs() << kToolName
                 << ": cortex-m33 cores=2 arena=" << model.arenaBytes
                 << " B flash=" << flash.totalBytes() << " B " << line << "\n";
    summarized = true;
  }
  if (!summarized)
    fail("vmcu-prof --cores=2 printed no summary line");
  return success(summarized);
}

/// Prints the board's console lines other than the summary to stderr and,
/// with --icount, takes the instruction count from its vtime line.
static LogicalResult forwardConsole(llvm::StringRef console, bool icount,
                                    std::optional<uint64_t> &instructions) {
  SmallVector<llvm::StringRef> lines;
  console.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    llvm::StringRef text = line.trim();
    uint64_t count = 0;
    if (icount && text.consume_front(kVtimePrefix) &&
        !text.getAsInteger(10, count)) {
      instructions = count;
      continue;
    }
    if (!line.trim().starts_with(kSummaryPrefix))
      llvm::errs() << line << "\n";
  }
  if (icount && !instructions) {
    fail("the board printed no instruction count");
    return failure();
  }
  return success();
}

/// Copies the board's output file to --output, checking its size.
static LogicalResult copyOutput(llvm::StringRef boardOutput,
                                llvm::StringRef output, int64_t outputBytes) {
  uint64_t outSize = 0;
  if (fs::file_size(boardOutput, outSize) ||
      outSize != static_cast<uint64_t>(outputBytes)) {
    fail("the board wrote no output of " + Twine(outputBytes) + " bytes");
    return failure();
  }
  if (std::error_code ec = fs::copy_file(boardOutput, output)) {
    fail("cannot write '" + output + "': " + ec.message());
    return failure();
  }
  return success();
}

static void printSummary(StringRef cpu, const BoardSummary &summary,
                         const ObjectFlash &flash,
                         std::optional<uint64_t> instructions) {
  llvm::outs() << kToolName << ": " << cpu << " arena=" << summary.arena
               << " B stack=" << summary.stack
               << " B flash=" << flash.totalBytes()
               << " B status=" << summary.status;
  if (instructions)
    llvm::outs() << " instructions=" << *instructions;
  llvm::outs() << "\n";
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
  bool twoCores = opts.shared.flags.cores == core_split::kSplitCores;
  if (twoCores && opts.shared.flags.cpu != TargetCpu::CortexM33)
    return fail("--cores=2 runs on two Cortex-M33 (the mps2-an521 layout); "
                "add --cpu=cortex-m33");
  if (twoCores && opts.icount)
    return fail("--icount counts QEMU's instructions; --cores=2 runs on "
                "vmcu-prof, whose summary has both cores' instructions");
  const Board &board =
      twoCores ? kTwoCoreBoard : lookupBoard(opts.shared.flags.cpu);
  StringRef cpu = nameOf(kTargetCpus, opts.shared.flags.cpu);
  Toolchain tools;
  if (failed(findToolchain(opts, argv[0], tools)))
    return 1;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> inputBytes =
      llvm::MemoryBuffer::getFile(opts.io.input, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!inputBytes)
    return fail("cannot open input file '" + opts.io.input +
                "': " + inputBytes.getError().message());

  CompiledModel model;
  ObjectFlash flash;
  uint64_t inputSize = (*inputBytes)->getBufferSize();
  if (failed(compileModel(opts, model, flash)) ||
      failed(checkFits(opts, board, model, flash, inputSize)))
    return 1;

  llvm::SmallString<256> dir;
  if (failed(createWorkDir(opts.keepTemps, dir)))
    return 1;
  llvm::scope_exit removeTemps([&] {
    if (opts.keepTemps.empty())
      fs::remove_directories(dir);
  });
  if (failed(makeSemihostingPath(dir)))
    return 1;
  WorkFiles files = getWorkFiles(dir);
  if (failed(writeBytes(files.object, model.object)) ||
      failed(
          writeBytes(files.in, ArrayRef<char>((*inputBytes)->getBufferStart(),
                                              inputSize))))
    return 1;
  fs::remove(files.out);

  std::vector<std::string> linkCommand =
      buildLinkCommand(opts, board, cpu, tools, model, files);
  std::string console;
  BoardSummary summary;
  std::optional<uint64_t> instructions;
  if (failed(linkModel(linkCommand, board, tools, model, flash, files)))
    return 1;
  if (twoCores) {
    if (failed(runOnTwoCores(opts, argv[0], files, flash, model)) ||
        (!opts.io.output.empty() &&
         failed(copyOutput(files.out, opts.io.output, model.outputBytes))))
      return 1;
    return 0;
  }
  if (failed(runOnBoard(opts, board, tools, files, console, summary)) ||
      failed(forwardConsole(console, opts.icount, instructions)))
    return 1;
  if (!opts.io.output.empty() &&
      failed(copyOutput(files.out, opts.io.output, model.outputBytes)))
    return 1;
  printSummary(cpu, summary, flash, instructions);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  return runMain(argc, argv);
}
