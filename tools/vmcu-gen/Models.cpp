//===- Models.cpp - The model kinds vmcu-gen generates --------------------===//
//
// Each kind is a short composition of LayerBuilder layers. The MCUNet chain
// follows Table 2 of the vMCU paper (MCUNet-5fps-VWW, S1-S8) and bridges the
// rows whose shapes do not connect with the smallest legal layers.
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::gen;

namespace {

/// Shape options above this are rejected: they would only make huge files.
constexpr int64_t kMaxDim = 4096;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Checks that `--name` is in [1, kMaxDim].
llvm::Error checkDim(llvm::StringRef name, int64_t value) {
  if (value < 1 || value > kMaxDim)
    return makeError(llvm::formatv("--{0} must be in [1, {1}], got {2}", name,
                                   kMaxDim, value));
  return llvm::Error::success();
}

llvm::Error
checkDims(std::initializer_list<std::pair<llvm::StringRef, int64_t>> dims) {
  for (const auto &[name, value] : dims)
    if (llvm::Error err = checkDim(name, value))
      return err;
  return llvm::Error::success();
}

/// pw 1x1 expand (+ReLU6) -> dw RxR (+ReLU6) -> pw 1x1 project [+ input],
/// as in MobileNetV2; `strides` are the three convs' strides.
llvm::Expected<Act> buildBottleneck(LayerBuilder &lb, llvm::StringRef name,
                                    const Act &in, int64_t cmid, int64_t cout,
                                    int64_t kernel,
                                    const std::array<int64_t, 3> &strides,
                                    bool residual) {
  llvm::Expected<Act> expand =
      lb.conv2d((name + " expand").str(), in, cmid, 1, strides[0],
                Padding::Same, Activation::Relu6);
  if (!expand)
    return expand.takeError();
  llvm::Expected<Act> dw =
      lb.depthwiseConv2d((name + " depthwise").str(), *expand, kernel,
                         strides[1], Padding::Same, Activation::Relu6);
  if (!dw)
    return dw.takeError();
  llvm::Expected<Act> project =
      lb.conv2d((name + " project").str(), *dw, cout, 1, strides[2],
                Padding::Same, Activation::None);
  if (!project || !residual)
    return project;
  return lb.add((name + " residual").str(), *project, in);
}

/// One row of the vMCU paper's Table 2 (all strides 1,1,1).
struct ChainRow {
  const char *name;
  int64_t hw, cin, cmid, cout, kernel;
};

/// MCUNet-5fps-VWW's inverted bottlenecks S1-S8.
constexpr ChainRow kVwwRows[] = {
    {"S1", 20, 16, 48, 16, 3},  {"S2", 20, 16, 48, 16, 3},
    {"S3", 10, 24, 144, 16, 3}, {"S4", 10, 24, 120, 24, 3},
    {"S5", 5, 40, 240, 40, 3},  {"S6", 5, 48, 192, 48, 3},
    {"S7", 3, 96, 480, 96, 3},  {"S8", 3, 96, 384, 96, 3},
};

/// Bridges `x` to the input shape of `row`: a 3x3 stride-2 depthwise conv
/// (padding same, ReLU6) when H/W halves, then a linear 1x1 conv when the
/// channel count changes.
llvm::Expected<Act> connect(LayerBuilder &lb, Act x, const ChainRow &row) {
  std::string name = (llvm::Twine("connector to ") + row.name).str();
  if (x.getType().getDimSize(1) != row.hw) {
    llvm::Expected<Act> dw = lb.depthwiseConv2d(
        name + " depthwise", x, 3, 2, Padding::Same, Activation::Relu6);
    if (!dw)
      return dw.takeError();
    if (dw->getType().getDimSize(1) != row.hw)
      return makeError(name + ": a stride-2 depthwise conv does not reach " +
                       llvm::Twine(row.hw));
    x = *dw;
  }
  if (x.getType().getDimSize(3) != row.cin) {
    llvm::Expected<Act> pw = lb.conv2d(name + " pointwise", x, row.cin, 1, 1,
                                       Padding::Same, Activation::None);
    if (!pw)
      return pw.takeError();
    x = *pw;
  }
  return x;
}

llvm::Expected<Act> buildMcunetVwwChain(LayerBuilder &lb, Act x) {
  for (const ChainRow &row : kVwwRows) {
    llvm::Expected<Act> in = connect(lb, x, row);
    if (!in)
      return in.takeError();
    llvm::Expected<Act> out =
        buildBottleneck(lb, row.name, *in, row.cmid, row.cout, row.kernel,
                        {1, 1, 1}, /*residual=*/row.cin == row.cout);
    if (!out)
      return out.takeError();
    x = *out;
  }
  return x;
}

/// A DenseNet/Inception-style block, a graph rather than a chain: the input
/// feeds a 1x1 and a 3x3 conv of `cmid` channels each, the two branches and
/// the input itself are concatenated along the channels, and a 1x1 conv
/// brings them to `cout`.
llvm::Expected<Act> buildConcatBlock(LayerBuilder &lb, const Act &x,
                                     int64_t cmid, int64_t cout) {
  llvm::Expected<Act> narrow = lb.conv2d("concat branch 1x1", x, cmid, 1, 1,
                                         Padding::Same, Activation::Relu6);
  if (!narrow)
    return narrow.takeError();
  llvm::Expected<Act> wide = lb.conv2d("concat branch 3x3", x, cmid, 3, 1,
                                       Padding::Same, Activation::Relu6);
  if (!wide)
    return wide.takeError();
  Act joined = lb.concatChannels({*narrow, *wide, x});
  return lb.conv2d("concat projection", joined, cout, 1, 1, Padding::Same,
                   Activation::None);
}

/// An up- and down-scaling pair as TOSA writes them: tosa.resize 2x up with
/// TFLite's half-pixel parameters (scale 4/2, offset -1, border 1), a 3x3
/// conv, tosa.resize 2x down (scale 1/2, border -1), a 1x1 conv.
llvm::Expected<Act> buildResizeBlock(LayerBuilder &lb, const Act &x,
                                     int64_t c) {
  constexpr int64_t kHalfPixelUp[] = {4, 2, 4, 2}, kHalfPixelOffset[] = {-1, -1},
                    kHalfPixelBorder[] = {1, 1};
  constexpr int64_t kDown[] = {1, 2, 1, 2}, kDownOffset[] = {0, 0},
                    kDownBorder[] = {-1, -1};
  Act up = lb.resizeNearest(x, kHalfPixelUp, kHalfPixelOffset, kHalfPixelBorder);
  llvm::Expected<Act> mixed = lb.conv2d("resize conv 3x3", up, c, 3, 1,
                                        Padding::Same, Activation::Relu6);
  if (!mixed)
    return mixed.takeError();
  Act down = lb.resizeNearest(*mixed, kDown, kDownOffset, kDownBorder);
  return lb.conv2d("resize projection", down, c, 1, 1, Padding::Same,
                   Activation::None);
}

/// Range checks that do not depend on the layer arithmetic.
llvm::Error checkSpec(const ModelSpec &spec) {
  if (spec.kind == Kind::ConvPool && spec.pool < 0)
    return llvm::createStringError("--pool must be 0 (a global pool) or "
                                   "positive, got " +
                                   std::to_string(spec.pool));
  switch (spec.kind) {
  case Kind::Conv:
  case Kind::ConvPool:
    return checkDims({{"h", spec.h},
                      {"w", spec.w},
                      {"cin", spec.cin},
                      {"cout", spec.cout},
                      {"kernel", spec.kernel},
                      {"stride", spec.stride}});
  case Kind::Depthwise:
  case Kind::AvgPool:
    return checkDims({{"h", spec.h},
                      {"w", spec.w},
                      {"c", spec.c},
                      {"kernel", spec.kernel},
                      {"stride", spec.stride}});
  case Kind::FullyConnected:
    return checkDims({{"m", spec.m}, {"k", spec.k}, {"n", spec.n}});
  case Kind::Add:
    return checkDims({{"h", spec.h}, {"w", spec.w}, {"c", spec.c}});
  case Kind::Bottleneck: {
    if (llvm::Error err = checkDims({{"h", spec.h},
                                     {"w", spec.w},
                                     {"cin", spec.cin},
                                     {"cmid", spec.cmid},
                                     {"cout", spec.cout},
                                     {"kernel", spec.kernel},
                                     {"strides", spec.strides[0]},
                                     {"strides", spec.strides[1]},
                                     {"strides", spec.strides[2]}}))
      return err;
    bool unitStrides = spec.strides == std::array<int64_t, 3>{1, 1, 1};
    if (spec.residual && (spec.cin != spec.cout || !unitStrides))
      return makeError(llvm::formatv(
          "--residual needs --cin == --cout and --strides=1,1,1, got cin {0}, "
          "cout {1}, strides {2},{3},{4}",
          spec.cin, spec.cout, spec.strides[0], spec.strides[1],
          spec.strides[2]));
    return llvm::Error::success();
  }
  case Kind::McunetVwwChain:
    return llvm::Error::success();
  case Kind::Resize:
    return checkDims({{"h", spec.h}, {"w", spec.w}, {"c", spec.c}});
  case Kind::Concat:
    return checkDims({{"h", spec.h},
                      {"w", spec.w},
                      {"cin", spec.cin},
                      {"cmid", spec.cmid},
                      {"cout", spec.cout}});
  }
  llvm_unreachable("unknown kind");
}

llvm::Expected<Act> buildBody(LayerBuilder &lb, const ModelSpec &spec,
                              const Act &x) {
  switch (spec.kind) {
  case Kind::Conv:
    return lb.conv2d("conv", x, spec.cout, spec.kernel, spec.stride,
                     spec.padding, Activation::None);
  case Kind::Depthwise:
    return lb.depthwiseConv2d("depthwise", x, spec.kernel, spec.stride,
                              spec.padding, Activation::None);
  case Kind::FullyConnected:
    return lb.fullyConnected("fc", x, spec.n);
  case Kind::Add: {
    // One input: add it to a ReLU6'd 1x1 conv of itself (a residual block).
    llvm::Expected<Act> branch = lb.conv2d("add branch", x, spec.c, 1, 1,
                                           Padding::Same, Activation::Relu6);
    if (!branch)
      return branch.takeError();
    return lb.add("add", *branch, x);
  }
  case Kind::AvgPool:
    return lb.avgPool2d("avgpool", x, spec.kernel, spec.stride, spec.padding);
  case Kind::ConvPool: {
    llvm::Expected<Act> conv =
        lb.conv2d("conv", x, spec.cout, spec.kernel, spec.stride, spec.padding,
                  Activation::Relu6);
    if (!conv)
      return conv.takeError();
    if (spec.pool > 0)
      return lb.avgPool2d("pool", *conv, spec.pool, spec.pool, Padding::Valid);
    return lb.globalAvgPool(*conv);
  }
  case Kind::Bottleneck:
    return buildBottleneck(lb, "bottleneck", x, spec.cmid, spec.cout,
                           spec.kernel, spec.strides, spec.residual);
  case Kind::McunetVwwChain:
    return buildMcunetVwwChain(lb, x);
  case Kind::Concat:
    return buildConcatBlock(lb, x, spec.cmid, spec.cout);
  case Kind::Resize:
    return buildResizeBlock(lb, x, spec.c);
  }
  llvm_unreachable("unknown kind");
}

} // namespace

llvm::StringRef mlir::vmcu::gen::kindName(Kind kind) {
  switch (kind) {
  case Kind::Conv:
    return "conv";
  case Kind::Depthwise:
    return "depthwise";
  case Kind::FullyConnected:
    return "fc";
  case Kind::Add:
    return "add";
  case Kind::AvgPool:
    return "avgpool";
  case Kind::Bottleneck:
    return "bottleneck";
  case Kind::McunetVwwChain:
    return "mcunet-vww-chain";
  case Kind::Concat:
    return "concat";
  case Kind::Resize:
    return "resize";
  case Kind::ConvPool:
    return "conv-pool";
  }
  llvm_unreachable("unknown kind");
}

std::optional<Kind> mlir::vmcu::gen::parseKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Kind>>(name)
      .Case("conv", Kind::Conv)
      .Case("depthwise", Kind::Depthwise)
      .Case("fc", Kind::FullyConnected)
      .Case("add", Kind::Add)
      .Case("avgpool", Kind::AvgPool)
      .Case("bottleneck", Kind::Bottleneck)
      .Case("mcunet-vww-chain", Kind::McunetVwwChain)
      .Case("concat", Kind::Concat)
      .Case("resize", Kind::Resize)
      .Case("conv-pool", Kind::ConvPool)
      .Default(std::nullopt);
}

SmallVector<int64_t> mlir::vmcu::gen::inputShape(const ModelSpec &spec) {
  switch (spec.kind) {
  case Kind::Conv:
  case Kind::ConvPool:
  case Kind::Bottleneck:
  case Kind::Concat:
    return {1, spec.h, spec.w, spec.cin};
  case Kind::Depthwise:
  case Kind::Add:
  case Kind::AvgPool:
  case Kind::Resize:
    return {1, spec.h, spec.w, spec.c};
  case Kind::FullyConnected:
    return {1, spec.m, spec.k};
  case Kind::McunetVwwChain:
    return {1, kVwwRows[0].hw, kVwwRows[0].hw, kVwwRows[0].cin};
  }
  llvm_unreachable("unknown kind");
}

llvm::Expected<func::FuncOp>
mlir::vmcu::gen::buildModel(ModuleOp module, const ModelSpec &spec, Rng &rng) {
  if (llvm::Error err = checkSpec(spec))
    return std::move(err);

  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  Location loc = b.getUnknownLoc();
  auto inType = RankedTensorType::get(inputShape(spec), b.getI8Type());
  auto func =
      func::FuncOp::create(b, loc, "main", b.getFunctionType({inType}, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  // The input zero point is anywhere in int8; the data is uniform int8.
  auto zp = static_cast<int32_t>(rng.uniformInt(-128, 127));
  Act x{entry->getArgument(0), zp, uniformInputStats(zp)};
  LayerBuilder lb(b, loc, rng);
  llvm::Expected<Act> y = buildBody(lb, spec, x);
  if (!y) {
    func.erase();
    return y.takeError();
  }
  func::ReturnOp::create(b, loc, y->value);
  func.setFunctionType(b.getFunctionType({inType}, {y->getType()}));
  return func;
}
