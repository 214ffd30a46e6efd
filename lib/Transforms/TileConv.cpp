//===- TileConv.cpp - conv2d and fully_connected kernels ------------------===//

#include "TileGemm.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {

//===----------------------------------------------------------------------===//
// conv2d / fully_connected: paper Figures 4 and 5.
//===----------------------------------------------------------------------===//

/// Pixel MACs per output column from which an im2col conv pairs pixels
/// across rows (pairsAcrossRows). Measured (vmcu-prof, M4 cycles per
/// kernel, pairs across rows against a one-pixel block per row): corpus
/// CNN+FC seed 6's 7-wide 3x3x24 -> 41 conv (1,265 MACs per column) -3.9%,
/// corpus ResNet seed 1's 7-wide convs to 47 channels (1,631 and 2,840)
/// -3.2%; its 27-wide 3x3x16 -> 16 convs (85) +0.9% and -0.3%, its 27-wide
/// stem (44) +10%; MLPerf Tiny KWS's 5-wide 10x4x1 -> 64 stem (512) +1.9%;
/// corpus CNN+FC seed 3's 155-wide 5x5x3 -> 5 stem (2) +3.3%.
constexpr int64_t kMinRowPairMacsPerColumn = 1000;

/// Whether an im2col conv's pixel pairs run across rows
/// (WindowGemm::emitRowPairs): on maps of odd width, on one core (the
/// two-core split shares out whole rows, or the pixels of one loop), where
/// a pixel's MACs per output column reach kMinRowPairMacsPerColumn. A
/// row's last pixel alone runs a one-pixel GEMM tile, which loads each
/// weight word for one pixel instead of two: a row pair saves about that
/// pixel's MACs' worth, and pays in every block for the guards that pick
/// each pixel's row (about 100-200 cycles; LLVM keeps more addresses live).
static bool pairsAcrossRows(const Emitter &e, const ConvGeometry &g,
                            int64_t blockPixels) {
  int64_t width = g.cols.outExtent;
  int64_t pixelMacs = g.rows.kernel * g.cols.kernel * g.inC * g.outC;
  return e.env.cores == 1 && !e.windowPool &&
         blockPixels == kIm2colBlockPixels && width % kIm2colBlockPixels != 0 &&
         g.rows.outExtent > 1 && pixelMacs >= kMinRowPairMacsPerColumn * width;
}

/// A conv as GEMM tiles over im2col windows (usesIm2col: stem convs over
/// 1 or 3 input channels, and windows of at most kMaxIm2colWindowBytes):
/// WindowGemm over blocks of output pixels of a row, or of two rows where
/// pairsAcrossRows; its rows hold the conv's gathered `taps`.
LogicalResult emitIm2colConv(Emitter &e, const ConvGeometry &g,
                             ArrayRef<int8_t> w, ArrayRef<int32_t> bias,
                             int32_t inputZp, RequantAttr rq,
                             const KernelTensors &t, const GatheredTaps &taps) {
  int64_t s = e.seg, ks = g.outC / s;
  WindowGemm conv(e, e, "", g, std::min(kIm2colBlockPixels, g.cols.outExtent),
                  w, bias, inputZp, rq, t.input, taps);
  const GemmTileShape &shape = conv.tiles.shape;
  int64_t groupSegs = shape.groupBytes / s;
  if (pairsAcrossRows(e, g, shape.pixels)) {
    conv.emitRowPairs([&](AffineExpr pixel, ValueRange dims, int64_t i,
                          int64_t j, Value out) {
      AffineExpr group = e.d(dims.size() - 1);
      e.storeOutput(t.output, pixel * ks + group * groupSegs + j, dims, out,
                    e.index(i * shape.groupBytes + j * s));
    });
    return success();
  }
  e.emitWindowedBlocks(
      g.rows, g.cols, t.input, g.inC / s, shape.pixels,
      [&](Value p, ArrayRef<Value> qs) {
        conv.emitBlock(
            p, qs, [&](Value group, int64_t i, int64_t j, Value out) {
              e.storeOutput(t.output,
                            (e.d(0) * g.cols.outExtent + e.d(1)) * ks +
                                e.d(2) * groupSegs + j,
                            {p, qs[i], group}, out,
                            e.index(i * shape.groupBytes + j * s));
            });
      });
  return success();
}

LogicalResult emitConvLike(Emitter &e, Operation *op, const ConvGeometry &g,
                           Value weight, Value bias, int32_t inputZp,
                           RequantAttr rq, const KernelTensors &t) {
  int64_t s = e.seg, cs = g.inC / s, ks = g.outC / s;
  int64_t kr = g.rows.kernel, kc = g.cols.kernel;
  auto w = constantValues<int8_t>(op, weight, "weight");
  auto bv = constantValues<int32_t>(op, bias, "bias");
  if (failed(w) || failed(bv))
    return failure();
  if (isGemmLayer(cast<LayerOpInterface>(op))) {
    if (e.windowPool)
      return op->emitOpError("cannot tile a window_avg_pool over a GEMM "
                             "(whose pixels do not run window by window)");
    return emitGemm(
        e, GemmShape{g.rows.outExtent * g.cols.outExtent, g.inC, g.outC}, *w,
        *bv, inputZp, rq, t);
  }
  bool im2col = usesIm2col(cast<LayerOpInterface>(op), s);
  if (im2col && e.windowPool && e.windowPool->cols > kIm2colBlockPixels)
    return op->emitOpError("cannot tile a window_avg_pool ")
           << e.windowPool->cols << " pixels wide over im2col blocks of "
           << kIm2colBlockPixels;
  if (im2col)
    return emitIm2colConv(e, g, *w, *bv, inputZp, rq, t,
                          gatheredTaps(cast<Conv2DOp>(op)));
  // Packed [kk][r][t][cc][k][c] so each (k, c-block) is contiguous.
  SmallVector<int8_t> packed(w->size());
  for (int64_t k = 0; k < g.outC; ++k)
    for (int64_t r = 0; r < kr; ++r)
      for (int64_t tt = 0; tt < kc; ++tt)
        for (int64_t ch = 0; ch < g.inC; ++ch) {
          int64_t src = ((k * kr + r) * kc + tt) * g.inC + ch;
          int64_t dst =
              ((((k / s * kr + r) * kc + tt) * cs + ch / s) * s + k % s) * s +
              ch % s;
          packed[dst] = (*w)[src];
        }
  Value wt = e.i8Table("weights", packed);
  Value bt = e.i32Table("bias", *bv);
  Value mult, shift;
  std::tie(mult, shift) = e.requantTables("", rq, g.outC);
  Value acc = e.scratch(s, e.b.getI32Type());
  Value xbuf = e.scratch(s, e.b.getI8Type());
  Value obuf = e.scratch(s, e.b.getI8Type());

  e.emitWindowed(
      g.rows, g.cols, t.input, cs,
      [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, ks, [&](Value kk) {
          e.loop(0, s, [&](Value k) {
            e.store(e.load(bt, e.apply(e.d(0) * s + e.d(1), {kk, k})), acc, k);
          });
          e.forEachTap(
              g.rows, g.cols, p, q, [&](Value r, Value tt, Value y, Value x) {
                e.loop(0, cs, [&](Value cc) {
                  e.loadSegment(t.input,
                                (e.d(0) * g.cols.inExtent + e.d(1)) * cs +
                                    e.d(2),
                                {y, x, cc}, xbuf);
                  e.loop(0, s, [&](Value k) {
                    AffineExpr wBase =
                        ((((e.d(0) * kr + e.d(1)) * kc + e.d(2)) * cs +
                          e.d(3)) *
                             s +
                         e.d(4)) *
                        s;
                    e.dotRow(acc, k, xbuf, s, inputZp, wt, wBase,
                             {kk, r, tt, cc, k});
                  });
                });
              });
          e.loop(0, s, [&](Value k) {
            Value ch = e.apply(e.d(0) * s + e.d(1), {kk, k});
            Value qv = e.requantize(e.load(acc, k), rq, mult, shift, ch,
                                    e.b.getI8Type());
            e.store(qv, obuf, k);
          });
          // The last output segment has read everything: free before storing
          // it.
          frees(Value(), kk, ks - 1);
          e.storeOutput(t.output,
                        (e.d(0) * g.cols.outExtent + e.d(1)) * ks + e.d(2),
                        {p, q, kk}, obuf);
        });
      });
  return success();
}

} // namespace

/// `gathered`, or every tap of `g`'s window.
static GatheredTaps tapsOrAll(const ConvGeometry &g,
                              std::optional<GatheredTaps> gathered) {
  return gathered.value_or(GatheredTaps{1, 1, g.rows.kernel, g.cols.kernel});
}

/// The weights [Cout][kr][kc][Cin] of the taps `taps` gathers, in the
/// same order.
static SmallVector<int8_t> gatheredWeights(ArrayRef<int8_t> w,
                                           const ConvGeometry &g,
                                           const GatheredTaps &taps) {
  SmallVector<int8_t> kept;
  kept.reserve(g.outC * taps.rows * taps.cols * g.inC);
  for (int64_t k = 0; k < g.outC; ++k)
    for (int64_t r = 0; r < taps.rows; ++r)
      for (int64_t t = 0; t < taps.cols; ++t) {
        int64_t tap = (k * g.rows.kernel + r * taps.rowStep) * g.cols.kernel +
                      t * taps.colStep;
        llvm::append_range(kept, w.slice(tap * g.inC, g.inC));
      }
  return kept;
}

WindowGemm::WindowGemm(Emitter &ring, Emitter &tileEmitter, StringRef prefix,
                       const ConvGeometry &g, int64_t maxPixels,
                       ArrayRef<int8_t> w, ArrayRef<int32_t> bias,
                       int32_t inputZp, RequantAttr rq, Value input,
                       std::optional<GatheredTaps> gathered)
    // Weights stay [k][window]: the im2col order (r, t, c).
    : tiles(tileEmitter, prefix,
            tapsOrAll(g, gathered).rows * tapsOrAll(g, gathered).cols * g.inC,
            g.outC, maxPixels, g.rows.outExtent * g.cols.outExtent,
            gathered ? ArrayRef<int8_t>(gatheredWeights(w, g, *gathered)) : w,
            bias, inputZp, rq),
      e(ring), g(g), taps(tapsOrAll(g, gathered)), input(input) {
  col = allocateColumnRows();
  zp = arith::ConstantOp::create(e.b, e.loc, e.b.getI8IntegerAttr(inputZp));
}

/// A window is filled with the zero point whole before every gather where
/// it holds at most kWholeWindowFillBytes, or where fewer than one output
/// in kRegionFillInteriorDivisor has its window inside the input; else only
/// where it covers padding, which an interior window skips at the cost of
/// four bound tests and a border window pays for in short loops. Measured
/// (vmcu-prof, M4): corpus ResNet seed 2's 5x5x3 stem (75 B) is faster
/// filled whole, its 3x3x18 convs (162 B) by region; corpus ResNet seed
/// 1's 4x4 maps (a quarter interior) whole, its 7x7 ones (half) by region.
/// At 0 bytes corpus DS-CNN seed 4's 8x4x1 stem took 11 K cycles more, at
/// 256 ResNet seed 1 took 470 K more; at a divisor of 2 ResNet seed 2 took
/// 7.5 K more. vmcuc writes fills up to this size as stores
/// (kInlineFillMaxBytes in Compiler.cpp); past it newlib's memset costs
/// about 100 cycles a fill.
constexpr int64_t kWholeWindowFillBytes = 128;
constexpr int64_t kRegionFillInteriorDivisor = 3;

/// The taps of output pixel (p, q)'s window that forEachTap skips, those
/// over the padding, read the input zero point in row i of the column
/// buffer: the whole window is filled (small windows, mostly-border maps),
/// or exactly those taps, or nothing where no window reaches the padding
/// (VALID convs). An axis whose windows all lie inside the input gets no
/// loops.
void WindowGemm::fillPadding(Value p, Value q, int64_t i) {
  const Axis &rows = g.rows, &cols = g.cols;
  int64_t tapBytes = g.inC, rowBytes = cols.kernel * tapBytes;
  int64_t rowOffset = i * tiles.shape.rowStride;
  auto fill = [&](int64_t bytes, AffineExpr first, ValueRange dims) {
    e.loop(0, bytes, [&](Value k) {
      SmallVector<Value, 3> operands(dims);
      operands.push_back(k);
      e.store(zp, col, e.apply(first + e.d(dims.size()) + rowOffset, operands));
    });
  };
  int64_t interiorRows = Emitter::interiorOutputs(rows);
  int64_t interiorCols = Emitter::interiorOutputs(cols);
  bool rowsInside = interiorRows == rows.outExtent;
  bool colsInside = interiorCols == cols.outExtent;
  if (rowsInside && colsInside)
    return;
  // A window of gathered taps is filled whole: its taps are not the
  // padding bounds' (insideTaps counts every tap).
  if (taps.stepped())
    return fill(taps.rows * taps.cols * tapBytes, e.c(0), {});
  int64_t outputs = rows.outExtent * cols.outExtent;
  if (rows.kernel * rowBytes <= kWholeWindowFillBytes ||
      interiorRows * interiorCols * kRegionFillInteriorDivisor < outputs)
    return fill(rows.kernel * rowBytes, e.c(0), {});
  auto [top, bottom] = e.insideTaps(rows);
  auto [left, right] = e.insideTaps(cols);
  auto fillRow = [&](Value r) { fill(rowBytes, e.d(0) * rowBytes, {r}); };
  if (!rowsInside) {
    e.loop({e.c(0)}, {e.c(rows.kernel), top}, p, fillRow);
    e.loop({e.c(0), bottom}, {e.c(rows.kernel)}, p, fillRow);
  }
  // Columns outside, so that an interior pixel tests each bound once.
  auto fillColumn = [&](Value t) {
    e.loop({e.c(0), top}, {e.c(rows.kernel), bottom}, p, [&](Value r) {
      fill(tapBytes, e.d(0) * rowBytes + e.d(1) * tapBytes, {r, t});
    });
  };
  if (!colsInside) {
    e.loop({e.c(0)}, {e.c(cols.kernel), left}, q, fillColumn);
    e.loop({e.c(0), right}, {e.c(cols.kernel)}, q, fillColumn);
  }
}

/// Row i of the column buffer: output pixel (p, q)'s window.
void WindowGemm::gather(Value p, Value q, int64_t i) {
  int64_t s = e.seg, cs = g.inC / s, kc = taps.cols;
  int64_t lanes = tiles.shape.rowStride;
  fillPadding(p, q, i);
  auto gatherTap = [&](Value r, Value tt, Value y, Value x) {
    e.loop(0, cs, [&](Value cc) {
      e.loadSegment(
          input, (e.d(0) * g.cols.inExtent + e.d(1)) * cs + e.d(2), {y, x, cc},
          col,
          e.apply((e.d(0) * kc + e.d(1)) * g.inC + e.d(2) * s + i * lanes,
                  {r, tt, cc}));
    });
  };
  e.forEachTap(g.rows, g.cols, p, q, gatherTap, {}, taps.rowStep, taps.colStep);
  e.freeLastUses(g.rows, g.cols, input, cs, p, q, Value());
}

Value WindowGemm::allocateColumnRows() {
  return e.alignedRows(tiles.shape.pixels * tiles.shape.rowStride);
}

WindowGemm::Scratch WindowGemm::allocateScratch() {
  return {allocateColumnRows(), tiles.allocateScratch()};
}

WindowGemm::Scratch WindowGemm::useScratch(Scratch scratch) {
  Scratch previous{col, tiles.useScratch(scratch.tiles)};
  col = scratch.col;
  return previous;
}

void WindowGemm::emitRowPairs(PixelDone done) {
  e.emitWindowedRowPairs(
      g.rows, g.cols, input, g.inC / e.seg,
      [&](Value p, Value q, int64_t slot) { gather(p, q, slot); },
      [&](AffineExpr first, ValueRange dims, int64_t count) {
        tiles.emit(col, count,
                   [&](Value group, int64_t i, int64_t j, Value out) {
                     SmallVector<Value, 3> operands(dims);
                     operands.push_back(group);
                     done(first + i, operands, i, j, out);
                   });
      });
}

void WindowGemm::emitBlock(Value p, ArrayRef<Value> qs,
                           GemmTiles::SegmentDone done) {
  for (auto [i, q] : llvm::enumerate(qs))
    gather(p, q, i);
  tiles.emit(col, qs.size(), done);
}

LogicalResult mlir::vmcu::tile::emitConv(Emitter &e, Conv2DOp op,
                                         const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getConvType();
  auto w = op.getWeight().getType();
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  // A window pool's windows cover the conv pixels that are computed.
  int64_t outRows = out.getDimSize(1), outCols = out.getDimSize(2);
  WindowAvgPoolAttr window = op.getWindowAvgPoolAttr();
  if (window) {
    outRows -= outRows % window.getKernelH();
    outCols -= outCols % window.getKernelW();
  }
  ConvGeometry g{
      makeAxis(in.getDimSize(1), outRows, stride[0], pad[0], w.getDimSize(1)),
      makeAxis(in.getDimSize(2), outCols, stride[1], pad[2], w.getDimSize(2)),
      in.getDimSize(3), out.getDimSize(3)};
  if (op.getResidual())
    e.foldResidual(t.skip, op.getResidualAddAttr(), out.getDimSize(3));
  if (GlobalAvgPoolAttr average = op.getGlobalAvgPoolAttr())
    e.foldGlobalPool(average, out.getDimSize(1) * out.getDimSize(2),
                     out.getDimSize(3));
  if (window)
    e.foldWindowPool(window, out.getDimSize(3), t.output,
                     op.getOutput().getType().getDimSize(2));
  if (failed(emitConvLike(e, op, g, op.getWeight(), op.getBias(),
                          static_cast<int32_t>(op.getInputZp()),
                          op.getRequant(), t)))
    return failure();
  if (op.getGlobalAvgPoolAttr())
    e.finishGlobalPool(t.output);
  return success();
}

/// A fully connected layer is a 1x1 conv over an M x 1 image (Figure 4).
LogicalResult mlir::vmcu::tile::emitFullyConnected(Emitter &e,
                                                   FullyConnectedOp op,
                                                   const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  int64_t m = in.getDimSize(0);
  ConvGeometry g{makeAxis(m, m, 1, 0, 1), makeAxis(1, 1, 1, 0, 1),
                 in.getDimSize(1), out.getDimSize(1)};
  return emitConvLike(e, op, g, op.getWeight(), op.getBias(),
                      static_cast<int32_t>(op.getInputZp()), op.getRequant(),
                      t);
}
