//===- TileGemm.h - the kernel emitters' GEMM tiles -------------*- C++ -*-===//
//
// The GEMM register tiles (TileGemm.cpp) that pointwise and fully
// connected layers, windowed convs over an im2col column (TileConv.cpp)
// and fused bottlenecks (TileBottleneck.cpp) emit.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_TILEGEMM_H
#define VMCU_LIB_TRANSFORMS_TILEGEMM_H

#include "TileEmitter.h"

namespace mlir::vmcu::tile {

/// A pointwise (1x1, stride 1, unpadded) conv or a fully connected layer:
/// an M x Cout x Cin GEMM over `pixels` = M pixels.
struct GemmShape {
  int64_t pixels;
  int64_t inC;
  int64_t outC;
};

/// The register tiles of one GEMM (TileGemm.cpp): rows of int8 inputs times
/// a [Cout][Cin] weight matrix, as vmcu.dot_block tiles of shape.pixels
/// rows x shape.channels output channels, requantized to int8 one output
/// segment at a time. The constructor builds the flash tables under
/// `prefix` (weights packed per tile and step, biases with the input zero
/// point folded in, requant tables) and the segment buffer.
class GemmTiles {
public:
  /// `maxPixels`: rows the caller can hand over at once (1 or more);
  /// `layerRows`: rows the tiles compute per inference (chooseShape).
  GemmTiles(Emitter &e, StringRef prefix, int64_t inC, int64_t outC,
            int64_t maxPixels, int64_t layerRows, ArrayRef<int8_t> w,
            ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq);

  /// Called with an output group's index (an affine.for), a row i, a
  /// segment j of the group and the buffer holding the group of every row
  /// (row i's segment j at i * shape.groupBytes + j * segment bytes):
  /// stores it.
  using SegmentDone =
      function_ref<void(Value group, int64_t i, int64_t j, Value out)>;

  /// For each output group: the requantized dots of rows i < `rows` (at
  /// most shape.pixels) of x, row i at element i * shape.rowStride (the
  /// lanes past Cin may hold anything: their weights are 0); then
  /// `segmentDone` for each row and each of the group's segments, row by
  /// row (a row's segments adjacent: vmcu-coalesce-ring-accesses merges
  /// narrow ones). `once`: these rows run once per layer (an odd pixel
  /// count's last row), so they run compact (GemmTiles::runsRarely).
  void emit(Value x, int64_t rows, SegmentDone segmentDone, bool once = false);

  /// A single row read in place from the pool (vmcu.ring_view's results):
  /// its bytes from `offset` up to `contiguous` bytes, then from byte 0.
  struct RowView {
    Value view, offset, contiguous;
  };
  /// emit() over one row read in place (shape.pixels == 1).
  void emitFromView(const RowView &row, SegmentDone segmentDone);

  /// Rows and channels per tile and the bytes between rows of x.
  const GemmTileShape shape;

  /// The stack buffers the tiles write (outputs, widened rows).
  struct Scratch {
    Value obuf, xw;
  };
  /// A new set of them, allocated at the builder's insertion point.
  Scratch allocateScratch();
  /// The buffers emit() uses from now on; returns those it used.
  Scratch useScratch(Scratch scratch);

private:
  /// The tile of output channel `c`: its first channel and its width
  /// (each group split into tiles of shape.channels and one of the rest).
  std::pair<int64_t, int64_t> tileOf(int64_t c) const;
  SmallVector<int8_t> packWeights(ArrayRef<int8_t> w) const;
  void forEachPair(function_ref<void(int64_t)> pair) const;
  /// The constructor, with whether the weights pair (pairable).
  GemmTiles(Emitter &e, StringRef prefix, int64_t inC, int64_t outC,
            int64_t maxPixels, int64_t layerRows, ArrayRef<int8_t> w,
            ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
            bool weightsPair);
  static GemmTileShape chooseShape(const Emitter &e, int64_t inC, int64_t outC,
                                   int64_t maxPixels, int64_t layerRows,
                                   bool pairedWeights);
  static bool pairable(ArrayRef<int8_t> w, int64_t inC, int64_t outC);
  static int64_t secondSumBound(ArrayRef<int8_t> w, int64_t inC, int64_t c);
  static int64_t pairedHalf(int64_t a, int64_t b);
  SmallVector<int8_t> packPairedWeights(ArrayRef<int8_t> w) const;
  bool pairedBiasesFit(ArrayRef<int8_t> w, ArrayRef<int32_t> folded) const;
  void packPairedBiases(MutableArrayRef<int32_t> folded) const;
  SmallVector<Value> unpairSums(ArrayRef<Value> sums, int64_t rows, Value first,
                                int64_t n);
  SmallVector<int32_t> packWideWeights(ArrayRef<int8_t> w,
                                       int64_t scale = 1) const;
  SmallVector<int32_t> packTileRecords(ArrayRef<int32_t> wide,
                                       ArrayRef<int32_t> bias,
                                       ArrayRef<int32_t> requant) const;
  SmallVector<int32_t> foldZeroPoint(ArrayRef<int8_t> w, ArrayRef<int32_t> bias,
                                     int32_t inputZp) const;
  using TileBody = function_ref<void(Value first, int64_t n, Value at)>;
  void forEachTile(int64_t rows, SegmentDone segmentDone, TileBody tile);
  void emitTile(Value x, int64_t rows, Value first, int64_t n, Value at,
                bool once);
  /// The two runs of a row read in place, the same for every tile: steps
  /// [0, split) at offset + 4k, then [split, steps) at 4k - contiguous;
  /// `wraps`: whether the second is not empty.
  struct ViewRuns {
    Value view, offset, split, pastEnd, wraps;
  };
  ViewRuns viewRuns(const RowView &row);
  void emitViewTile(const ViewRuns &runs, Value first, int64_t n, Value at);
  SmallVector<Value> accumulateRuns(const ViewRuns &runs, Value first,
                                    int64_t n, ValueRange sums);
  SmallVector<Value> accumulateTile(Value x, Value xStart, int64_t rows,
                                    Value first, int64_t n, ValueRange init,
                                    bool once = false);
  int64_t weightElementsPerStep() const;
  int64_t rowChunkSteps() const;
  int64_t maxStraightChunks() const;
  bool runsRarely(int64_t n, bool once) const;
  SmallVector<Value> initialSums(int64_t rows, Value first, int64_t n);
  SmallVector<Value> accumulateRun(Value view, Value offset, Value first,
                                   int64_t n, ValueRange sums, Value from,
                                   Value to);
  void storeSums(ArrayRef<Value> pairedSums, int64_t rows, Value first,
                 int64_t n, Value at);
  void widenRows(Value x, int64_t rows);
  Value mul(Value a, int64_t b);
  Value add(Value a, Value b);

  Emitter &e;
  int64_t inC, outC;
  RequantAttr rq;
  int64_t steps;
  Value weights, biases, mult, shift, obuf;
  /// The rows widened to int16 pairs (shape.widened only).
  Value xw;
  /// One record per tile for vmcu.gemm_tile (widened weights and a bounded
  /// requantization only), and whether its half terms fold the output
  /// zero point.
  Value records;
  bool recordsZpFolded = false;
  /// Int8 weights packed in channel pairs (vmcu.dot_block's
  /// paired_weights; pairable).
  bool pairedWeights = false;
  /// With paired weights, whether each pair's H starts from both its
  /// biases (bias[c] + 256 * bias[c + 1], in the table at c + 1), so that
  /// (H - A) >> 8 is the second sum whole; else B's bias is added after.
  bool pairedBiasesInH = false;
};

/// A windowed conv's two axes and its channels.
struct ConvGeometry {
  Axis rows, cols;
  int64_t inC, outC;
};

/// A windowed conv as GEMM tiles over an im2col column (TileConv.cpp): per
/// block of output pixels of a row, each pixel's kr x kc x Cin window is
/// gathered once into its row of a column buffer (padding taps read the
/// zero point; the lanes past the window, up to a multiple of 4, have zero
/// weights) and the input pixels it reads last are freed; then GemmTiles
/// run over the block's rows. `ring` makes the input's ring accesses,
/// `tileEmitter` the tiles, whose segment size sets the output segments
/// their callback gets.
class WindowGemm {
public:
  /// `w` is [Cout][kr][kc][Cin]; `maxPixels` output pixels per block. A
  /// row holds the window's `gathered` taps (default: every tap).
  WindowGemm(Emitter &ring, Emitter &tileEmitter, StringRef prefix,
             const ConvGeometry &g, int64_t maxPixels, ArrayRef<int8_t> w,
             ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
             Value input, std::optional<GatheredTaps> gathered = {});

  /// Output pixels (p, qs[i]), at most tiles.shape.pixels of one row.
  void emitBlock(Value p, ArrayRef<Value> qs, GemmTiles::SegmentDone done);

  /// `done(pixel, dims, i, j, out)` for output segment j of a group of
  /// the block's pixel i, at flat index p * W + q = `pixel` over `dims`, the
  /// group's index last (as GemmTiles::SegmentDone).
  using PixelDone =
      function_ref<void(AffineExpr, ValueRange, int64_t, int64_t, Value)>;
  /// Every output pixel, in pairs across rows (Emitter::emitWindowedRowPairs:
  /// two pixels a block on a map of odd width).
  void emitRowPairs(PixelDone done);

  /// The stack buffers emitBlock uses: the column rows and the tiles'.
  struct Scratch {
    Value col;
    GemmTiles::Scratch tiles;
  };
  /// A new set of them, allocated at the builder's insertion point.
  Scratch allocateScratch();
  /// The buffers emitBlock uses from now on; returns those it used.
  Scratch useScratch(Scratch scratch);

  GemmTiles tiles;

private:
  void gather(Value p, Value q, int64_t i);
  void fillPadding(Value p, Value q, int64_t i);
  /// The column rows of a block of pixels, on the stack.
  Value allocateColumnRows();

  Emitter &e;
  ConvGeometry g;
  GatheredTaps taps;
  Value input, col, zp;
};

/// Estimated code bytes of `shape`'s tile bodies over Cout = `outC`: per
/// output channel of each distinct body and step it runs straight-line,
/// at full speed or `compact` (GemmTiles::chooseShape's fit).
int64_t tileBodyCodeBytes(const GemmTileShape &shape, int64_t outC,
                          bool compact);

/// The GEMM kernel (TileGemm.cpp): GemmTiles over blocks of up to two
/// pixels; `w` is [Cout][Cin].
LogicalResult emitGemm(Emitter &e, const GemmShape &g, ArrayRef<int8_t> w,
                       ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
                       const KernelTensors &t);

} // namespace mlir::vmcu::tile

#endif // VMCU_LIB_TRANSFORMS_TILEGEMM_H
