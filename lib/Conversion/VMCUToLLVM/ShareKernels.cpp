//===- ShareKernels.cpp - the vmcu-share-kernels pass ---------------------===//
//
// Layers of one shape in one model (the repeated blocks of a MobileNet or
// a DS-CNN) get kernel functions that differ only in the addresses of
// their tables and in their tensors' base segments. This pass keeps one
// function per such group and passes the differing values as arguments,
// so the code is in flash once.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSHAREKERNELSPASS
#include "vmcu/Conversion/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// A function's ops in pre-order, regions and blocks in order.
SmallVector<Operation *> opsInOrder(LLVM::LLVMFuncOp func) {
  SmallVector<Operation *> ops;
  func.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) { ops.push_back(op); });
  return ops;
}

/// Whether `op`'s value may become an argument where two functions differ:
/// a global's address, or an integer constant no user needs as a constant
/// (a stack buffer's size, an inline-assembly or intrinsic operand).
bool isParameterizable(Operation *op) {
  if (isa<LLVM::AddressOfOp>(op))
    return true;
  auto constant = dyn_cast<LLVM::ConstantOp>(op);
  if (!constant || !isa<IntegerType>(constant.getType()))
    return false;
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    return !isa<LLVM::AllocaOp, LLVM::InlineAsmOp>(user) &&
           !user->getName().getStringRef().starts_with("llvm.intr.");
  });
}

/// Whether `fa` and `fb` have the same attributes but for their names
/// (linkage, section, passthrough, target, ...): the kept function's then
/// serve every call.
bool sameFunctionAttributes(LLVM::LLVMFuncOp fa, LLVM::LLVMFuncOp fb) {
  auto withoutName = [](LLVM::LLVMFuncOp func) {
    NamedAttrList attrs(func->getDiscardableAttrDictionary());
    if (auto properties =
            dyn_cast_or_null<DictionaryAttr>(func->getPropertiesAsAttribute()))
      attrs.append(properties.getValue());
    attrs.erase(func.getSymNameAttrName());
    return attrs.getDictionary(func.getContext());
  };
  return withoutName(fa) == withoutName(fb);
}

/// The positions (in opsInOrder) at which `b` differs from `a` by a
/// parameterizable op's value, or failure where they differ otherwise.
FailureOr<SmallVector<unsigned>> differences(ArrayRef<Operation *> a,
                                             ArrayRef<Operation *> b,
                                             LLVM::LLVMFuncOp fa,
                                             LLVM::LLVMFuncOp fb) {
  if (a.size() != b.size() || !sameFunctionAttributes(fa, fb))
    return failure();
  // Values and blocks of `a` to those of `b`.
  IRMapping map;
  auto mapBlocks = [&](Region &ra, Region &rb) {
    if (ra.getBlocks().size() != rb.getBlocks().size())
      return false;
    for (auto [ba, bb] : llvm::zip(ra, rb)) {
      if (ba.getNumArguments() != bb.getNumArguments())
        return false;
      map.map(&ba, &bb);
      for (auto [x, y] : llvm::zip(ba.getArguments(), bb.getArguments())) {
        if (x.getType() != y.getType())
          return false;
        map.map(x, y);
      }
    }
    return true;
  };
  if (!mapBlocks(fa.getBody(), fb.getBody()))
    return failure();
  SmallVector<unsigned> positions;
  for (unsigned i = 0; i < a.size(); ++i) {
    Operation *x = a[i], *y = b[i];
    if (x->getName() != y->getName() ||
        x->getNumOperands() != y->getNumOperands() ||
        x->getNumRegions() != y->getNumRegions() ||
        x->getNumSuccessors() != y->getNumSuccessors() ||
        x->getResultTypes() != y->getResultTypes())
      return failure();
    for (auto [u, v] : llvm::zip(x->getOperands(), y->getOperands()))
      if (map.lookupOrNull(u) != v)
        return failure();
    for (unsigned s = 0; s < x->getNumSuccessors(); ++s)
      if (map.lookupOrNull(x->getSuccessor(s)) != y->getSuccessor(s))
        return failure();
    if (x->getAttrDictionary() != y->getAttrDictionary() ||
        x->getPropertiesAsAttribute() != y->getPropertiesAsAttribute()) {
      if (!isParameterizable(x) || !isParameterizable(y))
        return failure();
      positions.push_back(i);
    }
    for (auto [ra, rb] : llvm::zip(x->getRegions(), y->getRegions()))
      if (!mapBlocks(ra, rb))
        return failure();
    for (auto [u, v] : llvm::zip(x->getResults(), y->getResults()))
      map.map(u, v);
  }
  return positions;
}

/// A function of the group and its ops.
struct Member {
  LLVM::LLVMFuncOp func;
  SmallVector<Operation *> ops;
};

/// Functions that compute the same thing but for the values at
/// `positions`: the first is kept, with those values as arguments.
struct Group {
  SmallVector<Member> members;
  llvm::SmallSetVector<unsigned, 8> positions;
};

/// The op at `position` of each member, as an attribute that tells its
/// value (the op's own attributes).
SmallVector<Attribute> valuesAt(ArrayRef<Member> members, unsigned position) {
  SmallVector<Attribute> values;
  for (const Member &member : members)
    values.push_back(member.ops[position]->getPropertiesAsAttribute());
  return values;
}

/// The arguments a group's values take: positions whose ops give every
/// member the same value (a tensor base read in two places) share one.
SmallVector<SmallVector<unsigned>> argumentsOf(ArrayRef<Member> members,
                                               ArrayRef<unsigned> positions) {
  SmallVector<SmallVector<unsigned>> arguments;
  SmallVector<SmallVector<Attribute>> keys;
  for (unsigned position : positions) {
    SmallVector<Attribute> key = valuesAt(members, position);
    Type type = members.front().ops[position]->getResult(0).getType();
    auto typeOf = [&](ArrayRef<unsigned> argument) {
      return members.front().ops[argument.front()]->getResult(0).getType();
    };
    unsigned index = 0;
    while (index < arguments.size() &&
           (keys[index] != key || typeOf(arguments[index]) != type))
      ++index;
    if (index == arguments.size()) {
      arguments.emplace_back();
      keys.push_back(std::move(key));
    }
    arguments[index].push_back(position);
  }
  return arguments;
}

/// Whether every use of `func` is a direct call, so that its calls can be
/// rewritten.
bool onlyCalled(LLVM::LLVMFuncOp func, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
  return uses && llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
           return isa<LLVM::CallOp>(use.getUser());
         });
}

/// Whether `func` may be merged with others: an internal function with a
/// body, no variadic arguments, called only directly.
bool isCandidate(LLVM::LLVMFuncOp func, ModuleOp module) {
  return !func.isExternal() && !func.isVarArg() &&
         func.getLinkage() == LLVM::Linkage::Internal &&
         func.getNumResults() == 0 && onlyCalled(func, module);
}

/// The groups of candidate functions (two or more each), in module order.
SmallVector<Group> findGroups(ModuleOp module, unsigned maxArguments) {
  SmallVector<Group> groups;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!isCandidate(func, module))
      continue;
    Member member{func, opsInOrder(func)};
    bool placed = false;
    for (Group &group : groups) {
      LLVM::LLVMFuncOp first = group.members.front().func;
      FailureOr<SmallVector<unsigned>> positions =
          differences(group.members.front().ops, member.ops, first, func);
      if (failed(positions))
        continue;
      llvm::SmallSetVector<unsigned, 8> merged = group.positions;
      merged.insert(positions->begin(), positions->end());
      group.members.push_back(std::move(member));
      if (first.getNumArguments() +
              argumentsOf(group.members, merged.getArrayRef()).size() >
          maxArguments) {
        member = group.members.pop_back_val();
        continue;
      }
      group.positions = merged;
      placed = true;
      break;
    }
    if (!placed)
      groups.push_back(Group{{std::move(member)}, {}});
  }
  llvm::erase_if(groups,
                 [](const Group &group) { return group.members.size() < 2; });
  return groups;
}

/// Calls the group's first function in place of every member, with the
/// member's values for `arguments` as trailing arguments.
void redirectCalls(Group &group, ArrayRef<SmallVector<unsigned>> arguments,
                   ModuleOp module) {
  LLVM::LLVMFuncOp kept = group.members.front().func;
  auto callee = FlatSymbolRefAttr::get(kept.getSymNameAttr());
  for (Member &member : group.members) {
    SmallVector<LLVM::CallOp> calls;
    std::optional<SymbolTable::UseRange> uses =
        member.func.getSymbolUses(module);
    for (const SymbolTable::SymbolUse &use : *uses)
      calls.push_back(cast<LLVM::CallOp>(use.getUser()));
    for (LLVM::CallOp call : calls) {
      OpBuilder b(call);
      SmallVector<Value> operands(call.getArgOperands());
      for (ArrayRef<unsigned> argument : arguments)
        operands.push_back(
            b.clone(*member.ops[argument.front()])->getResult(0));
      auto shared =
          LLVM::CallOp::create(b, call.getLoc(), TypeRange(), callee, operands);
      shared->setDiscardableAttrs(call->getDiscardableAttrDictionary());
      call.erase();
    }
  }
}

/// Turns the values of `arguments` in the group's first function into
/// trailing arguments, and erases the other members.
void parameterizeFirst(Group &group,
                       ArrayRef<SmallVector<unsigned>> arguments) {
  Member &first = group.members.front();
  Block &entry = first.func.getBody().front();
  auto type = first.func.getFunctionType();
  SmallVector<Type> params(type.getParams());
  for (ArrayRef<unsigned> argument : arguments) {
    Operation *front = first.ops[argument.front()];
    BlockArgument arg =
        entry.addArgument(front->getResult(0).getType(), front->getLoc());
    params.push_back(arg.getType());
    for (unsigned position : argument) {
      Operation *op = first.ops[position];
      op->getResult(0).replaceAllUsesWith(arg);
      op->erase();
    }
  }
  first.func.setFunctionType(
      LLVM::LLVMFunctionType::get(type.getReturnType(), params));
  for (Member &member : llvm::drop_begin(group.members))
    member.func.erase();
}

struct VMCUShareKernelsPass
    : public vmcu::impl::VMCUShareKernelsPassBase<VMCUShareKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Group> groups = findGroups(module, maxArguments);
    for (Group &group : groups) {
      numMerged += group.members.size() - 1;
      SmallVector<SmallVector<unsigned>> arguments =
          argumentsOf(group.members, group.positions.getArrayRef());
      redirectCalls(group, arguments, module);
      parameterizeFirst(group, arguments);
    }
  }
};

} // namespace
