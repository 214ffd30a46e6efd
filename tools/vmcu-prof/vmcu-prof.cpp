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
#include "Semihosting.h"

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
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

using namespace vmcu::prof;
namespace cl = llvm::cl;
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
/// The model's entry point and its size constants (vmcu_model_api.h).
constexpr StringRef kInvokeSymbol = "vmcu_invoke";
/// Every input's (output's) bytes: the count and the array of sizes; the
/// harness reads (writes) them one after another.
constexpr StringRef kInputCountSymbol = "vmcu_input_count";
constexpr StringRef kInputSizesSymbol = "vmcu_input_sizes";
constexpr StringRef kOutputCountSymbol = "vmcu_output_count";
constexpr StringRef kOutputSizesSymbol = "vmcu_output_sizes";

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
Not modelled: flash wait states, caches or accelerators, bus contention,
unaligned-access penalties, IT folding, branch target alignment, division
early termination, interrupts and exceptions. The figure is an estimate
for zero-wait-state memory, not a measurement of any chip.

Limits of the emulation: only cortex-m4 has a timing table; memory is the
board's FLASH and RAM (from the linker script's symbols) plus the Private
Peripheral Bus as a plain register file (SysTick does not count, so the
harness's vtime_ns line is not shown); any exception (fault, SVC, UDF) stops
the run with an error instead of entering the runtime's fault handler.

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
  cl::opt<bool> wholeProgram{
      "whole-program",
      cl::desc("Count from reset to exit, not only vmcu_invoke()"),
      cl::init(false), cl::cat(category)};
  cl::opt<uint64_t> maxInstructions{
      "max-instructions",
      cl::desc("Stop with an error after this many instructions (whole "
               "program; 0: no limit)"),
      cl::init(kDefaultMaxInstructions), cl::cat(category)};
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

/// The emulator and its cycle accounting.
class Profiler {
public:
  Profiler(const Image &image, Semihosting &host, uint64_t maxInstructions,
           bool wholeProgram)
      : functionCounts(image.functions.size() + 1), image(image), host(host),
        maxInstructions(maxInstructions), wholeProgram(wholeProgram),
        inRegion(wholeProgram) {}
  ~Profiler() {
    if (disassembler)
      cs_close(&disassembler);
    if (uc)
      uc_close(uc);
  }

  /// Maps the board's memory, loads the image and sets up the hooks. On
  /// failure returns the message.
  std::optional<std::string> setUp(const Board &board);
  /// Runs from the reset vector to the program's exit. On failure (anything
  /// but a semihosting exit) returns the message.
  std::optional<std::string> run();

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
  uc_engine *uc = nullptr;
  csh disassembler = 0;
  uc_hook hooks[4] = {};
  std::vector<DecodedInsn> codeCache; // by (pc - image.codeLow) / 2
  std::unordered_map<uint32_t, DecodedInsn> otherCache;
  std::unordered_map<uint32_t, uint32_t> ppb; // offset -> value

  // Region (vmcu_invoke()) tracking.
  uint32_t invokeAddress = 0;
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
  std::optional<std::string> failure;
  uc_mem_type unmappedType = UC_MEM_READ;
  uint64_t unmappedAddress = 0;
  int unmappedSize = 0;
  bool sawUnmapped = false;
};

std::optional<std::string> Profiler::setUp(const Board &board) {
  // Regions from the linker script's symbols when present.
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

  uc_err err = uc_open(
      UC_ARCH_ARM, static_cast<uc_mode>(UC_MODE_THUMB | UC_MODE_MCLASS), &uc);
  if (err != UC_ERR_OK) {
    uc = nullptr;
    return std::string("cannot start unicorn: ") + uc_strerror(err);
  }
  if ((err = uc_ctl_set_cpu_model(uc, board.model)) != UC_ERR_OK)
    return ("unicorn has no " + board.cpu + " model: ").str() +
           uc_strerror(err);
  if ((err = uc_mem_map(uc, flashBase, flashSize, UC_PROT_ALL)) != UC_ERR_OK ||
      (err = uc_mem_map(uc, ramBase, ramSize, UC_PROT_ALL)) != UC_ERR_OK)
    return std::string("cannot map the board's memory: ") + uc_strerror(err);
  if ((err = uc_mmio_map(uc, kPpbBase, kPpbSize, onPpbRead, this, onPpbWrite,
                         this)) != UC_ERR_OK)
    return std::string("cannot map the Private Peripheral Bus: ") +
           uc_strerror(err);

  auto inRegionRange = [](uint64_t low, uint64_t high, uint32_t base,
                          uint32_t size) {
    return low >= base && high <= static_cast<uint64_t>(base) + size;
  };
  for (const Image::Segment &segment : image.segments) {
    uint64_t end = static_cast<uint64_t>(segment.address) + segment.memorySize;
    if (!inRegionRange(segment.address, end, flashBase, flashSize) &&
        !inRegionRange(segment.address, end, ramBase, ramSize))
      return "load segment " + hex(segment.address) + "-" + hex(end) +
             " is outside the board's FLASH and RAM";
    if (segment.fileSize &&
        uc_mem_write(uc, segment.address, segment.bytes.data(),
                     segment.fileSize) != UC_ERR_OK)
      return "cannot load segment " + hex(segment.address);
    // The rest of memsz stays zero, as unicorn's fresh memory is.
  }

  if (cs_open(CS_ARCH_ARM, static_cast<cs_mode>(CS_MODE_THUMB | CS_MODE_MCLASS),
              &disassembler) != CS_ERR_OK) {
    disassembler = 0;
    return std::string("cannot start capstone");
  }
  cs_option(disassembler, CS_OPT_DETAIL, CS_OPT_ON);
  if (image.codeHigh > image.codeLow)
    codeCache.resize((image.codeHigh - image.codeLow) / 2 + 1);

  if (!wholeProgram) {
    auto invoke = image.lookup(kInvokeSymbol);
    if (!invoke)
      return "the ELF has no '" + kInvokeSymbol.str() +
             "' symbol; use --whole-program to profile it anyway";
    invokeAddress = *invoke & ~kThumbBit;
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

std::optional<std::string> Profiler::run() {
  // The core takes its SP and PC from the vector table at FLASH start
  // (VTOR resets to 0 on this board).
  uint32_t vectors[kResetVectorWords];
  uint32_t vectorTable = image.lookup(kFlashStartSymbol).value_or(0);
  if (uc_mem_read(uc, vectorTable, vectors, sizeof(vectors)) != UC_ERR_OK)
    return "no vector table at " + hex(vectorTable);
  uc_reg_write(uc, UC_ARM_REG_SP, &vectors[0]);
  uc_reg_write(uc, UC_ARM_REG_MSP, &vectors[0]);
  uint32_t entry = vectors[1] | kThumbBit;
  uc_err err = uc_emu_start(uc, entry, /*until=*/0, /*timeout=*/0,
                            /*count=*/0);
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
  if (!exited)
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
  unsigned cycles = model.issue(insn, passed);
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

void Profiler::step(uint32_t pc) {
  currentPc = pc;
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

  // Entering or leaving vmcu_invoke(): it returns to the LR it was called
  // with, with the SP it was called with.
  if (!wholeProgram) {
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
      wholeProgram ? "the whole program" : kInvokeSymbol.str() + "()";
  llvm::raw_ostream &os = llvm::outs();
  const Counts &region = profiler.region;
  auto percent = [&](uint64_t cycles) {
    return region.cycles ? 100.0 * cycles / region.cycles : 0.0;
  };
  std::vector<size_t> order;
  for (size_t i = 0; i < profiler.functionCounts.size(); ++i)
    if (profiler.functionCounts[i].instructions)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return profiler.functionCounts[a].cycles >
           profiler.functionCounts[b].cycles;
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
      totalBytes(image, kInputCountSymbol, kInputSizesSymbol);
  if (modelInputSize && inputSize != *modelInputSize)
    return ("input file '" + inputPath + "' has " + Twine(inputSize) +
            " bytes, but the model's input has " + Twine(*modelInputSize))
        .str();
  return std::nullopt;
}

/// The console, the summary line, the reports --per-function and --hot ask
/// for and the warning for undecoded instructions.
void printResults(const ProfOptions &opts, const Board &board,
                  const Image &image, Profiler &profiler,
                  const Semihosting &host) {
  int status = host.exitStatus();
  printConsole(host.console(), /*all=*/status != 0);
  llvm::outs() << kToolName << ": " << board.cpu
               << " cycles=" << profiler.region.cycles
               << " instructions=" << profiler.region.instructions
               << " status=" << status << "\n";
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
std::optional<std::string>
checkCompletion(const ProfOptions &opts, const Profiler &profiler, int status) {
  if (status != 0) {
    StringRef meaning = "see the console above";
    if (status > 0 && static_cast<size_t>(status) < std::size(kStatusMeanings))
      meaning = kStatusMeanings[status];
    return ("the program exited with status " + Twine(status) + " (" + meaning +
            ")")
        .str();
  }
  if (!opts.wholeProgram && profiler.region.instructions == 0)
    return "the program never called " + kInvokeSymbol.str() + "()";
  return std::nullopt;
}

/// Writes the output bytes the program wrote to `path`. On failure (no
/// output, or not the model's output size) returns the message.
std::optional<std::string>
writeOutput(const Image &image, const Semihosting &host, StringRef path) {
  std::optional<uint32_t> outputSize =
      totalBytes(image, kOutputCountSymbol, kOutputSizesSymbol);
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

int runMain(int argc, char **argv) {
  ProfOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  const Board *board = lookupBoard(opts.cpu);
  if (!board)
    return fail("unknown --cpu '" + opts.cpu +
                "'; expected cortex-m4 or cortex-m33");
  std::unique_ptr<llvm::MemoryBuffer> elfBuffer, inputBuffer;
  Image image;
  if (auto error = readFile(opts.elf, "", elfBuffer))
    return fail(*error);
  if (auto error = readImage(opts.elf, elfBuffer->getBuffer(), image))
    return fail(*error);
  if (auto error = readFile(opts.input, "input file ", inputBuffer))
    return fail(*error);
  StringRef inputBytes = inputBuffer->getBuffer();

  Semihosting host = makeHost(opts.elf, inputBytes);
  Profiler profiler(image, host, opts.maxInstructions, opts.wholeProgram);
  profiler.countPcs = opts.hot > 0;
  profiler.trackStack = opts.stack;
  if (auto error = profiler.setUp(*board))
    return fail(*error);
  if (auto error = checkInputSize(image, opts.input, inputBytes.size()))
    return fail(*error);
  if (auto error = profiler.run()) {
    printConsole(host.console(), /*all=*/true);
    return fail(*error);
  }

  printResults(opts, *board, image, profiler, host);
  if (auto error = checkCompletion(opts, profiler, host.exitStatus()))
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
