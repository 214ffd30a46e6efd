//===- TFLiteImporter.cpp - .tflite to int8 TOSA 1.0 ----------------------===//
//
// Walks the first subgraph's operators in order and builds each with
// TosaBuilder, reproducing TFLite's integer arithmetic: per-channel
// requantisation (QuantizeMultiplier, DOUBLE_ROUND), the add's 2^20
// headroom, fused activations as clamps. A PAD is folded into the
// convolution it feeds; a strided window's unread tail becomes a slice.
//
// This file holds the walk: the flatbuffer's tensors and constants, their
// quantisation, the operators the outputs depend on, the model's edges,
// the per-operator dispatch and the `import-tflite` translation. The
// operators' importers are in Import*.cpp (see Importer.h).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tflite;

namespace {
/// Operand references (inputs + outputs over all operators) accepted. Real
/// models have a few per operator; the cap keeps a malformed file whose
/// operators share one huge operand vector from costing quadratic time.
constexpr uint64_t kMaxOperandRefs = uint64_t(1) << 22;
} // namespace

const char *mlir::vmcu::tflite::builtinName(int32_t code) {
  switch (code) {
#define VMCU_TFLITE_BUILTIN(Enumerator, Code, Name)                            \
  case Code:                                                                   \
    return Name;
#include "Builtins.def"
  default:
    return "builtin operator";
  }
}

std::string mlir::vmcu::supportedTFLiteOperators() {
  SmallVector<StringRef> names = {
#define VMCU_TFLITE_BUILTIN(Enumerator, Code, Name) Name,
#include "Builtins.def"
  };
  llvm::sort(names);
  return llvm::join(names, ", ");
}

bool mlir::vmcu::isTFLiteFile(llvm::ArrayRef<uint8_t> bytes) {
  constexpr size_t kLength = sizeof(kFileIdentifier) - 1;
  return bytes.size() >= kFileIdentifierOffset + kLength &&
         std::memcmp(bytes.data() + kFileIdentifierOffset, kFileIdentifier,
                     kLength) == 0;
}

LogicalResult Importer::readOperatorCodes(Table model) {
  std::optional<Vector> codes = model.vector(model::kOperatorCodes);
  if (!codes)
    return malformed("bad operator_codes");
  for (uint32_t i = 0; i < codes->size(); ++i) {
    std::optional<Table> code = codes->table(i);
    if (!code)
      return malformed("bad operator code ") << i;
    std::optional<int8_t> deprecated =
        code->scalar<int8_t>(operator_code::kDeprecatedBuiltinCode, 0);
    std::optional<int32_t> builtin =
        code->scalar<int32_t>(operator_code::kBuiltinCode, 0);
    if (!deprecated || !builtin)
      return malformed("bad operator code ") << i;
    // Old files only set the deprecated byte; new ones set both.
    opCodes.push_back(std::max<int32_t>(*deprecated, *builtin));
  }
  return success();
}

LogicalResult Importer::readTensors(Table subgraph) {
  std::optional<Vector> list = subgraph.vector(subgraph::kTensors);
  if (!list)
    return malformed("bad tensor list");
  for (uint32_t i = 0; i < list->size(); ++i) {
    std::optional<Table> t = list->table(i);
    if (!t)
      return malformed("bad tensor ") << i;
    TensorInfo info;
    std::optional<Vector> shape = t->vector(tensor::kShape);
    std::optional<SmallVector<int32_t>> dims;
    if (shape)
      dims = shape->scalars<int32_t>();
    std::optional<int8_t> type = t->scalar<int8_t>(tensor::kType, 0);
    std::optional<uint32_t> bufferIndex =
        t->scalar<uint32_t>(tensor::kBuffer, 0);
    std::optional<llvm::StringRef> name = t->string(tensor::kName);
    if (!dims || !type || !bufferIndex || !name)
      return malformed("bad tensor ") << i;
    info.shape.assign(dims->begin(), dims->end());
    info.type = *type;
    info.buffer = *bufferIndex;
    info.name = name->str();
    if (t->has(tensor::kQuantization)) {
      std::optional<Table> q = t->table(tensor::kQuantization);
      std::optional<Vector> scales, zps;
      if (q) {
        scales = q->vector(quantization::kScale);
        zps = q->vector(quantization::kZeroPoint);
      }
      std::optional<SmallVector<float>> s;
      std::optional<SmallVector<int64_t>> z;
      if (scales && zps) {
        s = scales->scalars<float>();
        z = zps->scalars<int64_t>();
      }
      if (!s || !z)
        return malformed("bad quantization of tensor '") << info.name << "'";
      info.scales = std::move(*s);
      info.zeroPoints = std::move(*z);
    }
    tensors.push_back(std::move(info));
  }
  values.resize(tensors.size());
  return success();
}

FailureOr<llvm::ArrayRef<uint8_t>> Importer::constantData(int32_t index) {
  const TensorInfo &t = tensors[index];
  std::optional<Table> buf =
      buffers ? buffers->table(t.buffer) : std::optional<Table>();
  if (!buf)
    return opError() << "tensor '" << t.name << "' names buffer " << t.buffer
                     << ", which does not exist";
  std::optional<uint64_t> offset = buf->scalar<uint64_t>(buffer::kOffset, 0);
  if (!offset)
    return opError() << "bad buffer " << t.buffer;
  if (*offset > 1)
    return opError() << "tensor '" << t.name
                     << "' keeps its data outside the flatbuffer; vmcu reads "
                        "only buffers stored inline";
  std::optional<Vector> data = buf->vector(buffer::kData);
  std::optional<llvm::ArrayRef<uint8_t>> bytes;
  if (data)
    bytes = data->bytes<uint8_t>();
  if (!bytes)
    return opError() << "buffer " << t.buffer << " of tensor '" << t.name
                     << "' is truncated";
  return *bytes;
}

template <typename T>
FailureOr<SmallVector<T>> Importer::constant(int32_t index, int64_t count,
                                             tflite::TensorType type,
                                             StringRef typeName) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "omits a required " << typeName << " constant";
  const TensorInfo &t = tensors[index];
  if (t.type != static_cast<int8_t>(type))
    return opError() << "tensor '" << t.name << "' must be " << typeName
                     << " (TFLite type " << int(t.type) << ")";
  FailureOr<llvm::ArrayRef<uint8_t>> data = constantData(index);
  if (failed(data))
    return failure();
  uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  if (bytes > kMaxConstantBytes || data->size() != bytes)
    return opError() << "tensor '" << t.name << "' must be a constant of "
                     << count << " " << typeName << " values, it has "
                     << data->size() << " bytes";
  SmallVector<T> values(count);
  std::memcpy(values.data(), data->data(), bytes);
  return values;
}

FailureOr<SmallVector<int8_t>> Importer::constantI8(int32_t index,
                                                    int64_t count) {
  return constant<int8_t>(index, count, tflite::TensorType::Int8, "int8");
}

FailureOr<SmallVector<int32_t>> Importer::constantI32(int32_t index,
                                                      int64_t count) {
  return constant<int32_t>(index, count, tflite::TensorType::Int32, "int32");
}

FailureOr<SmallVector<int32_t>> Importer::optionalBias(ArrayRef<int32_t> in,
                                                       int64_t channels) {
  if (in.size() > 2 && in[2] >= 0)
    return constantI32(in[2], channels);
  return SmallVector<int32_t>(channels, 0);
}

LogicalResult Importer::activationQuant(int32_t index, double &scale,
                                        int32_t &zp) {
  const TensorInfo &t = tensors[index];
  if (t.type != static_cast<int8_t>(tflite::TensorType::Int8))
    return opError() << "tensor '" << t.name << "' is not int8 (TFLite type "
                     << int(t.type)
                     << "); vmcu compiles fully int8-quantised models";
  if (t.scales.size() != 1 || t.zeroPoints.size() != 1 ||
      !(t.scales[0] > 0.0f) || !std::isfinite(t.scales[0]))
    return opError() << "activation '" << t.name
                     << "' needs one positive scale and one zero point";
  if (t.zeroPoints[0] < kInt8Min || t.zeroPoints[0] > kInt8Max)
    return opError() << "activation '" << t.name << "' has zero point "
                     << t.zeroPoints[0] << ", outside int8";
  scale = t.scales[0];
  zp = static_cast<int32_t>(t.zeroPoints[0]);
  return success();
}

FailureOr<RankedTensorType> Importer::activationType(int32_t index) {
  const TensorInfo &t = tensors[index];
  if (t.shape.empty() || !boundedElements(t.shape, kMaxTensorElements))
    return opError() << "tensor '" << t.name
                     << "' needs a static, positive shape of at most "
                     << kMaxTensorElements << " elements";
  return RankedTensorType::get(t.shape, builder.getI8Type());
}

FailureOr<QuantValue> Importer::activation(int32_t index) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "operand tensor " << index << " does not exist";
  if (!values[index])
    return opError() << "operand '" << tensors[index].name
                     << "' is a constant or not yet computed; vmcu expects "
                        "activations here";
  return *values[index];
}

FailureOr<QuantValue> Importer::inputActivation(ArrayRef<int32_t> in,
                                                size_t min, size_t max,
                                                const Twine &what) {
  if (in.size() < min || in.size() > max)
    return opError() << "expects " << what;
  return activation(in[0]);
}

LogicalResult Importer::checkShape(int32_t index,
                                   llvm::ArrayRef<int64_t> shape) {
  if (llvm::ArrayRef<int64_t>(tensors[index].shape) == shape)
    return success();
  auto diag = opError() << "output '" << tensors[index].name
                        << "' is declared with shape [";
  llvm::interleaveComma(tensors[index].shape, diag);
  diag << "] but the operator computes [";
  llvm::interleaveComma(shape, diag);
  return diag << "]";
}

FailureOr<Value> Importer::applyActivation(Value y, int8_t act, double scale,
                                           int32_t zp) {
  FailureOr<std::pair<int64_t, int64_t>> range =
      activationRange(act, scale, zp);
  if (failed(range))
    return failure();
  auto [lo, hi] = *range;
  if (lo == kInt8Min && hi == kInt8Max)
    return y;
  return tosa.clamp(y, lo, hi);
}

FailureOr<std::pair<int64_t, int64_t>>
Importer::activationRange(int8_t act, double scale, int32_t zp) {
  // TFLite's CalculateActivationRangeQuantized divides in float.
  auto quantize = [&](double real) {
    return zp + static_cast<int64_t>(std::round(static_cast<float>(real) /
                                                static_cast<float>(scale)));
  };
  int64_t lo = kInt8Min, hi = kInt8Max;
  // The byte comes from the file: switch on it, not on the enum.
  using tflite::Activation;
  switch (act) {
  case static_cast<int8_t>(Activation::None):
    break;
  case static_cast<int8_t>(Activation::Relu):
    lo = std::max(lo, quantize(0.0));
    break;
  case static_cast<int8_t>(Activation::Relu6):
    lo = std::max(lo, quantize(0.0));
    hi = std::min(hi, quantize(kRelu6Max));
    break;
  case static_cast<int8_t>(Activation::ReluN1To1):
    lo = std::max(lo, quantize(-kReluN1To1Bound));
    hi = std::min(hi, quantize(kReluN1To1Bound));
    break;
  default:
    return opError() << "fused activation " << int(act)
                     << " is not supported (NONE, RELU, RELU_N1_TO_1, RELU6)";
  }
  if (lo > hi)
    return opError() << "the fused activation's range is empty at scale "
                     << scale << ", zero point " << zp;
  return std::make_pair(lo, hi);
}

LogicalResult Importer::importOperator(Table op, const OperatorRefs &refs) {
  opCode = refs.code;
  const SmallVector<int32_t> *in = &refs.inputs;
  if (refs.outputs.size() != 1)
    return malformed("operator #") << opIndex << " must have one output";
  const SmallVector<int32_t> *out = &refs.outputs;
  int32_t result = (*out)[0];
  outputName = tensors[result].name;
  tosa.setLoc(
      NameLoc::get(StringAttr::get(context, tensors[result].name), fileLoc));

  switch (static_cast<Builtin>(opCode)) {
  case Builtin::Conv2D:
    return importConv(op, *in, result, /*depthwise=*/false);
  case Builtin::DepthwiseConv2D:
    return importConv(op, *in, result, /*depthwise=*/true);
  case Builtin::FullyConnected:
    return importFullyConnected(op, *in, result);
  case Builtin::Add:
  case Builtin::Sub:
  case Builtin::Mul: {
    FailureOr<bool> scalar =
        importWithScalar(op, *in, result, static_cast<Builtin>(opCode));
    if (failed(scalar))
      return failure();
    if (*scalar)
      return success();
    auto code = static_cast<Builtin>(opCode);
    if (code == Builtin::Add || code == Builtin::Sub)
      return importAdd(op, *in, result, code == Builtin::Sub);
    // A per-channel constant is a 1x1 depthwise, cheaper than a broadcast.
    FailureOr<bool> channel = importChannelMul(op, *in, result);
    if (failed(channel))
      return failure();
    if (*channel)
      return success();
    return importMul(op, *in, result);
  }
  case Builtin::AveragePool2D:
    return importPool(op, *in, result, /*max=*/false);
  case Builtin::MaxPool2D:
    return importPool(op, *in, result, /*max=*/true);
  case Builtin::Reshape:
  case Builtin::Squeeze:
  case Builtin::ExpandDims:
    // The output tensor declares the shape; the bytes do not move.
    return importReshape(*in, result);
  case Builtin::Pad:
    return importPad(*in, result);
  case Builtin::Softmax:
    return importSoftmax(op, *in, result);
  case Builtin::Concatenation:
    return importConcatenation(op, *in, result);
  case Builtin::Slice:
    return importSlice(op, *in, result, /*strided=*/false);
  case Builtin::Transpose:
    return importTranspose(*in, result);
  case Builtin::ResizeNearestNeighbor:
    return importResizeNearest(op, *in, result);
  case Builtin::StridedSlice:
    return importSlice(op, *in, result, /*strided=*/true);
  case Builtin::Mean:
    return importMean(op, *in, result);
  case Builtin::Dequantize:
    return opError() << "a DEQUANTIZE to float32 is supported only as the "
                        "model's last operator (a float output edge)";
  case Builtin::Relu:
  case Builtin::Relu6:
  case Builtin::LeakyRelu:
  case Builtin::Quantize:
  case Builtin::Logistic:
  case Builtin::Tanh:
  case Builtin::HardSwish:
    return importElementwise(op, *in, result,
                             static_cast<Builtin>(opCode));
  }
  return opError() << "is not supported (builtin code " << opCode
                   << "); vmcu imports " << supportedTFLiteOperators()
                   << " (DEQUANTIZE and QUANTIZE from or to float32 only at "
                      "the model's edges)";
}

LogicalResult Importer::readOperators() {
  uint64_t operandRefs = 0;
  readers.resize(tensors.size());
  for (uint32_t i = 0; i < operators->size(); ++i) {
    std::optional<Table> op = operators->table(i);
    std::optional<uint32_t> index =
        op ? op->scalar<uint32_t>(op::kOpcodeIndex, 0) : std::nullopt;
    std::optional<Vector> in = op ? op->vector(op::kInputs) : std::nullopt;
    std::optional<Vector> out = op ? op->vector(op::kOutputs) : std::nullopt;
    if (!index || !in || !out)
      return malformed("bad operator #") << i;
    if (*index >= opCodes.size())
      return malformed("operator #") << i << " names operator code " << *index
                                     << " of " << opCodes.size();
    operandRefs += uint64_t(in->size()) + out->size();
    if (operandRefs > kMaxOperandRefs)
      return malformed("more than ")
             << kMaxOperandRefs << " operand references";
    std::optional<SmallVector<int32_t>> inputs = in->scalars<int32_t>();
    std::optional<SmallVector<int32_t>> outputs = out->scalars<int32_t>();
    if (!inputs || !outputs)
      return malformed("bad operands of operator #") << i;
    auto isTensor = [&](int32_t t) {
      return t >= 0 && t < static_cast<int32_t>(tensors.size());
    };
    for (int32_t t : *outputs)
      if (!isTensor(t))
        return malformed("operator #")
               << i << " names tensor " << t << " of " << tensors.size();
    for (auto [j, t] : llvm::enumerate(*inputs)) {
      if (t == -1)
        continue; // an omitted optional operand
      if (!isTensor(t))
        return malformed("operator #")
               << i << " names tensor " << t << " of " << tensors.size();
      readers[t].emplace_back(i, static_cast<uint32_t>(j));
    }
    opRefs.push_back(
        {opCodes[*index], std::move(*inputs), std::move(*outputs)});
  }
  return success();
}

static bool isFloat32(const TensorInfo &t) {
  return t.type == static_cast<int8_t>(tflite::TensorType::Float32);
}

FailureOr<int32_t> Importer::bodyInput(int32_t input) {
  if (!isFloat32(tensors[input]))
    return input;
  const auto &uses = readers[input];
  if (uses.size() != 1 ||
      opRefs[uses[0].first].code != static_cast<int32_t>(Builtin::Quantize) ||
      opRefs[uses[0].first].outputs.size() != 1)
    return emitError(fileLoc)
           << "the model input '" << tensors[input].name
           << "' is float32 and not read by exactly one QUANTIZE; vmcu "
              "compiles the int8 body after an input QUANTIZE";
  skipped.push_back(uses[0].first);
  return opRefs[uses[0].first].outputs[0];
}

FailureOr<int32_t> Importer::bodyOutput(int32_t output) {
  if (!isFloat32(tensors[output]))
    return output;
  for (auto [i, refs] : llvm::enumerate(opRefs))
    if (llvm::is_contained(refs.outputs, output) &&
        refs.code == static_cast<int32_t>(Builtin::Dequantize) &&
        refs.inputs.size() == 1 && refs.inputs[0] >= 0) {
      skipped.push_back(i);
      return refs.inputs[0];
    }
  return emitError(fileLoc)
         << "the model output '" << tensors[output].name
         << "' is float32 and not written by a DEQUANTIZE; vmcu compiles "
            "the int8 body before an output DEQUANTIZE";
}

EdgeAttr Importer::edgeOf(int32_t index, bool isFloat) {
  const QuantValue &v = *values[index];
  return EdgeAttr::get(context,
                       builder.getF32FloatAttr(static_cast<float>(v.scale)),
                       v.zp, isFloat);
}

void Importer::markLiveOperators(ArrayRef<int32_t> outputs) {
  SmallVector<bool> needed(tensors.size(), false);
  for (int32_t output : outputs)
    needed[output] = true;
  live.assign(opRefs.size(), false);
  for (size_t i = opRefs.size(); i-- > 0;) {
    live[i] =
        llvm::any_of(opRefs[i].outputs, [&](int32_t t) { return needed[t]; });
    if (live[i])
      for (int32_t t : opRefs[i].inputs)
        if (t >= 0)
          needed[t] = true;
  }
}

FailureOr<SmallVector<int32_t>> Importer::edgeTensors(const Vector &list,
                                                      StringRef what) {
  if (list.size() == 0)
    return emitError(fileLoc) << "the model has no " << what;
  SmallVector<int32_t> result;
  for (uint32_t i = 0; i < list.size(); ++i) {
    int32_t t = list.scalar<int32_t>(i).value_or(-1);
    if (t < 0 || t >= static_cast<int32_t>(tensors.size()))
      return malformed("bad ") << what << " tensor";
    if (llvm::is_contained(result, t))
      return emitError(fileLoc) << "the model lists tensor '"
                                << tensors[t].name << "' twice as an "
                                << what;
    result.push_back(t);
  }
  return result;
}

OwningOpRef<ModuleOp> Importer::run() {
  if (!isTFLiteFile(bytes))
    return malformed("no TFL3 identifier"), nullptr;
  std::optional<Table> model = Table::root(buffer);
  if (!model || !model->isValid())
    return malformed("bad root table"), nullptr;
  std::optional<Vector> subgraphs = model->vector(model::kSubgraphs);
  if (!subgraphs || subgraphs->size() == 0)
    return malformed("no subgraph"), nullptr;
  if (subgraphs->size() != 1)
    return emitError(fileLoc) << "the model has " << subgraphs->size()
                              << " subgraphs; vmcu imports single-subgraph "
                                 "models",
           nullptr;
  buffers = model->vector(model::kBuffers);
  std::optional<Table> subgraph = subgraphs->table(0);
  if (!buffers || !subgraph)
    return malformed("bad buffers or subgraph"), nullptr;
  if (failed(readOperatorCodes(*model)) || failed(readTensors(*subgraph)))
    return nullptr;
  std::optional<Vector> inputs = subgraph->vector(subgraph::kInputs);
  std::optional<Vector> outputs = subgraph->vector(subgraph::kOutputs);
  operators = subgraph->vector(subgraph::kOperators);
  if (!inputs || !outputs || !operators)
    return malformed("bad subgraph"), nullptr;
  if (failed(readOperators()))
    return nullptr;
  FailureOr<ModelEdges> edges = readEdges(*inputs, *outputs);
  if (failed(edges))
    return nullptr;
  markLiveOperators(edges->outputs);
  for (uint32_t i : skipped)
    live[i] = false;
  return importBody(*edges);
}

FailureOr<Importer::ModelEdges> Importer::readEdges(const Vector &inputs,
                                                    const Vector &outputs) {
  FailureOr<SmallVector<int32_t>> modelInputs = edgeTensors(inputs, "input");
  FailureOr<SmallVector<int32_t>> modelOutputs =
      edgeTensors(outputs, "output");
  if (failed(modelInputs) || failed(modelOutputs))
    return failure();
  ModelEdges edges{std::move(*modelInputs), std::move(*modelOutputs)};
  if (!options.outputTensor.empty()) {
    auto named = llvm::find_if(tensors, [&](const TensorInfo &t) {
      return t.name == options.outputTensor;
    });
    if (named == tensors.end())
      return emitError(fileLoc) << "the model has no tensor named '"
                                << options.outputTensor << "'";
    edges.outputs = {static_cast<int32_t>(named - tensors.begin())};
  }
  // A float edge (QUANTIZE in, DEQUANTIZE out) only on a one-input,
  // one-output model: the header's edge functions describe one of each.
  edges.single = edges.inputs.size() == 1 && edges.outputs.size() == 1;
  for (int32_t &input : edges.inputs) {
    FailureOr<int32_t> body = edges.single ? bodyInput(input) : input;
    if (failed(body))
      return failure();
    edges.floatInput = *body != input;
    input = *body;
  }
  for (int32_t &output : edges.outputs) {
    FailureOr<int32_t> body = edges.single ? bodyOutput(output) : output;
    if (failed(body))
      return failure();
    edges.floatOutput = *body != output;
    output = *body;
  }
  return edges;
}

OwningOpRef<ModuleOp> Importer::importBody(const ModelEdges &edges) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> inTypes, outTypes;
  for (auto [list, types] : {std::pair(&edges.inputs, &inTypes),
                             std::pair(&edges.outputs, &outTypes)})
    for (int32_t t : *list) {
      // Errors about a model input or output point at its tensor.
      tosa.setLoc(
          NameLoc::get(StringAttr::get(context, tensors[t].name), fileLoc));
      FailureOr<RankedTensorType> type = activationType(t);
      if (failed(type))
        return nullptr;
      types->push_back(*type);
    }
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(inTypes, outTypes));
  builder.setInsertionPointToStart(func.addEntryBlock());
  for (auto [i, input] : llvm::enumerate(edges.inputs)) {
    double inScale;
    int32_t inZp;
    tosa.setLoc(
        NameLoc::get(StringAttr::get(context, tensors[input].name), fileLoc));
    if (failed(activationQuant(input, inScale, inZp)))
      return nullptr;
    values[input] = QuantValue{func.getArgument(i), inScale, inZp};
  }
  for (uint32_t i = 0; i < operators->size(); ++i) {
    opIndex = i;
    std::optional<Table> op = operators->table(i);
    if (!op)
      return malformed("bad operator #") << i, nullptr;
    if (live[i] && failed(importOperator(*op, opRefs[i])))
      return nullptr;
  }
  if (failed(returnOutputs(edges.outputs)))
    return nullptr;
  if (!edges.single)
    return module;
  auto *dialect = context->getLoadedDialect<VMCUDialect>();
  dialect->getInputEdgeAttrHelper().setAttr(
      *module, edgeOf(edges.inputs.front(), edges.floatInput));
  dialect->getOutputEdgeAttrHelper().setAttr(
      *module, edgeOf(edges.outputs.front(), edges.floatOutput));
  return module;
}

LogicalResult Importer::returnOutputs(ArrayRef<int32_t> outputs) {
  SmallVector<Value> results;
  for (int32_t output : outputs) {
    tosa.setLoc(
        NameLoc::get(StringAttr::get(context, tensors[output].name), fileLoc));
    if (!values[output])
      return emitError(fileLoc) << "the model output '" << tensors[output].name
                                << "' is never computed";
    if (values[output]->isPadded())
      return emitError(fileLoc) << "the model output is a PAD";
    results.push_back(values[output]->value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  return success();
}

OwningOpRef<ModuleOp>
mlir::vmcu::importTFLite(llvm::ArrayRef<uint8_t> bytes,
                         llvm::StringRef fileName, MLIRContext *context,
                         const TFLiteImportOptions &options) {
  context->loadDialect<func::FuncDialect, tosa::TosaDialect, VMCUDialect>();
  return Importer(bytes, fileName, context, options).run();
}

void mlir::vmcu::registerTFLiteImportDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, tosa::TosaDialect>();
}

void mlir::vmcu::registerTFLiteImportTranslation() {
  static llvm::cl::opt<std::string> outputTensor(
      "tflite-output",
      llvm::cl::desc("import-tflite: the tensor to return instead of the "
                     "model's output"),
      llvm::cl::value_desc("tensor"));
  static TranslateToMLIRRegistration registration(
      "import-tflite", "import an int8 .tflite model as TOSA 1.0",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *input =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        llvm::ArrayRef<uint8_t> bytes(
            reinterpret_cast<const uint8_t *>(input->getBufferStart()),
            input->getBufferSize());
        return importTFLite(bytes, input->getBufferIdentifier(), context,
                            {/*outputTensor=*/outputTensor});
      },
      registerTFLiteImportDialects);
}
