//===- Profiler.cpp - the emulator and its cycle accounting ---------------===//
//
// Profiler's set-up of unicorn and capstone, its per-instruction hook
// (decode once, cost, account to region, function, class and address), its
// diagnostics, and the memory-mapped registers it emulates: the Private
// Peripheral Bus as a register file and, with --cores=2, the SSE-200's
// CPUWAIT, INITSVTOR1 and CPU_IDENTITY, the RAM accesses that contend and
// the flash reads that stall.
//
//===----------------------------------------------------------------------===//

#include "Profiler.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using llvm::StringRef;

namespace vmcu::prof {
namespace {

/// unicorn maps memory in 4 KiB pages.
constexpr uint32_t kPageSize = 0x1000;
/// The Private Peripheral Bus (ARMv7-M ARM B3.1): SCB, NVIC, SysTick, DWT,
/// ... A plain register file here (see kOverview in vmcu-prof.cpp).
constexpr uint32_t kPpbBase = 0xE0000000;
constexpr uint32_t kPpbSize = 0x00100000;
/// SysTick Current Value Register and Reload Value Register (ARMv7-M ARM
/// B3.3.2), offsets from kPpbBase.
constexpr uint32_t kSystRvrOffset = 0xE014;
constexpr uint32_t kSystCvrOffset = 0xE018;
/// Initial SP and reset vector: words 0 and 1 of the vector table.
constexpr unsigned kResetVectorWords = 2;

/// Functions whose cycles count as waiting: the compiler emits its
/// spin-waits as functions named vmcu_wait*.
constexpr StringRef kWaitPrefix = "vmcu_wait";

/// Appended to the error for an exception.
constexpr StringRef kNoExceptionsNote =
    "; vmcu-prof does not emulate exception entry (on QEMU, vmcu-run shows "
    "the runtime's fault report)";

} // namespace

std::string hex(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(value, 10);
  return text;
}

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

} // namespace vmcu::prof
