//===- TileBottleneck.cpp - fused bottleneck kernels ----------------------===//

#include "TileGemm.h"
#include "vmcu/Transforms/LayerWork.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

//===----------------------------------------------------------------------===//
// bottleneck: paper Figure 6, one output pixel at a time.
//===----------------------------------------------------------------------===//

namespace {

/// The fused bottleneck one output pixel at a time: for each mid channel,
/// the depthwise window's expanded pixels (recomputed per tap, or kept in
/// a window cache), then the projection's sums, requantized (with the
/// residual add) and stored segment by segment.
class PixelBottleneckEmitter {
public:
  PixelBottleneckEmitter(Emitter &e, BottleneckOp op, const KernelTensors &t)
      : e(e), op(op), t(t), expand(op.getExpand()), project(op.getProject()),
        dw(op.getDepthwise()), residual(op.getResidual()),
        i8Type(e.b.getI8Type()) {
    auto a = op.getInput().getType(), bType = expand.getOutput().getType();
    auto out = op.getOutput().getType();
    cin = a.getDimSize(3), cmid = bType.getDimSize(3), cout = out.getDimSize(3);
    cinS = cin / e.seg, coutS = cout / e.seg;
    auto dwW = dw.getWeight().getType();
    kr = dwW.getDimSize(0), kc = dwW.getDimSize(1);
    ArrayRef<int64_t> s1 = expand.getStride(), s2 = dw.getStride(),
                      s3 = project.getStride(), dwPad = dw.getPad();
    rows = Axis{a.getDimSize(1),    out.getDimSize(1), s1[0],
                s2[0] * s3[0],      dwPad[0],          kr,
                bType.getDimSize(1)};
    cols = Axis{a.getDimSize(2),    out.getDimSize(2), s1[1],
                s2[1] * s3[1],      dwPad[2],          kc,
                bType.getDimSize(2)};
    unitStrides = s1[0] * s2[0] * s3[0] == 1 && s1[1] * s2[1] * s3[1] == 1;
  }

  LogicalResult emit() {
    if (residual && !unitStrides)
      return op.emitOpError("a residual bottleneck must have unit strides");
    if (failed(createTables()))
      return failure();
    createScratch();
    // Once accD is complete only the residual still reads the input, and
    // only pixel (p, q), which is among the pixels freed here only without
    // padding. Otherwise free them before the first output segment's
    // store: the output may then start one segment closer.
    freeBefore = residual && rows.pad == 0 && cols.pad == 0 ? coutS - 1 : 0;
    reversed = op.getReverseOrder();
    auto body = [&](Value p, Value q, Emitter::FreeHook frees) {
      emitPixel(p, q, frees);
    };
    if (reversed)
      e.emitWindowedReversed(rows, cols, t.input, cinS, body);
    else
      e.emitWindowed(rows, cols, t.input, cinS, body);
    return success();
  }

private:
  /// The three layers' weights, biases and requantization tables (and the
  /// residual add's).
  LogicalResult createTables() {
    auto w1 = constantValues<int8_t>(op, expand.getWeight(), "expand weight");
    auto b1 = constantValues<int32_t>(op, expand.getBias(), "expand bias");
    auto w2 = constantValues<int8_t>(op, dw.getWeight(), "depthwise weight");
    auto b2 = constantValues<int32_t>(op, dw.getBias(), "depthwise bias");
    auto w3 = constantValues<int8_t>(op, project.getWeight(), "project weight");
    auto b3 = constantValues<int32_t>(op, project.getBias(), "project bias");
    if (failed(w1) || failed(b1) || failed(w2) || failed(b2) || failed(w3) ||
        failed(b3))
      return failure();
    // w1 stays [Cmid][Cin]; w2 [R][S][Cmid]; w3 transposed to [Cmid][Cout].
    SmallVector<int8_t> w3t(w3->size());
    for (int64_t k = 0; k < cout; ++k)
      for (int64_t m = 0; m < cmid; ++m)
        w3t[m * cout + k] = (*w3)[k * cmid + m];
    w1t = e.i8Table("expand_weights", *w1);
    b1t = e.i32Table("expand_bias", *b1);
    w2t = e.i8Table("dw_weights", *w2);
    b2t = e.i32Table("dw_bias", *b2);
    w3tt = e.i8Table("project_weights", w3t);
    b3t = e.i32Table("project_bias", *b3);
    std::tie(m1, sh1) = e.requantTables("expand_", expand.getRequant(), cmid);
    std::tie(m2, sh2) = e.requantTables("dw_", dw.getRequant(), cmid);
    std::tie(m3, sh3) = e.requantTables("project_", project.getRequant(), cout);
    if (residual)
      std::tie(addMult, addShift) = e.requantTables(
          "add_", residual.getRequant(), cout, e.addValueBound(residual));
    zpA = static_cast<int32_t>(expand.getInputZp());
    zpB = static_cast<int32_t>(dw.getInputZp());
    zpC = static_cast<int32_t>(project.getInputZp());
    return success();
  }

  /// The sums and segment buffers; with a window-cache budget of at least
  /// R*R*Cmid bytes, the expanded pixels (B) of the R x R window live in
  /// `window`, slot (r, column mod R, m): at each output pixel only the
  /// `stride` columns the window slides onto are expanded, at the row's
  /// first pixel all of it. Each input pixel is then loaded and expanded
  /// once per output row instead of once per tap and mid channel.
  void createScratch() {
    int64_t s = e.seg;
    accD = e.scratch(cout, e.b.getI32Type());
    accB = e.scratch(1, e.b.getI32Type());
    accC = e.scratch(1, e.b.getI32Type());
    xbuf = e.scratch(s, i8Type);
    obuf = e.scratch(s, i8Type);
    cacheWindow = cols.stride <= kc && static_cast<uint64_t>(kr * kc * cmid) <=
                                           e.env.windowCacheBytes;
    if (cacheWindow) {
      window = e.scratch(kr * kc * cmid, i8Type);
      xrow = e.scratch(cin, i8Type);
    }
  }

  /// The window slot of tap (r, tt) of output column q, mid channel m.
  Value windowSlot(Value r, Value q, Value tt, Value m) {
    return e.apply(
        (e.d(0) * kc + (e.d(1) * cols.stride - cols.pad + e.d(2)) % kc) * cmid +
            e.d(3),
        {r, q, tt, m});
  }

  /// Expands the input pixels of window rows (clipped) and tap columns
  /// [tLo, tHi) (clipped) of output pixel (p, q) into `window`.
  void fillWindow(Value p, Value q, int64_t tLo, int64_t tHi) {
    int64_t s = e.seg, cs = cols.stride;
    Value z = e.index(0);
    e.loop(
        {e.c(0), e.c(rows.pad) - e.d(0) * rows.stride},
        {e.c(kr), e.c(rows.bExtent + rows.pad) - e.d(0) * rows.stride}, p,
        [&](Value r) {
          e.loop(
              {e.c(tLo), e.c(cols.pad) - e.d(0) * cs},
              {e.c(tHi), e.c(cols.bExtent + cols.pad) - e.d(0) * cs}, q,
              [&](Value tt) {
                Value y = e.apply((e.d(0) * rows.stride - rows.pad + e.d(1)) *
                                      rows.scale,
                                  {p, r});
                Value x = e.apply(
                    (e.d(0) * cs - cols.pad + e.d(1)) * cols.scale, {q, tt});
                e.loop(0, cinS, [&](Value cc) {
                  e.loadSegment(t.input,
                                (e.d(0) * cols.inExtent + e.d(1)) * cinS +
                                    e.d(2),
                                {y, x, cc}, xrow, e.apply(e.d(0) * s, cc));
                });
                e.loop(0, cmid, [&](Value m) {
                  e.store(e.load(b1t, m), accB, z);
                  e.dotRow(accB, z, xrow, cin, zpA, w1t, e.d(0) * cin, {m});
                  Value bq = e.requantize(e.load(accB, z), expand.getRequant(),
                                          m1, sh1, m, i8Type);
                  e.store(bq, window, windowSlot(r, q, tt, m));
                });
              });
        });
  }

  /// Fills the window cache for output pixel (p, q): the whole window at
  /// the row's first pixel, then the column it slides onto (leftwards in
  /// reverse order, where the row's first pixel is its last).
  void updateWindow(Value p, Value q) {
    int64_t cs = cols.stride;
    if (!reversed) {
      e.loop({e.d(0)}, {e.d(0) + 1, e.c(1)}, q,
             [&](Value) { fillWindow(p, q, 0, kc - cs); });
      fillWindow(p, q, kc - cs, kc);
      return;
    }
    e.loop({e.d(0), e.c(cols.outExtent - 1)}, {e.d(0) + 1}, q,
           [&](Value) { fillWindow(p, q, cs, kc); });
    fillWindow(p, q, 0, cs);
  }

  /// accC += the depthwise tap (r, tt) of mid channel m: the expanded pixel
  /// (y, x) from the window cache, or expanded here from its input pixel.
  void depthwiseTap(Value q, Value m, Value r, Value tt, Value y, Value x) {
    int64_t s = e.seg;
    if (cacheWindow) {
      Value slot = windowSlot(r, q, tt, m);
      Value w2Idx = e.apply((e.d(0) * kc + e.d(1)) * cmid + e.d(2), {r, tt, m});
      Value sum = e.load(accC, zero);
      Value expanded = e.load(window, slot);
      Value w = e.load(w2t, w2Idx);
      e.store(e.mac(sum, expanded, zpB, w), accC, zero);
      return;
    }
    e.store(e.load(b1t, m), accB, zero);
    e.loop(0, cinS, [&](Value cc) {
      e.loadSegment(t.input, (e.d(0) * cols.inExtent + e.d(1)) * cinS + e.d(2),
                    {y, x, cc}, xbuf);
      e.dotRow(accB, zero, xbuf, s, zpA, w1t, e.d(0) * cin + e.d(1) * s,
               {m, cc});
    });
    Value bq = e.requantize(e.load(accB, zero), expand.getRequant(), m1, sh1, m,
                            i8Type);
    Value w2Idx = e.apply((e.d(0) * kc + e.d(1)) * cmid + e.d(2), {r, tt, m});
    Value sum = e.load(accC, zero);
    Value w = e.load(w2t, w2Idx);
    e.store(e.mac(sum, bq, zpB, w), accC, zero);
  }

  /// The output segments of pixel (p, q): the projection's sums
  /// requantized, plus the residual, then stored.
  void storePixel(Value p, Value q, Emitter::FreeHook frees) {
    int64_t s = e.seg;
    e.loop(0, coutS, [&](Value kk) {
      AffineExpr pixelSeg = (e.d(0) * cols.outExtent + e.d(1)) * coutS + e.d(2);
      if (residual)
        e.loadSegment(t.input, pixelSeg, {p, q, kk}, xbuf);
      e.loop(0, s, [&](Value k) {
        Value ch = e.apply(e.d(0) * s + e.d(1), {kk, k});
        Value dq = e.requantize(e.load(accD, ch), project.getRequant(), m3, sh3,
                                ch, i8Type);
        if (residual)
          dq = addResidual(dq, e.load(xbuf, k), ch);
        e.store(dq, obuf, k);
      });
      frees(Value(), kk, freeBefore);
      e.storeSegment(t.output, pixelSeg, {p, q, kk}, obuf);
    });
  }

  /// The residual add of projected value `dq` and input value `av`.
  Value addResidual(Value dq, Value av, Value ch) {
    bool projIsLhs = residual.getLhs() == project.getOutput();
    Value lhs = projIsLhs ? dq : av, rhs = projIsLhs ? av : dq;
    Value lhs32 = e.rescaleToI32(lhs, residual.getLhsRescale());
    Value rhs32 = e.rescaleToI32(rhs, residual.getRhsRescale());
    Value sum = arith::AddIOp::create(e.b, e.loc, lhs32, rhs32);
    return e.requantize(sum, residual.getRequant(), addMult, addShift, ch,
                        i8Type);
  }

  void emitPixel(Value p, Value q, Emitter::FreeHook frees) {
    zero = e.index(0);
    if (cacheWindow)
      updateWindow(p, q);
    e.loop(0, cout, [&](Value k) { e.store(e.load(b3t, k), accD, k); });
    e.loop(0, cmid, [&](Value m) {
      e.store(e.load(b2t, m), accC, zero);
      e.forEachTap(rows, cols, p, q, [&](Value r, Value tt, Value y, Value x) {
        depthwiseTap(q, m, r, tt, y, x);
      });
      Value cq =
          e.requantize(e.load(accC, zero), dw.getRequant(), m2, sh2, m, i8Type);
      e.loop(0, cout, [&](Value k) {
        Value wIdx = e.apply(e.d(0) * cout + e.d(1), {m, k});
        Value sum = e.load(accD, k);
        Value w = e.load(w3tt, wIdx);
        e.store(e.mac(sum, cq, zpC, w), accD, k);
      });
    });
    storePixel(p, q, frees);
  }

  Emitter &e;
  BottleneckOp op;
  const KernelTensors &t;
  Conv2DOp expand, project;
  DepthwiseConv2DOp dw;
  AddOp residual;
  Type i8Type;
  int64_t cin, cmid, cout, cinS, coutS, kr, kc;
  Axis rows, cols;
  bool unitStrides = true, cacheWindow = false, reversed = false;
  int64_t freeBefore = 0;
  int32_t zpA = 0, zpB = 0, zpC = 0;
  Value w1t, b1t, w2t, b2t, w3tt, b3t, m1, sh1, m2, sh2, m3, sh3;
  Value addMult, addShift;
  Value accD, accB, accC, xbuf, obuf, window, xrow;
  /// The index 0 of the sums' one-element buffers, per output pixel.
  Value zero;
};

} // namespace

LogicalResult mlir::vmcu::tile::emitBottleneck(Emitter &e, BottleneckOp op,
                                               const KernelTensors &t) {
  return PixelBottleneckEmitter(e, op, t).emit();
}

//===----------------------------------------------------------------------===//
// bottleneck, line-buffer schedule: each input pixel expanded once.
//===----------------------------------------------------------------------===//

namespace {

/// The geometry of a line-buffer bottleneck: input A (h x w), expanded
/// tensor B (midH x midW: A's with a 1x1 expansion), output; the depthwise
/// window over B.
struct LineBufferGeometry {
  int64_t h, w, cin, cmid, cout;
  int64_t midH, midW;
  int64_t outH, outW;
  int64_t kr, kc, strideR, strideC, padR, padC;
};

LineBufferGeometry lineBufferGeometry(BottleneckOp op) {
  auto a = op.getInput().getType(), out = op.getOutput().getType();
  auto mid = op.getExpand().getOutput().getType();
  DepthwiseConv2DOp dw = op.getDepthwise();
  auto dwW = dw.getWeight().getType();
  ArrayRef<int64_t> stride = dw.getStride(), pad = dw.getPad();
  return {a.getDimSize(1),
          a.getDimSize(2),
          a.getDimSize(3),
          dwW.getDimSize(2),
          out.getDimSize(3),
          mid.getDimSize(1),
          mid.getDimSize(2),
          out.getDimSize(1),
          out.getDimSize(2),
          dwW.getDimSize(0),
          dwW.getDimSize(1),
          stride[0],
          stride[1],
          pad[0],
          pad[2]};
}

/// The input axes of a stem's KxK expansion computing its first `rows`
/// rows.
ConvGeometry stemGeometry(BottleneckOp op, int64_t rows) {
  Conv2DOp ex = op.getExpand();
  auto a = ex.getInput().getType(), mid = ex.getOutput().getType();
  auto w = ex.getWeight().getType();
  ArrayRef<int64_t> stride = ex.getStride(), pad = ex.getPad();
  return {makeAxis(a.getDimSize(1), rows, stride[0], pad[0], w.getDimSize(1)),
          makeAxis(a.getDimSize(2), mid.getDimSize(2), stride[1], pad[2],
                   w.getDimSize(2)),
          a.getDimSize(3), mid.getDimSize(3)};
}

/// Emits the line-buffer kernel of `op`; see emitBottleneckLineBuffer.
class LineBufferEmitter {
public:
  LineBufferEmitter(Emitter &e, BottleneckOp op, const KernelTensors &t)
      : e(e), op(op), t(t), g(lineBufferGeometry(op)), s(e.seg),
        cinS(g.cin / s), coutS(g.cout / s),
        // Expanded rows an output needs.
        neededRows(std::min(
            g.midH,
            std::max<int64_t>(0, (g.outH - 1) * g.strideR - g.padR + g.kr))) {
    int64_t group = lineBufferChannelGroup(g.cmid, s, g.kr * g.kc, op.isStem());
    if (op.isStem() || group != s)
      groupEmitter.emplace(e.b, e.env, e.loc, group);
    mg = mid().seg;
    midS = g.cmid / mg;
  }

  LogicalResult emit() {
    if (failed(buildTables()))
      return failure();
    Type i8 = e.b.getI8Type();
    // On two cores both expand rows and read them: a shared buffer.
    if (op.isStem())
      band = e.env.cores > 1
                 ? e.sharedScratch("line_buffer", op.getLineBufferBytes(), i8)
                 : e.scratch(op.getLineBufferBytes(), i8);
    else
      xrows = e.scratch(expand->shape.pixels * expand->shape.rowStride, i8);
    win = e.scratch(g.kr * g.kc * mg, i8);
    cpix = e.scratch(project->shape.pixels * project->shape.rowStride, i8);
    obuf = e.scratch(s, i8);
    if (op.getResidual())
      rbuf = e.scratch(s, i8);
    TwoCoreRemainderBytes remainders;
    if (e.env.cores > 1) {
      remainders = twoCoreRemainderScratchBytes(op, s);
      // Within the stack the plan's largest kernel takes anyway.
      int64_t lastBlockBytes = twoCoreLastBlockScratchBytes(op, s);
      lastExpandBlockByPixel =
          lastBlockBytes > 0 && lastBlockBytes <= e.env.stackAllowanceBytes;
    }
    if (remainders.expand > 0 && stemExpand)
      stemRemainderScratch = stemExpand->allocateScratch();
    else if (remainders.expand > 0 || lastExpandBlockByPixel)
      remainderExpandScratch = ExpandScratch{
          e.scratch(expand->shape.pixels * expand->shape.rowStride, i8),
          expand->allocateScratch()};
    if (remainders.project > 0)
      remainderScratch = PixelScratch{
          e.scratch(g.kr * g.kc * mg, i8),
          e.scratch(project->shape.pixels * project->shape.rowStride, i8),
          project->allocateScratch(), e.scratch(s, i8),
          op.getResidual() ? e.scratch(s, i8) : Value()};

    // Rows output row 0 needs that the general step below does not expand.
    int64_t prologueEnd =
        std::min(g.midH, std::max<int64_t>(0, g.kr - g.padR - g.strideR));
    expandRows(
        [&](function_ref<void(Value)> body) { e.loop(0, prologueEnd, body); });
    e.loop(0, g.outH, [&](Value p) {
      // The rows output row p needs and row p - 1 did not.
      expandRows([&](function_ref<void(Value)> body) {
        e.loop({e.c(prologueEnd),
                e.d(0) * g.strideR + (g.kr - g.padR - g.strideR)},
               {e.c(g.midH), e.d(0) * g.strideR + (g.kr - g.padR)}, p, body);
      });
      outputRow(p);
    });
    // Input rows no needed expanded row reads: only freed.
    if (op.isStem()) {
      ConvGeometry stem = stemGeometry(op, neededRows);
      e.freeTail(stem.rows, stem.cols, t.input, cinS);
    } else if (!op.getResidual()) {
      e.loop(neededRows, g.h, [&](Value y) {
        e.loop(0, g.w, [&](Value x) { freeInputPixel(y, x); });
      });
    }
    return success();
  }

private:
  Emitter &e;
  BottleneckOp op;
  const KernelTensors &t;
  LineBufferGeometry g;
  int64_t s, cinS, coutS, neededRows;
  // The depthwise part works in channel groups (mg bytes, midS groups;
  // lineBufferChannelGroup), made by groupEmitter where they are not the
  // ring's segments.
  std::optional<Emitter> groupEmitter;
  int64_t mg, midS;
  // The two pointwise convs as GEMM tiles (their flash tables inside); a
  // stem's KxK expansion as a WindowGemm instead of `expand`.
  std::optional<GemmTiles> expand, project;
  std::optional<WindowGemm> stemExpand;
  // Flash tables of the depthwise conv and the residual add.
  std::optional<DepthwiseTables> dwTables;
  Value m2, sh2, addMult, addShift;
  // Stack buffers (besides the GEMM tiles' segments): a block of input
  // pixels, the depthwise window of one channel group, one
  // depthwise output pixels of one projection block, one output (and
  // residual) segment; a stem's line buffer (on two cores a global both
  // cores see).
  Value xrows, win, cpix, obuf, rbuf, band;
  /// The buffers that compute output pixels: the window, the depthwise
  /// outputs, the projection's, the output and residual segments.
  struct PixelScratch {
    Value win, cpix;
    GemmTiles::Scratch project;
    Value obuf, rbuf;
  };
  /// Those of a row's last pixel, on two cores (twoCoreRemainderScratchBytes).
  std::optional<PixelScratch> remainderScratch;
  /// The buffers that expand input pixels: their rows and the expansion's.
  struct ExpandScratch {
    Value xrows;
    GemmTiles::Scratch expand;
  };
  /// On two cores, those of an input row's last pixel or of its last block
  /// expanded pixel by pixel.
  std::optional<ExpandScratch> remainderExpandScratch;
  /// A stem's: those of the last, shorter block of a row of B.
  std::optional<WindowGemm::Scratch> stemRemainderScratch;
  /// On two cores, where the stack allowance holds their buffers: whether
  /// the expansion's rows of an odd number of whole blocks expand their
  /// last block pixel by pixel, in a phase of its own (splitsLastBlock), so
  /// that the cores take as many pixels.
  bool lastExpandBlockByPixel = false;

  /// Expands input pixels in `scratch` from now on; returns the buffers
  /// used until now.
  ExpandScratch useExpandScratch(const ExpandScratch &scratch) {
    ExpandScratch previous{xrows, expand->useScratch(scratch.expand)};
    xrows = scratch.xrows;
    return previous;
  }

  /// Computes output pixels in `scratch` from now on; returns the buffers
  /// used until now.
  PixelScratch usePixelScratch(const PixelScratch &scratch) {
    PixelScratch previous{win, cpix, project->useScratch(scratch.project), obuf,
                          rbuf};
    win = scratch.win;
    cpix = scratch.cpix;
    obuf = scratch.obuf;
    rbuf = scratch.rbuf;
    return previous;
  }

  /// The emitter of the expanded tensor's channel groups.
  Emitter &mid() { return groupEmitter ? *groupEmitter : e; }

  LogicalResult buildTables() {
    Conv2DOp ex = op.getExpand(), pr = op.getProject();
    auto w1 = constantValues<int8_t>(op, ex.getWeight(), "expand weight");
    auto b1 = constantValues<int32_t>(op, ex.getBias(), "expand bias");
    auto w3 = constantValues<int8_t>(op, pr.getWeight(), "project weight");
    auto b3 = constantValues<int32_t>(op, pr.getBias(), "project bias");
    FailureOr<DepthwiseTables> dw =
        packDepthwise(mid(), "dw_", op.getDepthwise(), mg);
    if (failed(w1) || failed(b1) || failed(w3) || failed(b3) || failed(dw))
      return failure();
    // The expansion takes a row's input pixels in pairs, the projection
    // its output pixels.
    auto zp = static_cast<int32_t>(ex.getInputZp());
    if (op.isStem())
      stemExpand.emplace(e, mid(), "expand_", stemGeometry(op, neededRows),
                         std::min(kIm2colBlockPixels, g.midW), *w1, *b1, zp,
                         ex.getRequant(), t.input);
    else
      expand.emplace(e, "expand_", g.cin, g.cmid, g.w, neededRows * g.midW, *w1,
                     *b1, zp, ex.getRequant());
    project.emplace(e, "project_", g.cmid, g.cout, op.getProjectPixels(),
                    g.outH * g.outW, *w3, *b3,
                    static_cast<int32_t>(pr.getInputZp()), pr.getRequant());
    dwTables = *dw;
    std::tie(m2, sh2) = mid().requantTables(
        "dw_", op.getDepthwise().getRequant(), g.cmid, dw->valueBound);
    if (AddOp residual = op.getResidual())
      std::tie(addMult, addShift) = e.requantTables(
          "add_", residual.getRequant(), g.cout, e.addValueBound(residual));
    return success();
  }

  /// Line-buffer channel group of expanded pixel (y, x), group mm: slot
  /// y mod R of the buffer (a stem's, on the stack or a global).
  AffineExpr slotSegment(AffineExpr y, AffineExpr x, AffineExpr mm) {
    return (y % g.kr * g.midW + x) * midS + mm;
  }

  /// The workspace's ring segment u of expanded pixel (y, x): slot y mod R
  /// (the pool holds R rows x W x Cmid in ring segments).
  AffineExpr slotRingSegment(AffineExpr y, AffineExpr x, AffineExpr u) {
    return (y % g.kr * g.midW + x) * (g.cmid / s) + u;
  }

  /// Stores the bytes at element `at` of `buf` as the line buffer's
  /// (y, x, mm), expressions over `dims`: a stem's channel group mm, else
  /// the workspace's ring segment mm.
  void storeBand(AffineExpr y, AffineExpr x, AffineExpr mm, ValueRange dims,
                 Value buf, Value at) {
    if (!band)
      return e.storeSegment(t.workspace, slotRingSegment(y, x, mm), dims, buf,
                            at);
    Value v = vector::LoadOp::create(e.b, e.loc, mid().segType(), buf,
                                     ValueRange{at});
    Value to = e.apply(slotSegment(y, x, mm) * mg, dims);
    vector::StoreOp::create(e.b, e.loc, v, band, ValueRange{to});
  }

  /// Loads the line buffer's channel group (y, x, mm) into `buf` at `at`:
  /// from the workspace, its ring segments one by one.
  void loadBand(AffineExpr y, AffineExpr x, AffineExpr mm, ValueRange dims,
                Value buf, Value at) {
    int64_t segments = mg / s;
    if (!band && segments == 1)
      return e.loadSegment(t.workspace, slotRingSegment(y, x, mm), dims, buf,
                           at);
    if (!band) {
      auto k = static_cast<unsigned>(dims.size());
      SmallVector<Value> all(dims);
      all.push_back(at);
      e.loop(0, segments, [&](Value j) {
        all.push_back(j);
        e.loadSegment(t.workspace,
                      slotRingSegment(y, x, mm * segments + e.d(k + 1)), all,
                      buf, e.apply(e.d(k) + e.d(k + 1) * s, all));
        all.pop_back();
      });
      return;
    }
    Value from = e.apply(slotSegment(y, x, mm) * mg, dims);
    Value v = vector::LoadOp::create(e.b, e.loc, mid().segType(), band,
                                     ValueRange{from});
    vector::StoreOp::create(e.b, e.loc, v, buf, ValueRange{at});
  }

  void freeInputPixel(Value y, Value x) {
    e.loop(0, cinS, [&](Value cc) {
      e.freeSegment(t.input, (e.d(0) * g.w + e.d(1)) * cinS + e.d(2),
                    {y, x, cc});
    });
  }

  /// Expands rows of B: `rowLoop(body)` emits a loop over rows that calls
  /// body(y). Where a row's blocks of pixels would be shared out unevenly
  /// on two cores, its last block is expanded pixel by pixel after the
  /// others, in a second loop over the same rows: each loop is a phase the
  /// cores share.
  void expandRows(function_ref<void(function_ref<void(Value)>)> rowLoop) {
    if (!lastExpandBlockByPixel)
      return rowLoop([&](Value y) { expandRow(y); });
    int64_t pixels = expand->shape.pixels, lastBlock = g.w / pixels - 1;
    rowLoop([&](Value y) { expandBlocks(y, lastBlock); });
    rowLoop([&](Value y) {
      ExpandScratch blocks = useExpandScratch(*remainderExpandScratch);
      e.loop(lastBlock * pixels, g.w, [&](Value x) {
        expandPixels(
            y, x, [&](int64_t) { return e.d(1); }, 1);
      });
      useExpandScratch(blocks);
    });
  }

  /// Expands the first `blocks` blocks of pixels of row y.
  void expandBlocks(Value y, int64_t blocks) {
    int64_t pixels = expand->shape.pixels;
    e.loop(0, blocks, [&](Value xb) {
      expandPixels(
          y, xb, [&](int64_t i) { return e.d(1) * pixels + i; }, pixels);
    });
  }

  /// Expands row `y` of B into its line-buffer slot, a block of pixels at
  /// a time. A 1x1 expansion's input row is then dead without a residual; a
  /// stem frees the input rows no later row of B reads.
  void expandRow(Value y) {
    if (stemExpand)
      return expandStemRow(y);
    int64_t pixels = expand->shape.pixels;
    expandBlocks(y, g.w / pixels);
    if (g.w % pixels == 0)
      return;
    std::optional<ExpandScratch> pairs;
    if (remainderExpandScratch)
      pairs = useExpandScratch(*remainderExpandScratch);
    for (int64_t x = g.w - g.w % pixels; x < g.w; ++x)
      expandPixels(y, Value(), [&](int64_t) { return e.c(x); }, 1);
    if (pairs)
      useExpandScratch(*pairs);
  }

  /// A stem's row y of B: the KxK conv over its input window rows.
  void expandStemRow(Value y) {
    ConvGeometry stem = stemGeometry(op, neededRows);
    const GemmTileShape &shape = stemExpand->tiles.shape;
    int64_t groupSegs = shape.groupBytes / mg;
    e.emitWindowedRowBlocks(
        stem.rows, stem.cols, t.input, cinS, shape.pixels, y,
        [&](Value p, ArrayRef<Value> qs) {
          // A row's last, shorter block in buffers of its own on two cores.
          std::optional<WindowGemm::Scratch> blocks;
          if (stemRemainderScratch &&
              static_cast<int64_t>(qs.size()) < shape.pixels)
            blocks = stemExpand->useScratch(*stemRemainderScratch);
          stemExpand->emitBlock(
              p, qs, [&](Value group, int64_t i, int64_t j, Value out) {
                storeBand(e.d(0), e.d(1), e.d(2) * groupSegs + j,
                          {p, qs[i], group}, out,
                          e.index(i * shape.groupBytes + j * mg));
              });
          if (blocks)
            stemExpand->useScratch(*blocks);
        },
        /*shorterBlockInLoop=*/stemRemainderScratch.has_value());
  }

  /// Expands `count` pixels of row y: pixel i at column `column(i)`, an
  /// expression over d0 = y and d1 = xb (when given).
  void expandPixels(Value y, Value xb, function_ref<AffineExpr(int64_t)> column,
                    int64_t count) {
    const GemmTileShape &shape = expand->shape;
    SmallVector<Value, 3> dims{y};
    if (xb)
      dims.push_back(xb);
    // Calls body(dims + [c], d(c)) over c < n.
    auto each = [&](int64_t n, function_ref<void(ArrayRef<Value>, AffineExpr)>
                                   body) {
      e.loop(0, n, [&](Value c) {
        SmallVector<Value, 3> all(dims);
        all.push_back(c);
        body(all, e.d(dims.size()));
      });
    };
    for (int64_t i = 0; i < count; ++i)
      each(cinS, [&](ArrayRef<Value> all, AffineExpr cc) {
        Value at = e.apply(e.c(i * shape.rowStride) + e.d(0) * s, {all.back()});
        e.loadSegment(t.input, (e.d(0) * g.w + column(i)) * cinS + cc, all,
                      xrows, at);
      });
    if (!op.getResidual())
      for (int64_t i = 0; i < count; ++i)
        each(cinS, [&](ArrayRef<Value> all, AffineExpr cc) {
          e.freeSegment(t.input, (e.d(0) * g.w + column(i)) * cinS + cc,
                        all);
        });
    int64_t groupSegs = shape.groupBytes / s;
    expand->emit(xrows, count,
                 [&](Value group, int64_t i, int64_t j, Value out) {
                   SmallVector<Value, 3> all(dims);
                   all.push_back(group);
                   AffineExpr ms = e.d(dims.size()) * groupSegs + j;
                   storeBand(e.d(0), column(i), ms, all, out,
                             e.index(i * shape.groupBytes + j * s));
                 });
  }

  /// Depthwise output pixel (p, q) of channel group `mm` into row `row`
  /// of `cpix`.
  void depthwiseSegment(Value p, Value q, Value mm, int64_t row) {
    DepthwiseConv2DOp dw = op.getDepthwise();
    auto tap = [&](AffineExpr o, int64_t stride, int64_t pad, AffineExpr k) {
      return o * stride - pad + k;
    };
    // Tap (r, t) of (p, q) is in bounds: d0 = p, d1 = q, d2 = r, d3 = t.
    AffineExpr y = tap(e.d(0), g.strideR, g.padR, e.d(2));
    AffineExpr x = tap(e.d(1), g.strideC, g.padC, e.d(3));
    IntegerSet inside =
        IntegerSet::get(4, 0, {y, e.c(g.midH - 1) - y, x, e.c(g.midW - 1) - x},
                        {false, false, false, false});
    Value zpSegment = arith::ConstantOp::create(
        e.b, e.loc,
        cast<TypedAttr>(DenseElementsAttr::get(
            mid().segType(), static_cast<int8_t>(dw.getInputZp()))));
    // Padding taps first, then the in-bounds ones, in two tap loops: one
    // if/else per tap would let LLVM merge both stores into one of a
    // selected vector, which it splits into byte moves.
    auto eachTap = [&](bool insideTaps) {
      e.loop(0, g.kr, [&](Value r) {
        e.loop(0, g.kc, [&](Value tt) {
          Value at = e.apply((e.d(0) * g.kc + e.d(1)) * mg, {r, tt});
          auto ifOp = affine::AffineIfOp::create(e.b, e.loc, inside,
                                                 ValueRange{p, q, r, tt},
                                                 /*withElse=*/!insideTaps);
          OpBuilder::InsertionGuard guard(e.b);
          if (!insideTaps) {
            e.b.setInsertionPointToStart(ifOp.getElseBlock());
            vector::StoreOp::create(e.b, e.loc, zpSegment, win,
                                    ValueRange{at});
            return;
          }
          e.b.setInsertionPointToStart(ifOp.getThenBlock());
          loadBand(tap(e.d(0), g.strideR, g.padR, e.d(2)),
                   tap(e.d(1), g.strideC, g.padC, e.d(3)), e.d(4),
                   {p, q, r, tt, mm}, win, at);
        });
      });
    };
    eachTap(/*insideTaps=*/false);
    eachTap(/*insideTaps=*/true);
    emitWindowRequant(mid(), win, *dwTables, g.kr, g.kc, mm,
                      {dw.getRequant(), m2, sh2}, cpix,
                      e.d(0) * mg + row * project->shape.rowStride);
  }

  /// Output row p in blocks of the projection's pixels (the last block of
  /// the row may be shorter).
  void outputRow(Value p) {
    int64_t pixels = project->shape.pixels, full = g.outW / pixels;
    e.loop(0, full, [&](Value qb) {
      SmallVector<Value, 2> qs;
      for (int64_t i = 0; i < pixels; ++i)
        qs.push_back(e.apply(e.d(0) * pixels + i, {qb}));
      outputPixels(p, qs);
    });
    SmallVector<Value, 2> rest;
    for (int64_t q = full * pixels; q < g.outW; ++q)
      rest.push_back(e.index(q));
    if (rest.empty())
      return;
    if (!remainderScratch)
      return outputPixels(p, rest);
    PixelScratch pairs = usePixelScratch(*remainderScratch);
    outputPixels(p, rest);
    usePixelScratch(pairs);
  }

  /// Output pixels (p, qs[i]): their depthwise outputs into the rows of
  /// `cpix`, projected together, stored pixel by pixel.
  void outputPixels(Value p, ArrayRef<Value> qs) {
    for (auto [row, q] : llvm::enumerate(qs)) {
      Value pixel = q;
      auto at = static_cast<int64_t>(row);
      e.loop(0, midS,
             [&](Value mm) { depthwiseSegment(p, pixel, mm, at); });
    }
    const GemmTileShape &shape = project->shape;
    int64_t groupSegs = shape.groupBytes / s;
    project->emit(cpix, qs.size(),
                  [&](Value group, int64_t row, int64_t j, Value out) {
                    storeOutputSegment(p, qs[row], group, groupSegs, j, out,
                                       row * shape.groupBytes + j * s);
                  });
  }

  /// Adds the residual to segment j of output group `group` (of
  /// `groupSegs` segments) of the projected pixel (p, q), held in
  /// `projected` at byte `offset`, if the block has one, and stores it.
  void storeOutputSegment(Value p, Value q, Value group, int64_t groupSegs,
                          int64_t j, Value projected, int64_t offset) {
    Conv2DOp project = op.getProject();
    AddOp residual = op.getResidual();
    Type i8 = e.b.getI8Type();
    Value at = e.index(offset);
    AffineExpr pixelSeg =
        (e.d(0) * g.outW + e.d(1)) * coutS + e.d(2) * groupSegs + j;
    SmallVector<Value, 3> dims{p, q, group};
    if (!residual) {
      e.storeSegment(t.output, pixelSeg, dims, projected, at);
      return;
    }
    e.loadSegment(t.input, pixelSeg, dims, rbuf);
    bool projIsLhs = residual.getLhs() == project.getOutput();
    e.loop(0, s, [&](Value k) {
      Value ch = e.apply((e.d(0) * groupSegs + j) * s + e.d(1), {group, k});
      Value dq = e.load(projected, e.apply(e.d(0) + offset, {k}));
      Value av = e.load(rbuf, k);
      Value lhs = projIsLhs ? dq : av, rhs = projIsLhs ? av : dq;
      Value lhs32 = e.rescaleToI32(lhs, residual.getLhsRescale());
      Value rhs32 = e.rescaleToI32(rhs, residual.getRhsRescale());
      Value sum = arith::AddIOp::create(e.b, e.loc, lhs32, rhs32);
      e.store(
          e.requantize(sum, residual.getRequant(), addMult, addShift, ch, i8),
          obuf, k);
    });
    // The residual was the input segment's last reader.
    e.freeSegment(t.input, pixelSeg, dims);
    e.storeSegment(t.output, pixelSeg, dims, obuf);
  }
};

} // namespace

/// Line-buffer schedule (unit-stride project): input row y is
/// expanded once, when the first output row that needs it starts, into
/// slot y mod R of the workspace (R rows x W x Cmid); each output pixel
/// gathers its depthwise window from there one channel group at a time
/// (lineBufferChannelGroup: a ring segment, or several narrow ones;
/// padding taps read the zero point), then projects with GEMM tiles, one
/// output pixel at a time or, with `paired_projection`, two. Without a
/// residual an input row is freed as soon as it is expanded. A stem (a KxK
/// expansion) computes each row of B from its window of input rows with
/// WindowGemm, into a line buffer on the stack (on two cores a global both
/// cores see) in channel groups of its own, and frees the input rows no
/// later row of B reads.
LogicalResult
mlir::vmcu::tile::emitBottleneckLineBuffer(Emitter &e, BottleneckOp op,
                                           const KernelTensors &t) {
  if (!t.workspace && op.getPoolWorkspaceBytes() > 0)
    return op.emitOpError("line_buffer needs a workspace from vmcu-tile");
  return LineBufferEmitter(e, op, t).emit();
}
