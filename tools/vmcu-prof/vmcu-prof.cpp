//===- vmcu-prof.cpp - cycle-approximate Cortex-M4 profiler ---------------===//
//
// vmcu-prof runs an ELF that vmcu-run linked (runtime/ harness + model) on
// unicorn's Cortex-M4 and counts cycles with a Cortex-M4 timing model: each
// executed instruction is decoded once with capstone and costed by
// CortexM4Timing.cpp. The harness's semihosting calls are served by
// Semihosting.cpp, so input and output bytes are the ones QEMU gives
// vmcu-run.
//
// This file holds the options and the driver: ElfImage.cpp reads the ELF,
// Profiler.cpp runs and counts, Report.cpp prints.
//
//===----------------------------------------------------------------------===//

#include "ElfImage.h"
#include "FlashTiming.h"
#include "Profiler.h"
#include "Report.h"
#include "Semihosting.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Pipelines/FlagNames.h"
#include "vmcu/Tools/ModelIOFlags.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace vmcu::prof;
namespace cl = llvm::cl;
namespace model_abi = mlir::vmcu::model_abi;
namespace flag_names = mlir::vmcu::flag_names;
using llvm::StringRef;
using llvm::Twine;
using mlir::vmcu::ModelIOFlags;

namespace {

/// The --cpu values and their boards.
constexpr Board kBoards[] = {
    // runtime/boards/mps2-an386.ld: FLASH ORIGIN 0x00000000 LENGTH 4 MiB,
    // RAM ORIGIN 0x20000000 LENGTH 4 MiB.
    {"cortex-m4", UC_CPU_ARM_CORTEX_M4, 0x00000000, 0x00400000, 0x20000000,
     0x00400000},
    // runtime/boards/mps2-an505.ld: FLASH ORIGIN 0x10000000 LENGTH 4 MiB,
    // RAM ORIGIN 0x38000000 LENGTH 4 MiB. Timed with the Cortex-M4 table
    // (docs/tools/vmcu-prof.md states why).
    {"cortex-m33", UC_CPU_ARM_CORTEX_M33, 0x10000000, 0x00400000, 0x38000000,
     0x00400000},
};

/// The default --quantum: cycles a core runs before the other may catch
/// up. Small against a kernel's work, large against the hook's stop cost.
constexpr uint64_t kDefaultQuantum = 64;
/// The largest --bus-contention accepted (a whole refill's worth is
/// already pessimistic; this only bounds the fixed-point arithmetic).
constexpr double kMaxBusContention = 1000.0;
/// The largest --flash-wait-states accepted: STM32F4 and F7 parts need at
/// most 15 (FLASH_ACR's LATENCY field is 4 bits, RM0090 3.9.1).
constexpr unsigned kMaxFlashWaitStates = 15;

/// The guest's command line names its input and output by the harness's
/// default file names (runtime/harness.c); Semihosting maps them to memory.
constexpr StringRef kGuestInputName = "vmcu_in.bin";
constexpr StringRef kGuestOutputName = "vmcu_out.bin";

/// The default --max-instructions: about a minute and a half of emulation
/// (~20-25 M instructions/s with the per-instruction hook).
constexpr uint64_t kDefaultMaxInstructions = 2'000'000'000;

constexpr StringRef kOverview = R"(vmcu cycle-approximate profiler

Runs an ELF linked by vmcu-run (keep it with --keep-temps=DIR: DIR/model.elf)
on an emulated Cortex-M4 (unicorn) and estimates the cycles the model takes
from the Cortex-M4 Technical Reference Manual's instruction timings. It feeds
the input and collects the output through the same semihosting calls QEMU
serves for vmcu-run, so the output bytes are the board's. It prints:

  vmcu-prof: cortex-m4 cycles=N instructions=M status=S

  cycles        estimated core cycles spent in vmcu_invoke() (callees such
                as memset included)
  instructions  instructions executed in vmcu_invoke(), exactly; vmcu-run
                --icount gives the same count to within QEMU's 40
  status        the program's exit status (as QEMU's): 0 ok, 1 vmcu_invoke()
                failed, 2 file error, 3 fault, 4 stack overflow, 5 ring check

--whole-program counts from reset to exit instead. --per-function adds the
cycles of each ELF function symbol (self time, not including callees) and a
breakdown by instruction class. --hot=N lists the N instructions that took
the most cycles, with their address, disassembly and function: the inner
loops to read when a kernel is slow.

The timing model (docs/tools/vmcu-prof.md has the table and its sources):
  - every instruction costs its TRM Table 3-1 cycles assuming zero wait
    state memory: 1 for ALU ops (SXTB16, SXTAB16, SSAT, ...), multiplies
    and DSP MACs (MUL, MLA, SMULL, SMLAL, SMLAD, SMLABB, ...), 2 for a load,
    1 for a store, 1+N for LDM/STM/PUSH/POP, 3 for LDRD/STRD, 12 for
    SDIV/UDIV (worst case of 2-12);
  - a load or store right after a load costs one cycle less unless its
    address uses the loaded register; a load or store whose address register
    the previous data-processing instruction wrote costs one more;
  - a taken branch or any other write to the PC adds a fixed refill of 2
    cycles (the TRM's P is 1-3);
  - IT costs 1; an IT-block instruction whose condition fails costs 1.
Flash wait states (--flash-wait-states=N, one core): code fetched and
constants read from FLASH stall behind an STM32F4-style accelerator
(--flash-accelerator, RM0090 3.5.2): 16-byte lines, each line read taking
N more cycles; a prefetch buffer reads the next sequential line meanwhile;
a 64-line instruction and an 8-line data cache keep the lines read on a
miss. The stalls are in the cycles, and a second line gives them:

  vmcu-prof: flash wait_states=N fetch_stalls=F read_stalls=R

Not modelled: wait states by default, bus contention (but see --cores=2),
unaligned-access penalties, IT folding, branch target alignment, division
early termination, interrupts and exceptions. The figure is an estimate,
not a measurement of any chip.

Limits of the emulation: only cortex-m4 has a timing table; memory is the
board's FLASH and RAM (from the linker script's symbols) plus the Private
Peripheral Bus as a plain register file (SysTick does not count, so the
harness's vtime_ns line is not shown); any exception (fault, SVC, UDF) stops
the run with an error instead of entering the runtime's fault handler.

Two cores (--cores=2 --cpu=cortex-m33, an mps2-an521 ELF): the SSE-200's
two Cortex-M33 run on two unicorn engines that share FLASH and RAM. Core 0
starts at reset; core 1 starts from the vector table at INITSVTOR1 when
core 0 clears bit 1 of CPUWAIT (0x50021118); CPU_IDENTITY reads 0 or 1.
The core whose clock is behind runs --quantum cycles at a time. It prints:

  vmcu-prof: cortex-m33 cores=2 makespan=N core0_cycles=A core1_cycles=B
             core0_wait=W0 core1_wait=W1 contention=C instructions=I status=S

  makespan      cycles core 0 spent in vmcu_invoke(), which returns only
                after the worker finished: the two-core run's time
  coreK_cycles  core K's cycles in its region (core 0: vmcu_invoke(), core
                1: vmcu_worker()) outside vmcu_wait* functions; makespan =
                core0_cycles + core0_wait
  coreK_wait    core K's cycles in its region inside vmcu_wait* functions
  contention    bus stall cycles of both cores: up to --bus-contention per
                RAM load or store while both are in their regions, scaled
                by the other core's RAM accesses per cycle (full at one
                every other cycle; included in the cycles above)
  instructions  both cores' instructions in their regions
  status        as above (either core may exit)

--per-function, --hot and --stack report core 0 only.

Example:
  vmcu-run m.mlir --input in.bin --keep-temps=k
  vmcu-prof k/model.elf --input in.bin --output out.bin --per-function
)";

struct ProfOptions {
  cl::OptionCategory category{"vmcu-prof options"};
  cl::opt<std::string> elf{cl::Positional, cl::Required,
                           cl::desc("<model.elf>"), cl::cat(category)};
  ModelIOFlags io{category};
  cl::opt<std::string> cpu{
      StringRef(flag_names::kCpu),
      cl::desc("Core to run: cortex-m4, or cortex-m33 (an mps2-an505 ELF, "
               "timed with the Cortex-M4 table)"),
      cl::init("cortex-m4"), cl::cat(category)};
  cl::opt<bool> perFunction{
      "per-function",
      cl::desc("Also print cycles per ELF function symbol and per "
               "instruction class"),
      cl::init(false), cl::cat(category)};
  cl::opt<unsigned> hot{
      "hot",
      cl::desc("Also print the N instructions that took the most cycles, "
               "with their disassembly (0: none)"),
      cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::opt<bool> stack{
      "stack",
      cl::desc("Also print the deepest stack vmcu_invoke() used: bytes "
               "below the SP it was called with (compare the header's "
               "VMCU_STACK_BYTES)"),
      cl::init(false), cl::cat(category)};
  cl::opt<std::string> symbolPrefix{
      StringRef(flag_names::kSymbolPrefix),
      cl::desc("The model's --symbol-prefix (vmcuc, vmcu-run): its entry "
               "point is NAME_invoke() (default vmcu)"),
      cl::value_desc("NAME"), cl::init(model_abi::kSymbolPrefix.str()),
      cl::cat(category)};
  cl::opt<bool> wholeProgram{
      "whole-program",
      cl::desc("Count from reset to exit, not only the model's "
               "vmcu_invoke()"),
      cl::init(false), cl::cat(category)};
  cl::opt<uint64_t> maxInstructions{
      "max-instructions",
      cl::desc("Stop with an error after this many instructions (whole "
               "program; 0: no limit)"),
      cl::init(kDefaultMaxInstructions), cl::cat(category)};
  cl::opt<unsigned> cores{
      StringRef(flag_names::kCores),
      cl::desc("Cores to run: 1, or 2 (the SSE-200's two Cortex-M33 of an "
               "mps2-an521 ELF; needs --cpu=cortex-m33; --per-function, "
               "--hot and --stack report core 0 only)"),
      cl::value_desc("N"), cl::init(1), cl::cat(category)};
  cl::opt<uint64_t> quantum{
      "quantum",
      cl::desc("With --cores=2: cycles the core that is behind runs before "
               "the cores are compared again"),
      cl::value_desc("cycles"), cl::init(kDefaultQuantum), cl::cat(category)};
  cl::opt<double> busContention{
      "bus-contention",
      cl::desc("With --cores=2: extra cycles of each load or store that "
               "accesses RAM while both cores are in their regions and the "
               "other core accesses RAM every other cycle (proportionally "
               "fewer when it accesses it less; an assumption; "
               "docs/tools/vmcu-prof.md)"),
      cl::value_desc("cycles"), cl::init(kDefaultBusContention),
      cl::cat(category)};
  cl::opt<unsigned> flashWaitStates{
      StringRef(flag_names::kFlashWaitStates),
      cl::desc("Wait states of the flash the code and constants are read "
               "from, as a part needs at its clock (e.g. 5 for an STM32F4 "
               "at 168 MHz, RM0090 Table 10); 0 (default): zero-wait-state "
               "memory. One core only"),
      cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::opt<FlashAccelerator> flashAccelerator{
      "flash-accelerator",
      cl::desc("With --flash-wait-states: what hides them (RM0090 3.5.2)"),
      cl::values(clEnumValN(FlashAccelerator::Art, "art",
                            "prefetch buffer, 64-line instruction cache and "
                            "8-line data cache of 16-byte lines (default)"),
                 clEnumValN(FlashAccelerator::Prefetch, "prefetch",
                            "the prefetch buffer only"),
                 clEnumValN(FlashAccelerator::None, "none",
                            "every new line read waits")),
      cl::init(FlashAccelerator::Art), cl::cat(category)};
};

/// Prints `vmcu-prof: error: message` and returns the exit code 1.
int fail(const Twine &message) {
  llvm::WithColor::error(llvm::errs(), kToolName) << message << "\n";
  return 1;
}

const Board *lookupBoard(StringRef cpu) {
  for (const Board &board : kBoards)
    if (board.cpu == cpu)
      return &board;
  return nullptr;
}

/// Reads `path` into `buffer`. On failure returns the message, which calls
/// the file `kind` (e.g. "input file ") before its quoted path.
std::optional<std::string>
readFile(StringRef path, StringRef kind,
         std::unique_ptr<llvm::MemoryBuffer> &buffer) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!contents)
    return ("cannot open " + kind + "'" + path +
            "': " + contents.getError().message())
        .str();
  buffer = std::move(*contents);
  return std::nullopt;
}

/// The semihosting host of a run of `elfPath` on `inputBytes`. Its command
/// line is what the harness parses: "<program> <input> <output>".
Semihosting makeHost(StringRef elfPath, StringRef inputBytes) {
  std::string program = llvm::sys::path::filename(elfPath).str();
  std::replace_if(
      program.begin(), program.end(), [](char c) { return llvm::isSpace(c); },
      '_');
  return Semihosting(program + " " + kGuestInputName.str() + " " +
                         kGuestOutputName.str(),
                     kGuestInputName.str(),
                     std::vector<char>(inputBytes.begin(), inputBytes.end()),
                     kGuestOutputName.str());
}

/// The message if the input file's size is not the model's input size
/// (when the ELF gives the latter).
std::optional<std::string>
checkInputSize(const Image &image, StringRef inputPath, size_t inputSize) {
  std::optional<uint32_t> modelInputSize =
      totalBytes(image, image.api.inputCount, image.api.inputSizes);
  if (modelInputSize && inputSize != *modelInputSize)
    return ("input file '" + inputPath + "' has " + Twine(inputSize) +
            " bytes, but the model's input has " + Twine(*modelInputSize))
        .str();
  return std::nullopt;
}

/// The console, the summary line, the reports --per-function and --hot ask
/// for and the warning for undecoded instructions.
void printResults(const ProfOptions &opts, const Board &board,
                  const Image &image, Profiler &profiler, const Profiler *core1,
                  const Semihosting &host) {
  int status = host.exitStatus();
  printConsole(host.console(), /*all=*/status != 0);
  if (core1)
    printTwoCoreSummary(board, profiler, *core1, status);
  else
    llvm::outs() << kToolName << ": " << board.cpu
                 << " cycles=" << profiler.region.cycles
                 << " instructions=" << profiler.region.instructions
                 << " status=" << status << "\n";
  if (profiler.flash)
    llvm::outs() << kToolName << ": flash wait_states=" << opts.flashWaitStates
                 << " fetch_stalls=" << profiler.flashFetchStalls
                 << " read_stalls=" << profiler.flashReadStalls << "\n";
  if (std::optional<uint32_t> stack = profiler.regionStackBytes())
    llvm::outs() << kToolName << ": stack=" << *stack
                 << " bytes below vmcu_invoke()'s caller\n";
  if (opts.perFunction)
    printPerFunction(image, profiler, opts.wholeProgram);
  if (opts.hot)
    printHot(image, profiler, opts.hot);
  llvm::outs().flush(); // before any error on stderr
  if (profiler.undecoded)
    llvm::WithColor::warning(llvm::errs(), kToolName)
        << profiler.undecoded
        << " instruction(s) capstone could not decode were counted as 1 "
           "cycle each\n";
}

/// The message if the program failed: a non-zero exit status, or (not
/// --whole-program) it never ran vmcu_invoke().
std::optional<std::string> checkCompletion(const ProfOptions &opts,
                                           const Image &image,
                                           const Profiler &profiler,
                                           int status) {
  if (status != 0) {
    return ("the program exited with status " + Twine(status) + " (" +
            model_abi::runtimeStatusMeaning(status) + ")")
        .str();
  }
  if (!opts.wholeProgram && profiler.region.instructions == 0)
    return "the program never called " + image.api.invoke + "()";
  return std::nullopt;
}

/// Writes the output bytes the program wrote to `path`. On failure (no
/// output, or not the model's output size) returns the message.
std::optional<std::string>
writeOutput(const Image &image, const Semihosting &host, StringRef path) {
  std::optional<uint32_t> outputSize =
      totalBytes(image, image.api.outputCount, image.api.outputSizes);
  const std::vector<char> &bytes = host.output();
  if (!host.outputWritten() || (outputSize && bytes.size() != *outputSize))
    return ("the program wrote no output" +
            (outputSize ? " of " + Twine(*outputSize) + " bytes" : Twine()))
        .str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return ("cannot write '" + path + "': " + ec.message()).str();
  os.write(bytes.data(), bytes.size());
  return std::nullopt;
}

/// The message if --cores, --cpu, --quantum or --bus-contention do not fit
/// together.
std::optional<std::string> checkCoreOptions(const ProfOptions &opts) {
  if (opts.cores != 1 && opts.cores != 2)
    return "--cores=" + std::to_string(opts.cores) +
           " is not supported; expected 1 or 2";
  if (opts.cores == 2 && opts.cpu != "cortex-m33")
    return "--cores=2 needs --cpu=cortex-m33 (the two Cortex-M33 of the "
           "SSE-200, an mps2-an521 ELF), not '" +
           opts.cpu + "'";
  if (opts.quantum == 0)
    return std::string("--quantum must be at least 1 cycle");
  if (opts.cores == 2 && opts.flashWaitStates)
    return std::string("--flash-wait-states models one core's flash "
                       "interface (an STM32F4's); it is not available "
                       "with --cores=2");
  if (opts.flashWaitStates > kMaxFlashWaitStates)
    return "--flash-wait-states=" + std::to_string(opts.flashWaitStates) +
           " is out of range; expected 0 to " +
           std::to_string(kMaxFlashWaitStates);
  if (!(opts.busContention >= 0 && opts.busContention <= kMaxBusContention))
    return "--bus-contention=" + std::to_string(opts.busContention) +
           " is out of range; expected 0 to " +
           std::to_string(static_cast<int>(kMaxBusContention)) + " cycles";
  return std::nullopt;
}

/// Both cores, once set up for --cores=2.
struct TwoCores {
  std::unique_ptr<Profiler> core1;
  Sse200 system;
};

/// Sets up core 1 (region vmcu_worker()) and the SSE-200 shared by it and
/// `core0`. On failure returns the message.
std::optional<std::string> setUpCore1(const ProfOptions &opts,
                                      const Board &board, const Image &image,
                                      Semihosting &host,
                                      const SharedMemory &memory,
                                      Profiler &core0, TwoCores &cores) {
  cores.core1 = std::make_unique<Profiler>(image, host, opts.maxInstructions,
                                           opts.wholeProgram, image.api.worker);
  if (auto error = cores.core1->setUp(board, memory))
    return "core 1: " + *error;
  auto units =
      static_cast<uint32_t>(std::lround(opts.busContention * kContentionScale));
  if (auto error = core0.attach(cores.system, *cores.core1, 0, units, memory))
    return error;
  return cores.core1->attach(cores.system, core0, 1, units, memory);
}

/// Runs both cores until one exits through semihosting: the one whose
/// clock is behind (core 0 on a tie) runs `quantum` cycles at a time; core
/// 1 starts, at the cycle core 0 released it, from the vector table at
/// INITSVTOR1. On failure returns the message.
std::optional<std::string> runTwoCores(const Image &image, Profiler &core0,
                                       TwoCores &cores, uint64_t quantum) {
  Profiler &core1 = *cores.core1;
  const Sse200 &sse = cores.system;
  if (auto error = core0.reset(image.lookup(kFlashStartSymbol).value_or(0), 0))
    return "core 0: " + *error;
  while (!core0.hasExited() && !core1.hasExited()) {
    if (sse.releaseCycle && !core1.hasStarted())
      if (auto error =
              core1.reset(sse.initSvtor1 & kVtorMask, *sse.releaseCycle))
        return "core 1: " + *error + " (INITSVTOR1)";
    bool second = core1.hasStarted() && core1.clock() < core0.clock();
    if (auto error = (second ? core1 : core0).runFor(quantum))
      return (second ? "core 1: " : "core 0: ") + *error;
  }
  return std::nullopt;
}

/// The ELF, the input bytes, and the memory the ELF is loaded into.
struct Program {
  std::unique_ptr<llvm::MemoryBuffer> elfBuffer, inputBuffer;
  Image image;
  SharedMemory memory;
};

/// Reads the ELF and the input and loads the ELF's segments. On failure
/// returns the message.
std::optional<std::string> loadProgram(const ProfOptions &opts,
                                       const Board &board, Program &program) {
  if (auto error = readFile(opts.elf, "", program.elfBuffer))
    return error;
  if (auto error =
          readImage(opts.elf, program.elfBuffer->getBuffer(), program.image))
    return error;
  program.image.api = ModelSymbols(opts.symbolPrefix);
  if (auto error = readFile(opts.io.input, "input file ", program.inputBuffer))
    return error;
  if (auto error = allocateMemory(board, program.image, program.memory))
    return error;
  return loadSegments(program.image, program.memory);
}

int runMain(int argc, char **argv) {
  ProfOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  const Board *board = lookupBoard(opts.cpu);
  if (!board)
    return fail("unknown --cpu '" + opts.cpu +
                "'; expected cortex-m4 or cortex-m33");
  if (auto error = checkCoreOptions(opts))
    return fail(*error);
  Program program;
  if (auto error = loadProgram(opts, *board, program))
    return fail(*error);
  const Image &image = program.image;
  const SharedMemory &memory = program.memory;
  StringRef inputBytes = program.inputBuffer->getBuffer();

  Semihosting host = makeHost(opts.elf, inputBytes);
  Profiler profiler(image, host, opts.maxInstructions, opts.wholeProgram,
                    image.api.invoke);
  profiler.countPcs = opts.hot > 0;
  profiler.trackStack = opts.stack;
  if (auto error = profiler.setUp(*board, memory))
    return fail(*error);
  if (opts.flashWaitStates)
    if (auto error = profiler.timeFlash(
            FlashTiming(opts.flashWaitStates, opts.flashAccelerator), memory))
      return fail(*error);
  TwoCores cores;
  if (opts.cores == 2)
    if (auto error =
            setUpCore1(opts, *board, image, host, memory, profiler, cores))
      return fail(*error);
  if (auto error = checkInputSize(image, opts.io.input, inputBytes.size()))
    return fail(*error);
  auto error = cores.core1 ? runTwoCores(image, profiler, cores, opts.quantum)
                           : profiler.run();
  if (error) {
    printConsole(host.console(), /*all=*/true);
    return fail(*error);
  }

  printResults(opts, *board, image, profiler, cores.core1.get(), host);
  if (auto error = checkCompletion(opts, image, profiler, host.exitStatus()))
    return fail(*error);
  if (!opts.io.output.empty())
    if (auto error = writeOutput(image, host, opts.io.output))
      return fail(*error);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  return runMain(argc, argv);
}
