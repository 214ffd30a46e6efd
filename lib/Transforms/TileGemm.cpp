//===- TileGemm.cpp - pointwise and fully connected layers as a GEMM ------===//
//
// A 1x1 stride-1 conv or a fully connected layer over M pixels is an
// M x Cout x Cin GEMM. Pixels go in blocks of two: their input segments are
// ring-loaded into a stack buffer (2 x Cin bytes) and freed. Every pair of
// output channels is then one vmcu.dot_block register tile (2 pixels x 2
// channels) per chunk of input channels, starting from biases with the
// input zero point folded in; the sums are requantized into the block's
// output buffer, which is ring-stored last.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {

/// The register tile of vmcu.dot_block: 4 accumulators, 2 input words split
/// into 4 halves and 2 weight words, 13 registers with the scratch half and
/// the two pointers.
constexpr int64_t kBlockPixels = 2;
constexpr int64_t kBlockChannels = 2;
/// Steps (4 input channels each) one vmcu.dot_block covers: about 150
/// unrolled instructions, small in flash, while the chunk loop costs under
/// 3% of the block's cycles.
constexpr int64_t kChunkSteps = 8;
/// Thumb-2 LDR immediate offsets reach 4095 bytes; a two-pixel block
/// addresses the second pixel Cin bytes after the first.
constexpr int64_t kMaxLoadOffset = 4095;
constexpr int64_t kWordBytes = 4;

/// Weights [Cout/2][Cin/4][2][4]: per channel pair and step, each channel's
/// 4 bytes, in the order vmcu.dot_block loads them; a missing odd channel
/// is zero.
SmallVector<int8_t> packGemmWeights(ArrayRef<int8_t> w, const GemmShape &g) {
  int64_t pairs = llvm::divideCeil(g.outC, kBlockChannels);
  int64_t steps = g.inC / kDotLanes;
  SmallVector<int8_t> packed(pairs * steps * kBlockChannels * kDotLanes, 0);
  for (int64_t c = 0; c < g.outC; ++c)
    for (int64_t k = 0; k < g.inC; ++k) {
      int64_t step = (c / kBlockChannels) * steps + k / kDotLanes;
      int64_t at = (step * kBlockChannels + c % kBlockChannels) * kDotLanes +
                   k % kDotLanes;
      packed[at] = w[c * g.inC + k];
    }
  return packed;
}

class GemmEmitter {
public:
  GemmEmitter(Emitter &e, const GemmShape &g, int32_t inputZp, RequantAttr rq,
              const KernelTensors &t)
      : e(e), g(g), inputZp(inputZp), rq(rq), t(t),
        steps(g.inC / kDotLanes),
        outPad(llvm::alignTo(g.outC, kBlockChannels)) {}

  void emit(ArrayRef<int8_t> w, ArrayRef<int32_t> bias) {
    weights = e.i8Table("weights", packGemmWeights(w, g));
    biases = e.i32Table("bias", foldZeroPoint(w, bias));
    std::tie(mult, shift) = e.requantTables("", rq, g.outC);
    Type i8 = e.b.getI8Type();
    xbuf = e.scratch(kBlockPixels * g.inC, i8);
    obuf = e.scratch(kBlockPixels * outPad, i8);
    // The second pixel's words must stay within LDR's immediate reach.
    int64_t pixels =
        g.inC + kDotLanes * (kChunkSteps - 1) <= kMaxLoadOffset ? kBlockPixels
                                                                : 1;
    e.loop(0, g.pixels / pixels, [&](Value mb) {
      block([&](int64_t i) { return e.d(0) * pixels + i; }, mb, pixels);
    });
    for (int64_t m = g.pixels - g.pixels % pixels; m < g.pixels; ++m)
      block([&](int64_t) { return e.c(m); }, Value(), 1);
  }

private:
  using PixelExpr = function_ref<AffineExpr(int64_t)>;

  /// One block of `pixels` pixels; pixel i is `pixel(i)` over `mb` (or a
  /// constant when `mb` is null).
  void block(PixelExpr pixel, Value mb, int64_t pixels) {
    for (int64_t i = 0; i < pixels; ++i)
      gather(pixel(i), mb, i);
    for (int64_t i = 0; i < pixels; ++i)
      forSegments(pixel(i), mb, g.inC / e.seg, [&](AffineExpr seg, auto dims) {
        e.freeSegment(t.input, seg, dims);
      });
    channelPairs(pixels);
    for (int64_t i = 0; i < pixels; ++i)
      forSegments(pixel(i), mb, g.outC / e.seg, [&](AffineExpr seg, auto dims) {
        Value at = e.apply(e.c(i * outPad) + e.d(0) * e.seg, {dims.back()});
        e.storeSegment(t.output, seg, dims, obuf, at);
      });
  }

  /// Calls `body(segment, dims)` for each of `count` segments of the pixel:
  /// `segment` is `pixel * count + cc` over dims (mb if given, then cc).
  void forSegments(AffineExpr pixel, Value mb, int64_t count,
                   function_ref<void(AffineExpr, ArrayRef<Value>)> body) {
    e.loop(0, count, [&](Value cc) {
      SmallVector<Value, 2> dims;
      if (mb)
        dims.push_back(mb);
      dims.push_back(cc);
      body(pixel * count + e.d(dims.size() - 1), dims);
    });
  }

  /// Ring-loads pixel slot i's segments into xbuf.
  void gather(AffineExpr pixel, Value mb, int64_t i) {
    forSegments(pixel, mb, g.inC / e.seg, [&](AffineExpr seg, auto dims) {
      Value at = e.apply(e.c(i * g.inC) + e.d(0) * e.seg, {dims.back()});
      e.loadSegment(t.input, seg, dims, xbuf, at);
    });
  }

  /// `bias - zp * sum_k w`, modulo 2^32 like the accumulator, so the dot
  /// blocks multiply raw inputs; zero for the padding channel.
  SmallVector<int32_t> foldZeroPoint(ArrayRef<int8_t> w,
                                     ArrayRef<int32_t> bias) {
    SmallVector<int32_t> folded(outPad, 0);
    auto zp = static_cast<uint32_t>(inputZp);
    for (int64_t c = 0; c < g.outC; ++c) {
      auto sum = static_cast<uint32_t>(bias[c]);
      for (int64_t k = 0; k < g.inC; ++k)
        sum -= zp * static_cast<uint32_t>(w[c * g.inC + k]);
      folded[c] = static_cast<int32_t>(sum);
    }
    return folded;
  }

  /// An scf.for LLVM must not unroll: its body is a long fixed sequence
  /// already, and unrolled copies only grow flash and the stack frame.
  scf::ForOp rolledLoop(int64_t trips, ValueRange inits = {}) {
    auto loop = scf::ForOp::create(e.b, e.loc, idx(0), idx(trips), idx(1),
                                   inits);
    MLIRContext *ctx = e.ctx;
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        ctx, BoolAttr::get(ctx, true), {}, {}, {}, {}, {}, {});
    loop->setAttr("llvm.loop_annotation",
                  LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, noUnroll, {},
                                                {}, {}, {}, {}, {}, {}, {}, {},
                                                {}, {}));
    return loop;
  }

  Value idx(int64_t v) { return e.index(v); }
  Value mul(Value a, int64_t b) {
    return arith::MulIOp::create(e.b, e.loc, a, idx(b));
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(e.b, e.loc, a, b);
  }

  /// For each output channel pair: the dot blocks over all input chunks,
  /// then the requantized sums into obuf.
  void channelPairs(int64_t pixels) {
    scf::ForOp loop = rolledLoop(outPad / kBlockChannels);
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(loop.getBody());
    Value cp = loop.getInductionVar();
    Value first = mul(cp, kBlockChannels);
    SmallVector<Value> accs;
    for (int64_t i = 0; i < pixels; ++i)
      for (int64_t j = 0; j < kBlockChannels; ++j)
        accs.push_back(e.load(biases, add(first, idx(j))));
    // Packed weights of this pair start at cp * steps * 8 bytes.
    Value pairBase = mul(cp, steps * kBlockChannels * kDotLanes);
    int64_t full = steps / kChunkSteps, rest = steps % kChunkSteps;
    if (full > 0) {
      scf::ForOp chunks = rolledLoop(full, accs);
      OpBuilder::InsertionGuard inner(e.b);
      e.b.setInsertionPointToStart(chunks.getBody());
      Value ch = chunks.getInductionVar();
      SmallVector<Value> sums = dotBlock(
          mul(ch, kChunkSteps * kDotLanes),
          add(pairBase, mul(ch, kChunkSteps * kBlockChannels * kDotLanes)),
          chunks.getRegionIterArgs(), pixels, kChunkSteps);
      scf::YieldOp::create(e.b, e.loc, sums);
      e.b.setInsertionPointAfter(chunks);
      accs.assign(chunks.getResults().begin(), chunks.getResults().end());
    }
    if (rest > 0)
      accs = dotBlock(
          idx(full * kChunkSteps * kDotLanes),
          add(pairBase, idx(full * kChunkSteps * kBlockChannels * kDotLanes)),
          accs, pixels, rest);
    requantizePair(first, accs, pixels);
  }

  SmallVector<Value> dotBlock(Value xIndex, Value wIndex, ValueRange accs,
                              int64_t pixels, int64_t words) {
    auto op = DotBlockOp::create(
        e.b, e.loc, xbuf, xIndex, weights, wIndex, accs,
        e.b.getI64IntegerAttr(pixels), e.b.getI64IntegerAttr(words),
        e.b.getI64IntegerAttr(g.inC));
    return SmallVector<Value>(op.getResults());
  }

  /// obuf[i * outPad + first + j] = requantized accs[i * 2 + j]; a padding
  /// channel (odd Cout) uses the last channel's parameters and is never
  /// stored to the ring.
  void requantizePair(Value first, ArrayRef<Value> accs, int64_t pixels) {
    Value last = idx(g.outC - 1);
    for (int64_t j = 0; j < kBlockChannels; ++j) {
      Value c = add(first, idx(j));
      Value params = arith::MinSIOp::create(e.b, e.loc, c, last);
      for (int64_t i = 0; i < pixels; ++i) {
        Value q = e.requantize(accs[i * kBlockChannels + j], rq, mult, shift,
                               params, e.b.getI8Type());
        e.store(q, obuf, add(c, idx(i * outPad)));
      }
    }
  }

  Emitter &e;
  const GemmShape &g;
  int32_t inputZp;
  RequantAttr rq;
  const KernelTensors &t;
  int64_t steps, outPad;
  Value weights, biases, mult, shift, xbuf, obuf;
};

} // namespace

bool mlir::vmcu::tile::isGemm(const Axis &rows, const Axis &cols,
                              int64_t inC) {
  auto identity = [](const Axis &a) {
    return a.kernel == 1 && a.stride == 1 && a.pad == 0 && a.scale == 1 &&
           a.inExtent == a.outExtent;
  };
  return identity(rows) && identity(cols) && inC % kDotLanes == 0;
}

LogicalResult mlir::vmcu::tile::emitGemm(Emitter &e, const GemmShape &g,
                                         ArrayRef<int8_t> w,
                                         ArrayRef<int32_t> bias,
                                         int32_t inputZp, RequantAttr rq,
                                         const KernelTensors &t) {
  GemmEmitter(e, g, inputZp, rq, t).emit(w, bias);
  return success();
}
