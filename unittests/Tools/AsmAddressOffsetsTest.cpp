//===- AsmAddressOffsetsTest.cpp - foldAsmAddressOffsets
//-------------------===//

#include "vmcu/Tools/vmcuc/AsmAddressOffsets.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

/// A module of one function calling `asmText` with `constraints` on
/// `operands` (IR text), after @g, a 64-byte global, and %p, a pointer
/// argument.
std::unique_ptr<Module> parse(LLVMContext &context, const std::string &asmText,
                              const std::string &constraints,
                              const std::string &operands) {
  std::string ir = "target datalayout = \"e-m:e-p:32:32-i64:64-v128:64:128-"
                   "a:0:32-n32-S64\"\n"
                   "@g = global [64 x i8] zeroinitializer, align 4\n"
                   "define i32 @f(ptr %p) {\n"
                   "  %q = getelementptr i8, ptr %p, i32 128\n"
                   "  %r = call i32 asm \"" +
                   asmText + "\", \"" + constraints + "\"(" + operands +
                   ")\n  ret i32 %r\n}\n";
  SMDiagnostic error;
  std::unique_ptr<Module> module = parseAssemblyString(ir, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

/// The asm text and pointer operands of the module's one asm call.
std::pair<std::string, std::vector<Value *>> asmCall(Module &module) {
  for (Instruction &inst : instructions(*module.getFunction("f")))
    if (auto *call = dyn_cast<CallInst>(&inst); call && call->isInlineAsm())
      return {cast<InlineAsm>(call->getCalledOperand())->getAsmString().str(),
              std::vector<Value *>(call->arg_begin(), call->arg_end())};
  ADD_FAILURE() << "no asm call";
  return {};
}

constexpr const char *kGlobalAt84 = "ptr getelementptr (i8, ptr @g, i32 84)";

TEST(AsmAddressOffsets, FoldsConstantAndInstructionOffsets) {
  LLVMContext context;
  auto module = parse(context, "ldr $0, [$1, #4]\\0A\\09ldrb $0, [$2, #8]",
                      "=&r,r,r", std::string(kGlobalAt84) + ", ptr %q");
  EXPECT_EQ(mlir::vmcu::foldAsmAddressOffsets(*module), 2u);
  auto [text, args] = asmCall(*module);
  EXPECT_EQ(text, "ldr $0, [$1, #88]\n\tldrb $0, [$2, #136]");
  EXPECT_EQ(args[0], module->getNamedGlobal("g"));
  EXPECT_EQ(args[1], module->getFunction("f")->getArg(0));
  // %q lost its only use.
  EXPECT_EQ(module->getFunction("f")->getEntryBlock().size(), 2u);
}

TEST(AsmAddressOffsets, OperandNumbersAreWhole) {
  // $10 and $$1 (a literal dollar) are not uses of $1 (the text is only
  // read, never assembled here).
  LLVMContext context;
  auto module = parse(context,
                      "ldr $0, [$1, #0]\\0A\\09ldr $0, [$10, #0]\\0A\\09"
                      "mov $0, #$$1",
                      "=&r,r", kGlobalAt84);
  EXPECT_EQ(mlir::vmcu::foldAsmAddressOffsets(*module), 1u);
  EXPECT_EQ(asmCall(*module).first,
            "ldr $0, [$1, #84]\n\tldr $0, [$10, #0]\n\tmov $0, #$$1");
}

TEST(AsmAddressOffsets, NumbersOperandsAsTheBlocksDo) {
  // A dot block's shape: early-clobber outputs, the pointers, accumulators
  // tied to the first outputs, a clobber. $2 and $3 are the pointers.
  LLVMContext context;
  std::string ir = "target datalayout = \"e-m:e-p:32:32-n32-S64\"\n"
                   "@g = global [64 x i8] zeroinitializer, align 4\n"
                   "define i32 @f(ptr %p) {\n"
                   "  %q = getelementptr i8, ptr %p, i32 128\n"
                   "  %r = call { i32, i32 } asm \"ldr $1, [$2, #4]\\0A\\09"
                   "ldr $1, [$3, #8]\\0A\\09smlad $0, $1, $1, $0\", "
                   "\"=&r,=&r,r,r,0,~{memory}\"(ptr nonnull "
                   "getelementptr (i8, ptr @g, i32 84), ptr %q, i32 0)\n"
                   "  %s = extractvalue { i32, i32 } %r, 0\n"
                   "  ret i32 %s\n}\n";
  SMDiagnostic error;
  std::unique_ptr<Module> block = parseAssemblyString(ir, error, context);
  ASSERT_TRUE(block) << error.getMessage().str();
  EXPECT_EQ(mlir::vmcu::foldAsmAddressOffsets(*block), 2u);
  auto [text, args] = asmCall(*block);
  EXPECT_EQ(text,
            "ldr $1, [$2, #88]\n\tldr $1, [$3, #136]\n\tsmlad $0, $1, $1, $0");
  EXPECT_EQ(args[0], block->getNamedGlobal("g"));
  // What held of @g + 84 is not claimed of @g.
  for (Instruction &inst : instructions(*block->getFunction("f")))
    if (auto *call = dyn_cast<CallInst>(&inst))
      EXPECT_FALSE(call->paramHasAttr(0, Attribute::NonNull));
}

TEST(AsmAddressOffsets, KeepsOtherUsesAndRanges) {
  LLVMContext context;
  // LDRD's immediate is shorter: not folded.
  auto ldrd = parse(context, "ldrd $0, $0, [$1, #0]", "=&r,r", kGlobalAt84);
  // The pointer used as a register value, not only as a base.
  auto value = parse(context, "ldr $0, [$1, #0]\\0A\\09mov $0, $1", "=&r,r",
                     kGlobalAt84);
  // 84 + 4020 is past the 12-bit immediate.
  auto range = parse(context, "ldr $0, [$1, #4020]", "=&r,r", kGlobalAt84);
  // Pre-indexed with write-back.
  auto writeBack = parse(context, "ldr $0, [$1, #4]!", "=&r,r", kGlobalAt84);
  // $$$1: a literal dollar, then a use of $1 that is no load's base.
  auto dollar = parse(context, "ldr $0, [$1, #0]\\0A\\09.word $$$1", "=&r,r",
                      kGlobalAt84);
  for (Module *module :
       {ldrd.get(), value.get(), range.get(), writeBack.get(), dollar.get()}) {
    EXPECT_EQ(mlir::vmcu::foldAsmAddressOffsets(*module), 0u);
    EXPECT_NE(asmCall(*module).second[0], module->getNamedGlobal("g"));
  }
}

} // namespace
