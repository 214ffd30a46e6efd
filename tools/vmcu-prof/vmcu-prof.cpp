//===- vmcu-prof.cpp - cycle-approximate Cortex-M4 profiler ---------------===//
//
// vmcu-prof runs an ELF that vmcu-run linked (runtime/ harness + model) on
// unicorn's Cortex-M4 and counts cycles with a Cortex-M4 timing model: each
// executed instruction is decoded once with capstone and costed by
// CortexM4Timing.cpp. The harness's semihosting calls are served by
// Semihosting.cpp, so input and output bytes are the ones QEMU gives
// vmcu-run.
//
//===----------------------------------------------------------------------===//

#include "CortexM4Timing.h"
#include "FlashTiming.h"
#include "Semihosting.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Memory.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

using namespace vmcu::prof;
namespace cl = llvm::cl;
namespace model_abi = mlir::vmcu::model_abi;
using llvm::StringRef;
using llvm::Twine;

namespace {

constexpr llvm::StringLiteral kToolName = "vmcu-prof";

/// A core and the memory map of its board, as runtime/boards/<board>.ld
/// defines it. Used only when the ELF lacks the linker script's symbols
/// (kFlashSizeSymbol, ...), which describe the same regions.
struct Board {
  StringRef cpu;
  /// The unicorn core that executes it.
  uc_cpu_arm model;
  uint32_t flashBase, flashSize, ramBase, ramSize;
};

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

/// Linker-script symbols that give the regions: FLASH starts at the vector
/// table and is VMCU_FLASH_SIZE long; RAM is VMCU_RAM_SIZE long and ends at
/// __stack_top.
constexpr StringRef kFlashStartSymbol = "__vectors_start";
constexpr StringRef kFlashSizeSymbol = "VMCU_FLASH_SIZE";
constexpr StringRef kRamEndSymbol = "__stack_top";
constexpr StringRef kRamSizeSymbol = "VMCU_RAM_SIZE";
/// The model's C API symbols the profiler reads (ModelABI.h), under the
/// model's --symbol-prefix: the entry point (core 0's region), the second
/// core's (core 1's region), and every input's (output's) count and array
/// of sizes, which the harness reads (writes) one after another.
struct ModelSymbols {
  explicit ModelSymbols(StringRef prefix)
      : invoke(model_abi::prefixed(model_abi::kInvokeFn, prefix)),
        worker(model_abi::prefixed(model_abi::kWorkerFn, prefix)),
        inputCount(model_abi::prefixed(model_abi::kInputCount, prefix)),
        inputSizes(model_abi::prefixed(model_abi::kInputSizes, prefix)),
        outputCount(model_abi::prefixed(model_abi::kOutputCount, prefix)),
        outputSizes(model_abi::prefixed(model_abi::kOutputSizes, prefix)) {}
  std::string invoke, worker, inputCount, inputSizes, outputCount, outputSizes;
};

/// unicorn maps memory in 4 KiB pages.
constexpr uint32_t kPageSize = 0x1000;
/// The Private Peripheral Bus (ARMv7-M ARM B3.1): SCB, NVIC, SysTick, DWT,
/// ... A plain register file here (see kOverview).
constexpr uint32_t kPpbBase = 0xE0000000;
constexpr uint32_t kPpbSize = 0x00100000;
/// SysTick Current Value Register and Reload Value Register (ARMv7-M ARM
/// B3.3.2), offsets from kPpbBase.
constexpr uint32_t kSystRvrOffset = 0xE014;
constexpr uint32_t kSystCvrOffset = 0xE018;
/// The Thumb bit of a branch target / of the PC written to unicorn.
constexpr uint32_t kThumbBit = 1;
/// Initial SP and reset vector: words 0 and 1 of the vector table.
constexpr unsigned kResetVectorWords = 2;

/// --cores=2: the second Cortex-M33 of the Arm SSE-200 (QEMU mps2-an521,
/// runtime/boards/mps2-an521.ld). Its system control register block
/// (secure alias) and the registers that release core 1 (Arm CoreLink
/// SSE-200 TRM, system control registers; test/Runtime/second-core.test).
constexpr uint32_t kSse200SysctlBase = 0x50021000;
constexpr uint32_t kInitSvtor1Offset = 0x114;
constexpr uint32_t kCpuWaitOffset = 0x118;
/// CPUWAIT bit 1 holds core 1; QEMU 7.2 resets CPUWAIT to 0x2 (core 1
/// held), as second-core.test prints.
constexpr uint32_t kCpuWaitCore1 = 0x2;
constexpr uint32_t kCpuWaitReset = kCpuWaitCore1;
/// INITSVTOR1's reset value: QEMU's SSE-200 "init-svtor" property default
/// (hw/arm/armsse.c), the FLASH base.
constexpr uint32_t kInitSvtorReset = 0x10000000;
/// VTOR.TBLOFF is bits [31:7] (ARMv8-M ARM D1.2.269); INITSVTOR1 likewise.
constexpr uint32_t kVtorMask = ~0x7Fu;
/// CPU_IDENTITY (SSE-200 TRM): reads 0 on core 0, 1 on core 1.
constexpr uint32_t kCpuIdentityBase = 0x4001F000;
/// Functions whose cycles count as waiting: the compiler emits its
/// spin-waits as functions named vmcu_wait*.
constexpr StringRef kWaitPrefix = "vmcu_wait";
/// The default --quantum: cycles a core runs before the other may catch
/// up. Small against a kernel's work, large against the hook's stop cost.
constexpr uint64_t kDefaultQuantum = 64;
/// --bus-contention is kept in units of 1/kContentionScale cycle, so the
/// sum of fractional stalls is exact and deterministic.
constexpr uint32_t kContentionScale = 256;
/// The default --bus-contention, in cycles per RAM access while both
/// cores are in their regions: an assumption, not a measurement
/// (docs/tools/vmcu-prof.md, "Two cores"). Both cores reach the RAM
/// through the SSE-200's AHB5 bus matrix, which grants a bank to one
/// master per cycle; the data both cores work on sits in one bank (AN521's
/// SSRAM2 and SSRAM3 are not interleaved), and a core in a loop makes a
/// data access about every other cycle, so an access meets the other
/// core's half the time; it is charged the whole lost cycle (pessimistic:
/// round-robin arbitration would make it lose only half of those).
constexpr double kDefaultBusContention = 0.5;
/// The access rate that assumption is for: one RAM access every other
/// cycle, in 1/kContentionScale units per cycle. A core's measured rate
/// in its last slice scales the other core's stalls (contend()).
constexpr uint64_t kReferenceDensity = kContentionScale / 2;
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
/// The harness's console lines (runtime/harness.c).
constexpr StringRef kSummaryPrefix = "vmcu: arena=";
constexpr StringRef kVtimePrefix = "vmcu: vtime_ns=";

/// Appended to the error for an exception.
constexpr StringRef kNoExceptionsNote =
    "; vmcu-prof does not emulate exception entry (on QEMU, vmcu-run shows "
    "the runtime's fault report)";

/// The default --max-instructions: about a minute and a half of emulation
/// (~20-25 M instructions/s with the per-instruction hook).
constexpr uint64_t kDefaultMaxInstructions = 2'000'000'000;

/// Exit statuses of the runtime (runtime/vmcu_runtime.h), by value.
constexpr StringRef kStatusMeanings[] = {
    "ok",
    "vmcu_invoke() returned non-zero",
    "input or output file error",
    "HardFault or another unexpected exception",
    "stack overflow",
    "ring-safety violation",
};

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
  cl::opt<std::string> input{
      "input", cl::Required,
      cl::desc("Input bytes of the model (exactly its input size)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> output{
      "output", cl::desc("Where to write the output bytes (default: nowhere)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> cpu{
      "cpu",
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
      "symbol-prefix",
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
      "cores",
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
      "flash-wait-states",
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

std::string hex(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(value, 10);
  return text;
}

struct FunctionSymbol {
  uint32_t address, size;
  std::string name;
};

/// What the profiler read from the ELF.
struct Image {
  struct Segment {
    uint32_t address, fileSize, memorySize;
    StringRef bytes;
  };
  std::vector<Segment> segments;
  std::vector<FunctionSymbol> functions; // sorted by address
  std::unordered_map<std::string, uint32_t> symbols;
  /// Lowest and highest address of executable segments.
  uint32_t codeLow = 0, codeHigh = 0;
  /// The model's C API names.
  ModelSymbols api{model_abi::kSymbolPrefix};

  std::optional<uint32_t> lookup(StringRef name) const {
    auto it = symbols.find(name.str());
    if (it == symbols.end())
      return std::nullopt;
    return it->second;
  }
};

/// Reads an ARM ELF executable's load segments and symbols. On failure
/// returns the message.
std::optional<std::string> readImage(StringRef path, StringRef contents,
                                     Image &image) {
  using ELFT = llvm::object::ELF32LE;
  auto notArm = [&](const Twine &why) {
    return ("'" + path + "' is not a 32-bit ARM ELF executable: " + why).str();
  };
  if (contents.size() < llvm::ELF::EI_NIDENT ||
      !contents.starts_with(llvm::ELF::ElfMagic))
    return notArm("no ELF header");
  if (contents[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS32 ||
      contents[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    return notArm("not ELF32 little-endian");
  llvm::Expected<llvm::object::ELFFile<ELFT>> file =
      llvm::object::ELFFile<ELFT>::create(contents);
  if (!file)
    return notArm(llvm::toString(file.takeError()));
  const auto &header = file->getHeader();
  if (header.e_machine != llvm::ELF::EM_ARM)
    return notArm("machine is not EM_ARM");
  if (header.e_type != llvm::ELF::ET_EXEC)
    return notArm("not an executable (link it with vmcu-run --keep-temps)");

  auto phdrs = file->program_headers();
  if (!phdrs)
    return notArm(llvm::toString(phdrs.takeError()));
  bool haveCode = false;
  for (const auto &phdr : *phdrs) {
    if (phdr.p_type != llvm::ELF::PT_LOAD || phdr.p_memsz == 0)
      continue;
    if (phdr.p_offset + phdr.p_filesz > contents.size() ||
        phdr.p_filesz > phdr.p_memsz)
      return notArm("a load segment lies outside the file");
    // Loaded at its physical (load) address, as QEMU's -kernel does.
    image.segments.push_back({static_cast<uint32_t>(phdr.p_paddr),
                              static_cast<uint32_t>(phdr.p_filesz),
                              static_cast<uint32_t>(phdr.p_memsz),
                              contents.substr(phdr.p_offset, phdr.p_filesz)});
    if (phdr.p_flags & llvm::ELF::PF_X) {
      uint32_t low = phdr.p_paddr, high = phdr.p_paddr + phdr.p_filesz;
      image.codeLow = haveCode ? std::min(image.codeLow, low) : low;
      image.codeHigh = haveCode ? std::max(image.codeHigh, high) : high;
      haveCode = true;
    }
  }
  if (!haveCode)
    return notArm("no executable load segment");

  auto sections = file->sections();
  if (!sections)
    return notArm(llvm::toString(sections.takeError()));
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto strtab = file->getStringTableForSymtab(section);
    auto syms = file->symbols(&section);
    if (!strtab || !syms) {
      llvm::consumeError(strtab.takeError());
      llvm::consumeError(syms.takeError());
      return notArm("unreadable symbol table");
    }
    for (const auto &sym : *syms) {
      auto name = sym.getName(*strtab);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (name->empty() || sym.getType() == llvm::ELF::STT_SECTION ||
          sym.getType() == llvm::ELF::STT_FILE)
        continue;
      uint32_t value = sym.st_value;
      if (sym.getType() == llvm::ELF::STT_FUNC) {
        value &= ~kThumbBit;
        if (sym.st_size)
          image.functions.push_back(
              {value, static_cast<uint32_t>(sym.st_size), name->str()});
      }
      // Globals win over locals of the same name.
      if (sym.getBinding() != llvm::ELF::STB_LOCAL ||
          !image.symbols.count(name->str()))
        image.symbols[name->str()] = value;
    }
  }
  std::sort(image.functions.begin(), image.functions.end(),
            [](const FunctionSymbol &a, const FunctionSymbol &b) {
              return a.address < b.address ||
                     (a.address == b.address && a.name < b.name);
            });
  image.functions.erase(
      std::unique(image.functions.begin(), image.functions.end(),
                  [](const FunctionSymbol &a, const FunctionSymbol &b) {
                    return a.address == b.address;
                  }),
      image.functions.end());
  return std::nullopt;
}

struct Counts {
  uint64_t instructions = 0, cycles = 0;
};

/// The board's FLASH and RAM as host buffers that every core's engine maps
/// (uc_mem_map_ptr): with --cores=2, one core's stores are the other's.
struct SharedMemory {
  struct Region {
    uint32_t base = 0, size = 0;
    /// Page-aligned, zero until written (an anonymous mapping, as
    /// uc_mem_map's own memory is).
    llvm::sys::MemoryBlock block;
    uint8_t *bytes() const { return static_cast<uint8_t *>(block.base()); }
    bool holds(uint64_t low, uint64_t high) const {
      return low >= base && high <= static_cast<uint64_t>(base) + size;
    }
    Region() = default;
    Region(const Region &) = delete;
    Region &operator=(const Region &) = delete;
    ~Region() {
      if (block.base())
        llvm::sys::Memory::releaseMappedMemory(block);
    }
  };
  Region flash, ram;
};

/// The SSE-200 registers --cores=2 emulates, shared by both engines.
struct Sse200 {
  uint32_t cpuWait = kCpuWaitReset, initSvtor1 = kInitSvtorReset;
  /// Core 0's clock when it cleared CPUWAIT bit 1.
  std::optional<uint64_t> releaseCycle;
};

/// Sets `memory`'s regions from the ELF's linker-script symbols (else the
/// board's) and allocates them zeroed. On failure returns the message.
std::optional<std::string>
allocateMemory(const Board &board, const Image &image, SharedMemory &memory) {
  uint32_t flashBase = board.flashBase, flashSize = board.flashSize;
  uint32_t ramBase = board.ramBase, ramSize = board.ramSize;
  auto flashStart = image.lookup(kFlashStartSymbol);
  auto flashLength = image.lookup(kFlashSizeSymbol);
  auto ramEnd = image.lookup(kRamEndSymbol);
  auto ramLength = image.lookup(kRamSizeSymbol);
  if (flashStart && flashLength && ramEnd && ramLength) {
    flashBase = *flashStart;
    flashSize = *flashLength;
    ramSize = *ramLength;
    ramBase = *ramEnd - *ramLength;
  }
  auto pageAligned = [](uint32_t v) { return v % kPageSize == 0; };
  if (!pageAligned(flashBase) || !pageAligned(flashSize) ||
      !pageAligned(ramBase) || !pageAligned(ramSize) || !flashSize || !ramSize)
    return "the ELF's memory regions (FLASH " + hex(flashBase) + "+" +
           hex(flashSize) + ", RAM " + hex(ramBase) + "+" + hex(ramSize) +
           ") are not 4 KiB aligned";
  for (auto [region, base, size] :
       {std::tuple{&memory.flash, flashBase, flashSize},
        std::tuple{&memory.ram, ramBase, ramSize}}) {
    region->base = base;
    region->size = size;
    std::error_code ec;
    region->block = llvm::sys::Memory::allocateMappedMemory(
        size, nullptr, llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE,
        ec);
    if (ec)
      return "cannot allocate " + hex(size) +
             " bytes for the board's memory: " + ec.message();
  }
  return std::nullopt;
}

/// Copies the image's load segments into `memory` (once for all cores);
/// the rest of memsz stays zero. On failure returns the message.
std::optional<std::string> loadSegments(const Image &image,
                                        SharedMemory &memory) {
  for (const Image::Segment &segment : image.segments) {
    uint64_t end = static_cast<uint64_t>(segment.address) + segment.memorySize;
    SharedMemory::Region *region =
        memory.flash.holds(segment.address, end) ? &memory.flash
        : memory.ram.holds(segment.address, end) ? &memory.ram
                                                 : nullptr;
    if (!region)
      return "load segment " + hex(segment.address) + "-" + hex(end) +
             " is outside the board's FLASH and RAM";
    std::memcpy(region->bytes() + (segment.address - region->base),
                segment.bytes.data(), segment.fileSize);
  }
  return std::nullopt;
}

/// The emulator and its cycle accounting.
class Profiler {
public:
  Profiler(const Image &image, Semihosting &host, uint64_t maxInstructions,
           bool wholeProgram, StringRef regionSymbol)
      : functionCounts(image.functions.size() + 1), image(image), host(host),
        maxInstructions(maxInstructions), wholeProgram(wholeProgram),
        regionSymbol(regionSymbol), inRegion(wholeProgram) {}
  ~Profiler() {
    if (disassembler)
      cs_close(&disassembler);
    if (uc)
      uc_close(uc);
  }

  /// Maps the board's memory (already loaded) and sets up the hooks. On
  /// failure returns the message.
  std::optional<std::string> setUp(const Board &board,
                                   const SharedMemory &memory);
  /// Runs from the reset vector to the program's exit. On failure (anything
  /// but a semihosting exit) returns the message.
  std::optional<std::string> run();

  /// --cores=2: makes this core `index` of the SSE-200 `system`, next to
  /// `other`, and charges `contentionUnits` (1/kContentionScale cycle) per
  /// RAM-accessing instruction while both are in their regions.
  std::optional<std::string> attach(Sse200 &system, const Profiler &other,
                                    unsigned index, uint32_t contentionUnits,
                                    const SharedMemory &memory);
  /// Charges the stalls of `flash` to instruction fetches from and data
  /// reads of the board's FLASH.
  std::optional<std::string> timeFlash(const FlashTiming &flash,
                                       const SharedMemory &memory);
  /// Starts the core at the vector table at `table` (SP and PC from its
  /// first two words), its clock at `startCycle`. On failure returns the
  /// message.
  std::optional<std::string> reset(uint32_t table, uint64_t startCycle);
  /// Runs the started core until its clock has advanced by `cycles`
  /// (stopping at the next instruction boundary outside an IT block) or
  /// the program exits. On failure returns the message.
  std::optional<std::string> runFor(uint64_t cycles);
  /// Cycles since core 0's reset (core 1 starts at its release).
  uint64_t clock() const { return startCycle + program.cycles; }
  bool hasStarted() const { return started; }
  bool hasExited() const { return exited; }
  bool isInRegion() const { return inRegion; }
  /// RAM-accessing instructions per cycle in the core's last slice, in
  /// 1/kContentionScale units.
  uint64_t busDensity() const { return accessDensity; }

  Counts region, program;
  /// Dynamic events of the timing model inside the region.
  uint64_t branchPenaltyCycles = 0, failedConditions = 0, pipelinedLoads = 0,
           addressStalls = 0;
  /// Per function symbol, inside the region; the last entry holds the
  /// addresses no symbol covers.
  std::vector<Counts> functionCounts;
  /// Per instruction class, inside the region.
  Counts classCounts[kNumInsnClasses];
  /// Per instruction address, inside the region (only with --hot).
  std::unordered_map<uint32_t, Counts> pcCounts;
  bool countPcs = false;
  /// Whether to track the deepest SP inside the region (--stack).
  bool trackStack = false;
  /// Bytes of stack the region used below its caller's SP, if tracked.
  std::optional<uint32_t> regionStackBytes() const {
    if (!trackStack || regionDeepestSp > regionSp)
      return std::nullopt;
    return regionSp - regionDeepestSp;
  }
  uint64_t undecoded = 0;
  CycleModel model;
  /// Inside the region: cycles in vmcu_wait* functions, and the bus
  /// contention cycles charged (--cores=2).
  uint64_t waitCycles = 0, contentionCycles = 0;
  /// The flash model (--flash-wait-states), and the stall cycles it
  /// charged inside the region.
  std::optional<FlashTiming> flash;
  uint64_t flashFetchStalls = 0, flashReadStalls = 0;

private:
  static void onCode(uc_engine *uc, uint64_t address, uint32_t size,
                     void *self);
  static bool onUnmapped(uc_engine *uc, uc_mem_type type, uint64_t address,
                         int size, int64_t value, void *self);
  static void onInterrupt(uc_engine *uc, uint32_t number, void *self);
  static bool onInvalidInstruction(uc_engine *uc, void *self);
  static uint64_t onPpbRead(uc_engine *uc, uint64_t offset, unsigned size,
                            void *self);
  static void onPpbWrite(uc_engine *uc, uint64_t offset, unsigned size,
                         uint64_t value, void *self);
  static uint64_t onSysctlRead(uc_engine *uc, uint64_t offset, unsigned size,
                               void *self);
  static void onSysctlWrite(uc_engine *uc, uint64_t offset, unsigned size,
                            uint64_t value, void *self);
  static uint64_t onIdentityRead(uc_engine *uc, uint64_t offset, unsigned size,
                                 void *self);
  static void onIdentityWrite(uc_engine *uc, uint64_t offset, unsigned size,
                              uint64_t value, void *self);
  static void onRamAccess(uc_engine *uc, uc_mem_type type, uint64_t address,
                          int size, int64_t value, void *self);
  static void onFlashRead(uc_engine *uc, uc_mem_type type, uint64_t address,
                          int size, int64_t value, void *self);
  void readFlash(uint32_t address, unsigned size);
  unsigned fetchStall(uint32_t pc, unsigned size);

  std::optional<std::string> emulate();
  std::optional<std::string> diagnose(uc_err err);
  bool stopsForQuantum(uint32_t pc);
  void trackRegion(uint32_t pc);
  void contend();
  std::string unsupportedRegister(uint32_t address, StringRef access);

  void step(uint32_t pc);
  const DecodedInsn &decode(uint32_t pc);

public:
  /// The instruction at pc as text ("mnemonic operands").
  std::string disassemble(uint32_t pc);
  /// The function symbol index of an executed instruction.
  int32_t decodedFunction(uint32_t pc) { return decode(pc).function; }

private:
  void retire(uint32_t pc, const DecodedInsn &insn, bool passed);
  void stop(std::string message);
  void account(int32_t function, InsnClass cls, bool inside, uint64_t cycles,
               uint64_t instructions);

  const Image &image;
  Semihosting &host;
  uint64_t maxInstructions;
  bool wholeProgram;
  StringRef regionSymbol;
  uc_engine *uc = nullptr;
  csh disassembler = 0;
  uc_hook hooks[6] = {};
  std::vector<DecodedInsn> codeCache; // by (pc - image.codeLow) / 2
  std::unordered_map<uint32_t, DecodedInsn> otherCache;
  std::unordered_map<uint32_t, uint32_t> ppb; // offset -> value

  // Region (vmcu_invoke(), or core 1's vmcu_worker()) tracking.
  uint32_t invokeAddress = 0;
  /// Per function symbol: whether it is a vmcu_wait* function.
  std::vector<bool> waitFunction;
  bool inRegion;
  uint32_t regionReturn = 0, regionSp = 0;
  uint32_t regionDeepestSp = UINT32_MAX;

  // The previous instruction, for the branch penalty.
  bool havePrevious = false;
  uint32_t expectedNext = 0;
  int32_t prevFunction = -1;
  uint8_t prevSize = 0;
  InsnClass prevClass = InsnClass::Alu;
  bool prevInRegion = false;

  uint8_t itState = 0; // ITSTATE of the next instruction
  uint32_t currentPc = 0;
  bool exited = false;

  // Scheduling (--cores=2): the PC to start or resume at, the local cycle
  // count at which to stop, and why the engine stopped.
  uint32_t resumePc = 0;
  uint64_t quantumEnd = UINT64_MAX;
  bool quantumStop = false, started = false;
  uint64_t startCycle = 0;
  // The SSE-200 and the other core (--cores=2 only).
  Sse200 *system = nullptr;
  const Profiler *other = nullptr;
  unsigned coreIndex = 0;
  uint32_t contentionUnits = 0;
  uint64_t contentionCarry = 0;
  /// The board's FLASH, whose fetches and reads the flash model times.
  uint64_t flashLow = 0, flashHigh = 0;
  /// RAM-accessing instructions so far, and their share of the cycles of
  /// the last slice this core ran (1/kContentionScale units; the
  /// reference density until it has run one).
  uint64_t ramAccesses = 0;
  uint64_t accessDensity = kReferenceDensity;
  /// program.instructions when a stall was last charged: one per
  /// instruction, however many accesses it makes.
  uint64_t lastContended = UINT64_MAX;
  std::optional<std::string> failure;
  uc_mem_type unmappedType = UC_MEM_READ;
  uint64_t unmappedAddress = 0;
  int unmappedSize = 0;
  bool sawUnmapped = false;
};

std::optional<std::string> Profiler::setUp(const Board &board,
                                           const SharedMemory &memory) {
  uc_err err = uc_open(
      UC_ARCH_ARM, static_cast<uc_mode>(UC_MODE_THUMB | UC_MODE_MCLASS), &uc);
  if (err != UC_ERR_OK) {
    uc = nullptr;
    return std::string("cannot start unicorn: ") + uc_strerror(err);
  }
  if ((err = uc_ctl_set_cpu_model(uc, board.model)) != UC_ERR_OK)
    return ("unicorn has no " + board.cpu + " model: ").str() +
           uc_strerror(err);
  for (const SharedMemory::Region *region : {&memory.flash, &memory.ram})
    if ((err = uc_mem_map_ptr(uc, region->base, region->size, UC_PROT_ALL,
                              region->bytes())) != UC_ERR_OK)
      return std::string("cannot map the board's memory: ") + uc_strerror(err);
  if ((err = uc_mmio_map(uc, kPpbBase, kPpbSize, onPpbRead, this, onPpbWrite,
                         this)) != UC_ERR_OK)
    return std::string("cannot map the Private Peripheral Bus: ") +
           uc_strerror(err);

  if (cs_open(CS_ARCH_ARM, static_cast<cs_mode>(CS_MODE_THUMB | CS_MODE_MCLASS),
              &disassembler) != CS_ERR_OK) {
    disassembler = 0;
    return std::string("cannot start capstone");
  }
  cs_option(disassembler, CS_OPT_DETAIL, CS_OPT_ON);
  if (image.codeHigh > image.codeLow)
    codeCache.resize((image.codeHigh - image.codeLow) / 2 + 1);
  for (const FunctionSymbol &function : image.functions)
    waitFunction.push_back(StringRef(function.name).starts_with(kWaitPrefix));

  if (!wholeProgram) {
    auto entry = image.lookup(regionSymbol);
    if (!entry)
      return "the ELF has no '" + regionSymbol.str() +
             "' symbol; give the model's --symbol-prefix if it was compiled "
             "with one, or use --whole-program to profile it anyway";
    invokeAddress = *entry & ~kThumbBit;
  }

  if (uc_hook_add(uc, &hooks[0], UC_HOOK_CODE, reinterpret_cast<void *>(onCode),
                  this, 1, 0) != UC_ERR_OK ||
      uc_hook_add(uc, &hooks[1], UC_HOOK_MEM_UNMAPPED,
                  reinterpret_cast<void *>(onUnmapped), this, 1,
                  0) != UC_ERR_OK ||
      uc_hook_add(uc, &hooks[2], UC_HOOK_INTR,
                  reinterpret_cast<void *>(onInterrupt), this, 1,
                  0) != UC_ERR_OK ||
      uc_hook_add(uc, &hooks[3], UC_HOOK_INSN_INVALID,
                  reinterpret_cast<void *>(onInvalidInstruction), this, 1,
                  0) != UC_ERR_OK)
    return std::string("cannot install the unicorn hooks");
  return std::nullopt;
}

std::optional<std::string> Profiler::attach(Sse200 &sse, const Profiler &peer,
                                            unsigned index, uint32_t units,
                                            const SharedMemory &memory) {
  system = &sse;
  other = &peer;
  coreIndex = index;
  contentionUnits = units;
  if (uc_mmio_map(uc, kSse200SysctlBase, kPageSize, onSysctlRead, this,
                  onSysctlWrite, this) != UC_ERR_OK ||
      uc_mmio_map(uc, kCpuIdentityBase, kPageSize, onIdentityRead, this,
                  onIdentityWrite, this) != UC_ERR_OK)
    return std::string("cannot map the SSE-200 registers");
  // Only RAM accesses contend (instruction fetches are not data hooks).
  uint64_t ramLast =
      static_cast<uint64_t>(memory.ram.base) + memory.ram.size - 1;
  if (uc_hook_add(uc, &hooks[4], UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE,
                  reinterpret_cast<void *>(onRamAccess), this, memory.ram.base,
                  ramLast) != UC_ERR_OK)
    return std::string("cannot install the RAM access hook");
  return std::nullopt;
}

std::optional<std::string> Profiler::timeFlash(const FlashTiming &timing,
                                               const SharedMemory &memory) {
  flash = timing;
  flashLow = memory.flash.base;
  flashHigh = flashLow + memory.flash.size;
  if (uc_hook_add(uc, &hooks[5], UC_HOOK_MEM_READ,
                  reinterpret_cast<void *>(onFlashRead), this, flashLow,
                  flashHigh - 1) != UC_ERR_OK)
    return std::string("cannot install the flash read hook");
  return std::nullopt;
}

std::optional<std::string> Profiler::reset(uint32_t table, uint64_t startAt) {
  uint32_t vectors[kResetVectorWords];
  if (uc_mem_read(uc, table, vectors, sizeof(vectors)) != UC_ERR_OK)
    return "no vector table at " + hex(table);
  uc_reg_write(uc, UC_ARM_REG_SP, &vectors[0]);
  uc_reg_write(uc, UC_ARM_REG_MSP, &vectors[0]);
  resumePc = vectors[1];
  startCycle = startAt;
  started = true;
  return std::nullopt;
}

std::optional<std::string> Profiler::run() {
  // The core takes its SP and PC from the vector table at FLASH start
  // (VTOR resets to 0 on this board).
  if (auto error = reset(image.lookup(kFlashStartSymbol).value_or(0), 0))
    return error;
  return emulate();
}

std::optional<std::string> Profiler::runFor(uint64_t cycles) {
  // Saturating: a huge --quantum means no limit.
  quantumEnd = cycles > UINT64_MAX - program.cycles ? UINT64_MAX
                                                    : program.cycles + cycles;
  uint64_t startCycles = program.cycles, startAccesses = ramAccesses;
  std::optional<std::string> error = emulate();
  // How busy this core kept the bus in its slice: the other core's
  // accesses contend in proportion (contend()).
  uint64_t sliceCycles = program.cycles - startCycles;
  if (sliceCycles)
    accessDensity = std::min<uint64_t>(kContentionScale,
                                       (ramAccesses - startAccesses) *
                                           kContentionScale / sliceCycles);
  return error;
}

std::optional<std::string> Profiler::emulate() {
  quantumStop = false;
  uc_err err = uc_emu_start(uc, resumePc | kThumbBit, /*until=*/0,
                            /*timeout=*/0, /*count=*/0);
  return diagnose(err);
}

std::optional<std::string> Profiler::diagnose(uc_err err) {
  if (failure)
    return failure;
  if (sawUnmapped) {
    const char *what = unmappedType == UC_MEM_FETCH_UNMAPPED   ? "fetch"
                       : unmappedType == UC_MEM_WRITE_UNMAPPED ? "write"
                                                               : "read";
    if (unmappedType == UC_MEM_FETCH_UNMAPPED)
      return "instruction fetch from unmapped memory at " +
             hex(unmappedAddress) +
             " (after the instruction at pc=" + hex(currentPc) + ")";
    return std::string("unmapped memory ") + what + " of " +
           std::to_string(unmappedSize) + " bytes at " + hex(unmappedAddress) +
           " by the instruction at pc=" + hex(currentPc);
  }
  if (err != UC_ERR_OK)
    return std::string("emulation stopped at pc=") + hex(currentPc) + ": " +
           uc_strerror(err);
  if (!exited && !quantumStop)
    return "the program stopped at pc=" + hex(currentPc) +
           " without exiting through semihosting";
  return std::nullopt;
}

std::string Profiler::disassemble(uint32_t pc) {
  uint8_t bytes[4] = {};
  size_t length = 4;
  if (uc_mem_read(uc, pc, bytes, 4) != UC_ERR_OK) {
    length = 2;
    uc_mem_read(uc, pc, bytes, 2);
  }
  cs_insn *insn = nullptr;
  if (cs_disasm(disassembler, bytes, length, pc, 1, &insn) != 1)
    return "<undecoded>";
  std::string text = std::string(insn->mnemonic) + " " + insn->op_str;
  cs_free(insn, 1);
  return text;
}

void Profiler::stop(std::string message) {
  if (!failure)
    failure = std::move(message);
  uc_emu_stop(uc);
}

const DecodedInsn &Profiler::decode(uint32_t pc) {
  DecodedInsn *slot;
  if (pc >= image.codeLow && pc < image.codeHigh)
    slot = &codeCache[(pc - image.codeLow) / 2];
  else
    slot = &otherCache[pc];
  if (slot->valid)
    return *slot;

  uint8_t bytes[4] = {};
  size_t length = 4;
  if (uc_mem_read(uc, pc, bytes, 4) != UC_ERR_OK) {
    length = 2; // the last halfword of a region
    uc_mem_read(uc, pc, bytes, 2);
  }
  cs_insn *insn = nullptr;
  if (cs_disasm(disassembler, bytes, length, pc, 1, &insn) == 1) {
    classifyInstruction(disassembler, *insn, *slot);
    cs_free(insn, 1);
  } else {
    classifyUndecoded(static_cast<uint16_t>(bytes[0] | bytes[1] << 8), *slot);
    ++undecoded;
  }
  // The function symbol holding pc.
  auto it = std::upper_bound(
      image.functions.begin(), image.functions.end(), pc,
      [](uint32_t a, const FunctionSymbol &f) { return a < f.address; });
  if (it != image.functions.begin()) {
    --it;
    if (pc < it->address + it->size)
      slot->function = static_cast<int32_t>(it - image.functions.begin());
  }
  return *slot;
}

void Profiler::account(int32_t function, InsnClass cls, bool inside,
                       uint64_t cycles, uint64_t instructions) {
  program.cycles += cycles;
  program.instructions += instructions;
  if (!inside)
    return;
  region.cycles += cycles;
  region.instructions += instructions;
  if (function >= 0 && waitFunction[function])
    waitCycles += cycles;
  Counts &f = functionCounts[function < 0 ? functionCounts.size() - 1
                                          : static_cast<size_t>(function)];
  f.cycles += cycles;
  f.instructions += instructions;
  Counts &k = classCounts[static_cast<unsigned>(cls)];
  k.cycles += cycles;
  k.instructions += instructions;
}

void Profiler::retire(uint32_t pc, const DecodedInsn &insn, bool passed) {
  if (itState) {
    // ITAdvance() (ARMv7-M ARM A7.3.3): shift the mask; the block ends
    // when its low three bits are zero.
    itState =
        (itState & 0x7) == 0
            ? 0
            : static_cast<uint8_t>((itState & 0xE0) | ((itState << 1) & 0x1F));
  }
  if (insn.cls == InsnClass::IfThen)
    itState = insn.itState;
  unsigned cycles = model.issue(insn, passed) + fetchStall(pc, insn.size);
  if (inRegion) {
    failedConditions += !passed;
    pipelinedLoads += model.lastPipelined;
    addressStalls += model.lastStalled;
  }
  account(insn.function, insn.cls, inRegion, cycles, 1);
  if (countPcs && inRegion) {
    Counts &c = pcCounts[pc];
    c.cycles += cycles;
    ++c.instructions;
  }
  havePrevious = true;
  expectedNext = pc + insn.size;
  prevSize = insn.size;
  prevFunction = insn.function;
  prevClass = insn.cls;
  prevInRegion = inRegion;
}

bool Profiler::stopsForQuantum(uint32_t pc) {
  // Before the instruction is costed, and never inside an IT block (whose
  // state the engine would lose), so resuming at pc counts it once.
  if (program.cycles < quantumEnd || itState)
    return false;
  quantumStop = true;
  resumePc = pc;
  uc_emu_stop(uc);
  return true;
}

void Profiler::trackRegion(uint32_t pc) {
  // Entering or leaving the region's function: it returns to the LR it
  // was called with, with the SP it was called with.
  if (!inRegion && pc == invokeAddress) {
    uint32_t lr = 0;
    uc_reg_read(uc, UC_ARM_REG_LR, &lr);
    uc_reg_read(uc, UC_ARM_REG_SP, &regionSp);
    regionReturn = lr & ~kThumbBit;
    inRegion = true;
    regionDeepestSp = std::min(regionDeepestSp, regionSp);
  } else if (inRegion && pc == regionReturn) {
    uint32_t sp = 0;
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    if (sp == regionSp)
      inRegion = false;
  }
}

void Profiler::step(uint32_t pc) {
  currentPc = pc;
  if (stopsForQuantum(pc))
    return;
  // unicorn calls the code hook only for IT-block instructions whose
  // condition passes (the hook sits after the condition check). The ones
  // it skipped are the block's addresses between the previous instruction
  // and this one: they issue as NOPs. (A branch may only end a block, so a
  // mismatch inside a block is always a skip.)
  while (itState && havePrevious && expectedNext != pc) {
    uint32_t skipped = expectedNext;
    retire(skipped, decode(skipped), /*passed=*/false);
  }
  // The previous instruction did not fall through: it branched (or wrote
  // the PC some other way), which costs a pipeline refill.
  if (havePrevious && pc != expectedNext) {
    unsigned refill = getPipelineRefillCycles();
    account(prevFunction, prevClass, prevInRegion, refill, 0);
    if (prevInRegion)
      branchPenaltyCycles += refill;
    if (countPcs && prevInRegion)
      pcCounts[expectedNext - prevSize].cycles += refill;
  }
  if (maxInstructions && program.instructions >= maxInstructions) {
    stop("the program did not finish within --max-instructions=" +
         std::to_string(maxInstructions) + " (at pc=" + hex(pc) + ")");
    return;
  }

  const DecodedInsn &insn = decode(pc);

  if (!wholeProgram)
    trackRegion(pc);

  if (trackStack && inRegion) {
    uint32_t sp = 0;
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    regionDeepestSp = std::min(regionDeepestSp, sp);
  }
  retire(pc, insn, /*passed=*/true);
  if (insn.cls != InsnClass::Semihosting)
    return;
  uint32_t op = 0, arg = 0, result = 0;
  uc_reg_read(uc, UC_ARM_REG_R0, &op);
  uc_reg_read(uc, UC_ARM_REG_R1, &arg);
  switch (host.call(uc, op, arg, result)) {
  case Semihosting::Outcome::Continue: {
    uc_reg_write(uc, UC_ARM_REG_R0, &result);
    // Resume after the BKPT: writing the PC from a code hook makes unicorn
    // leave the block before the BKPT executes.
    uint32_t next = expectedNext | kThumbBit;
    uc_reg_write(uc, UC_ARM_REG_PC, &next);
    return;
  }
  case Semihosting::Outcome::Exit:
    exited = true;
    uc_emu_stop(uc);
    return;
  case Semihosting::Outcome::Error:
    stop(host.error() + " (semihosting call at pc=" + hex(pc) + ")");
    return;
  }
}

void Profiler::onCode(uc_engine *, uint64_t address, uint32_t, void *self) {
  static_cast<Profiler *>(self)->step(static_cast<uint32_t>(address));
}

bool Profiler::onUnmapped(uc_engine *, uc_mem_type type, uint64_t address,
                          int size, int64_t, void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  if (!profiler->sawUnmapped) {
    profiler->sawUnmapped = true;
    profiler->unmappedType = type;
    profiler->unmappedAddress = address;
    profiler->unmappedSize = size;
  }
  return false; // stop
}

void Profiler::onInterrupt(uc_engine *, uint32_t number, void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  // QEMU's EXCP_* numbers (target/arm/cpu.h), which unicorn passes on.
  const char *name = "an exception";
  switch (number) {
  case 1:
    name = "an undefined instruction (UDF)";
    break;
  case 2:
    name = "a supervisor call (SVC)";
    break;
  case 3:
    name = "a prefetch abort";
    break;
  case 4:
    name = "a data abort (bus fault)";
    break;
  case 7:
    name = "a breakpoint (BKPT other than the semihosting 0xAB)";
    break;
  case 17:
    name = "a coprocessor access with the coprocessor disabled";
    break;
  case 18:
    name = "an invalid state (UsageFault INVSTATE)";
    break;
  case 22:
    name = "an unaligned access";
    break;
  default:
    break;
  }
  profiler->stop(std::string("the program raised ") + name + " (exception " +
                 std::to_string(number) + ") at pc=" +
                 hex(profiler->currentPc) + kNoExceptionsNote.str());
}

bool Profiler::onInvalidInstruction(uc_engine *, void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  profiler->stop("undefined instruction at pc=" + hex(profiler->currentPc) +
                 kNoExceptionsNote.str());
  return false;
}

uint64_t Profiler::onPpbRead(uc_engine *, uint64_t offset, unsigned,
                             void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  // SysTick does not count: its current value reads as the reload value,
  // i.e. a timer that has just been reloaded.
  if (offset == kSystCvrOffset)
    offset = kSystRvrOffset;
  auto it = profiler->ppb.find(static_cast<uint32_t>(offset));
  return it == profiler->ppb.end() ? 0 : it->second;
}

void Profiler::onPpbWrite(uc_engine *, uint64_t offset, unsigned,
                          uint64_t value, void *self) {
  static_cast<Profiler *>(self)->ppb[static_cast<uint32_t>(offset)] =
      static_cast<uint32_t>(value);
}

std::string Profiler::unsupportedRegister(uint32_t address, StringRef access) {
  return ("unsupported SSE-200 register " + access + " at " + hex(address) +
          " by the instruction at pc=" + hex(currentPc) +
          " (--cores=2 emulates INITSVTOR1, CPUWAIT and CPU_IDENTITY only)")
      .str();
}

uint64_t Profiler::onSysctlRead(uc_engine *, uint64_t offset, unsigned,
                                void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  if (offset == kInitSvtor1Offset)
    return profiler->system->initSvtor1;
  if (offset == kCpuWaitOffset)
    return profiler->system->cpuWait;
  profiler->stop(profiler->unsupportedRegister(
      kSse200SysctlBase + static_cast<uint32_t>(offset), "read"));
  return 0;
}

void Profiler::onSysctlWrite(uc_engine *, uint64_t offset, unsigned,
                             uint64_t value, void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  Sse200 &sse = *profiler->system;
  if (offset == kInitSvtor1Offset) {
    sse.initSvtor1 = static_cast<uint32_t>(value);
    return;
  }
  if (offset != kCpuWaitOffset) {
    profiler->stop(profiler->unsupportedRegister(
        kSse200SysctlBase + static_cast<uint32_t>(offset), "write"));
    return;
  }
  bool releases = (sse.cpuWait & kCpuWaitCore1) && !(value & kCpuWaitCore1);
  sse.cpuWait = static_cast<uint32_t>(value);
  if (!releases || sse.releaseCycle)
    return;
  // Core 1 starts at this cycle; stop at the next boundary so that the
  // scheduler starts it before this core runs further ahead.
  sse.releaseCycle = profiler->clock();
  profiler->quantumEnd = profiler->program.cycles;
}

uint64_t Profiler::onIdentityRead(uc_engine *, uint64_t offset, unsigned,
                                  void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  if (offset == 0)
    return profiler->coreIndex;
  profiler->stop(profiler->unsupportedRegister(
      kCpuIdentityBase + static_cast<uint32_t>(offset), "read"));
  return 0;
}

void Profiler::onIdentityWrite(uc_engine *, uint64_t offset, unsigned, uint64_t,
                               void *self) {
  auto *profiler = static_cast<Profiler *>(self);
  profiler->stop(profiler->unsupportedRegister(
      kCpuIdentityBase + static_cast<uint32_t>(offset), "write"));
}

void Profiler::onRamAccess(uc_engine *, uc_mem_type, uint64_t, int, int64_t,
                           void *self) {
  static_cast<Profiler *>(self)->contend();
}

void Profiler::contend() {
  // The access belongs to the instruction retired last (the code hook
  // runs before it executes).
  if (lastContended == program.instructions)
    return;
  lastContended = program.instructions;
  ++ramAccesses;
  if (!inRegion || !other->hasStarted() || !other->isInRegion())
    return;
  // --bus-contention is the stall when the other core accesses the bus
  // every other cycle (kReferenceDensity); a core that accesses it less
  // (a wait loop polling one word) stalls this one proportionally less.
  uint64_t density = std::min(other->busDensity(), kReferenceDensity);
  contentionCarry += contentionUnits * density / kReferenceDensity;
  uint64_t whole = contentionCarry / kContentionScale;
  contentionCarry %= kContentionScale;
  if (!whole)
    return;
  account(prevFunction, prevClass, /*inside=*/true, whole, 0);
  contentionCycles += whole;
}

unsigned Profiler::fetchStall(uint32_t pc, unsigned size) {
  if (!flash || pc < flashLow || pc >= flashHigh)
    return 0;
  unsigned stall = flash->fetch(pc, size, program.cycles);
  if (inRegion)
    flashFetchStalls += stall;
  return stall;
}

void Profiler::onFlashRead(uc_engine *, uc_mem_type, uint64_t address, int size,
                           int64_t, void *self) {
  static_cast<Profiler *>(self)->readFlash(static_cast<uint32_t>(address),
                                           static_cast<unsigned>(size));
}

void Profiler::readFlash(uint32_t address, unsigned size) {
  // As for contend(): the read belongs to the instruction retired last.
  unsigned stall = flash->read(address, size);
  if (!stall)
    return;
  account(prevFunction, prevClass, prevInRegion, stall, 0);
  if (!prevInRegion)
    return;
  flashReadStalls += stall;
  if (countPcs)
    pcCounts[expectedNext - prevSize].cycles += stall;
}

const Board *lookupBoard(StringRef cpu) {
  for (const Board &board : kBoards)
    if (board.cpu == cpu)
      return &board;
  return nullptr;
}

/// Prints the console except the harness's summary and vtime lines.
void printConsole(StringRef console, bool all) {
  llvm::SmallVector<StringRef> lines;
  console.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    StringRef text = line.trim();
    if (text.starts_with(kVtimePrefix))
      continue;
    if (!all && text.starts_with(kSummaryPrefix))
      continue;
    llvm::errs() << line << "\n";
  }
}

void printPerFunction(const Image &image, const Profiler &profiler,
                      bool wholeProgram) {
  std::string regionName =
      wholeProgram ? "the whole program" : image.api.invoke + "()";
  llvm::raw_ostream &os = llvm::outs();
  const Counts &region = profiler.region;
  auto percent = [&](uint64_t cycles) {
    return region.cycles ? 100.0 * cycles / region.cycles : 0.0;
  };
  std::vector<size_t> order;
  for (size_t i = 0; i < profiler.functionCounts.size(); ++i)
    if (profiler.functionCounts[i].instructions)
      order.push_back(i);
  // Most cycles first; equals in symbol order.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    uint64_t x = profiler.functionCounts[a].cycles;
    uint64_t y = profiler.functionCounts[b].cycles;
    return x != y ? x > y : a < b;
  });
  os << "\ncycles by function in " << regionName
     << " (self; ELF function symbols)\n";
  os << llvm::format("%14s %14s %8s %7s  %s\n", "cycles", "instructions",
                     "cyc/ins", "%cyc", "function");
  for (size_t i : order) {
    const Counts &c = profiler.functionCounts[i];
    std::string name =
        i < image.functions.size() ? image.functions[i].name : "<no symbol>";
    os << llvm::format(
        "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)c.cycles,
        (unsigned long long)c.instructions, (double)c.cycles / c.instructions,
        percent(c.cycles), name.c_str());
  }
  os << llvm::format(
      "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)region.cycles,
      (unsigned long long)region.instructions,
      region.instructions ? (double)region.cycles / region.instructions : 0.0,
      100.0, "total");

  os << "\ncycles by instruction class in " << regionName
     << " (taken-branch refills charged to the branch)\n";
  os << llvm::format("%14s %14s %8s %7s  %s\n", "cycles", "instructions",
                     "cyc/ins", "%cyc", "class");
  for (unsigned i = 0; i < kNumInsnClasses; ++i) {
    const Counts &c = profiler.classCounts[i];
    if (!c.instructions)
      continue;
    os << llvm::format(
        "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)c.cycles,
        (unsigned long long)c.instructions, (double)c.cycles / c.instructions,
        percent(c.cycles), getInsnClassName(static_cast<InsnClass>(i)));
  }
  os << "\nmodel events in " << regionName << ": branch refills "
     << profiler.branchPenaltyCycles << " cycles, pipelined loads "
     << profiler.pipelinedLoads << ", address-dependency stalls "
     << profiler.addressStalls << ", failed IT conditions "
     << profiler.failedConditions << "\n";
  if (!wholeProgram)
    os << "whole program: cycles=" << profiler.program.cycles
       << " instructions=" << profiler.program.instructions << "\n";
}

/// The `count` instructions that took the most cycles in the region, with
/// their function and disassembly.
void printHot(const Image &image, Profiler &profiler, unsigned count) {
  std::vector<std::pair<uint32_t, Counts>> hot(profiler.pcCounts.begin(),
                                               profiler.pcCounts.end());
  std::sort(hot.begin(), hot.end(), [](const auto &a, const auto &b) {
    return a.second.cycles > b.second.cycles ||
           (a.second.cycles == b.second.cycles && a.first < b.first);
  });
  hot.resize(std::min<size_t>(hot.size(), count));
  llvm::raw_ostream &os = llvm::outs();
  os << "\nhottest instructions (cycles include taken-branch refills)\n";
  os << llvm::format("%12s %12s %10s  %-36s %s\n", "cycles", "executed",
                     "address", "instruction", "function");
  for (auto &[pc, c] : hot) {
    int32_t function = profiler.decodedFunction(pc);
    std::string name = function >= 0 ? image.functions[function].name : "?";
    os << llvm::format("%12llu %12llu %10s  %-36s %s\n",
                       (unsigned long long)c.cycles,
                       (unsigned long long)c.instructions, hex(pc).c_str(),
                       profiler.disassemble(pc).c_str(), name.c_str());
  }
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

/// Word `index` of the model's constant `name`, read from the ELF's load
/// segments (what the loaded flash holds).
std::optional<uint32_t> readConstant(const Image &image, StringRef name,
                                     uint32_t index = 0) {
  auto address = image.lookup(name);
  uint32_t value;
  if (!address)
    return std::nullopt;
  *address += index * sizeof(value);
  for (const Image::Segment &segment : image.segments)
    if (*address >= segment.address &&
        *address + sizeof(value) <= segment.address + segment.fileSize) {
      std::memcpy(&value, segment.bytes.data() + (*address - segment.address),
                  sizeof(value));
      return value;
    }
  return std::nullopt;
}

/// Every input's (output's) bytes together: the sum of the `count`
/// entries of the array `sizes`.
std::optional<uint32_t> totalBytes(const Image &image, StringRef count,
                                   StringRef sizes) {
  std::optional<uint32_t> n = readConstant(image, count);
  if (!n)
    return std::nullopt;
  uint32_t total = 0;
  for (uint32_t i = 0; i < *n; ++i) {
    std::optional<uint32_t> size = readConstant(image, sizes, i);
    if (!size)
      return std::nullopt;
    total += *size;
  }
  return total;
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

/// The --cores=2 summary line (kOverview explains its fields).
void printTwoCoreSummary(const Board &board, const Profiler &core0,
                         const Profiler &core1, int status) {
  auto busy = [](const Profiler &core) {
    return core.region.cycles - core.waitCycles;
  };
  llvm::outs() << kToolName << ": " << board.cpu
               << " cores=2 makespan=" << core0.region.cycles
               << " core0_cycles=" << busy(core0)
               << " core1_cycles=" << busy(core1)
               << " core0_wait=" << core0.waitCycles
               << " core1_wait=" << core1.waitCycles << " contention="
               << core0.contentionCycles + core1.contentionCycles
               << " instructions="
               << core0.region.instructions + core1.region.instructions
               << " status=" << status << "\n";
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
    StringRef meaning = "see the console above";
    if (status > 0 && static_cast<size_t>(status) < std::size(kStatusMeanings))
      meaning = kStatusMeanings[status];
    return ("the program exited with status " + Twine(status) + " (" + meaning +
            ")")
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
  if (auto error = readFile(opts.input, "input file ", program.inputBuffer))
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
  if (auto error = checkInputSize(image, opts.input, inputBytes.size()))
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
  if (!opts.output.empty())
    if (auto error = writeOutput(image, host, opts.output))
      return fail(*error);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  return runMain(argc, argv);
}
