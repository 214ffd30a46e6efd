//===- LayerWork.cpp - the work of a vmcu layer's kernel ------------------===//

#include "vmcu/Transforms/LayerWork.h"

#include "vmcu/Support/TargetConstants.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <numeric>

using namespace mlir;
using namespace mlir::vmcu;
namespace an = mlir::vmcu::analysis;

namespace {

int64_t elements(Value v) {
  return cast<ShapedType>(v.getType()).getNumElements();
}

/// Output elements times the MACs each one takes.
int64_t convMacs(ShapedType output, ShapedType weight) {
  return output.getNumElements() * weight.getNumElements() /
         weight.getDimSize(0);
}

int64_t depthwiseMacs(DepthwiseConv2DOp op) {
  auto w = op.getWeight().getType();
  return elements(op.getOutput()) * w.getDimSize(0) * w.getDimSize(1);
}

/// Expansion recomputed for every tap of the depthwise window.
int64_t fusedMacs(BottleneckOp op) {
  Conv2DOp expand = op.getExpand(), project = op.getProject();
  DepthwiseConv2DOp dw = op.getDepthwise();
  auto w = dw.getWeight().getType();
  int64_t taps = w.getDimSize(0) * w.getDimSize(1);
  int64_t pixels = elements(dw.getOutput()) / w.getDimSize(2);
  int64_t cin = expand.getInput().getType().getDimSize(3);
  return pixels * taps * cin * w.getDimSize(2) + depthwiseMacs(dw) +
         convMacs(project.getConvType(), project.getWeight().getType());
}

/// Segments of `bytes` bytes each: a pixel's channels in whole segments.
int64_t segmentsOf(int64_t bytes, int64_t segmentBytes) {
  return llvm::divideCeil(bytes, segmentBytes);
}

/// Pixels (elements over the innermost extent) of `v`.
int64_t pixels(Value v) {
  auto type = cast<ShapedType>(v.getType());
  return type.getNumElements() / type.getShape().back();
}

/// The output a layer computes: its result, or a conv's plane before a
/// folded global pool averages it.
ShapedType computedOutput(LayerOpInterface layer) {
  if (auto conv = dyn_cast<Conv2DOp>(layer.getOperation()))
    return conv.getConvType();
  return cast<ShapedType>(layer->getResult(0).getType());
}

/// Ring segments a windowed layer loads: each output pixel of `output`
/// gathers its `taps` input pixels of `inC` channels.
int64_t windowLoads(ShapedType output, int64_t taps, int64_t inC, int64_t s) {
  return output.getNumElements() / output.getShape().back() * taps *
         segmentsOf(inC, s);
}

/// Ring segments a tensor's pixels take once each.
int64_t tensorSegments(Value v, int64_t s) {
  auto type = cast<ShapedType>(v.getType());
  return pixels(v) * segmentsOf(type.getShape().back(), s);
}

/// Input pixels each output pixel of a pool reads.
template <typename PoolOp> int64_t poolTaps(PoolOp op) {
  ArrayRef<int64_t> kernel = op.getKernel();
  return kernel[0] * kernel[1];
}

int64_t windowTaps(ShapedType weight, bool depthwise) {
  return depthwise ? weight.getDimSize(0) * weight.getDimSize(1)
                   : weight.getDimSize(1) * weight.getDimSize(2);
}

/// Ring segments a fused bottleneck loads and stores: its input once per
/// pixel (a line buffer, which it also stores and re-reads per tap in the
/// pool) or once per tap (recompute), and its output.
int64_t bottleneckAccesses(BottleneckOp op, int64_t s, bool lineBuffer) {
  DepthwiseConv2DOp dw = op.getDepthwise();
  Value in = op.getInput();
  int64_t cin = cast<ShapedType>(in.getType()).getShape().back();
  int64_t taps = windowTaps(dw.getWeight().getType(), /*depthwise=*/true);
  int64_t out = tensorSegments(op.getOutput(), s);
  if (op.isStem()) {
    Conv2DOp expand = op.getExpand();
    int64_t stemTaps = windowTaps(expand.getWeight().getType(), false);
    return windowLoads(expand.getConvType(), stemTaps, cin, s) + out;
  }
  if (!lineBuffer)
    return windowLoads(dw.getOutput().getType(), taps, cin, s) + out;
  // A window's channel group is one copy per tap (vmcu-coalesce-ring-accesses).
  int64_t cmid = dw.getInput().getType().getDimSize(3);
  int64_t group = lineBufferChannelGroup(cmid, s, taps, /*stem=*/false);
  return tensorSegments(in, s) + pixels(dw.getInput()) * segmentsOf(cmid, s) +
         windowLoads(dw.getOutput().getType(), taps, cmid, group) + out;
}

} // namespace

int64_t mlir::vmcu::ringAccesses(LayerOpInterface layer, int64_t s) {
  Value out = layer->getResult(0);
  int64_t stores = tensorSegments(out, s);
  return llvm::TypeSwitch<Operation *, int64_t>(layer)
      .Case([&](Conv2DOp op) {
        auto w = op.getWeight().getType();
        return windowLoads(op.getConvType(), windowTaps(w, false),
                           w.getDimSize(3), s) +
               stores;
      })
      .Case([&](DepthwiseConv2DOp op) {
        auto w = op.getWeight().getType();
        int64_t inC = op.getInput().getType().getDimSize(3);
        int64_t multiplier = w.getDimSize(2) / inC;
        // An output segment of s channels reads s / multiplier inputs.
        return windowLoads(op.getOutput().getType(), windowTaps(w, true),
                           std::max<int64_t>(inC / multiplier, 1), s) +
               stores;
      })
      .Case([&](BottleneckOp op) {
        return bottleneckAccesses(op, s, op.getLineBuffer());
      })
      .Case<AvgPool2DOp, MaxPool2DOp>([&](auto op) {
        return windowLoads(op.getOutput().getType(), poolTaps(op),
                           op.getInput().getType().getDimSize(3), s) +
               stores;
      })
      .Default([&](Operation *op) {
        int64_t loads = 0;
        for (Value operand : op->getOperands())
          if (isa<ShapedType>(operand.getType()) &&
              !matchPattern(operand, m_Constant()))
            loads += tensorSegments(operand, s);
        return loads + stores;
      });
}

/// The sum of `count` over the layers of a bottleneck's body.
static int64_t
sumOverLayers(BottleneckOp op,
              llvm::function_ref<int64_t(LayerOpInterface)> count) {
  int64_t sum = 0;
  for (Operation &inner : op.getBody().front())
    if (auto layer = dyn_cast<LayerOpInterface>(&inner))
      sum += count(layer);
  return sum;
}

int64_t mlir::vmcu::layerMacs(LayerOpInterface layer) {
  return llvm::TypeSwitch<Operation *, int64_t>(layer)
      .Case([](Conv2DOp op) {
        return convMacs(op.getConvType(), op.getWeight().getType());
      })
      .Case([](FullyConnectedOp op) {
        return convMacs(op.getOutput().getType(), op.getWeight().getType());
      })
      .Case([](DepthwiseConv2DOp op) { return depthwiseMacs(op); })
      .Case([](BatchMatMulOp op) {
        return op.getOutput().getType().getNumElements() *
               op.getLhs().getType().getDimSize(2);
      })
      .Case([](BottleneckOp op) { return sumOverLayers(op, layerMacs); })
      .Default([](Operation *) { return int64_t(0); });
}

namespace {

/// Widened weights: the widest tile the registers take, over two widened
/// rows (2 x 3) or one raw row (1 x 5; dotBlockRegisters).
constexpr int64_t kWideWeightChannels = 3;
constexpr int64_t kRawRowWideWeightChannels = 5;
static_assert(dotBlockRegisters(2, kWideWeightChannels, true) <=
              kMaxDotBlockRegisters);
static_assert(dotBlockRegisters(1, kRawRowWideWeightChannels, true) <=
              kMaxDotBlockRegisters);

/// The extra cycle of the first of back-to-back loads after other
/// instructions (Cortex-M4 TRM: LDR takes 2 cycles, 1 when pipelined).
constexpr int64_t kFirstLoadExtraCycles = 1;

/// Cycles of one half step of a `pixels` x `n` tile over widened weights
/// (docs/kernels.md, "Widened weights"): pixels + n loads back to back, an
/// unpack per raw row, and pixels x n SMLADs. 2 x 3: 12 MACs in 12 cycles;
/// 1 x 5: 10 MACs in 13.
constexpr int64_t wideHalfStepCycles(int64_t pixels, int64_t n, bool rawX) {
  if (n == 0)
    return 0;
  return (pixels + n + kFirstLoadExtraCycles) + (rawX ? pixels : 0) +
         pixels * n;
}

/// The fewest output channels for which a single raw row's tile over
/// widened weights is faster: per step 2 x wideHalfStepCycles(1, n) =
/// 4n + 6 cycles against the raw 1 x n tile's 4 + 5n (a load and two
/// unpacks of the row, a load, two unpacks and two SMLADs per channel), so
/// only from 3 channels on; 1 or 2 keep int8 weights (half the flash).
constexpr int64_t kMinRowWideWeightChannels = 3;

/// The largest output group a widened-weight GEMM stages on the stack
/// per pixel (beyond one segment).
constexpr int64_t kMaxWideGroupBytes = 48;

/// Cycles an output group costs beyond its tiles, per block of pixels: its
/// loop step and its segments' ring stores (coalesced into one store per
/// pixel where they are adjacent). Measured (M4, vmcu-prof --hot): corpus
/// MobileNetV2 seed 5's pointwise 6 -> 563 conv, 3-channel groups of
/// 1-byte segments, about 40 cycles per group and 2-pixel block.
constexpr int64_t kGroupOverheadCycles = 40;

/// Cycles of one output group of `bytes` channels over `steps` steps of 4
/// inputs: tiles of `tile` channels and one of the channels left over (two
/// half steps per step), and the group's overhead.
int64_t wideGroupCycles(int64_t bytes, int64_t steps, int64_t pixels,
                        int64_t tile, bool rawX) {
  if (bytes == 0)
    return 0;
  int64_t halfStep = bytes / tile * wideHalfStepCycles(pixels, tile, rawX) +
                     wideHalfStepCycles(pixels, bytes % tile, rawX);
  return 2 * steps * halfStep + kGroupOverheadCycles;
}

/// The largest output group, in tiles, of a single row over widened
/// weights (a fully connected layer on one vector) into more than
/// kMaxWideGroupBytes outputs: the group buffer is the kernel's stack, and
/// in a model of FC layers the largest kernel frame is most of its SRAM
/// beside an arena of a few hundred bytes. Measured (M4, vmcu-prof):
/// corpus FC autoencoder seed 1's 4 -> 206 layer, groups of 44 -> 10
/// bytes, frame 88 -> 36 bytes, +62 cycles (of 587 K); seed 4's 18 -> 82,
/// frame 56 -> 36, +298 cycles (of 329 K). Fewer outputs stay one group:
/// LLVM unrolls a group loop of a few trips, and MLPerf Tiny KWS's 64 -> 12
/// classifier in groups of 6 took 4.4 KB of code instead of 2.4.
constexpr int64_t kMaxRowGroupTiles = 2;

/// Groups of whole segments, split into tiles of `tile` channels and one
/// tile of the channels left over, Cout's last group taking the channels
/// the groups leave: the group with the fewest cycles over Cout (within
/// kMaxWideGroupBytes or one segment; for a single row (`oneRow`) into
/// more outputs, within kMaxRowGroupTiles tiles, or the first group of
/// whole segments and whole tiles if that is more; among equals, one
/// dividing Cout, which needs no second copy of the tile code, then the
/// smallest). A 1-byte stem segment into 8 outputs, 2 x 3 tiles: groups of
/// 8 (3 + 3 + 2 channels) rather than 4 (3 + 1, twice). A row into 283
/// outputs (a prime) of 1-byte segments, 1 x 5 tiles: groups of 10 and a
/// last one of 3, where groups dividing Cout were 1-channel tiles.
int64_t widenedWeightGroup(int64_t outC, int64_t segmentBytes, int64_t steps,
                           int64_t pixels, int64_t tile, bool rawX,
                           bool oneRow) {
  int64_t best = segmentBytes, bestCycles = 0;
  bool bestDivides = false;
  // A row's groups stay whole tiles where the segments allow: 8-byte
  // segments take groups of 40 (eight 1 x 5 tiles), not 8 (a 1 x 5 and a
  // slower 1 x 3).
  int64_t limit = kMaxWideGroupBytes;
  if (oneRow && outC > kMaxWideGroupBytes)
    limit = std::min(limit, std::max(kMaxRowGroupTiles * tile,
                                     std::lcm(segmentBytes, tile)));
  limit = std::max(limit, segmentBytes);
  for (int64_t group = segmentBytes; group <= std::min(outC, limit);
       group += segmentBytes) {
    int64_t cycles =
        outC / group * wideGroupCycles(group, steps, pixels, tile, rawX) +
        wideGroupCycles(outC % group, steps, pixels, tile, rawX);
    bool divides = outC % group == 0;
    if (!bestCycles || cycles < bestCycles ||
        (cycles == bestCycles && divides && !bestDivides))
      best = group, bestCycles = cycles, bestDivides = divides;
  }
  return best;
}

} // namespace

namespace {

/// Two rows of a GEMM block are staged on the stack: at most this many
/// bytes each, so a block's buffers stay below a 7x7 depthwise window of
/// 16-byte segments (the largest stack buffer of the fused plans); longer
/// ones only in a conv2d with `paired_rows`.
constexpr int64_t kMaxPairRowBytes = 256;

/// With `paired_rows`, longer rows pair widened (2 x 2 tiles over int8
/// weights: each weight word unpacked once for both pixels, 19 cycles per
/// 16 MACs where a raw 1 x 4 tile takes 24) up to this many bytes: 6 bytes
/// of stack per row byte (two raw rows, two widened).
constexpr int64_t kMaxWidenedPairRowBytes = 1024;

/// The largest window a conv gathers into one im2col row (one pixel per
/// block past kMaxPairRowBytes) rather than running 4-lane dot rows over
/// its segments.
/// Measured (M4 cycles, vmcu-prof, 12x12 SAME convs): 3x3 40->48 (8-byte
/// segments) 0.338 -> 0.578 MAC/cycle, 3x3 30->30 0.418 -> 0.491, 5x5
/// 16->32 0.568 -> 0.590, 3x3 64->64 0.613 -> 0.608. An odd count of output
/// channels, once 1-wide tiles (3x3 47->47 0.413 -> 0.386), now takes 4-wide
/// tiles and one of the rest: corpus ResNet seed 5's 3x3 57->57 0.44 ->
/// 0.60. The row costs its bytes of stack.
constexpr int64_t kMaxIm2colWindowBytes = 1024;

/// The largest step dividing `span` (the dense kernel's extent - 1) for
/// which `zeroOffGrid(step)` holds; 1 if none does.
int64_t largestZeroStep(int64_t span, function_ref<bool(int64_t)> zeroOffGrid) {
  for (int64_t step = span; step > 1; --step)
    if (span % step == 0 && zeroOffGrid(step))
      return step;
  return 1;
}

/// The bytes of a conv's im2col row: the taps it gathers, rounded up to
/// the lanes.
int64_t windowRowBytes(Conv2DOp conv) {
  GatheredTaps taps = gatheredTaps(conv);
  int64_t cin = conv.getWeight().getType().getDimSize(3);
  return llvm::alignTo(taps.rows * taps.cols * cin, kDotLanes);
}

/// The taps a conv's kernel runs: those it gathers where they fit an
/// im2col row, every tap where its segments take the 4-lane dot rows
/// (usesIm2col), which run the dense window.
GatheredTaps runTaps(Conv2DOp conv) {
  if (windowRowBytes(conv) <= kMaxIm2colWindowBytes)
    return gatheredTaps(conv);
  auto w = conv.getWeight().getType();
  return GatheredTaps{1, 1, w.getDimSize(1), w.getDimSize(2)};
}

/// The MACs of `conv` over the taps its kernel runs (runTaps).
int64_t runMacs(Conv2DOp conv) {
  GatheredTaps taps = runTaps(conv);
  auto w = conv.getWeight().getType();
  return convMacs(conv.getConvType(), w) * taps.rows * taps.cols /
         (w.getDimSize(1) * w.getDimSize(2));
}

/// A conv's GEMM rows: how many (a GEMM's output pixels; an im2col conv's
/// block of a row's) and the bytes of each.
struct GemmRows {
  int64_t rows;
  int64_t rowBytes;
};

GemmRows convGemmRows(Conv2DOp conv) {
  auto out = conv.getConvType();
  auto w = conv.getWeight().getType();
  if (isGemmLayer(cast<LayerOpInterface>(conv.getOperation())))
    return {out.getNumElements() / out.getDimSize(3),
            static_cast<int64_t>(llvm::alignTo(w.getDimSize(3), kDotLanes))};
  return {out.getDimSize(2), windowRowBytes(conv)};
}

} // namespace

namespace {

/// The longest rows that widen whatever the reuse: the limit of the first
/// widened tiles (docs/kernels.md, "Widened rows").
constexpr int64_t kMaxShortRowBytes = kMaxPairRowBytes / 2;

/// The fewest output pixels each weight must serve for long rows to take
/// widened weights. Widening adds a flash byte per weight and saves about
/// a third of a cycle per MAC (raw 2 x 2 tiles 21 cycles per 16 MACs,
/// widened 2 x 3 12 per 12), so about P / 3 cycles per byte over P pixels.
/// Measured (M4, vmcu-prof, vmcuc --report): MCUNet-5fps-VWW's long-row
/// layers serve 9 to 25 pixels per weight, 1.1% of its cycles for 111 KB
/// more flash; corpus DS-CNN seed 1's 142 -> 142 convs 221 pixels, 17% of
/// its cycles for 72 KB.
constexpr int64_t kMinLongRowWeightReuse = 64;

/// Cycles `paired_rows` saves: one per this many MACs. The inner loops go
/// from 24 to 19 cycles per 16 MACs (raw 1 x 4 tiles to widened 2 x 2), or
/// from 13 per 10 to 12 per 12 (1 x 5 to 2 x 3 over widened weights), less
/// the rows' widening. Measured (M4, vmcu-prof): corpus ResNet seed 2's
/// 3x3 convs over 450- and 756-byte windows saved 0.19 cycles per MAC, its
/// 272-byte ones (widened weights) 0.16.
constexpr int64_t kMacsPerPairedRowsCycleSaved = 6;

/// The weights (elements) of `layer`'s convolutions and products.
int64_t weightElements(LayerOpInterface layer) {
  return llvm::TypeSwitch<Operation *, int64_t>(layer)
      .Case<Conv2DOp, DepthwiseConv2DOp, FullyConnectedOp>(
          [](auto op) { return op.getWeight().getType().getNumElements(); })
      .Case([](BottleneckOp op) { return sumOverLayers(op, weightElements); })
      .Default([](Operation *) { return int64_t(0); });
}

} // namespace

bool mlir::vmcu::widensLongRows(LayerOpInterface layer) {
  int64_t weights = weightElements(layer);
  return layerMacs(layer) >= kMinLongRowWeightReuse * weights;
}

LongRowTiling mlir::vmcu::longRowTiling(LayerOpInterface layer) {
  auto conv = dyn_cast<Conv2DOp>(layer.getOperation());
  return {widensLongRows(layer), conv && conv.getPairedRows()};
}

bool mlir::vmcu::hasPairableLongRows(LayerOpInterface layer) {
  auto conv = dyn_cast<Conv2DOp>(layer.getOperation());
  if (!conv)
    return false;
  auto [rows, rowBytes] = convGemmRows(conv);
  return rows >= kIm2colBlockPixels && rowBytes > kMaxPairRowBytes &&
         rowBytes <= kMaxWidenedPairRowBytes;
}

int64_t mlir::vmcu::pairedRowsSavedCycles(LayerOpInterface layer) {
  return layerMacs(layer) / kMacsPerPairedRowsCycleSaved;
}

/// Tiles of int8 weights `widths` channels wide (the first that fits the
/// register budget and an output group): groups of whole segments dividing
/// Cout, then (with `oddGroups`) odd channel counts, then groups of a tile,
/// the last one short.
static std::optional<GemmTileShape>
int8TileShape(ArrayRef<int64_t> widths, bool oddGroups, int64_t pixels,
              int64_t outC, int64_t segmentBytes, int64_t rowStride,
              bool widened, bool paired) {
  auto fits = [&](int64_t n) {
    return dotBlockRegisters(pixels, n, /*widenedWeights=*/false, paired) <=
           kMaxDotBlockRegisters;
  };
  for (int64_t n : widths) {
    int64_t group = std::lcm(segmentBytes, n);
    if (outC % group == 0 && fits(n))
      return GemmTileShape{pixels, n, rowStride, group, widened};
  }
  // Odd channel counts: the smallest group of whole segments dividing Cout
  // that is wider than a tile (at most kMaxWideGroupBytes unless one
  // segment is more), in tiles of n and one of the channels left over.
  // Measured (M4, vmcu-prof): corpus DS-CNN seed 5's 139 -> 139 pointwise
  // convs, 1-channel tiles at 0.51 MAC/cycle, now 0.68.
  int64_t limit = std::max(segmentBytes, kMaxWideGroupBytes);
  for (int64_t n : oddGroups ? widths : ArrayRef<int64_t>()) {
    if (!fits(n))
      continue;
    for (int64_t group = segmentBytes; group <= std::min(outC, limit);
         group += segmentBytes)
      if (outC % group == 0 && group > n)
        return GemmTileShape{pixels, n, rowStride, group, widened};
  }
  // No group of whole segments both divides Cout and holds a tile (a prime
  // count of 1-byte segments): groups of a tile, the last one short.
  for (int64_t n : widths) {
    int64_t group = std::lcm(segmentBytes, n);
    if (fits(n) && group < outC)
      return GemmTileShape{pixels, n, rowStride, group, widened};
  }
  return std::nullopt;
}

GemmTileShape mlir::vmcu::gemmTileShape(int64_t rows, int64_t inC, int64_t outC,
                                        int64_t segmentBytes, bool widenWeights,
                                        LongRowTiling longRows,
                                        bool pairedWeights, bool allowSixWide) {
  bool widenLongRows = longRows.widenWeights;
  // Two rows are staged widened to int16 pairs (twice their bytes more
  // stack); long ones only with widenLongRows. Measured (M4, vmcu-prof):
  // rows of 129 to 256 bytes were kept raw (2 x 2 int8 tiles); widened,
  // corpus DS-CNN seed 1's 142 -> 142 pointwise convs take 5.15 M cycles
  // instead of 6.64 M each.
  int64_t rowStride = llvm::alignTo(inC, kDotLanes);
  bool longRow = rowStride > kMaxShortRowBytes;
  // Rows past kMaxPairRowBytes pair only widened: unpacking each weight
  // word once for two pixels is what makes a pair pay for its stack.
  bool veryLongRow = rowStride > kMaxPairRowBytes;
  int64_t pairLimit =
      longRows.pairVeryLong ? kMaxWidenedPairRowBytes : kMaxPairRowBytes;
  int64_t pixels = rows > 1 && rowStride <= pairLimit ? 2 : 1;
  bool widened = pixels == 2 && (!longRow || widenLongRows || veryLongRow);
  bool wideWeightPair = widened && (!longRow || widenLongRows);
  // Widened weights where the rows are widened too, or over a single raw
  // row (no weight word is reused there: unpacking it was pure overhead)
  // of enough channels: a fully connected layer's one row, or rows too long
  // to pair. Measured (M4, vmcu-prof): corpus ResNet seed 5's 3x3 30 -> 30
  // convs (272-byte im2col rows), raw 1 x 4 tiles 8.66 M cycles, 1 x 5 over
  // widened weights 6.17 M.
  bool wideRow = pixels == 1 && outC >= kMinRowWideWeightChannels &&
                 (rows == 1 || widenLongRows);
  if (widenWeights && (wideWeightPair || wideRow) && outC % segmentBytes == 0) {
    bool rawX = !widened;
    int64_t tile = rawX ? kRawRowWideWeightChannels : kWideWeightChannels;
    return {pixels,
            tile,
            rowStride,
            widenedWeightGroup(outC, segmentBytes, rowStride / kDotLanes,
                               pixels, tile, rawX, /*oneRow=*/rows == 1),
            widened,
            /*widenedWeights=*/true};
  }
  // A single pixel per pass shares each input word only among the tile's
  // channels: 4-channel tiles in groups of a tile, the last one short, make
  // the fewest narrower tiles. Measured (M4, vmcu-prof): corpus FC
  // autoencoder seed 6's 216 -> 162 and 162 -> 327 layers went from 1 x 2
  // tiles (1.95 and 2.20 cycles per MAC) to 1.68 and 1.76, its 327 -> 245
  // from groups of 5 (a 1 x 4 and a 1 x 1 tile, 1.79) to 1.61.
  // Over paired weights, 1 x 6 tiles where a group is one tile (segments
  // dividing 6): 29 cycles per step of 24 MACs against 20 per 16, and a
  // third fewer tiles to set up and requantize. Groups of several tiles
  // add a loop whose state LLVM spills beside the 13-register block.
  // allowSixWide is false where their code does not pay
  // (GemmTiles::chooseShape).
  bool takeSixWide = allowSixWide && pairedWeights &&
                     std::lcm(segmentBytes, kOneRowPairedTileChannels) ==
                         kOneRowPairedTileChannels;
  if (pixels == 1)
    if (auto shape = int8TileShape(
            {takeSixWide ? kOneRowPairedTileChannels : kOneRowInt8TileChannels},
            /*oddGroups=*/false, pixels, outC, segmentBytes, rowStride, widened,
            pairedWeights))
      return *shape;
  // Paired weights over two rows take 4-channel tiles in half steps (15
  // cycles per 16 MACs, pairedHalfStepWeightWords, against 19 for a 2 x 2
  // tile), so a Cout that 4 does not divide takes them in odd or short
  // groups before 2-channel ones.
  // Measured (M4, cmsis-anchor): corpus DS-CNN seed 1's 142 -> 142
  // pointwise convs, 5.55 M cycles each in 2 x 2 tiles (1.245 per MAC),
  // now 5.21 M (1.170); the model 22.40 M -> 21.16 M cycles for 5.2 KB
  // more flash (GemmTiles::runsRarely keeps the narrow last tile compact).
  if (pixels == 2 && pairedWeights && pairedHalfSteps(pixels, kDotLanes))
    if (auto shape =
            int8TileShape({kDotLanes}, /*oddGroups=*/true, pixels, outC,
                          segmentBytes, rowStride, widened, pairedWeights))
      return *shape;
  if (auto shape =
          int8TileShape({4, 2}, /*oddGroups=*/true, pixels, outC, segmentBytes,
                        rowStride, widened, pairedWeights))
    return *shape;
  return {pixels, 1, rowStride, segmentBytes, widened};
}

/// The largest steps off which no tap of the kr x kc grid `weighted`
/// (row-major: whether the tap has a nonzero weight) is weighted.
static GatheredTaps stepsOverWeightedTaps(ArrayRef<bool> weighted, int64_t kr,
                                          int64_t kc) {
  // Whether every tap (r, t) for which `skipped` holds is unweighted.
  auto skipsNothing = [&](function_ref<bool(int64_t, int64_t)> skipped) {
    for (int64_t tap = 0; tap < kr * kc; ++tap)
      if (weighted[tap] && skipped(tap / kc, tap % kc))
        return false;
    return true;
  };
  GatheredTaps taps;
  taps.rowStep = largestZeroStep(kr - 1, [&](int64_t step) {
    return skipsNothing([&](int64_t r, int64_t) { return r % step != 0; });
  });
  taps.colStep = largestZeroStep(kc - 1, [&](int64_t step) {
    return skipsNothing([&](int64_t, int64_t t) { return t % step != 0; });
  });
  taps.rows = (kr - 1) / taps.rowStep + 1;
  taps.cols = (kc - 1) / taps.colStep + 1;
  return taps;
}

/// gatheredTaps of weights `w` whose element `at` belongs to tap
/// `tapOf(at)` of a kr x kc window.
static GatheredTaps gatheredTapsOf(ArrayRef<int8_t> w, int64_t kr, int64_t kc,
                                   function_ref<int64_t(int64_t)> tapOf) {
  SmallVector<bool> weighted(kr * kc, false);
  for (int64_t at = 0, e = w.size(); at < e; ++at)
    if (w[at] != 0)
      weighted[tapOf(at)] = true;
  return stepsOverWeightedTaps(weighted, kr, kc);
}

/// The int8 weights of a windowed layer whose taps may be gathered: none
/// for a 1 x 1 window, weights that are not an int8 constant or are a
/// splat (whose taps are all zero or none is), or a layer of a fused
/// bottleneck (whose kernel runs every tap).
static std::optional<ArrayRef<int8_t>>
gatherableWeights(Operation *layer, Value weights, int64_t kr, int64_t kc) {
  DenseIntElementsAttr attr;
  if ((kr == 1 && kc == 1) ||
      isa_and_present<BottleneckOp>(layer->getParentOp()) ||
      !matchPattern(weights, m_Constant(&attr)) || attr.isSplat() ||
      !attr.getElementType().isInteger(8))
    return std::nullopt;
  ArrayRef<char> raw = attr.getRawData();
  return ArrayRef<int8_t>(reinterpret_cast<const int8_t *>(raw.data()),
                          raw.size());
}

GatheredTaps mlir::vmcu::gatheredTaps(Conv2DOp conv) {
  auto type = conv.getWeight().getType();
  int64_t kr = type.getDimSize(1), kc = type.getDimSize(2);
  int64_t cin = type.getDimSize(3);
  if (auto w = gatherableWeights(conv, conv.getWeight(), kr, kc))
    return gatheredTapsOf(
        *w, kr, kc, [&](int64_t at) { return at % (kr * kc * cin) / cin; });
  return GatheredTaps{1, 1, kr, kc};
}

GatheredTaps mlir::vmcu::gatheredTaps(DepthwiseConv2DOp depthwise) {
  auto type = depthwise.getWeight().getType();
  int64_t kr = type.getDimSize(0), kc = type.getDimSize(1);
  // [R][S][C*M][1]: each tap's weights are contiguous.
  int64_t perTap = type.getNumElements() / (kr * kc);
  if (auto w = gatherableWeights(depthwise, depthwise.getWeight(), kr, kc))
    return gatheredTapsOf(*w, kr, kc, [&](int64_t at) { return at / perTap; });
  return GatheredTaps{1, 1, kr, kc};
}

bool mlir::vmcu::usesIm2col(LayerOpInterface layer, int64_t segmentBytes) {
  auto conv = dyn_cast<Conv2DOp>(layer.getOperation());
  if (!conv || isGemmLayer(layer))
    return false;
  return segmentBytes < kDotLanes ||
         windowRowBytes(conv) <= kMaxIm2colWindowBytes;
}

bool mlir::vmcu::isGemmLayer(LayerOpInterface layer) {
  if (isa<FullyConnectedOp>(layer))
    return true;
  auto conv = dyn_cast<Conv2DOp>(layer.getOperation());
  if (!conv)
    return false;
  auto w = conv.getWeight().getType();
  return w.getDimSize(1) == 1 && w.getDimSize(2) == 1 &&
         llvm::all_of(conv.getStride(), [](int64_t v) { return v == 1; }) &&
         llvm::all_of(conv.getPad(), [](int64_t v) { return v == 0; });
}

/// The channel groups a stem's depthwise part may take, largest first:
/// whole blocks of vmcu.depthwise_block's 4 lanes up to an ordinary
/// depthwise layer's 16-byte segment, then 2 and 1 for odd channel counts.
constexpr int64_t kStemChannelGroups[] = {16, 8, 4, 2, 1};

int64_t mlir::vmcu::stemChannelGroup(int64_t cmid) {
  for (int64_t group : kStemChannelGroups)
    if (cmid % group == 0)
      return group;
  llvm_unreachable("1 divides every channel count");
}

/// The stack a line-buffer bottleneck's depthwise window may take when it
/// gathers channel groups wider than narrow ring segments. MobileNetV2
/// seed 1009's 35-channel 3x3 block (1-byte segments) on the M4: groups of
/// 1 (9 B) 4.19 M cycles, of 7 (63 B) 3.05 M, of 35 (315 B) 2.32 M.
constexpr int64_t kMaxLineBufferWindowBytes = 512;

int64_t mlir::vmcu::lineBufferChannelGroup(int64_t cmid, int64_t segmentBytes,
                                           int64_t taps, bool stem) {
  if (stem)
    return stemChannelGroup(cmid);
  if (segmentBytes % kDotLanes == 0)
    return segmentBytes;
  // Whole blocks first, then the widest.
  auto rank = [](int64_t group) {
    return std::make_pair(group % kDotLanes == 0, group);
  };
  int64_t best = segmentBytes;
  for (int64_t group = segmentBytes;
       group <= cmid && taps * group <= kMaxLineBufferWindowBytes;
       group += segmentBytes)
    if (cmid % group == 0 && rank(group) > rank(best))
      best = group;
  return best;
}

int64_t mlir::vmcu::avgPoolSumBytes(int64_t lanes, int64_t windowTaps) {
  int64_t words = lanes / kDotLanes;
  int64_t bytes = (2 * words + lanes % kDotLanes) * kWordBytes;
  if (windowTaps > kInt16SumTerms)
    bytes += words * kDotLanes * kWordBytes;
  return bytes;
}

namespace {

/// The GEMM tiles of a line-buffer bottleneck's expansion and projection,
/// as LineBufferEmitter makes them, the pixels of a row the expansion
/// computes (a stem's: a row of B, in blocks of im2col rows; else the
/// input's row at once) and the bytes of the depthwise window of one
/// channel group (lineBufferChannelGroup).
struct LineBufferTiles {
  GemmTileShape expand, project;
  int64_t expandWidth, windowBytes;
};

LineBufferTiles lineBufferTiles(BottleneckOp op, int64_t segmentBytes,
                                LongRowTiling longRows) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  auto dw = op.getDepthwise().getWeight().getType();
  int64_t cmid = dw.getDimSize(2), taps = dw.getDimSize(0) * dw.getDimSize(1);
  GemmTileShape project =
      gemmTileShape(op.getProjectPixels(), cmid, out.getDimSize(3),
                    segmentBytes, /*widenWeights=*/true, longRows);
  if (!op.isStem())
    return {gemmTileShape(in.getDimSize(2), in.getDimSize(3), cmid,
                          segmentBytes, /*widenWeights=*/true, longRows),
            project, in.getDimSize(2),
            taps * lineBufferChannelGroup(cmid, segmentBytes, taps,
                                          /*stem=*/false)};
  auto w1 = op.getExpand().getWeight().getType();
  int64_t window = w1.getNumElements() / w1.getDimSize(0);
  int64_t midW = op.getExpand().getOutput().getType().getDimSize(2);
  int64_t group = stemChannelGroup(cmid);
  return {gemmTileShape(std::min(kIm2colBlockPixels, midW), window, cmid, group,
                        /*widenWeights=*/true, longRows),
          project, midW, taps * group};
}

/// The stack buffers of a line-buffer bottleneck's kernel
/// (LineBufferEmitter): the expansion's input (a stem's column) rows and
/// outputs, the window of one channel group, the projection's rows and
/// outputs, the output (and residual) segments; a stem's line buffer.
int64_t lineBufferScratchBytes(BottleneckOp op, int64_t segmentBytes,
                               LongRowTiling longRows) {
  LineBufferTiles tiles = lineBufferTiles(op, segmentBytes, longRows);
  int64_t bytes = tiles.expand.scratchBytes() + tiles.windowBytes +
                  tiles.project.scratchBytes();
  if (op.isStem())
    return bytes + op.getLineBufferBytes() + segmentBytes;
  return bytes + 2 * segmentBytes;
}

/// The stack buffers of `layer`'s own kernel.
int64_t layerScratchBytes(LayerOpInterface layer, int64_t segmentBytes) {
  constexpr int64_t kAccBytes = 4;
  int64_t s = segmentBytes;
  LongRowTiling longRows = longRowTiling(layer);
  return llvm::TypeSwitch<Operation *, int64_t>(layer)
      .Case([&](DepthwiseConv2DOp op) {
        // The window, each segment's lanes repeated M times, and one
        // output segment.
        auto w = op.getWeight().getType();
        return w.getDimSize(0) * w.getDimSize(1) * s * op.getDepthMultiplier() +
               s;
      })
      .Case([&](BottleneckOp op) {
        if (!op.isStem() && !op.getLineBuffer()) {
          int64_t cout = op.getOutput().getType().getDimSize(3);
          return cout * kAccBytes + 2 * kAccBytes + 2 * s;
        }
        return lineBufferScratchBytes(op, s, longRows);
      })
      .Case<AddOp, MulOp>([&](Operation *op) {
        // Three segments, and the channels of each per-channel operand
        // staged once (as emitBinary reads them).
        int64_t bytes = 3 * s;
        for (Value operand : op->getOperands())
          if (isStagedBinaryOperand(operand, op->getResult(0).getType()))
            bytes += cast<ShapedType>(operand.getType()).getNumElements();
        return bytes;
      })
      .Case([&](BatchMatMulOp op) {
        // As emitBatchMatMul allocates them: the staged rhs [N, K], the
        // lhs row, a segment, the row's sums and outputs, the zero-point
        // term.
        int64_t k = op.getLhs().getType().getDimSize(2);
        int64_t n = op.getRhs().getType().getDimSize(2);
        return n * k + k + s + n * kAccBytes + n + kAccBytes;
      })
      .Case([&](AvgPool2DOp op) {
        // As emitAvgPool allocates them: the sums, a tap's segment and a
        // segment of averages.
        return avgPoolSumBytes(s, poolTaps(op)) + 2 * s;
      })
      .Case<ConcatOp, SliceOp, TransposeOp, ResizeNearestOp>(
          [&](Operation *) { return s; })
      .Case([&](SoftmaxOp op) {
        // The row being normalised.
        auto type = op.getInput().getType();
        return type.getDimSize(type.getRank() - 1);
      })
      .Default([&](Operation *op) {
        if (isGemmLayer(layer)) {
          // The block's input rows and outputs; a single row is read in
          // place (TileGemm.cpp), only its outputs staged.
          ShapedType out = computedOutput(layer);
          int64_t outC = out.getDimSize(out.getRank() - 1);
          int64_t inC = cast<ShapedType>(op->getOperand(0).getType())
                            .getDimSize(out.getRank() - 1);
          int64_t rows = out.getNumElements() / outC;
          GemmTileShape shape =
              gemmTileShape(rows, inC, outC, s, true, longRows);
          return rows == 1 ? shape.groupBytes : shape.scratchBytes();
        }
        // An im2col conv stages its windows and output groups as GEMM
        // tiles; 4-lane dot rows keep a segment of sums and two of bytes.
        if (!usesIm2col(layer, s))
          return s * (kAccBytes + 2);
        auto w = cast<ShapedType>(op->getOperand(1).getType());
        ShapedType out = computedOutput(layer);
        return gemmTileShape(std::min(kIm2colBlockPixels, out.getDimSize(2)),
                             windowRowBytes(cast<Conv2DOp>(op)),
                             w.getDimSize(0), s, true, longRows)
            .scratchBytes();
      });
}

} // namespace

int64_t mlir::vmcu::kernelScratchBytes(LayerOpInterface layer,
                                       int64_t segmentBytes, int64_t cores) {
  // A folded residual ADD stages the residual's segment and the sums'; a
  // folded global pool keeps an int32 sum per channel and stages a
  // segment of averages; so does a folded window pool, for one window.
  auto conv = dyn_cast<Conv2DOp>(layer.getOperation());
  int64_t epilogueBytes = 0;
  if (conv && conv.getResidual())
    epilogueBytes = 2 * segmentBytes;
  if (conv && conv.hasFoldedPool())
    epilogueBytes =
        conv.getConvType().getDimSize(3) * kWordBytes + segmentBytes;
  int64_t twoCoreBytes =
      cores > 1 ? twoCoreRemainderScratchBytes(layer, segmentBytes).total() : 0;
  return layerScratchBytes(layer, segmentBytes) + epilogueBytes + twoCoreBytes;
}

bool mlir::vmcu::splitsLastBlock(int64_t extent, int64_t pixels) {
  return pixels > 1 && extent % pixels == 0 && extent / pixels % 2 == 1;
}

int64_t mlir::vmcu::kernelStackBytes(LayerOpInterface layer,
                                     int64_t segmentBytes, int64_t cores) {
  int64_t bytes = kernelScratchBytes(layer, segmentBytes, cores);
  auto stem = dyn_cast<BottleneckOp>(layer.getOperation());
  if (cores > 1 && stem && stem.isStem() && stem.getLineBuffer())
    bytes -= stem.getLineBufferBytes();
  return bytes;
}

TwoCoreRemainderBytes
mlir::vmcu::twoCoreRemainderScratchBytes(LayerOpInterface layer,
                                         int64_t segmentBytes) {
  auto op = dyn_cast<BottleneckOp>(layer.getOperation());
  if (!op || !op.getLineBuffer())
    return {};
  LineBufferTiles tiles =
      lineBufferTiles(op, segmentBytes, longRowTiling(layer));
  TwoCoreRemainderBytes bytes;
  if (tiles.expandWidth % tiles.expand.pixels != 0)
    bytes.expand = tiles.expand.scratchBytes();
  // The output segment, and the residual's.
  int64_t segments = op.getResidual() ? 2 : 1;
  if (op.getOutput().getType().getDimSize(2) % tiles.project.pixels != 0)
    bytes.project = tiles.windowBytes + tiles.project.scratchBytes() +
                    segments * segmentBytes;
  return bytes;
}

int64_t mlir::vmcu::twoCoreLastBlockScratchBytes(LayerOpInterface layer,
                                                 int64_t segmentBytes) {
  // A stem expands its rows in blocks of im2col rows, a block at a time.
  auto op = dyn_cast<BottleneckOp>(layer.getOperation());
  if (!op || op.isStem() || !op.getLineBuffer())
    return 0;
  // The output rows keep their pairs: computing the last pair pixel by
  // pixel grew LLVM's frame of MCUNet-5fps-VWW's block 4 from 2,000 to
  // 3,440 bytes, far beyond its buffers, for 0.75% of its makespan.
  LineBufferTiles tiles =
      lineBufferTiles(op, segmentBytes, longRowTiling(layer));
  return splitsLastBlock(tiles.expandWidth, tiles.expand.pixels)
             ? tiles.expand.scratchBytes()
             : 0;
}

bool mlir::vmcu::isStagedBinaryOperand(Value operand, Type out) {
  auto type = cast<ShapedType>(operand.getType());
  return type != out && !matchPattern(operand, m_Constant()) &&
         type.getRank() > 0 && type.getNumElements() == type.getShape().back();
}

an::KernelWork mlir::vmcu::layerWork(LayerOpInterface layer,
                                     int64_t segmentBytes) {
  int64_t outputs = computedOutput(layer).getNumElements();
  an::KernelWork work{an::KernelKind::Elementwise, layerMacs(layer), outputs,
                      ringAccesses(layer, segmentBytes)};
  // A pool's work is its window's accumulations (or comparisons).
  llvm::TypeSwitch<Operation *>(layer).Case<AvgPool2DOp, MaxPool2DOp>(
      [&](auto pool) { work.macs = outputs * poolTaps(pool); });
  if (isa<AvgPool2DOp>(layer))
    work.kind = an::KernelKind::AvgPool;
  else if (isGemmLayer(layer))
    work.kind = an::KernelKind::Gemm;
  else if (isa<BatchMatMulOp>(layer))
    work.kind = an::KernelKind::Dot;
  else if (isa<Conv2DOp, FullyConnectedOp>(layer) &&
           usesIm2col(layer, segmentBytes)) {
    work.kind = an::KernelKind::Im2col;
    work.macs = runMacs(cast<Conv2DOp>(layer.getOperation()));
  } else if (isa<Conv2DOp, FullyConnectedOp>(layer))
    work.kind = an::KernelKind::Dot;
  else if (auto depthwise = dyn_cast<DepthwiseConv2DOp>(layer.getOperation())) {
    work.kind = an::KernelKind::Depthwise;
    GatheredTaps taps = gatheredTaps(depthwise);
    auto w = depthwise.getWeight().getType();
    work.macs = depthwiseMacs(depthwise) * taps.rows * taps.cols /
                (w.getDimSize(0) * w.getDimSize(1));
  } else if (auto fused = dyn_cast<BottleneckOp>(layer.getOperation()))
    return bottleneckWork(fused, segmentBytes, fused.getLineBuffer());
  return work;
}

an::WidenedWeightWork mlir::vmcu::widenedWeightWork(LayerOpInterface layer) {
  an::WidenedWeightWork work;
  if (auto fused = dyn_cast<BottleneckOp>(layer.getOperation())) {
    // Its 1x1 convs are GEMMs over the expanded pixels.
    work.gemmMacs =
        layerMacs(fused.getExpand()) + layerMacs(fused.getProject());
    work.depthwiseOutputs = elements(fused.getDepthwise().getOutput());
  } else if (isa<DepthwiseConv2DOp>(layer)) {
    work.depthwiseOutputs = computedOutput(layer).getNumElements();
  } else if (isa<Conv2DOp, FullyConnectedOp>(layer)) {
    if (isGemmLayer(layer))
      work.gemmMacs = layerMacs(layer);
    else
      work.im2colMacs = runMacs(cast<Conv2DOp>(layer.getOperation()));
  }
  return work;
}

/// The bytes a depthwise layer's records add per channel over its int8
/// weights, bias and bounded requantization words.
static int64_t depthwiseRecordExtraBytes(DepthwiseConv2DOp op) {
  auto w = op.getWeight().getType();
  GatheredTaps gathered = gatheredTaps(op);
  int64_t taps = gathered.rows * gathered.cols;
  int64_t recordBytesPerChannel = DepthwiseBlockOp::recordWords(taps) *
                                  kWordBytes / DepthwiseBlockOp::kLanes;
  int64_t int8BytesPerChannel =
      taps + DepthwiseBlockOp::kLaneWords * kWordBytes;
  int64_t channels = w.getDimSize(2) * w.getDimSize(3);
  return std::max<int64_t>(0, recordBytesPerChannel - int8BytesPerChannel) *
         channels;
}

/// Whether gemmTileShape keeps `conv`'s weights int8 whatever widen-weights
/// says: GEMM rows longer than kMaxShortRowBytes over several pixels, in a
/// layer whose weights serve too few pixels (widensLongRows).
static bool keepsInt8Weights(Conv2DOp conv) {
  auto [rows, rowBytes] = convGemmRows(conv);
  return rows > 1 && rowBytes > kMaxShortRowBytes &&
         !widensLongRows(cast<LayerOpInterface>(conv.getOperation()));
}

int64_t mlir::vmcu::widenedWeightExtraBytes(LayerOpInterface layer) {
  return llvm::TypeSwitch<Operation *, int64_t>(layer)
      .Case([](Conv2DOp op) -> int64_t {
        if (keepsInt8Weights(op))
          return 0;
        GatheredTaps taps = runTaps(op);
        auto w = op.getWeight().getType();
        return w.getNumElements() / (w.getDimSize(1) * w.getDimSize(2)) *
               taps.rows * taps.cols;
      })
      .Case([](FullyConnectedOp op) {
        return op.getWeight().getType().getNumElements();
      })
      .Case([](DepthwiseConv2DOp op) { return depthwiseRecordExtraBytes(op); })
      .Case([](BottleneckOp op) {
        return sumOverLayers(op, widenedWeightExtraBytes);
      })
      .Default([](Operation *) { return int64_t(0); });
}

an::KernelWork mlir::vmcu::bottleneckWork(BottleneckOp op, int64_t segmentBytes,
                                          bool lineBuffer) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  an::KernelWork work{an::KernelKind::FusedRecompute, fusedMacs(op),
                      elements(op.getOutput()),
                      bottleneckAccesses(op, segmentBytes, lineBuffer)};
  if (op.isStem())
    work.kind = an::KernelKind::FusedStem;
  else if (lineBuffer)
    work.kind = an::KernelKind::FusedLineBuffer;
  if (lineBuffer)
    work.macs = layerMacs(layer);
  return work;
}
