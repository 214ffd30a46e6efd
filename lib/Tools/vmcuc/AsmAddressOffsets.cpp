//===- AsmAddressOffsets.cpp - fold address offsets into inline asm -------===//
//
// See AsmAddressOffsets.h. A post-O2 rewrite of the LLVM module, like
// Compiler.cpp's inlineShortFills: it works on the constants O2's unrolling
// exposes, which the MLIR lowering cannot see.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/AsmAddressOffsets.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>
#include <string>

using namespace llvm;
using mlir::vmcu::kMaxImmediateOffset;

namespace {

/// Mnemonics whose `[Rn, #imm]` form takes 0 to kMaxImmediateOffset, the
/// 12-bit T3/T2 encodings (LDRD/STRD and LDM/STM take less or none: not
/// folded).
bool hasImm12Form(StringRef mnemonic) {
  return llvm::is_contained(
      {"ldr", "str", "ldrb", "strb", "ldrh", "strh", "ldrsb", "ldrsh"},
      mnemonic);
}

/// One `[$N, #imm]` use of the operand in the asm text: where its immediate
/// starts and ends, and its value.
struct ImmediateUse {
  size_t begin, end;
  int64_t value;
};

/// The mnemonic of the instruction around text position `at`: the first
/// word of its line (statements are separated by newlines or ';').
StringRef mnemonicAt(StringRef text, size_t at) {
  size_t start = text.find_last_of("\n;", at);
  StringRef line = text.substr(start == StringRef::npos ? 0 : start + 1);
  line = line.ltrim();
  return line.take_until([](char c) { return isSpace(c) || c == ','; });
}

/// Every use of operand `number` in `text`, if each is the base of an imm12
/// load or store `[$N, #imm]` without write-back; std::nullopt otherwise
/// (or where the text has operand modifiers, `${N...}`, which this does
/// not parse). `$$` is a literal dollar, `$12` not a use of `$1`.
std::optional<SmallVector<ImmediateUse>> immediateUses(StringRef text,
                                                       unsigned number) {
  if (text.contains("${"))
    return std::nullopt;
  std::string digitsOfNumber = std::to_string(number);
  SmallVector<ImmediateUse> uses;
  for (size_t at = text.find('$'); at != StringRef::npos;
       at = text.find('$', at + 1)) {
    StringRef rest = text.substr(at + 1);
    if (rest.consume_front("$")) {
      ++at;
      continue;
    }
    if (!rest.consume_front(digitsOfNumber) ||
        (!rest.empty() && isDigit(rest.front())))
      continue;
    if (at == 0 || text[at - 1] != '[' || !rest.consume_front(", #") ||
        !hasImm12Form(mnemonicAt(text, at)))
      return std::nullopt;
    size_t digits = rest.find(']');
    int64_t value;
    if (digits == StringRef::npos ||
        rest.take_front(digits).getAsInteger(10, value))
      return std::nullopt;
    // `[Rn, #imm]!` writes the base back (and takes 8 bits only).
    StringRef after = rest.drop_front(digits + 1).ltrim(" \t");
    if (!after.empty() && after.front() != '\n' && after.front() != ';' &&
        after.front() != '@')
      return std::nullopt;
    size_t begin = at + 1 + digitsOfNumber.size() + 3;
    uses.push_back({begin, begin + digits, value});
  }
  return uses;
}

/// `text` with `delta` added to each use's immediate, if all stay within
/// 0 to kMaxImmediateOffset.
std::optional<std::string>
shiftImmediates(StringRef text, ArrayRef<ImmediateUse> uses, int64_t delta) {
  std::string shifted;
  size_t copied = 0;
  for (const ImmediateUse &use : uses) {
    int64_t value = use.value + delta;
    if (value < 0 || value > kMaxImmediateOffset)
      return std::nullopt;
    shifted += text.substr(copied, use.begin - copied);
    shifted += std::to_string(value);
    copied = use.end;
  }
  shifted += text.substr(copied);
  return shifted;
}

/// For each of the call's arguments, its operand number in the asm text
/// (outputs are numbered first; clobbers are not operands) if it is a
/// plain register input ("r": not tied, not indirect), else std::nullopt.
SmallVector<std::optional<unsigned>>
registerInputNumbers(const InlineAsm &inlineAsm) {
  SmallVector<std::optional<unsigned>> numbers;
  unsigned number = 0;
  for (const InlineAsm::ConstraintInfo &info : inlineAsm.ParseConstraints()) {
    if (info.Type == InlineAsm::isClobber)
      continue;
    bool plainInput = info.Type == InlineAsm::isInput && !info.isIndirect &&
                      info.Codes.size() == 1 && info.Codes[0] == "r";
    if (info.Type == InlineAsm::isInput || info.isIndirect)
      numbers.push_back(plainInput ? std::optional(number) : std::nullopt);
    ++number;
  }
  return numbers;
}

/// Folds what it can of `call`'s pointer operands, in place. Returns how
/// many it folded.
unsigned foldCall(CallInst *call, const DataLayout &layout) {
  auto *inlineAsm = cast<InlineAsm>(call->getCalledOperand());
  std::string text = inlineAsm->getAsmString().str();
  SmallVector<std::optional<unsigned>> numbers =
      registerInputNumbers(*inlineAsm);
  if (numbers.size() != call->arg_size())
    return 0;
  SmallVector<std::pair<unsigned, Value *>> bases;
  for (auto [index, number] : llvm::enumerate(numbers)) {
    Value *arg = call->getArgOperand(index);
    if (!number || !arg->getType()->isPointerTy())
      continue;
    APInt offset(layout.getIndexTypeSizeInBits(arg->getType()), 0);
    // A stack buffer's address is SP plus a constant, which the backend
    // rematerializes itself: folding it only takes that choice away.
    // Measured (vmcu-prof): corpus CNN+FC seed 2's im2col conv, its row
    // buffer folded, 1,903,002 -> 1,947,776 cycles (a spill and reload per
    // chunk); left to the backend, 1,901,615.
    Value *base = arg->stripAndAccumulateConstantOffsets(
        layout, offset, /*AllowNonInbounds=*/true);
    if (base == arg || offset.isZero() || base->getType() != arg->getType() ||
        isa<AllocaInst>(base))
      continue;
    std::optional<SmallVector<ImmediateUse>> uses =
        immediateUses(text, *number);
    if (!uses || uses->empty())
      continue;
    std::optional<std::string> shifted =
        shiftImmediates(text, *uses, offset.getSExtValue());
    if (!shifted)
      continue;
    text = std::move(*shifted);
    bases.push_back({static_cast<unsigned>(index), base});
  }
  if (bases.empty())
    return 0;
  call->setCalledOperand(InlineAsm::get(
      inlineAsm->getFunctionType(), text, inlineAsm->getConstraintString(),
      inlineAsm->hasSideEffects(), inlineAsm->isAlignStack(),
      inlineAsm->getDialect(), inlineAsm->canThrow()));
  // What O2 proved of base + C (non-null, aligned, dereferenceable) need
  // not hold of the base.
  SmallVector<WeakTrackingVH> oldArgs;
  for (auto [index, base] : bases) {
    oldArgs.push_back(call->getArgOperand(index));
    call->setArgOperand(index, base);
    for (Attribute::AttrKind kind :
         {Attribute::NonNull, Attribute::Alignment, Attribute::Dereferenceable,
          Attribute::DereferenceableOrNull})
      call->removeParamAttr(index, kind);
  }
  // The folded address computations may now be dead.
  for (WeakTrackingVH &old : oldArgs)
    if (auto *inst = dyn_cast_or_null<Instruction>(old))
      RecursivelyDeleteTriviallyDeadInstructions(inst);
  return bases.size();
}

} // namespace

unsigned mlir::vmcu::foldAsmAddressOffsets(Module &module) {
  SmallVector<WeakTrackingVH> calls;
  for (Function &function : module)
    for (Instruction &inst : instructions(function))
      if (auto *call = dyn_cast<CallInst>(&inst))
        if (call->isInlineAsm())
          calls.push_back(call);
  unsigned folded = 0;
  for (WeakTrackingVH &call : calls)
    if (auto *asmCall = dyn_cast_or_null<CallInst>(call))
      folded += foldCall(asmCall, module.getDataLayout());
  return folded;
}
