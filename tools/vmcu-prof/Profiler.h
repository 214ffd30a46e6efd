//===- Profiler.h - the emulator and its cycle accounting -------*- C++ -*-===//
//
// One core of the board on a unicorn engine: Profiler runs the ELF's
// loaded memory, costs every executed instruction with CycleModel (and the
// flash model, with --flash-wait-states), serves the semihosting calls and
// keeps the counts the reports print. With --cores=2 two Profilers share
// the memory and the SSE-200 registers that start core 1, and charge each
// other's bus contention.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_PROFILER_H
#define VMCU_TOOLS_VMCU_PROF_PROFILER_H

#include "CortexM4Timing.h"
#include "ElfImage.h"
#include "FlashTiming.h"
#include "Semihosting.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Memory.h"

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace vmcu::prof {

/// A core and the memory map of its board, as runtime/boards/<board>.ld
/// defines it. Used only when the ELF lacks the linker script's symbols
/// (kFlashSizeSymbol, ...), which describe the same regions.
struct Board {
  llvm::StringRef cpu;
  /// The unicorn core that executes it.
  uc_cpu_arm model;
  uint32_t flashBase, flashSize, ramBase, ramSize;
};

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

/// `value` as 0x and eight hex digits (more if it needs them).
std::string hex(uint64_t value);

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
allocateMemory(const Board &board, const Image &image, SharedMemory &memory);

/// Copies the image's load segments into `memory` (once for all cores);
/// the rest of memsz stays zero. On failure returns the message.
std::optional<std::string> loadSegments(const Image &image,
                                        SharedMemory &memory);

/// The emulator and its cycle accounting.
class Profiler {
public:
  Profiler(const Image &image, Semihosting &host, uint64_t maxInstructions,
           bool wholeProgram, llvm::StringRef regionSymbol)
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
  std::string unsupportedRegister(uint32_t address, llvm::StringRef access);

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
  llvm::StringRef regionSymbol;
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

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_PROFILER_H
