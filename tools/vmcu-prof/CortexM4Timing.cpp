//===- CortexM4Timing.cpp - Cortex-M4 instruction timing model ------------===//
//
// The timing table of vmcu-prof. Every number below comes from the ARM
// Cortex-M4 Technical Reference Manual, r0p1 (ARM DDI 0439B):
//
//   [T3-1]  section 3.3.1 "Cortex-M4 instructions", Table 3-1 "Cortex-M4
//           instruction set summary" (cycle counts for zero wait state
//           memory);
//   [3.3.2] section 3.3.2 "Load/store timings" (pairing rules);
//   [T7-1]  section 7.2.3 "FPU instruction set", Table 7-1.
//
// Where the TRM gives a range, the constant's comment says which end was
// taken and why. Nothing outside this file holds a cycle count.
//
//===----------------------------------------------------------------------===//

#include "CortexM4Timing.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>

namespace vmcu::prof {
namespace {

//===--- The timing table -------------------------------------------------===//

/// [T3-1] ADD/SUB/MOV/logic/shifts/CMP/TST, extends (SXTB, SXTB16, SXTAB16,
/// UXTB, ...), bit fields, REV, CLZ, SSAT/USAT, QADD/SADD16/... , SEL, PKH:
/// 1 cycle.
constexpr unsigned kAluCycles = 1;
/// [T3-1] MUL, MLA, MLS, the 32x32->64 SMULL/UMULL/SMLAL/UMLAL/UMAAL and
/// every DSP multiply (SMLAD, SMLABB, SMUAD, SMULBB, SMMLA, SMLALD, USAD8,
/// ...): 1 cycle. (The Cortex-M3 needs 3-7 for the long ones; the M4 does
/// not.)
constexpr unsigned kMultiplyCycles = 1;
/// [T3-1] SDIV/UDIV: 2-12 cycles, ending early on small quotients. The
/// operands are not looked at: the worst case is taken, so a division is
/// never cheaper here than on the core.
constexpr unsigned kDivideCycles = 12;
/// [T3-1] LDR, LDRB, LDRH, LDRSB, LDRSH (and their T forms): 2 cycles.
constexpr unsigned kLoadCycles = 2;
/// [3.3.2] "if the next instruction is an LDR or STR, and the destination
/// of the first LDR is not used to compute the address for the next
/// instruction, then one cycle is removed from the cost of the next
/// instruction", e.g. "LDR R0,[R1]; LDR R1,[R2] - normally three cycles
/// total". Chains of loads pipeline one after another.
constexpr unsigned kPipelinedSaving = 1;
/// [3.3.2] "STR Rx,[Ry,#imm] is always one cycle ... the data store is
/// performed at the same time as the next instruction is executing" (write
/// buffer). [T3-1] lists 2 for STR, the case of a store that waits for a
/// full write buffer; with zero wait state RAM the buffer drains every
/// cycle, so every single store (immediate or register offset, STRB/STRH
/// too) costs 1, also back to back. A register-offset store enables no
/// pipelining of its successor ([3.3.2]), which this model never grants
/// after a store anyway.
constexpr unsigned kStoreCycles = 1;
/// [T3-1] LDREX/STREX: 2 cycles; [3.3.2] "LDREX and STREX can be pipelined
/// exactly as LDR".
constexpr unsigned kExclusiveCycles = 2;
/// [T3-1] LDM/STM/PUSH/POP and LDRD/STRD: 1 + N for N registers; [3.3.2]
/// they are never pipelined with their neighbours. LDRD/STRD are N = 2.
constexpr unsigned kMultipleBaseCycles = 1;
/// [T3-1] B, BL, BX, BLX, CBZ/CBNZ: 1 cycle, plus P if the branch is taken
/// ("Conditional branch completes in a single cycle if the branch is not
/// taken").
constexpr unsigned kBranchCycles = 1;
/// [T3-1] TBB/TBH: 2 + P. ([3.3.2] describes them as "at least six cycles",
/// i.e. with a 3-cycle refill and one cycle for the add; this model's P is
/// 2, below.)
constexpr unsigned kTableBranchCycles = 2;
/// [T3-1] P, "the number of cycles required for a pipeline refill. This
/// ranges from 1 to 3 depending on the alignment and width of the target
/// instruction, and whether the processor manages to speculate the address
/// early." Fixed at 2 for every taken branch and every other write to the
/// PC (LDR PC, POP {..., PC}, MOV PC, ...): the model sees neither target
/// alignment nor speculation.
constexpr unsigned kPipelineRefillCycles = 2;
/// [T3-1] IT: 1 cycle. (An IT can fold into a preceding 16-bit instruction
/// and take none; folding is not modelled, so IT blocks may cost one cycle
/// too many.)
constexpr unsigned kIfThenCycles = 1;
/// Not in [T3-1]: an instruction of an IT block whose condition fails does
/// not execute but still passes through the pipeline's execute stage; it is
/// counted like a NOP (1 cycle), whatever the instruction.
constexpr unsigned kFailedConditionCycles = 1;
/// [T3-1] DMB, DSB: 1 + B, where B, the barrier's wait, is at least 0; no
/// memory traffic is pending in this model, so B = 0.
constexpr unsigned kMemoryBarrierCycles = 1;
/// [T3-1] ISB: 1 + B with B at least a pipeline refill.
constexpr unsigned kIsbCycles = 1 + kPipelineRefillCycles;
/// [T3-1] MRS, MSR, CPS: "1 or 2"; the larger is taken.
constexpr unsigned kSystemRegisterCycles = 2;
/// [T3-1] NOP, YIELD, SEV, PLD/PLI: 1; WFI/WFE: 1 + W with W the wait for an
/// event, which the profiler never has (no interrupts), so 1.
constexpr unsigned kHintCycles = 1;
/// [3.3.2] "Any load or store that generates an address dependent on the
/// result of a preceding data processing operation stalls the pipeline for
/// an additional cycle while the register bank is updated. There is no
/// forwarding path for this scenario."
constexpr unsigned kAddressStallCycles = 1;
/// BKPT 0xAB is a semihosting call: a debugger-hosted trap that takes host
/// time, not core time. Counted as one instruction of one cycle so that
/// cycles >= instructions holds; the harness makes these calls outside
/// vmcu_invoke() only.
constexpr unsigned kSemihostingCycles = 1;
/// Not executed at all (the run stops with an error) or not decoded; one
/// cycle so the counts stay consistent.
constexpr unsigned kUnknownCycles = 1;

/// [T7-1] VADD, VSUB, VMUL, VNMUL, VABS, VNEG, VCMP, VCVT, VMOV, VMRS, VMSR:
/// 1 cycle. (vmcu links everything soft-float; FP appears only in objects
/// built with -mfloat-abi=softfp.)
constexpr unsigned kFpCycles = 1;
/// [T7-1] VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS: 3 cycles.
constexpr unsigned kFpMultiplyAccumulateCycles = 3;
/// [T7-1] VDIV, VSQRT: 14 cycles.
constexpr unsigned kFpDivideSqrtCycles = 14;
/// [T7-1] VLDR, VSTR: 2 cycles. VLDM/VSTM/VPUSH/VPOP are 1 + N
/// (kMultipleBaseCycles), N counting 32-bit words.
constexpr unsigned kFpLoadStoreCycles = 2;

//===--- Decoding helpers -------------------------------------------------===//

constexpr unsigned kPcBit = 15;

/// Bit of a capstone core register in a 16-bit register mask (0 for any
/// other register).
uint16_t getCoreRegBit(unsigned reg) {
  if (reg >= ARM_REG_R0 && reg <= ARM_REG_R12)
    return static_cast<uint16_t>(1u << (reg - ARM_REG_R0));
  switch (reg) {
  case ARM_REG_SP:
    return 1u << 13;
  case ARM_REG_LR:
    return 1u << 14;
  case ARM_REG_PC:
    return 1u << kPcBit;
  default:
    return 0;
  }
}

/// 32-bit words a register in a register list transfers.
unsigned getListWords(unsigned reg) {
  return reg >= ARM_REG_D0 && reg <= ARM_REG_D31 ? 2 : 1;
}

/// The register operands that come before the memory operand (a load's
/// destinations) as a mask.
uint16_t getRegsBeforeMemory(const cs_arm &arm) {
  uint16_t regs = 0;
  for (unsigned i = 0; i < arm.op_count; ++i) {
    if (arm.operands[i].type == ARM_OP_MEM)
      break;
    if (arm.operands[i].type == ARM_OP_REG)
      regs |= getCoreRegBit(arm.operands[i].reg);
  }
  return regs;
}

uint16_t getAddressRegs(const cs_arm &arm) {
  uint16_t regs = 0;
  for (unsigned i = 0; i < arm.op_count; ++i)
    if (arm.operands[i].type == ARM_OP_MEM)
      regs |= getCoreRegBit(arm.operands[i].mem.base) |
              getCoreRegBit(arm.operands[i].mem.index);
  return regs;
}

/// For LDM/STM/VLDM/VSTM (`hasBase`: operand 0 is the base register) and
/// PUSH/POP/VPUSH/VPOP (base SP): the address registers, the words
/// transferred and the core registers of the list.
void getRegisterList(const cs_arm &arm, bool hasBase, uint16_t &addressRegs,
                     unsigned &words, uint16_t &listRegs) {
  unsigned first = 0;
  if (hasBase && arm.op_count > 0) {
    addressRegs = getCoreRegBit(arm.operands[0].reg);
    first = 1;
  } else {
    addressRegs = getCoreRegBit(ARM_REG_SP);
  }
  words = 0;
  listRegs = 0;
  for (unsigned i = first; i < arm.op_count; ++i) {
    if (arm.operands[i].type != ARM_OP_REG)
      continue;
    words += getListWords(arm.operands[i].reg);
    listRegs |= getCoreRegBit(arm.operands[i].reg);
  }
}

/// Core registers the instruction writes, from capstone's access lists.
uint16_t getWrittenRegs(csh handle, const cs_insn &insn) {
  cs_regs read, write;
  uint8_t readCount = 0, writeCount = 0;
  if (cs_regs_access(handle, &insn, read, &readCount, write, &writeCount) !=
      CS_ERR_OK)
    return 0;
  uint16_t regs = 0;
  for (unsigned i = 0; i < writeCount; ++i)
    regs |= getCoreRegBit(write[i]);
  return regs;
}

//===--- The timing table by instruction id -------------------------------===//
//
// Each row covers some capstone instruction ids; no id is in two rows. An
// instruction in no row is VFP data processing or an ALU operation.

/// Whether the core registers an instruction writes may stall the address
/// of the next load or store (kAddressStallCycles).
enum class Writes : uint8_t {
  NoStall,        ///< loads, stores, branches, hints, ...
  DataProcessing, ///< they do: DecodedInsn::computedRegs
};

/// LDRD/STRD transfer two words.
constexpr unsigned kPairWords = 2;

/// What an instruction's operands add to its row: address registers,
/// register-list words, the IT state, ...
using OperandRule = void (*)(const cs_insn &insn, DecodedInsn &out);

/// A single load: pipelinable, and it may pipeline its successor.
void addSingleLoad(const cs_insn &insn, DecodedInsn &out) {
  const cs_arm &arm = insn.detail->arm;
  out.addressRegs = getAddressRegs(arm);
  out.loadedRegs = getRegsBeforeMemory(arm);
  out.pipelinable = true;
  out.pipelinesNext = true;
}

/// A single store: pipelinable behind a load.
void addSingleStore(const cs_insn &insn, DecodedInsn &out) {
  out.addressRegs = getAddressRegs(insn.detail->arm);
  out.pipelinable = true;
}

/// LDRD/STRD, TBB/TBH, VLDR/VSTR: the registers of the memory operand.
void addAddressRegs(const cs_insn &insn, DecodedInsn &out) {
  out.addressRegs = getAddressRegs(insn.detail->arm);
}

/// LDM/STM (`hasBase`) or PUSH/POP and their VFP forms: the N of their
/// 1 + N cycles, and the address registers.
void addRegisterList(const cs_insn &insn, bool hasBase, DecodedInsn &out) {
  unsigned words = 0;
  uint16_t listRegs = 0;
  getRegisterList(insn.detail->arm, hasBase, out.addressRegs, words, listRegs);
  out.baseCycles = static_cast<uint8_t>(out.baseCycles + words);
}

void addListAtBase(const cs_insn &insn, DecodedInsn &out) {
  addRegisterList(insn, /*hasBase=*/true, out);
}

void addListAtSp(const cs_insn &insn, DecodedInsn &out) {
  addRegisterList(insn, /*hasBase=*/false, out);
}

/// IT, T1 encoding 0xBFxx: firstcond in bits [7:4], mask in [3:0], i.e.
/// the ITSTATE the following instruction sees (ARMv7-M ARM A7.7.38).
void addItState(const cs_insn &insn, DecodedInsn &out) {
  out.itState = insn.bytes[0];
}

/// BKPT #imm8 (T1, 0xBExx): 0xAB is the semihosting call, any other a trap.
void markSemihosting(const cs_insn &insn, DecodedInsn &out) {
  constexpr uint8_t kSemihostingImmediate = 0xAB;
  if (insn.bytes[0] == kSemihostingImmediate)
    out.cls = InsnClass::Semihosting;
}

/// One row of the timing table: the instructions it covers, their class
/// and base cycles, what their operands add, and their writes.
struct TimingRow {
  std::initializer_list<unsigned> ids;
  InsnClass cls;
  unsigned cycles;
  OperandRule addOperands = nullptr;
  Writes writes = Writes::NoStall;
};

constexpr TimingRow kTimingTable[] = {
    // Single loads and stores: LDR/STR with their byte, halfword, signed,
    // unprivileged (T) and exclusive (EX) forms.
    {{ARM_INS_LDR, ARM_INS_LDRB, ARM_INS_LDRH, ARM_INS_LDRSB, ARM_INS_LDRSH,
      ARM_INS_LDRT, ARM_INS_LDRBT, ARM_INS_LDRHT, ARM_INS_LDRSBT,
      ARM_INS_LDRSHT},
     InsnClass::Load,
     kLoadCycles,
     addSingleLoad},
    {{ARM_INS_LDREX, ARM_INS_LDREXB, ARM_INS_LDREXH},
     InsnClass::Load,
     kExclusiveCycles,
     addSingleLoad},
    {{ARM_INS_STR, ARM_INS_STRB, ARM_INS_STRH, ARM_INS_STRT, ARM_INS_STRBT,
      ARM_INS_STRHT},
     InsnClass::Store,
     kStoreCycles,
     addSingleStore},
    {{ARM_INS_STREX, ARM_INS_STREXB, ARM_INS_STREXH},
     InsnClass::Store,
     kExclusiveCycles,
     addSingleStore},
    // LDRD/STRD and the register-list transfers.
    {{ARM_INS_LDRD, ARM_INS_STRD},
     InsnClass::LoadStorePair,
     kMultipleBaseCycles + kPairWords,
     addAddressRegs},
    {{ARM_INS_LDM, ARM_INS_LDMDB, ARM_INS_STM, ARM_INS_STMDB, ARM_INS_VLDMIA,
      ARM_INS_VLDMDB, ARM_INS_VSTMIA, ARM_INS_VSTMDB},
     InsnClass::LoadStoreMany,
     kMultipleBaseCycles,
     addListAtBase},
    {{ARM_INS_PUSH, ARM_INS_POP, ARM_INS_VPUSH, ARM_INS_VPOP},
     InsnClass::LoadStoreMany,
     kMultipleBaseCycles,
     addListAtSp},
    // Branches, table branches and IT; the refill P is added when the
    // branch is taken.
    {{ARM_INS_B, ARM_INS_BL, ARM_INS_BLX, ARM_INS_BX, ARM_INS_CBZ,
      ARM_INS_CBNZ},
     InsnClass::Branch,
     kBranchCycles},
    {{ARM_INS_TBB, ARM_INS_TBH},
     InsnClass::Branch,
     kTableBranchCycles,
     addAddressRegs},
    {{ARM_INS_IT}, InsnClass::IfThen, kIfThenCycles, addItState},
    // Multiplies, DSP multiply-accumulates and divides.
    {{ARM_INS_MUL,     ARM_INS_MLA,     ARM_INS_MLS,     ARM_INS_SMULL,
      ARM_INS_UMULL,   ARM_INS_SMLAL,   ARM_INS_UMLAL,   ARM_INS_UMAAL,
      ARM_INS_SMLABB,  ARM_INS_SMLABT,  ARM_INS_SMLATB,  ARM_INS_SMLATT,
      ARM_INS_SMLAD,   ARM_INS_SMLADX,  ARM_INS_SMLALBB, ARM_INS_SMLALBT,
      ARM_INS_SMLALTB, ARM_INS_SMLALTT, ARM_INS_SMLALD,  ARM_INS_SMLALDX,
      ARM_INS_SMLAWB,  ARM_INS_SMLAWT,  ARM_INS_SMLSD,   ARM_INS_SMLSDX,
      ARM_INS_SMLSLD,  ARM_INS_SMLSLDX, ARM_INS_SMMLA,   ARM_INS_SMMLAR,
      ARM_INS_SMMLS,   ARM_INS_SMMLSR,  ARM_INS_SMMUL,   ARM_INS_SMMULR,
      ARM_INS_SMUAD,   ARM_INS_SMUADX,  ARM_INS_SMULBB,  ARM_INS_SMULBT,
      ARM_INS_SMULTB,  ARM_INS_SMULTT,  ARM_INS_SMULWB,  ARM_INS_SMULWT,
      ARM_INS_SMUSD,   ARM_INS_SMUSDX,  ARM_INS_USAD8,   ARM_INS_USADA8},
     InsnClass::Multiply,
     kMultiplyCycles,
     nullptr,
     Writes::DataProcessing},
    {{ARM_INS_SDIV, ARM_INS_UDIV},
     InsnClass::Divide,
     kDivideCycles,
     nullptr,
     Writes::DataProcessing},
    // Barriers, system registers (MRS writes a core register) and hints.
    {{ARM_INS_DMB, ARM_INS_DSB}, InsnClass::System, kMemoryBarrierCycles},
    {{ARM_INS_ISB}, InsnClass::System, kIsbCycles},
    {{ARM_INS_MRS, ARM_INS_MSR, ARM_INS_CPS},
     InsnClass::System,
     kSystemRegisterCycles,
     nullptr,
     Writes::DataProcessing},
    {{ARM_INS_NOP, ARM_INS_HINT, ARM_INS_YIELD, ARM_INS_WFE, ARM_INS_WFI,
      ARM_INS_SEV, ARM_INS_PLD, ARM_INS_PLDW, ARM_INS_PLI, ARM_INS_CLREX},
     InsnClass::System,
     kHintCycles},
    // BKPT (the semihosting call or a trap), SVC and UDF.
    {{ARM_INS_BKPT}, InsnClass::Trap, kSemihostingCycles, markSemihosting},
    {{ARM_INS_SVC, ARM_INS_UDF}, InsnClass::Trap, kUnknownCycles},
    // The VFP instructions [T7-1] times apart from the rest: VLDR/VSTR, the
    // multiply-accumulates, VDIV and VSQRT. (VLDM/VSTM/VPUSH/VPOP are
    // register-list transfers, above.)
    {{ARM_INS_VLDR, ARM_INS_VSTR},
     InsnClass::FloatingPoint,
     kFpLoadStoreCycles,
     addAddressRegs},
    {{ARM_INS_VMLA, ARM_INS_VMLS, ARM_INS_VNMLA, ARM_INS_VNMLS, ARM_INS_VFMA,
      ARM_INS_VFMS, ARM_INS_VFNMA, ARM_INS_VFNMS},
     InsnClass::FloatingPoint,
     kFpMultiplyAccumulateCycles},
    {{ARM_INS_VDIV, ARM_INS_VSQRT},
     InsnClass::FloatingPoint,
     kFpDivideSqrtCycles},
};

/// The rows of the instructions in no row of kTimingTable. VMOV/VMRS may
/// write a core register.
constexpr TimingRow kVfpDataProcessingRow = {
    {}, InsnClass::FloatingPoint, kFpCycles, nullptr, Writes::DataProcessing};
constexpr TimingRow kAluRow = {
    {}, InsnClass::Alu, kAluCycles, nullptr, Writes::DataProcessing};

/// The row of `insn`: its row of kTimingTable, else VFP data processing
/// (VADD, VMOV, VMRS, ...) by its mnemonic, else an ALU operation.
const TimingRow &findRow(const cs_insn &insn) {
  for (const TimingRow &row : kTimingTable)
    if (std::find(row.ids.begin(), row.ids.end(), insn.id) != row.ids.end())
      return row;
  return insn.mnemonic[0] == 'v' ? kVfpDataProcessingRow : kAluRow;
}

/// Any write to the PC is a branch: LDR PC, POP {.., PC}, MOV PC, ADD PC.
/// The instruction keeps its own base cost; the refill P is added when
/// control does not fall through. It pipelines nothing.
void markPcWrite(uint16_t written, DecodedInsn &out) {
  if (!(written & (1u << kPcBit)))
    return;
  out.cls = InsnClass::Branch;
  out.pipelinable = false;
  out.pipelinesNext = false;
  out.computedRegs = 0;
  out.loadedRegs = 0;
}

} // namespace

const char *getInsnClassName(InsnClass cls) {
  switch (cls) {
  case InsnClass::Alu:
    return "alu";
  case InsnClass::Multiply:
    return "multiply/mac";
  case InsnClass::Divide:
    return "divide";
  case InsnClass::Load:
    return "load";
  case InsnClass::Store:
    return "store";
  case InsnClass::LoadStorePair:
    return "ldrd/strd";
  case InsnClass::LoadStoreMany:
    return "ldm/stm/push/pop";
  case InsnClass::Branch:
    return "branch";
  case InsnClass::IfThen:
    return "it";
  case InsnClass::FloatingPoint:
    return "floating-point";
  case InsnClass::System:
    return "system/hint";
  case InsnClass::Semihosting:
    return "semihosting";
  case InsnClass::Trap:
    return "trap";
  case InsnClass::Undecoded:
    return "undecoded";
  }
  return "?";
}

unsigned getPipelineRefillCycles() { return kPipelineRefillCycles; }
unsigned getFailedConditionCycles() { return kFailedConditionCycles; }

void classifyUndecoded(uint16_t firstHalfword, DecodedInsn &out) {
  out = DecodedInsn();
  out.valid = true;
  // ARMv7-M ARM A5.1: a halfword whose bits [15:11] are 0b11101, 0b11110 or
  // 0b11111 starts a 32-bit instruction.
  unsigned top5 = firstHalfword >> 11;
  out.size = (top5 == 0x1D || top5 == 0x1E || top5 == 0x1F) ? 4 : 2;
  out.cls = InsnClass::Undecoded;
  out.baseCycles = kUnknownCycles;
}

void classifyInstruction(csh handle, const cs_insn &insn, DecodedInsn &out) {
  out = DecodedInsn();
  out.valid = true;
  out.size = static_cast<uint8_t>(insn.size);
  const TimingRow &row = findRow(insn);
  out.cls = row.cls;
  out.baseCycles = static_cast<uint8_t>(row.cycles);
  if (row.addOperands)
    row.addOperands(insn, out);
  uint16_t written = getWrittenRegs(handle, insn);
  if (row.writes == Writes::DataProcessing)
    out.computedRegs = written;
  markPcWrite(written, out);
}

unsigned CycleModel::issue(const DecodedInsn &insn, bool conditionPassed) {
  lastPipelined = lastStalled = false;
  if (!conditionPassed) {
    prevPipelinesNext = false;
    prevLoadedRegs = prevComputedRegs = 0;
    return kFailedConditionCycles;
  }
  unsigned cycles = insn.baseCycles;
  if (insn.pipelinable && prevPipelinesNext &&
      !(insn.addressRegs & prevLoadedRegs) && cycles > kPipelinedSaving) {
    cycles -= kPipelinedSaving;
    lastPipelined = true;
  }
  if (insn.addressRegs & prevComputedRegs) {
    cycles += kAddressStallCycles;
    lastStalled = true;
  }
  prevPipelinesNext = insn.pipelinesNext;
  prevLoadedRegs = insn.loadedRegs;
  prevComputedRegs = insn.computedRegs;
  return cycles;
}

} // namespace vmcu::prof
