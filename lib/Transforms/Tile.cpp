//===- Tile.cpp - two-level tiling into ring-pool kernels -----------------===//
//
// Rewrites the model's entry function into vmcu.kernel ops over one segment
// pool; the per-layer loops come from TileKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "TileGemm.h"
#include "TileKernels.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/KernelLists.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUTILEPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// Below this many table bytes, widening is not priced: the kernel's code
/// differs between int8 and widened weights by as much (MLPerf Tiny KWS's
/// fully connected layer: 768 weights, its int8 kernel 1,546 B larger).
constexpr int64_t kMinPricedWideningBytes = 2048;

/// One layer of the graph and the tensors around it (numbered in program
/// order: the model inputs first, then each layer's output).
struct ChainLayer {
  LayerOpInterface op;
  int64_t segmentBytes = 0;
  /// The tensor the output is placed against: the most recent one read.
  unsigned inputTensor = 0;
  unsigned outputTensor = 0;
  std::string name;
  /// The other tensors it reads, in operand order: a vmcu.add's or
  /// vmcu.mul's second operand, a vmcu.concat's further pieces.
  SmallVector<unsigned> otherTensors;
  /// Whether a binary layer's second tensor is its lhs.
  bool skipIsLhs = false;
  /// Every activation operand's tensor, in operand order.
  SmallVector<unsigned> operandTensors;
  /// What widening its weights would cost and save: the flash bytes it
  /// adds and the cycles (cost model) int8 weights would take more.
  int64_t widenedExtraBytes = 0;
  int64_t int8WeightCycles = 0;
  /// Whether vmcu-tile emits it compact without a flash budget listing it
  /// (compactByDefault).
  bool compactByRule = false;
};

/// The entry function as vmcu-tile reads it.
struct ModelGraph {
  /// Bytes of each tensor: the model inputs, then each layer's output.
  SmallVector<int64_t> tensorBytes;
  DenseMap<Value, unsigned> tensorOf;
  unsigned numInputs = 0;
  SmallVector<ChainLayer> layers;
  /// The tensors the function returns, in result order.
  SmallVector<unsigned> results;
};

/// The cycles compact code may add to a kernel at worst, in percent of its
/// own, as compactByDefault assumes them (doubling): measured per kernel
/// kind from -3% to +43% (docs/flash.md, "Compact kernels"), where the
/// cost model charges 8% (estimateCompactCycles).
constexpr int64_t kCompactHeadWorstSlowdownPercent = 100;

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

/// Whether `layer` is emitted compact in every plan: a softmax over one row
/// (a classifier's scores). It runs once per inference, so its unrolled
/// code buys almost nothing: over the corpus and shared models the 45 such
/// kernels' code fell 42% (67,334 -> 38,968 B) compact, for 13,534 cycles
/// in all (vmcu-prof; docs/flash.md).
bool alwaysCompact(LayerOpInterface layer) {
  auto softmax = dyn_cast<SoftmaxOp>(layer.getOperation());
  if (!softmax)
    return false;
  auto type = cast<RankedTensorType>(softmax.getOutput().getType());
  return type.getNumElements() == type.getShape().back();
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
  if (auto dw = dyn_cast<DepthwiseConv2DOp>(layer.getOperation());
      dw && dw.getDepthMultiplier() == 1)
    return std::max(in, out);
  if (auto matmul = dyn_cast<BatchMatMulOp>(layer.getOperation())) {
    Value lhs = matmul.getLhs(), rhs = matmul.getRhs();
    return bytes(lhs) + (rhs == lhs ? 0 : bytes(rhs)) + out;
  }
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

/// The tensors `layer` reads: its operands that are model tensors, the most
/// recent one (a conv's own input where it folds a residual) as the input
/// its output is placed against, the others (a vmcu.add's or vmcu.mul's
/// second operand, a vmcu.concat's further pieces, a conv's residual) as
/// further ring inputs.
FailureOr<ChainLayer> readLayer(LayerOpInterface layer,
                                const DenseMap<Value, unsigned> &tensorOf) {
  Operation *op = layer.getOperation();
  auto [lhs, rhs] = binaryOperands(op);
  ChainLayer read;
  read.op = layer;
  for (Value operand : op->getOperands()) {
    auto it = tensorOf.find(operand);
    if (it != tensorOf.end()) {
      read.operandTensors.push_back(it->second);
      continue;
    }
    // A binary layer's constant operand is read from flash.
    if (lhs && (operand == lhs || operand == rhs)) {
      if (matchPattern(operand, m_Constant()))
        continue;
      return op->emitOpError("has an operand that is neither a constant "
                             "nor an activation tensor of the graph");
    }
    if (operand == layer.getActivationInput() || isa<ConcatOp>(op))
      return op->emitOpError("reads a value that is not a model tensor "
                             "(the function argument, a layer output or a "
                             "reshape of one)");
  }
  if (read.operandTensors.empty())
    return op->emitOpError("reads no activation tensor of the graph");
  auto conv = dyn_cast<Conv2DOp>(op);
  bool foldsResidual = conv && conv.getResidual();
  read.inputTensor = foldsResidual ? tensorOf.lookup(conv.getInput())
                                   : *llvm::max_element(read.operandTensors);
  for (auto [i, t] : llvm::enumerate(read.operandTensors)) {
    if (t == read.inputTensor ||
        llvm::is_contained(ArrayRef(read.operandTensors).take_front(i), t))
      continue;
    if (!lhs && !isa<ConcatOp, BatchMatMulOp>(op) && !foldsResidual)
      return op->emitOpError("reads a second activation tensor; only "
                             "vmcu.add, vmcu.mul, vmcu.batch_matmul, "
                             "vmcu.concat and a conv's residual read several");
    read.otherTensors.push_back(t);
  }
  read.skipIsLhs = lhs && !read.otherTensors.empty() &&
                   tensorOf.lookup(lhs) == read.otherTensors.front();
  read.segmentBytes = segmentSizeOf(layer);
  read.widenedExtraBytes = widenedWeightExtraBytes(layer);
  return read;
}

struct VMCUTilePass : impl::VMCUTilePassBase<VMCUTilePass> {
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

  /// Whether `layer` runs compact without a flash budget listing it: a
  /// one-row softmax always (alwaysCompact); a fully connected layer on one
  /// vector where the straight-line code of its tiles (tileBodyCodeBytes)
  /// costs more flash than even doubling its cycles (cost model;
  /// kCompactHeadWorstSlowdownPercent) would pay at widen-cycles-per-byte.
  /// Such a layer runs once per inference: a classifier head of a few
  /// thousand cycles with kilobytes of code.
  bool compactByDefault(const ChainLayer &layer, bool widen) const {
    LayerOpInterface op = layer.op;
    if (alwaysCompact(op))
      return true;
    auto fc = dyn_cast<FullyConnectedOp>(op.getOperation());
    if (!fc || widenCyclesPerByte == 0)
      return false;
    auto weight = fc.getWeight().getType();
    int64_t outC = weight.getDimSize(0), inC = weight.getDimSize(1);
    if (fc.getOutput().getType().getNumElements() != outC)
      return false;
    GemmTileShape shape = gemmTileShape(
        /*rows=*/1, inC, outC, layer.segmentBytes, widen, longRowTiling(op));
    int64_t savedBytes =
        tile::tileBodyCodeBytes(shape, outC, /*compact=*/false) -
        tile::tileBodyCodeBytes(shape, outC, /*compact=*/true);
    int64_t worstAddedCycles =
        analysis::estimateCycles(layerWork(op, layer.segmentBytes)) *
        kCompactHeadWorstSlowdownPercent / kPercent;
    return worstAddedCycles <
           static_cast<int64_t>(widenCyclesPerByte) * savedBytes;
  }

  /// The layers that keep int8 weights although widen-weights is on: of
  /// those whose widening is priced, fewest int8 cycles per flash byte
  /// saved first, each that saves fewer than widen-cycles-per-byte, then
  /// more while their int8 cycles (cost model) stay within
  /// flash-slowdown-percent of the model's estimated cycles.
  llvm::SmallBitVector int8ByDefault(ArrayRef<ChainLayer> chain) const {
    llvm::SmallBitVector int8(chain.size());
    // Both 0 widens every layer, those whose int8 weights cost nothing too
    // (the flash budget's first plan).
    if (widenCyclesPerByte == 0 && flashSlowdownPercent == 0)
      return int8;
    SmallVector<unsigned> priced;
    int64_t modelCycles = 0;
    for (auto [k, layer] : llvm::enumerate(chain)) {
      modelCycles +=
          analysis::estimateCycles(layerWork(layer.op, layer.segmentBytes));
      if (layer.widenedExtraBytes >= kMinPricedWideningBytes)
        priced.push_back(k);
    }
    // cycles_i / bytes_i < cycles_j / bytes_j, in integers; ties keep the
    // layer order.
    llvm::stable_sort(priced, [&](unsigned i, unsigned j) {
      return chain[i].int8WeightCycles * chain[j].widenedExtraBytes <
             chain[j].int8WeightCycles * chain[i].widenedExtraBytes;
    });
    int64_t allowance =
        modelCycles * static_cast<int64_t>(flashSlowdownPercent) / kPercent;
    int64_t spent = 0;
    for (unsigned k : priced) {
      const ChainLayer &layer = chain[k];
      bool cheap =
          layer.int8WeightCycles <
          static_cast<int64_t>(widenCyclesPerByte) * layer.widenedExtraBytes;
      if (!cheap && spent + layer.int8WeightCycles > allowance)
        break;
      spent += layer.int8WeightCycles;
      int8.set(k);
    }
    return int8;
  }

  /// Reads the entry function into `graph`, checking it is one vmcu can
  /// place: int8 tensors in and out, a single block of layers and
  /// reshapes, every layer output read or returned.
  LogicalResult readGraph(func::FuncOp func, ModelGraph &graph) {
    FunctionType type = func.getFunctionType();
    auto isI8Tensor = [](Type t) {
      auto ranked = dyn_cast<RankedTensorType>(t);
      return ranked && ranked.hasStaticShape() &&
             ranked.getElementType().isInteger(8);
    };
    if (type.getNumInputs() == 0 || type.getNumResults() == 0 ||
        !llvm::all_of(type.getInputs(), isI8Tensor) ||
        !llvm::all_of(type.getResults(), isI8Tensor))
      return func.emitOpError("vmcu-tile needs static int8 tensor inputs "
                              "and results (at least one of each), got ")
             << type;
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("vmcu-tile needs a single-block body");

    // Tensors are numbered in order, the inputs first; reshapes alias
    // their operand's tensor.
    auto bytesOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getNumElements();
    };
    for (BlockArgument arg : func.getArguments()) {
      graph.tensorOf[arg] = graph.tensorBytes.size();
      graph.tensorBytes.push_back(bytesOf(arg));
    }
    graph.numInputs = func.getNumArguments();
    ValueRange results;
    for (Operation &op : func.getBody().front()) {
      if (isa<arith::ConstantOp>(op))
        continue;
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        results = ret.getOperands();
        continue;
      }
      if (isReshape(&op)) {
        auto it = graph.tensorOf.find(op.getOperand(0));
        if (it == graph.tensorOf.end())
          return op.emitOpError("reshapes a value that is not a model tensor");
        graph.tensorOf[op.getResult(0)] = it->second;
        continue;
      }
      auto layer = dyn_cast<LayerOpInterface>(op);
      if (!layer)
        return op.emitOpError("is not a vmcu layer; run "
                              "--convert-tosa-to-vmcu before vmcu-tile");
      FailureOr<ChainLayer> placed = readLayer(layer, graph.tensorOf);
      if (failed(placed))
        return failure();
      placed->int8WeightCycles = analysis::estimateInt8WeightCycles(
          widenedWeightWork(layer), flashWaitStates);
      placed->outputTensor = graph.tensorBytes.size();
      placed->name = layerName(&op, graph.layers.size());
      graph.tensorOf[op.getResult(0)] = graph.tensorBytes.size();
      graph.tensorBytes.push_back(bytesOf(op.getResult(0)));
      graph.layers.push_back(std::move(*placed));
    }
    if (graph.layers.empty())
      return func.emitOpError("has no vmcu layers to tile");
    for (const ChainLayer &layer : graph.layers)
      for (Operation *user : layer.op->getResult(0).getUsers())
        if (!isReshape(user) && !isa<LayerOpInterface, func::ReturnOp>(user))
          return user->emitOpError("uses a layer output outside the graph "
                                   "of layers");
    return readResults(func, results, graph);
  }

  /// Records which tensors `results` return; checks that each is a layer
  /// output returned once and that every tensor is read or returned (the
  /// planner frees a tensor at its last reader: one nobody reads would
  /// stay live and unplaced).
  LogicalResult readResults(func::FuncOp func, ValueRange results,
                            ModelGraph &graph) {
    llvm::SmallBitVector isUsed(graph.tensorBytes.size());
    for (const ChainLayer &layer : graph.layers)
      for (unsigned t : layer.operandTensors)
        isUsed.set(t);
    for (auto [j, result] : llvm::enumerate(results)) {
      auto it = graph.tensorOf.find(result);
      if (it == graph.tensorOf.end() || it->second < graph.numInputs)
        return func.emitOpError("result #")
               << j << " must be the output of a layer";
      if (llvm::is_contained(graph.results, it->second))
        return func.emitOpError("result #")
               << j << " returns a tensor already returned";
      graph.results.push_back(it->second);
      isUsed.set(it->second);
    }
    for (unsigned i = 0; i < graph.numInputs; ++i)
      if (!isUsed.test(i))
        return func.emitOpError("input #") << i << " is never read";
    for (const ChainLayer &layer : graph.layers)
      if (!isUsed.test(layer.outputTensor))
        return layer.op->emitOpError(
            "has an output no layer reads; vmcu-tile places graphs whose "
            "every layer feeds a result (remove the dead layer)");
    return success();
  }

  LogicalResult tileFunction(ModuleOp module, func::FuncOp func) {
    ModelGraph graph;
    if (failed(readGraph(func, graph)))
      return failure();
    MutableArrayRef<ChainLayer> chain = graph.layers;
    ArrayRef<int64_t> tensorBytes = graph.tensorBytes;
    const DenseMap<Value, unsigned> &tensorOf = graph.tensorOf;

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
        total += fused.getPoolWorkspaceBytes() / unit;

    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = func.getLoc();
    auto invoke = func::FuncOp::create(b, loc, "vmcu_invoke",
                                       b.getFunctionType({}, {b.getI32Type()}));
    b.setInsertionPointToStart(invoke.addEntryBlock());
    auto poolType = PoolType::get(&getContext(), total, unit);
    Value pool =
        SegmentPoolOp::create(b, loc, poolType, b.getI64IntegerAttr(8));

    SmallVector<TensorBaseOp> bases;
    unsigned numInputs = graph.numInputs;
    for (auto [i, bytes] : llvm::enumerate(tensorBytes)) {
      std::string name = i >= numInputs   ? chain[i - numInputs].name
                         : numInputs == 1 ? std::string("input")
                                          : "input_" + std::to_string(i);
      auto base = TensorBaseOp::create(
          b, loc, b.getIndexType(), pool, b.getStringAttr(name),
          b.getI64IntegerAttr(bytes / unit), IntegerAttr());
      if (i < numInputs)
        base.setModelIO(model_abi::kIOInput, i);
      bases.push_back(base);
    }
    for (auto [j, t] : llvm::enumerate(graph.results))
      bases[t].setModelIO(model_abi::kIOOutput, j);
    SmallVector<Value> baseValues(bases.begin(), bases.end());

    // A tensor is freed by its last reader; until then it stays live (and
    // counts for the tensor-level planner). Results live to the end.
    SmallVector<unsigned> lastReader(tensorBytes.size(), 0);
    for (auto [k, layer] : llvm::enumerate(chain))
      for (unsigned t : layer.operandTensors)
        lastReader[t] = k;
    for (unsigned t : graph.results)
      lastReader[t] = chain.size();
    // The largest kernel's stack buffers: what any kernel may spend on the
    // stack without raising the plan's stack (kernelStackBytes: on two
    // cores a stem's line buffer is a global, not stack).
    int64_t maxStack = 0;
    for (const auto &layer : chain)
      maxStack = std::max(
          maxStack, kernelStackBytes(layer.op, layer.segmentBytes, cores));
    llvm::SmallBitVector keepsInt8 = int8ByDefault(chain);
    for (auto [k, layer] : llvm::enumerate(chain)) {
      bool widen = widenWeights &&
                   !listsKernel(int8WeightKernels, layer.name) &&
                   !keepsInt8.test(k);
      tile::KernelEnv env{module, pool, unit, layer.name, windowCache, widen};
      layer.compactByRule = compactByDefault(layer, widen);
      env.compactCode =
          listsKernel(compactKernels, layer.name) || layer.compactByRule;
      env.longRows = longRowTiling(layer.op);
      env.stackAllowanceBytes =
          maxStack - kernelStackBytes(layer.op, layer.segmentBytes, cores);
      env.cores = cores;
      env.cyclesPerFlashByte = widenCyclesPerByte;
      int64_t alsoLiveBytes = 0;
      unsigned counted = tensorOf.lookup(layer.op.getActivationInput());
      for (unsigned t = 0; t < layer.outputTensor; ++t)
        if (t != counted && lastReader[t] >= k)
          alsoLiveBytes += tensorBytes[t];
      if (failed(emitLayerKernel(b, env, layer, k, baseValues, lastReader,
                                 tensorLevelBytes(layer.op) + alsoLiveBytes)))
        return failure();
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    func::ReturnOp::create(b, loc, zero);
    func.erase();
    return success();
  }
  /// The vmcu.kernel of `layer` (the k-th), reading and writing `bases`;
  /// it frees each tensor it is the last reader of.
  LogicalResult emitLayerKernel(OpBuilder &b, tile::KernelEnv &env,
                                ChainLayer &layer, unsigned k,
                                ArrayRef<Value> bases,
                                ArrayRef<unsigned> lastReader,
                                int64_t tensorLevel) {
    SmallVector<Value> inputs = {bases[layer.inputTensor]};
    for (unsigned t : layer.otherTensors)
      inputs.push_back(bases[t]);
    Value workspace;
    auto fused = dyn_cast<BottleneckOp>(layer.op.getOperation());
    if (fused && fused.getPoolWorkspaceBytes() > 0)
      workspace = TensorBaseOp::create(
          b, layer.op->getLoc(), b.getIndexType(), env.pool,
          b.getStringAttr(layer.name + "_line_buffer"),
          b.getI64IntegerAttr(fused.getPoolWorkspaceBytes() / env.unitBytes),
          IntegerAttr());
    auto kernel =
        KernelOp::create(b, layer.op->getLoc(), b.getStringAttr(layer.name),
                         inputs, bases[layer.outputTensor], workspace);
    kernel.setSegmentBytes(layer.segmentBytes);
    kernel.setTensorLevelBytes(tensorLevel);
    kernel.setLayer(layer.op->getName().stripDialect());
    analysis::KernelWork work = layerWork(layer.op, layer.segmentBytes);
    kernel.setSchedule(analysis::kindName(work.kind));
    kernel.setMacs(layerMacs(layer.op));
    kernel.setExecutedMacs(work.macs);
    kernel.setRingAccesses(work.ringAccesses);
    int64_t cycles = analysis::estimateCycles(work);
    kernel.setEstimatedCycles(cycles);
    // What compact code would add; nothing where it is already the rule.
    kernel.setCompactCycles(
        layer.compactByRule ? 0 : analysis::estimateCompactCycles(cycles));
    if (layer.int8WeightCycles)
      kernel.setInt8WeightCycles(layer.int8WeightCycles);
    kernel.setStackBytes(
        kernelScratchBytes(layer.op, layer.segmentBytes, cores));
    if (auto conv = dyn_cast<Conv2DOp>(layer.op.getOperation());
        conv && conv.getGlobalAvgPoolAttr())
      kernel.setAccumulates(true);
    if (!env.widenWeights && layer.widenedExtraBytes > 0)
      kernel.setInt8Weights(true);
    kernel.setCompact(env.compactCode);

    tile::KernelTensors tensors{bases[layer.inputTensor],
                                bases[layer.outputTensor]};
    tensors.workspace = workspace;
    if (!layer.otherTensors.empty() && !isa<ConcatOp>(layer.op)) {
      tensors.skip = bases[layer.otherTensors.front()];
      tensors.skipIsLhs = layer.skipIsLhs;
    }
    for (unsigned t : layer.operandTensors)
      tensors.operands.push_back(bases[t]);
    for (Value input : inputs)
      if (lastReader[llvm::find(bases, input) - bases.begin()] != k)
        tensors.keptAlive.push_back(input);
    Block &body = kernel.getBody().emplaceBlock();
    OpBuilder kb = OpBuilder::atBlockBegin(&body);
    return tile::emitKernel(kb, env, layer.op, layer.segmentBytes, tensors);
  }
};

} // namespace

} // namespace mlir::vmcu
