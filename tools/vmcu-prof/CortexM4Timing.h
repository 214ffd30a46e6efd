//===- CortexM4Timing.h - Cortex-M4 instruction timing model ----*- C++ -*-===//
//
// A cycle-approximate model of the Cortex-M4 pipeline for vmcu-prof: every
// executed instruction is decoded once (capstone) into a DecodedInsn that
// carries its class and base cost from the timing table in
// CortexM4Timing.cpp, and CycleModel adds the few dynamic rules of the ARM
// Cortex-M4 Technical Reference Manual (DDI 0439) that depend on the
// neighbouring instruction or on whether a branch was taken.
//
// The table assumes zero-wait-state memory; FlashTiming.h adds the flash's
// wait states where asked. No bus contention (Profiler.cpp models it for
// two cores), no unaligned-access penalties.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_CORTEXM4TIMING_H
#define VMCU_TOOLS_VMCU_PROF_CORTEXM4TIMING_H

#include <capstone/capstone.h>

#include <cstdint>

namespace vmcu::prof {

/// What an instruction is, as far as timing and the class breakdown care.
enum class InsnClass : uint8_t {
  Alu,           ///< data processing, moves, shifts, extends, saturation
  Multiply,      ///< MUL/MLA, long multiplies, DSP multiply(-accumulate)
  Divide,        ///< SDIV/UDIV
  Load,          ///< single LDR/LDRB/LDRH/LDRSB/LDRSH (pipelinable)
  Store,         ///< single STR/STRB/STRH
  LoadStorePair, ///< LDRD/STRD
  LoadStoreMany, ///< LDM/STM/PUSH/POP and their VFP forms
  Branch,        ///< B/BL/BX/BLX/CBZ/CBNZ, TBB/TBH, any write to the PC
  IfThen,        ///< IT
  FloatingPoint, ///< VFP data processing and single VLDR/VSTR
  System,        ///< MRS/MSR/CPS, barriers, hints
  Semihosting,   ///< BKPT 0xAB: a host call, not timed
  Trap,          ///< SVC, UDF, other BKPT: raise an exception
  Undecoded,     ///< capstone could not decode it (counted as 1 cycle)
};
constexpr unsigned kNumInsnClasses =
    static_cast<unsigned>(InsnClass::Undecoded) + 1;

/// Short name of a class for reports.
const char *getInsnClassName(InsnClass cls);

/// One instruction, decoded once per address.
struct DecodedInsn {
  bool valid = false;
  uint8_t size = 0; ///< 2 or 4 bytes
  InsnClass cls = InsnClass::Undecoded;
  /// Cycles from the timing table, before the dynamic rules (pipelined
  /// loads, address-generation stalls, branch penalties).
  uint8_t baseCycles = 1;
  /// A single load whose successor may be pipelined behind it (TRM 3.3.2).
  bool pipelinesNext = false;
  /// A single load or store that may be pipelined behind a load.
  bool pipelinable = false;
  /// IT: its firstcond:mask byte (ITSTATE after the IT instruction).
  uint8_t itState = 0;
  /// Core registers (bit n = Rn) this instruction uses to form an address.
  uint16_t addressRegs = 0;
  /// Core registers a single load writes (its data, not the write-back).
  uint16_t loadedRegs = 0;
  /// Core registers a data-processing instruction writes.
  uint16_t computedRegs = 0;
  /// Index of the ELF function symbol holding the address, or -1.
  int32_t function = -1;
};

/// Decodes the instruction capstone produced (with detail) into `out`,
/// using the Cortex-M4 timing table. `handle` is the capstone handle.
void classifyInstruction(csh handle, const cs_insn &insn, DecodedInsn &out);

/// Fills `out` for bytes capstone could not decode: size from the Thumb
/// encoding, class Undecoded, one cycle.
void classifyUndecoded(uint16_t firstHalfword, DecodedInsn &out);

/// Cycles added when control does not fall through to the next instruction
/// (the "P" of TRM Table 3-1); see CortexM4Timing.cpp.
unsigned getPipelineRefillCycles();

/// Cycles of an instruction in an IT block whose condition fails.
unsigned getFailedConditionCycles();

/// The dynamic part of the model: remembers the previous instruction.
class CycleModel {
public:
  /// Cycles of `insn`, which executes now (`conditionPassed` false for an
  /// instruction of an IT block whose condition fails).
  unsigned issue(const DecodedInsn &insn, bool conditionPassed);

  /// Whether the last issue() was a load pipelined behind another load
  /// (one cycle saved), and whether it stalled on an address the previous
  /// instruction computed (one cycle added).
  bool lastPipelined = false;
  bool lastStalled = false;

private:
  bool prevPipelinesNext = false;
  uint16_t prevLoadedRegs = 0;
  uint16_t prevComputedRegs = 0;
};

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_CORTEXM4TIMING_H
