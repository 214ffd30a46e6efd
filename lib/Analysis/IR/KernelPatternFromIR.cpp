//===- KernelPatternFromIR.cpp - read a kernel's ring accesses ------------===//
//
// affine.for bounds become analysis::Bound terms; each ring op's segment
// address, an affine.apply over loop indices and one tensor base, becomes
// an analysis::Access in kernel segments.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Analysis/KernelPatternFromIR.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::vmcu;
namespace an = mlir::vmcu::analysis;

namespace {

class PatternReader {
public:
  PatternReader(KernelOp kernel, int64_t unitsPerSegment, unsigned inputIndex)
      : kernel(kernel), unitsPerSegment(unitsPerSegment),
        inputIndex(inputIndex) {}

  FailureOr<an::KernelPattern> read() {
    an::KernelPattern pattern;
    pattern.name = kernel.getSymName().str();
    // Phases end with both cores meeting: the one-core order holds
    // between them (vmcu-verify-ring checks each phase on its own).
    if (kernel.getCores() && !kernel.getSplitPhases()) {
      pattern.freeDelay = core_split::kSplitFreeDelay;
      pattern.splitDepth = kernel.getSplitDepth().value_or(1);
    }
    auto sizeOf = [](Value base) {
      return static_cast<int64_t>(
          base.getDefiningOp<TensorBaseOp>().getSegments());
    };
    if (inputIndex >= kernel.getInputs().size())
      return kernel.emitOpError("has no input #") << inputIndex;
    Value input = kernel.getInputs()[inputIndex];
    for (Value other : kernel.getInputs())
      if (other != input)
        ignored.insert(other);
    // The workspace is a region of its own: the solver adds its size to the
    // footprint and overlaps nothing with it, so its accesses (line-buffer
    // slots modulo R, not affine) are not read.
    if (Value workspace = kernel.getWorkspace())
      ignored.insert(workspace);
    for (auto [value, role] :
         {std::pair<Value, an::TensorRole>{input, an::TensorRole::Input},
          {kernel.getOutput(), an::TensorRole::Output},
          {kernel.getWorkspace(), an::TensorRole::Workspace}}) {
      if (!value)
        continue;
      roles[value] = role;
      int64_t units = sizeOf(value);
      if (units % unitsPerSegment != 0)
        return kernel.emitOpError("tensor of ")
               << units << " pool units is not a whole number of "
               << unitsPerSegment << "-unit segments";
      int64_t segments = units / unitsPerSegment;
      if (role == an::TensorRole::Input)
        pattern.inputSegments = segments;
      else if (role == an::TensorRole::Output)
        pattern.outputSegments = segments;
      else
        pattern.workspaceSegments = segments;
    }
    if (failed(readBlock(kernel.getBody().front(), pattern.body)))
      return failure();
    return pattern;
  }

private:
  KernelOp kernel;
  int64_t unitsPerSegment;
  unsigned inputIndex;
  DenseMap<Value, an::TensorRole> roles;
  /// The kernel's other inputs and its workspace, whose accesses are left
  /// out.
  DenseSet<Value> ignored;
  SmallVector<Value> ivs;

  /// A loop-invariant constant or an enclosing induction variable.
  FailureOr<an::AffineExpr> operandExpr(Operation *user, Value v) {
    for (auto [i, iv] : llvm::enumerate(ivs))
      if (iv == v)
        return an::affineDim(i);
    APInt cst;
    if (matchPattern(v, m_ConstantInt(&cst)))
      return an::affineConstant(cst.getSExtValue());
    if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
      SmallVector<an::AffineExpr> ops;
      for (Value operand : apply.getMapOperands()) {
        auto e = operandExpr(user, operand);
        if (failed(e))
          return failure();
        ops.push_back(*e);
      }
      return linearize(user, apply.getAffineMap().getResult(0), ops);
    }
    return user->emitOpError(
        "uses an index that is neither a loop index nor a constant; "
        "vmcu-solve-offsets reads affine loop nests only");
  }

  /// Linearises `e` over `operands` (each mapped by operandExpr).
  FailureOr<an::AffineExpr> linearize(Operation *user, AffineExpr e,
                                      ArrayRef<an::AffineExpr> operands) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      return operands[dim.getPosition()];
    if (auto cst = dyn_cast<AffineConstantExpr>(e))
      return an::affineConstant(cst.getValue());
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return user->emitOpError("uses a non-linear index expression");
    auto lhs = linearize(user, bin.getLHS(), operands);
    auto rhs = linearize(user, bin.getRHS(), operands);
    if (failed(lhs) || failed(rhs))
      return failure();
    if (bin.getKind() == AffineExprKind::Add)
      return *lhs + *rhs;
    if (bin.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return *lhs * c.getValue();
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        return *rhs * c.getValue();
    }
    return user->emitOpError("uses a non-linear index expression");
  }

  FailureOr<an::Bound> readBound(Operation *loop, AffineMap map,
                                 ValueRange operands) {
    SmallVector<an::AffineExpr> ops;
    for (Value v : operands) {
      auto e = operandExpr(loop, v);
      if (failed(e))
        return failure();
      ops.push_back(*e);
    }
    an::Bound bound;
    for (AffineExpr result : map.getResults()) {
      auto e = linearize(loop, result, ops);
      if (failed(e))
        return failure();
      bound.terms.push_back(*e);
    }
    return bound;
  }

  /// Whether `address` is based on one of the ignored inputs.
  bool readsIgnored(Value address) {
    if (ignored.contains(address))
      return true;
    auto apply = address.getDefiningOp<affine::AffineApplyOp>();
    return apply && llvm::any_of(apply.getMapOperands(),
                                 [&](Value v) { return ignored.contains(v); });
  }

  /// The segment index of a ring address: (address - base) / unitsPerSegment.
  FailureOr<std::pair<an::TensorRole, an::AffineExpr>>
  readAddress(Operation *user, Value address) {
    if (auto role = roles.find(address); role != roles.end())
      return std::make_pair(role->second, an::affineConstant(0));
    auto apply = address.getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return user->emitOpError("segment address must be an affine.apply of "
                               "the loop indices and one kernel tensor base");
    std::optional<an::TensorRole> role;
    SmallVector<an::AffineExpr> ops;
    // The base is read as one extra dimension past the loop indices.
    size_t baseDim = ivs.size();
    for (Value v : apply.getMapOperands()) {
      if (auto r = roles.find(v); r != roles.end()) {
        if (role)
          return user->emitOpError("address mixes two tensor bases");
        role = r->second;
        ops.push_back(an::affineDim(baseDim));
        continue;
      }
      auto e = operandExpr(user, v);
      if (failed(e))
        return failure();
      ops.push_back(*e);
    }
    if (!role)
      return user->emitOpError("address does not start at a tensor base of "
                               "its vmcu.kernel");
    auto e = linearize(user, apply.getAffineMap().getResult(0), ops);
    if (failed(e))
      return failure();
    e->coeffs.resize(baseDim + 1, 0);
    if (e->coeffs[baseDim] != 1)
      return user->emitOpError("address must add its tensor base exactly once");
    e->coeffs.pop_back();
    // The base enters with coefficient 1; the rest must be whole segments.
    bool whole = e->constant % unitsPerSegment == 0;
    for (int64_t &coeff : e->coeffs)
      whole &= coeff % unitsPerSegment == 0;
    if (!whole)
      return user->emitOpError("address is not a whole number of ")
             << unitsPerSegment << "-unit segments from its tensor base";
    e->constant /= unitsPerSegment;
    for (int64_t &coeff : e->coeffs)
      coeff /= unitsPerSegment;
    return std::make_pair(*role, *e);
  }

  LogicalResult addAccess(Operation *op, an::AccessKind kind, Value address,
                          std::vector<an::Node> &out) {
    if (readsIgnored(address))
      return success();
    auto read = readAddress(op, address);
    if (failed(read))
      return failure();
    an::Access access;
    access.kind = kind;
    access.role = read->first;
    access.indices = {read->second};
    access.mapping = {1};
    out.emplace_back(std::move(access));
    return success();
  }

  LogicalResult readBlock(Block &block, std::vector<an::Node> &out) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
        auto lb = readBound(loop, loop.getLowerBoundMap(),
                            loop.getLowerBoundOperands());
        auto ub = readBound(loop, loop.getUpperBoundMap(),
                            loop.getUpperBoundOperands());
        if (failed(lb) || failed(ub))
          return failure();
        an::Loop node;
        node.lower = *lb;
        node.upper = *ub;
        node.step = loop.getStepAsInt();
        ivs.push_back(loop.getInductionVar());
        LogicalResult inner = readBlock(*loop.getBody(), node.body);
        ivs.pop_back();
        if (failed(inner))
          return failure();
        out.emplace_back(std::move(node));
        continue;
      }
      if (isa<LoopLikeOpInterface>(op) || isa<RegionBranchOpInterface>(op)) {
        bool touchesRing = false;
        op.walk([&](Operation *inner) {
          if (auto load = dyn_cast<RingLoadOp>(inner))
            touchesRing |= !readsIgnored(load.getSegment());
          else if (auto store = dyn_cast<RingStoreOp>(inner))
            touchesRing |= !readsIgnored(store.getSegment());
          else if (auto free = dyn_cast<FreeOp>(inner))
            touchesRing |= !readsIgnored(free.getSegment());
        });
        if (touchesRing)
          return op.emitOpError("holds ring accesses but is not an affine.for; "
                                "vmcu-solve-offsets reads affine loop nests");
        continue;
      }
      LogicalResult ok = success();
      if (auto load = dyn_cast<RingLoadOp>(op))
        ok = addAccess(&op, an::AccessKind::Load, load.getSegment(), out);
      else if (auto store = dyn_cast<RingStoreOp>(op))
        ok = addAccess(&op, an::AccessKind::Store, store.getSegment(), out);
      else if (auto free = dyn_cast<FreeOp>(op)) {
        if (static_cast<int64_t>(free.getCount()) != unitsPerSegment)
          return free.emitOpError("frees ")
                 << free.getCount() << " pool units, expected one segment of "
                 << unitsPerSegment;
        ok = addAccess(&op, an::AccessKind::Free, free.getSegment(), out);
      }
      if (failed(ok))
        return failure();
    }
    return success();
  }
};

} // namespace

FailureOr<an::KernelPattern>
mlir::vmcu::buildKernelPattern(KernelOp kernel, int64_t segmentBytes,
                               unsigned inputIndex) {
  Value anyBase = kernel.getOutput();
  auto pool = anyBase.getDefiningOp<TensorBaseOp>().getPool().getType();
  if (segmentBytes % pool.getSegmentBytes() != 0)
    return kernel.emitOpError("segment of ")
           << segmentBytes << " bytes is not a multiple of the pool unit ("
           << pool.getSegmentBytes() << " bytes)";
  return PatternReader(kernel, segmentBytes / pool.getSegmentBytes(),
                       inputIndex)
      .read();
}
