//===- ShareKernels.cpp - the vmcu-share-kernels pass ---------------------===//
//
// Layers of one shape in one model (the repeated blocks of a MobileNet or
// a DS-CNN) get kernel functions that differ only in the addresses of
// their tables and in their tensors' base segments. This pass keeps one
// function per such group and passes the differing values as arguments,
// so the code is in flash once, and records the functions it replaced
// (vmcu.shared_kernels) for the flash budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSHAREKERNELSPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// A function's ops in pre-order, regions and blocks in order.
SmallVector<Operation *> opsInOrder(LLVM::LLVMFuncOp func) {
  SmallVector<Operation *> ops;
  func.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) { ops.push_back(op); });
  return ops;
}

/// Whether inline assembly takes its operand `use` in a register, so any
/// value will do: its constraint is "r", or an output's index (the operand
/// is tied to that output) where the output is a register ("=r", "=&r").
/// Its constraints list the outputs ("=..."), then one per operand, then
/// the clobbers ("~{...}"); the lowering emits no indirect output ("=*m"),
/// which would take an operand too.
bool takesRegister(LLVM::InlineAsmOp asmOp, OpOperand &use) {
  SmallVector<StringRef> constraints;
  asmOp.getConstraints().split(constraints, ',');
  SmallVector<StringRef> outputs, inputs;
  for (StringRef c : constraints)
    (c.starts_with("=") ? outputs : inputs).push_back(c);
  unsigned index = use.getOperandNumber();
  if (index >= inputs.size())
    return false;
  StringRef constraint = inputs[index];
  unsigned tied;
  if (!constraint.getAsInteger(10, tied))
    return tied < outputs.size() &&
           llvm::is_contained({"=r", "=&r"}, outputs[tied]);
  return constraint == "r";
}

/// Whether the user of an integer through `use` needs it as a constant: a
/// stack buffer's size (a static alloca), an inline-assembly operand other
/// than a register, an intrinsic's operand (ssat's width must be an
/// immediate).
bool needsConstant(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(user))
    return !takesRegister(asmOp, use);
  return isa<LLVM::AllocaOp, LLVM::CallIntrinsicOp>(user) ||
         user->getName().getStringRef().starts_with("llvm.intr.");
}

/// Whether `value` reaches, through ops that compute on it (no memory
/// access, no call, no branch), a user that needs it as a constant.
bool reachesConstantUse(Value value) {
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (needsConstant(use))
        return true;
      if (isMemoryEffectFree(user) && user->getNumRegions() == 0)
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// Whether `op`'s value may become an argument where two functions differ:
/// a global's address, or an integer constant nothing needs as a constant.
bool isParameterizable(Operation *op) {
  if (isa<LLVM::AddressOfOp>(op))
    return true;
  auto constant = dyn_cast<LLVM::ConstantOp>(op);
  return constant && isa<IntegerType>(constant.getType()) &&
         !reachesConstantUse(constant.getResult());
}

/// Whether `op` is a getelementptr whose indices are all constant zeros:
/// its result is its base address, whatever element type it steps over
/// (the lowering of memref.get_global indexes a global's array type, so
/// tables of different sizes differ only there).
bool isZeroOffsetGEP(Operation *op) {
  auto gep = dyn_cast<LLVM::GEPOp>(op);
  return gep && gep.getDynamicIndices().empty() &&
         llvm::all_of(gep.getRawConstantIndices(),
                      [](int32_t index) { return index == 0; });
}

/// The name of vmcu.shared_kernels, which records the functions a kept
/// function replaced.
StringAttr sharedKernelsAttrName(MLIRContext *context) {
  return context->getOrLoadDialect<VMCUDialect>()
      ->getSharedKernelsAttrHelper()
      .getName();
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
    attrs.erase(sharedKernelsAttrName(func.getContext()));
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
    bool sameAddress = isZeroOffsetGEP(x) && isZeroOffsetGEP(y);
    if (!sameAddress &&
        (x->getAttrDictionary() != y->getAttrDictionary() ||
         x->getPropertiesAsAttribute() != y->getPropertiesAsAttribute())) {
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
  /// The positions grouped by the argument they become (argumentsOf).
  SmallVector<SmallVector<unsigned>> arguments;
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

/// Every function's calls, from one walk of the module's symbol uses
/// (asking each function for its uses walks the whole module each time).
class CallIndex {
public:
  explicit CallIndex(ModuleOp module) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    complete = uses.has_value();
    if (!complete)
      return;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Entry &entry = entries[use.getSymbolRef().getRootReference()];
      auto call = dyn_cast<LLVM::CallOp>(use.getUser());
      if (!call || call.getCalleeAttr() != use.getSymbolRef() ||
          !call.getOpBundleOperands().empty())
        entry.direct = false;
      else
        entry.calls.insert(call);
    }
  }

  /// The calls of `func`, if every use of it is the callee of a call
  /// without operand bundles (whose calls can then be rewritten).
  std::optional<ArrayRef<LLVM::CallOp>>
  directCalls(LLVM::LLVMFuncOp func) const {
    if (!complete)
      return std::nullopt;
    auto it = entries.find(func.getSymNameAttr());
    if (it == entries.end())
      return ArrayRef<LLVM::CallOp>();
    if (!it->second.direct)
      return std::nullopt;
    return it->second.calls.getArrayRef();
  }

  /// Forgets the calls in `func`'s body, which is about to be erased.
  void forgetCallsIn(LLVM::LLVMFuncOp func) {
    func.walk([&](LLVM::CallOp call) {
      FlatSymbolRefAttr callee = call.getCalleeAttr();
      if (!callee)
        return;
      if (auto it = entries.find(callee.getAttr()); it != entries.end())
        it->second.calls.remove(call);
    });
  }

private:
  /// A function's calls. Once its group is merged, its entry is stale
  /// (calls redirected, bodies erased) and is not read again.
  struct Entry {
    bool direct = true;
    llvm::SetVector<LLVM::CallOp> calls;
  };
  DenseMap<StringAttr, Entry> entries;
  bool complete = false;
};

/// Whether `func` may be merged with others: an internal function with a
/// body, no variadic arguments, called only directly.
bool isCandidate(LLVM::LLVMFuncOp func, const CallIndex &calls) {
  return !func.isExternal() && !func.isVarArg() &&
         func.getLinkage() == LLVM::Linkage::Internal &&
         func.getNumResults() == 0 && calls.directCalls(func);
}

/// The groups of candidate functions (two or more each), in module order.
SmallVector<Group> findGroups(ModuleOp module, const CallIndex &calls,
                              unsigned maxArguments) {
  SmallVector<Group> groups;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!isCandidate(func, calls))
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
      SmallVector<SmallVector<unsigned>> arguments =
          argumentsOf(group.members, merged.getArrayRef());
      if (first.getNumArguments() + arguments.size() > maxArguments) {
        member = group.members.pop_back_val();
        continue;
      }
      group.positions = merged;
      group.arguments = std::move(arguments);
      placed = true;
      break;
    }
    if (!placed)
      groups.push_back(Group{{std::move(member)}, {}, {}});
  }
  llvm::erase_if(groups,
                 [](const Group &group) { return group.members.size() < 2; });
  return groups;
}

/// `attrs` (argument attributes) grown to `size` entries with empty
/// dictionaries.
ArrayAttr withEmptyDictionaries(ArrayAttr attrs, size_t size) {
  MLIRContext *context = attrs.getContext();
  SmallVector<Attribute> padded(attrs.getValue());
  padded.resize(size, DictionaryAttr::get(context));
  return ArrayAttr::get(context, padded);
}

/// Calls the group's first function in place of every member, with the
/// member's values for the group's arguments as trailing arguments; each
/// call keeps its other properties (calling convention, attributes).
void redirectCalls(Group &group, const CallIndex &calls) {
  auto callee =
      FlatSymbolRefAttr::get(group.members.front().func.getSymNameAttr());
  for (Member &member : group.members) {
    ArrayRef<LLVM::CallOp> memberCalls = *calls.directCalls(member.func);
    for (LLVM::CallOp call : memberCalls) {
      OpBuilder b(call);
      SmallVector<Value> values;
      for (ArrayRef<unsigned> argument : group.arguments)
        values.push_back(b.clone(*member.ops[argument.front()])->getResult(0));
      call.setCalleeAttr(callee);
      call.getCalleeOperandsMutable().append(values);
      if (ArrayAttr attrs = call.getArgAttrsAttr())
        call.setArgAttrsAttr(
            withEmptyDictionaries(attrs, attrs.size() + values.size()));
    }
  }
}

/// Appends arguments of `types` to `func`: its entry block, its type and
/// (where it has them) its argument attributes, empty for the new ones.
/// (llvm.func's type is not a FunctionType, so FunctionOpInterface's
/// insertArguments cannot rebuild it.)
void appendArguments(LLVM::LLVMFuncOp func, TypeRange types,
                     ArrayRef<Location> locs) {
  Block &entry = func.getBody().front();
  for (auto [type, loc] : llvm::zip(types, locs))
    entry.addArgument(type, loc);
  LLVM::LLVMFunctionType type = func.getFunctionType();
  SmallVector<Type> params(type.getParams());
  llvm::append_range(params, types);
  func.setFunctionType(
      LLVM::LLVMFunctionType::get(type.getReturnType(), params));
  if (ArrayAttr attrs = func.getArgAttrsAttr())
    func.setArgAttrsAttr(withEmptyDictionaries(attrs, params.size()));
}

/// Turns the values of the group's arguments in its first function into
/// trailing arguments, erases the other members (and forgets the calls in
/// their bodies, which a later group may have to redirect otherwise) and
/// records their names, with those they had replaced, in the first's
/// vmcu.shared_kernels.
void parameterizeFirst(Group &group, CallIndex &calls) {
  ArrayRef<SmallVector<unsigned>> arguments = group.arguments;
  Member &first = group.members.front();
  unsigned end = first.func.getNumArguments();
  SmallVector<Type> types;
  SmallVector<Location> locs;
  for (ArrayRef<unsigned> argument : arguments) {
    Operation *op = first.ops[argument.front()];
    types.push_back(op->getResult(0).getType());
    locs.push_back(op->getLoc());
  }
  appendArguments(first.func, types, locs);
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    BlockArgument arg = first.func.getArgument(end + index);
    for (unsigned position : argument) {
      Operation *op = first.ops[position];
      op->getResult(0).replaceAllUsesWith(arg);
      op->erase();
    }
  }
  // The functions it replaces, and those they (and it) replaced before.
  MLIRContext *context = first.func.getContext();
  StringAttr sharedName = sharedKernelsAttrName(context);
  SmallVector<Attribute> replaced;
  auto recorded = [&](LLVM::LLVMFuncOp func) {
    if (auto names = func->getAttrOfType<ArrayAttr>(sharedName))
      llvm::append_range(replaced, names);
  };
  recorded(first.func);
  for (Member &member : llvm::drop_begin(group.members)) {
    replaced.push_back(member.func.getSymNameAttr());
    recorded(member.func);
    calls.forgetCallsIn(member.func);
    member.func.erase();
  }
  first.func->setAttr(sharedName, ArrayAttr::get(context, replaced));
}

struct VMCUShareKernelsPass
    : impl::VMCUShareKernelsPassBase<VMCUShareKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    CallIndex calls(module);
    SmallVector<Group> groups = findGroups(module, calls, maxArguments);
    for (Group &group : groups) {
      numMerged += group.members.size() - 1;
      redirectCalls(group, calls);
      parameterizeFirst(group, calls);
    }
  }
};

} // namespace

} // namespace mlir::vmcu
