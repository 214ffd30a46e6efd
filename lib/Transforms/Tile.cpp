//===- Tile.cpp - two-level tiling into ring-pool kernels -----------------===//
//
// Rewrites the model's entry function into vmcu.kernel ops over one segment
// pool; the per-layer loops come from TileKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "TileKernels.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Transforms/LayerWork.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUTILEPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// One layer of the chain and the tensors around it.
struct ChainLayer {
  LayerOpInterface op;
  int64_t segmentBytes;
  unsigned inputTensor;
  unsigned outputTensor;
  std::string name;
  /// An earlier tensor a vmcu.add reads besides the previous layer's output.
  std::optional<unsigned> skipTensor = std::nullopt;
  bool skipIsLhs = false;
};

/// A symbol-friendly name for `op`: its NameLoc if any, else kind_index.
std::string layerName(Operation *op, unsigned index) {
  std::string base;
  if (auto named = dyn_cast<NameLoc>(op->getLoc()))
    base = named.getName().str();
  else
    base = (op->getName().stripDialect() + "_" + Twine(index)).str();
  for (char &ch : base)
    if (!llvm::isAlnum(ch))
      ch = '_';
  return base;
}

/// A reshape of a model tensor (convert-tosa-to-vmcu turns tosa.reshape into
/// these): it aliases its operand's tensor.
bool isReshape(Operation *op) {
  return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp>(
      op);
}

/// What a tensor-level planner (TinyEngine-style: whole tensors, in-place
/// depthwise) needs live while `layer` runs.
int64_t tensorLevelBytes(LayerOpInterface layer) {
  auto bytes = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getNumElements();
  };
  int64_t in = bytes(layer.getActivationInput()),
          out = bytes(layer->getResult(0));
  if (isa<DepthwiseConv2DOp>(layer))
    return std::max(in, out);
  auto block = dyn_cast<BottleneckOp>(layer.getOperation());
  if (!block)
    return in + out;
  int64_t b = bytes(block.getExpand().getOutput());
  int64_t c = bytes(block.getDepthwise().getOutput());
  int64_t d = bytes(block.getProject().getOutput());
  // A stays live for the residual; the depthwise and the add run in place.
  int64_t keep = block.getResidual() ? in : 0;
  return std::max({in + b, keep + std::max(b, c), keep + c + d});
}

/// The two operands of a vmcu.add or vmcu.mul, else nulls.
std::pair<Value, Value> binaryOperands(Operation *op) {
  if (auto add = dyn_cast<AddOp>(op))
    return {add.getLhs(), add.getRhs()};
  if (auto mul = dyn_cast<MulOp>(op))
    return {mul.getLhs(), mul.getRhs()};
  return {};
}

/// The default segment size: the greatest common divisor of the extents
/// (the paper's min(C, K) rule where one extent divides the other).
int64_t defaultSegmentBytes(LayerOpInterface layer) {
  int64_t g = 0;
  for (int64_t extent : layer.getSegmentedExtents())
    g = std::gcd(g, extent);
  return std::max<int64_t>(g, 1);
}

struct VMCUTilePass : vmcu::impl::VMCUTilePassBase<VMCUTilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func) {
      module.emitError("vmcu-tile: no entry function @") << entry;
      return signalPassFailure();
    }
    if (failed(tileFunction(module, func)))
      return signalPassFailure();
  }

  LogicalResult tileFunction(ModuleOp module, func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    auto isI8Tensor = [](Type t) {
      auto ranked = dyn_cast<RankedTensorType>(t);
      return ranked && ranked.hasStaticShape() &&
             ranked.getElementType().isInteger(8);
    };
    if (type.getNumInputs() != 1 || type.getNumResults() != 1 ||
        !isI8Tensor(type.getInput(0)) || !isI8Tensor(type.getResult(0)))
      return func.emitOpError("vmcu-tile needs one static int8 tensor input "
                              "and one static int8 tensor result, got ")
             << type;
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("vmcu-tile needs a single-block body");

    // Tensors are numbered in order; reshapes alias their operand's tensor.
    SmallVector<int64_t> tensorBytes;
    DenseMap<Value, unsigned> tensorOf;
    auto bytesOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getNumElements();
    };
    tensorOf[func.getArgument(0)] = 0;
    tensorBytes.push_back(bytesOf(func.getArgument(0)));

    SmallVector<ChainLayer> chain;
    Value result;
    for (Operation &op : func.getBody().front()) {
      if (isa<arith::ConstantOp>(op))
        continue;
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        result = ret.getOperand(0);
        continue;
      }
      if (isReshape(&op)) {
        auto it = tensorOf.find(op.getOperand(0));
        if (it == tensorOf.end())
          return op.emitOpError("reshapes a value that is not a model tensor");
        tensorOf[op.getResult(0)] = it->second;
        continue;
      }
      auto layer = dyn_cast<LayerOpInterface>(op);
      if (!layer)
        return op.emitOpError("is not a vmcu layer; run "
                              "--convert-tosa-to-vmcu before vmcu-tile");
      // The chain operand is the previous layer's output; a vmcu.add or
      // vmcu.mul may take it on either side and read an earlier (skip)
      // tensor as well.
      unsigned current = tensorBytes.size() - 1;
      auto tensorIndex = [&](Value v) -> std::optional<unsigned> {
        auto it = tensorOf.find(v);
        if (it == tensorOf.end())
          return std::nullopt;
        return it->second;
      };
      Value primary = layer.getActivationInput();
      auto [lhs, rhs] = binaryOperands(&op);
      if (lhs && tensorIndex(rhs) == current && tensorIndex(lhs) != current)
        primary = rhs;
      if (tensorIndex(primary) != current)
        return op.emitOpError("must read the output of the previous layer: "
                              "vmcu-tile handles chains of layers (fuse "
                              "residual blocks with vmcu-fuse-bottleneck)");
      std::optional<unsigned> skip;
      bool skipIsLhs = false;
      for (Value operand : op.getOperands()) {
        std::optional<unsigned> index = tensorIndex(operand);
        if (!index && lhs && (operand == lhs || operand == rhs))
          return op.emitOpError("has an operand that is not an activation "
                                "tensor of the chain (a constant?); vmcu "
                                "adds, subtracts and multiplies activations");
        if (!index || *index == current)
          continue;
        if (!lhs)
          return op.emitOpError("reads a second activation tensor; only "
                                "vmcu.add and vmcu.mul may read an earlier "
                                "tensor");
        skip = index;
        skipIsLhs = operand == lhs;
      }
      tensorOf[op.getResult(0)] = tensorBytes.size();
      tensorBytes.push_back(bytesOf(op.getResult(0)));
      int64_t seg = layer.getSegmentSizeBytes()
                        ? static_cast<int64_t>(*layer.getSegmentSizeBytes())
                        : defaultSegmentBytes(layer);
      chain.push_back({layer, seg, current, current + 1,
                       layerName(&op, chain.size()), skip, skipIsLhs});
    }
    if (chain.empty())
      return func.emitOpError("has no vmcu layers to tile");
    for (const ChainLayer &layer : chain)
      for (Operation *user : layer.op->getResult(0).getUsers())
        if (!isReshape(user) && !isa<LayerOpInterface, func::ReturnOp>(user))
          return user->emitOpError("uses a layer output outside the chain");
    auto res = tensorOf.find(result);
    if (res == tensorOf.end() || res->second != tensorBytes.size() - 1)
      return func.emitOpError("must return the output of its last layer");

    // The pool unit divides every segment; the provisional pool holds every
    // tensor (and line-buffer workspace) side by side until
    // vmcu-solve-offsets overlaps them.
    int64_t unit = 0;
    for (const ChainLayer &layer : chain)
      unit = std::gcd(unit, layer.segmentBytes);
    int64_t total = 0;
    for (int64_t bytes : tensorBytes)
      total += bytes / unit;
    for (ChainLayer layer : chain)
      if (auto fused = dyn_cast<BottleneckOp>(layer.op.getOperation()))
        if (fused.getLineBuffer())
          total += fused.getLineBufferBytes() / unit;

    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = func.getLoc();
    auto invoke = func::FuncOp::create(b, loc, "vmcu_invoke",
                                       b.getFunctionType({}, {b.getI32Type()}));
    b.setInsertionPointToStart(invoke.addEntryBlock());
    auto poolType = PoolType::get(&getContext(), total, unit);
    Value pool =
        SegmentPoolOp::create(b, loc, poolType, b.getI64IntegerAttr(8));

    SmallVector<Value> bases;
    for (auto [i, bytes] : llvm::enumerate(tensorBytes)) {
      std::string name = i == 0 ? "input" : chain[i - 1].name;
      auto base = TensorBaseOp::create(
          b, loc, b.getIndexType(), pool, b.getStringAttr(name),
          b.getI64IntegerAttr(bytes / unit), IntegerAttr());
      if (i == 0)
        base.setModelIO(model_abi::kIOInput);
      if (i + 1 == tensorBytes.size())
        base.setModelIO(model_abi::kIOOutput);
      bases.push_back(base);
    }

    // A tensor is freed by its last reader; skip tensors stay live (and
    // count for the tensor-level planner) until then.
    SmallVector<unsigned> lastReader(tensorBytes.size(), 0);
    for (auto [k, layer] : llvm::enumerate(chain)) {
      lastReader[layer.inputTensor] = k;
      if (layer.skipTensor)
        lastReader[*layer.skipTensor] = k;
    }
    // The largest kernel's stack buffers: what any kernel may spend on the
    // stack without raising the plan's SRAM (kernelScratchBytes).
    int64_t maxScratch = 0;
    for (const auto &layer : chain)
      maxScratch = std::max(maxScratch,
                            kernelScratchBytes(layer.op, layer.segmentBytes));
    for (auto [k, layer] : llvm::enumerate(chain)) {
      SmallVector<Value> inputs = {bases[layer.inputTensor]};
      if (layer.skipTensor)
        inputs.push_back(bases[*layer.skipTensor]);
      Value workspace;
      auto fused = dyn_cast<BottleneckOp>(layer.op.getOperation());
      if (fused && fused.getLineBuffer())
        workspace = TensorBaseOp::create(
            b, loc, b.getIndexType(), pool,
            b.getStringAttr(layer.name + "_line_buffer"),
            b.getI64IntegerAttr(fused.getLineBufferBytes() / unit),
            IntegerAttr());
      auto kernel =
          KernelOp::create(b, layer.op->getLoc(), b.getStringAttr(layer.name),
                           inputs, bases[layer.outputTensor], workspace);
      int64_t liveSkipBytes = 0;
      for (unsigned t = 0; t < layer.inputTensor; ++t)
        if (lastReader[t] >= k)
          liveSkipBytes += tensorBytes[t];
      kernel.setSegmentBytes(layer.segmentBytes);
      kernel.setTensorLevelBytes(tensorLevelBytes(layer.op) + liveSkipBytes);
      kernel.setLayer(layer.op->getName().stripDialect());
      analysis::KernelWork work = layerWork(layer.op, layer.segmentBytes);
      kernel.setSchedule(analysis::kindName(work.kind));
      kernel.setMacs(layerMacs(layer.op));
      kernel.setExecutedMacs(work.macs);
      kernel.setEstimatedCycles(analysis::estimateCycles(work));
      Block &body = kernel.getBody().emplaceBlock();
      OpBuilder kb = OpBuilder::atBlockBegin(&body);
      tile::KernelEnv env{module,     pool,       unit,
                          layer.name, windowCache, widenWeights};
      env.stackAllowanceBytes =
          maxScratch - kernelScratchBytes(layer.op, layer.segmentBytes);
      tile::KernelTensors tensors{bases[layer.inputTensor],
                                  bases[layer.outputTensor]};
      tensors.workspace = workspace;
      tensors.freeInput = lastReader[layer.inputTensor] == k;
      if (layer.skipTensor) {
        tensors.skip = bases[*layer.skipTensor];
        tensors.skipIsLhs = layer.skipIsLhs;
        tensors.freeSkip = lastReader[*layer.skipTensor] == k;
      }
      if (failed(
              tile::emitKernel(kb, env, layer.op, layer.segmentBytes, tensors)))
        return failure();
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    func::ReturnOp::create(b, loc, zero);
    func.erase();
    return success();
  }
};

} // namespace
