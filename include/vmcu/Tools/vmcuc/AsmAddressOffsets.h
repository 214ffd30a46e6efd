//===- AsmAddressOffsets.h - address offsets into inline asm ----*- C++ -*-===//
//
// vmcu's register blocks (vmcu.dot_block, vmcu.requant_block, ...) are
// inline assembly that addresses memory as `[$N, #imm]` off pointer
// operands. After O2 unrolls a kernel's loops, many blocks take the same
// base at different constant offsets (an in-place row's chunks at
// @vmcu_arena + 84, + 116, ...; a tile's weights at w + 128, + 256, ...).
// Each such address is a distinct value LLVM keeps live across the blocks,
// which leave it one free register: it spills them to the kernel's frame
// (stack) and reloads one per block. Folding the constant into the
// immediates makes all those blocks take the one base.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_ASMADDRESSOFFSETS_H
#define VMCU_TOOLS_VMCUC_ASMADDRESSOFFSETS_H

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::vmcu {

/// Rewrites, in place, each inline-assembly call whose pointer operand (a
/// plain "r" input) is a base plus a constant byte offset, and which uses
/// that operand only as the base of `[$N, #imm]` in single loads and
/// stores without write-back (LDR/STR and their byte and halfword forms,
/// whose Thumb-2 immediate takes 0 to 4095), to take the base and the
/// immediates plus the offset, where they all stay in range. Returns how
/// many operands it folded.
unsigned foldAsmAddressOffsets(llvm::Module &module);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_ASMADDRESSOFFSETS_H
