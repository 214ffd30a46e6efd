//===- OutlineKernels.cpp - each vmcu.kernel into its own function --------===//
//
// Moves the body of every vmcu.kernel into a private, noinline function and
// calls it, so each kernel has its own frame (the stack is the largest
// kernel's buffers, not their sum) and its own register allocation.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUOUTLINEKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// Whether `op` is cheaper to clone into an outlined kernel than to pass:
/// constants, the pool and tensor bases (which lower to constants).
bool isRematerializable(Operation *op) {
  return op && op->getNumOperands() <= 1 &&
         (op->hasTrait<OpTrait::ConstantLike>() ||
          isa<SegmentPoolOp, TensorBaseOp>(op));
}

/// `vmcu_kernel_<i>_<name>`, the kernel's name reduced to [A-Za-z0-9_]:
/// profilers and disassembly then show which layer a cycle belongs to.
std::string kernelFunctionName(KernelOp kernel, unsigned index) {
  std::string name = ("vmcu_kernel_" + Twine(index) + "_").str();
  for (char ch : kernel.getSymName())
    name.push_back(llvm::isAlnum(ch) ? ch : '_');
  return name;
}

/// Moves the body of `kernel` into a private function (kernelFunctionName) and
/// calls it. Each kernel's scratch buffers (memref.alloca) then sit in the
/// entry block of their own function: LLVM's inliner brings them back into
/// vmcu_invoke as static allocas with lifetime markers, so SROA can promote
/// them and stack coloring overlaps the kernels' buffers (left inline, every
/// kernel but the first allocated its buffers mid-function, and the stack
/// grew with their sum).
void outlineKernel(KernelOp kernel, unsigned index, OpBuilder &b) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(kernel.getBody(), captured);
  IRMapping mapping;
  SmallVector<Value> operands;
  SmallVector<Operation *> clones;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (isRematerializable(def) &&
        (def->getNumOperands() == 0 ||
         isRematerializable(def->getOperand(0).getDefiningOp())))
      clones.push_back(def);
    else
      operands.push_back(value);
  }
  auto module = kernel->getParentOfType<ModuleOp>();
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, kernel.getLoc(), kernelFunctionName(kernel, index),
      b.getFunctionType(ValueRange(operands).getTypes(), {}));
  // Internal and never inlined: each kernel keeps its own frame (so the
  // stack is the largest kernel's, not the sum) and its own register
  // allocation; one call per layer is all it costs. A compact kernel is
  // also `optsize`: LLVM copies segments in loops (or memcpy) and picks the
  // smaller instructions.
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  SmallVector<StringRef> passthrough = {"noinline"};
  if (kernel.getCompact())
    passthrough.push_back("optsize");
  func->setAttr("passthrough", b.getStrArrayAttr(passthrough));
  Block *entry = func.addEntryBlock();
  for (auto [value, arg] : llvm::zip(operands, entry->getArguments()))
    mapping.map(value, arg);
  b.setInsertionPointToStart(entry);
  // A tensor base's operand is the pool: clone the pool first (fewest
  // operands first; equals in their order).
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, clones.size()));
  llvm::sort(order, [&](unsigned x, unsigned y) {
    return std::make_pair(clones[x]->getNumOperands(), x) <
           std::make_pair(clones[y]->getNumOperands(), y);
  });
  for (unsigned i : order) {
    Operation *def = clones[i];
    Operation *clone = b.clone(*def, mapping);
    // Model I/O accessors are created once, from the original base.
    clone->removeAttr(model_abi::kIOAttrName);
    clone->removeAttr(model_abi::kIOIndexAttrName);
  }
  for (Operation &op : kernel.getBody().front())
    b.clone(op, mapping);
  func::ReturnOp::create(b, kernel.getLoc());
  b.setInsertionPoint(kernel);
  func::CallOp::create(b, kernel.getLoc(), func, operands);
  kernel.erase();
}

struct VMCUOutlineKernelsPass
    : impl::VMCUOutlineKernelsPassBase<VMCUOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (auto [index, kernel] : llvm::enumerate(kernels))
      outlineKernel(kernel, index, builder);
  }
};

} // namespace

} // namespace mlir::vmcu
