//===- CreateIOTables.cpp - the vmcu-create-io-tables pass ----------------===//
//
// Emits the model's input and output tables (counts, arena offsets and
// byte counts of every `vmcu.io` tensor) as exported LLVM globals.
//
//===----------------------------------------------------------------------===//

#include "ModelIO.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCREATEIOTABLESPASS
#include "vmcu/Conversion/Passes.h.inc"
using namespace detail;

namespace {

/// Alignment of the exported `unsigned` constants (AAPCS: a word).
constexpr uint64_t kWordAlignment = 4;

/// The symbols this pass defines.
constexpr StringRef kTableNames[] = {
    model_abi::kInputCount, model_abi::kOutputCount,   model_abi::kInputOffsets,
    model_abi::kInputSizes, model_abi::kOutputOffsets, model_abi::kOutputSizes};

/// A constant `unsigned` array (external, so C code can read it).
void createU32Array(OpBuilder &builder, ModuleOp module, StringRef name,
                    ArrayRef<int32_t> values) {
  auto type = LLVM::LLVMArrayType::get(builder.getI32Type(), values.size());
  LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         builder.getI32TensorAttr(values), kWordAlignment);
}

/// The count, byte offsets in the arena and byte counts of `list`.
void createTable(OpBuilder &builder, ModuleOp module,
                 ArrayRef<TensorBaseOp> list, StringRef count,
                 StringRef offsets, StringRef sizes) {
  SmallVector<int32_t> offsetValues, sizeValues;
  for (TensorBaseOp base : list) {
    int64_t unit = base.getPool().getType().getSegmentBytes();
    offsetValues.push_back(static_cast<int32_t>(*base.getBase() * unit));
    sizeValues.push_back(static_cast<int32_t>(base.getSegments() * unit));
  }
  LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                         /*isConstant=*/true, LLVM::Linkage::External, count,
                         builder.getI32IntegerAttr(list.size()),
                         kWordAlignment);
  createU32Array(builder, module, offsets, offsetValues);
  createU32Array(builder, module, sizes, sizeValues);
}

struct VMCUCreateIOTablesPass
    : impl::VMCUCreateIOTablesPassBase<VMCUCreateIOTablesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ModelIO> io = collectModelIO(module);
    if (failed(io) || failed(checkReservedNames(module, kTableNames)))
      return signalPassFailure();
    // A module without both has no model API (a test of single kernels).
    if (io->inputs.empty() || io->outputs.empty())
      return;
    OpBuilder builder(module.getContext());
    builder.setInsertionPointToStart(module.getBody());
    createTable(builder, module, io->inputs, model_abi::kInputCount,
                model_abi::kInputOffsets, model_abi::kInputSizes);
    createTable(builder, module, io->outputs, model_abi::kOutputCount,
                model_abi::kOutputOffsets, model_abi::kOutputSizes);
  }
};

} // namespace

} // namespace mlir::vmcu
