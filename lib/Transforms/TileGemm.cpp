//===- TileGemm.cpp - pointwise and fully connected layers as a GEMM ------===//
//
// A 1x1 stride-1 conv or a fully connected layer over M pixels is an
// M x Cout x Cin GEMM. Pixels go in blocks of two: their input segments are
// ring-loaded into a stack buffer (2 x Cin bytes) and freed. Then, one
// output group (whole segments; see GemmTileShape) at a time, each tile of
// output channels is one vmcu.dot_block register tile (2 pixels x 3
// channels over int16-pair weights, the group's last tile taking the rest;
// 1 x 5 over int16-pair weights for one row at a time into 3 or more
// channels; else 2 x 2, or 1 x 4 for one row, 1 x 6 over paired weights
// where that pays its code: GemmTiles::chooseShape) per chunk of input
// channels,
// starting from biases with the input zero point folded in; the sums are
// requantized into a group buffer, whose segments are ring-stored.
// GemmTiles is also the expansion and projection of the line-buffer
// bottleneck and the tiles of the narrow (stem) convs.
//
//===----------------------------------------------------------------------===//

#include "TileGemm.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {
/// The largest |x| of an int8 input.
constexpr int64_t kMaxInputMagnitude = 128;
/// A pair's second sum B is recovered from 256 * B modulo 2^32 while
/// |B| < 2^23.
constexpr int64_t kMaxPairedSum = int64_t{1} << 23;

/// Steps (4 input channels each) one vmcu.dot_block covers: about 150
/// unrolled instructions, small in flash, while the chunk loop costs under
/// 3% of the block's cycles.
constexpr int64_t kChunkSteps = 8;
/// Steps of one vmcu.dot_block of a single-row tile over widened weights
/// (a matrix-vector product) whose row is too long for kMaxStraightChunks
/// 8-step chunks: 16-step chunks, straight-line up to 64 steps, else in a
/// rolled loop whose overhead (about 13 cycles per chunk: the counter, the
/// pointers and the moves LLVM adds around the tied sums) they halve.
/// Measured (M4 cycles): the FC kernel of bench/cycles.sh (64 steps, now
/// straight) 24,030 -> 22,909. For every rolled tile it saved 0.43% of
/// MCUNet's cycles for 38 KB more flash: not taken.
constexpr int64_t kRowChunkSteps = 16;
/// Chunks a tile runs straight-line rather than in a rolled loop: a few
/// more blocks of flash per GEMM kernel (its tiles are a loop) instead of
/// the chunk loop's overhead (about 14 cycles per chunk) in every tile.
/// 4 chunks cover widened rows of up to 128 bytes. Measured (M4
/// cycles, flash): straight up to 2 chunks, KWS 4,695,126 -> 4,549,228
/// (+8 KB), VWW 14,845,176 -> 14,715,391; up to 4, VWW 14,584,313 (+22 KB),
/// MCUNet 28,496,705 -> 28,470,275 (+14 KB); stacks unchanged.
constexpr int64_t kMaxStraightChunks = 4;
/// Straight chunks of a compact kernel (a flash budget's choice): longer
/// rows go in the rolled loop.
constexpr int64_t kCompactStraightChunks = 1;
/// Tiles a group holds at least, besides its narrower last one, for that
/// last tile to run compact (kCompactStraightChunks): it then does at most
/// an eighth of the group's work, its chunk loop costing under 1% of the
/// layer, for one block of code instead of kMaxStraightChunks.
constexpr int64_t kMinTilesBesideCompactTail = 8;
/// Code bytes of a tile body per output channel and step it runs
/// straight-line (tileBodyCodeBytes). Fitted as the code 1 x 6 tiles add
/// over paired 1 x 4 ones (chooseShape; median 17.5 over 54 corpus
/// layers). As a whole body's size it is low for widened-weight row tiles
/// (MobileNetV2 seed 2's 228 -> 4 head: 4,592 bytes over 57 steps of 4
/// channels, 20), so compactByDefault errs towards full speed.
constexpr int64_t kTileCodeBytesPerChannelStep = 18;
/// MACs per cycle saved by 1 x 6 tiles over 1 x 4 ones (chooseShape):
/// measured median 0.077 cycles per MAC (about 1/13), quartiles
/// 0.063-0.090; 1/14 errs towards the smaller code.
constexpr int64_t kMacsPerSixWideCycleSaved = 14;
/// The longest rows (in steps of 4 inputs) whose tiles are one
/// vmcu.gemm_tile (MACs, biases and requantization in one register block)
/// rather than dot blocks and a requant block: its 2 weight words in
/// flight cost a cycle per half step of a 2 x 3 tile, its single register
/// allocation saves about 20 cycles of moves and spills per tile.
/// Measured (M4 cycles): up to 8 steps, MCUNet 28,470,275 -> 27,659,096
/// (+20 KB flash), VWW 14,584,313 -> 14,326,625, KWS unchanged; its
/// 16-step rows as tiles too, KWS 4,549,228 -> 4,609,093 (slower).
constexpr int64_t kMaxGemmTileSteps = 8;
/// Widened words per step of 4 inputs (even and odd int16 pairs).
constexpr int64_t kWordsPerStep = 2;

} // namespace

GemmTiles::GemmTiles(Emitter &e, StringRef prefix, int64_t inC, int64_t outC,
                     int64_t maxPixels, int64_t layerRows, ArrayRef<int8_t> w,
                     ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq)
    : GemmTiles(e, prefix, inC, outC, maxPixels, layerRows, w, bias, inputZp,
                rq, pairable(w, inC, outC)) {}

GemmTiles::GemmTiles(Emitter &e, StringRef prefix, int64_t inC, int64_t outC,
                     int64_t maxPixels, int64_t layerRows, ArrayRef<int8_t> w,
                     ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
                     bool weightsPair)
    : shape(chooseShape(e, inC, outC, maxPixels, layerRows,
                        /*pairedWeights=*/weightsPair && !e.env.compactCode)),
      e(e), inC(inC), outC(outC), rq(rq), steps(shape.rowStride / kDotLanes) {
  useScratch(allocateScratch());
  SmallVector<int32_t> folded = foldZeroPoint(w, bias, inputZp);
  int64_t valueBound = accumulatorBound(bias, inC, rq);
  std::optional<Emitter::BoundedWords> bounded =
      Emitter::boundedWords(rq, outC, valueBound, /*compactTable=*/false);
  if (shape.widened && shape.widenedWeights && bounded &&
      steps <= kMaxGemmTileSteps && !e.env.compactCode) {
    // Weights, biases and requantization in one record per tile.
    records = e.i32Table((prefix + "tiles").str(),
                         packTileRecords(packWideWeights(w, /*scale=*/2),
                                         folded, bounded->words));
    recordsZpFolded = bounded->zpFolded;
    return;
  }
  pairedWeights = !shape.widenedWeights && weightsPair;
  pairedBiasesInH = pairedWeights && pairedBiasesFit(w, folded);
  if (pairedBiasesInH)
    packPairedBiases(folded);
  if (shape.widenedWeights)
    weights = e.i32Table((prefix + "weights").str(), packWideWeights(w));
  else
    weights = e.i8Table((prefix + "weights").str(),
                        pairedWeights ? packPairedWeights(w) : packWeights(w));
  biases = e.i32Table((prefix + "bias").str(), folded);
  std::tie(mult, shift) = e.requantTables(prefix, rq, outC, valueBound);
}

/// Steps per dot block of `shape`'s tiles over `steps` steps, at most
/// `maxChunks` of them straight-line (GemmTiles::rowChunkSteps).
static int64_t chunkSteps(const GemmTileShape &shape, int64_t steps,
                          int64_t maxChunks) {
  bool rowTile = shape.widenedWeights && !shape.widened;
  return rowTile && steps / kChunkSteps > maxChunks ? kRowChunkSteps
                                                    : kChunkSteps;
}

/// Whether a group of `shape`'s tiles holds enough full ones, besides its
/// narrower last one, for that last tile to run compact
/// (kMinTilesBesideCompactTail; GemmTiles::runsRarely).
static bool restTileRunsRarely(const GemmTileShape &shape) {
  return shape.groupBytes >= kMinTilesBesideCompactTail * shape.channels;
}

/// Steps a tile body runs straight-line, as accumulateTile emits it: all
/// of them while their `chunk`-step chunks number at most
/// `straightChunks`, else one chunk in the rolled loop and the rest.
static int64_t straightSteps(int64_t steps, int64_t chunk,
                             int64_t straightChunks) {
  return steps / chunk <= straightChunks ? steps : chunk + steps % chunk;
}

int64_t mlir::vmcu::tile::tileBodyCodeBytes(const GemmTileShape &shape,
                                            int64_t outC, bool compact) {
  int64_t n = shape.channels, steps = shape.rowStride / kDotLanes;
  int64_t maxChunks = compact ? kCompactStraightChunks : kMaxStraightChunks;
  int64_t chunk = chunkSteps(shape, steps, maxChunks);
  int64_t fullSteps = straightSteps(steps, chunk, maxChunks);
  int64_t restSteps = restTileRunsRarely(shape)
                          ? straightSteps(steps, chunk, kCompactStraightChunks)
                          : fullSteps;
  // forEachTile: a group's loop over full tiles and its rest, then Cout's
  // last group's.
  int64_t channelSteps = 0;
  for (int64_t group : {shape.groupBytes, outC % shape.groupBytes})
    channelSteps += (group >= n ? n * fullSteps : 0) + group % n * restSteps;
  return kTileCodeBytesPerChannelStep * channelSteps;
}

/// 1 x 6 tiles over paired weights save about 0.07 cycles per MAC over
/// 1 x 4 ones but add code: the wider body and often a wider last tile.
/// They are taken where the cycles saved per inference pay each byte
/// added at env.cyclesPerFlashByte. Measured (M4, vmcu-prof, report
/// code_bytes), 54 one-row layers of 16 corpus models whose tiles changed
/// between 1 x 4 and 1 x 6: cycles saved per MAC median 0.077 (quartiles
/// 0.063-0.090), code added per channel and straight step of the tile
/// bodies median 17.5 bytes.
GemmTileShape GemmTiles::chooseShape(const Emitter &e, int64_t inC,
                                     int64_t outC, int64_t maxPixels,
                                     int64_t layerRows, bool pairedWeights) {
  auto shapeOf = [&](bool allowSixWide) {
    return gemmTileShape(maxPixels, inC, outC, e.seg, e.env.widenWeights,
                         e.env.longRows, pairedWeights, allowSixWide);
  };
  GemmTileShape six = shapeOf(/*allowSixWide=*/true);
  if (six.channels != kOneRowPairedTileChannels ||
      e.env.cyclesPerFlashByte == 0)
    return six;
  GemmTileShape four = shapeOf(/*allowSixWide=*/false);
  int64_t extraBytes = tileBodyCodeBytes(six, outC, /*compact=*/false) -
                       tileBodyCodeBytes(four, outC, /*compact=*/false);
  int64_t savedCycles = layerRows * inC * outC / kMacsPerSixWideCycleSaved;
  return savedCycles >= e.env.cyclesPerFlashByte * extraBytes ? six : four;
}

GemmTiles::Scratch GemmTiles::allocateScratch() {
  Scratch scratch;
  scratch.obuf = e.scratch(shape.pixels * shape.groupBytes, e.b.getI8Type());
  if (shape.widened)
    scratch.xw =
        e.scratch(shape.pixels * steps * kWordsPerStep, e.b.getI32Type());
  return scratch;
}

GemmTiles::Scratch GemmTiles::useScratch(Scratch scratch) {
  Scratch previous{obuf, xw};
  obuf = scratch.obuf;
  xw = scratch.xw;
  return previous;
}

std::pair<int64_t, int64_t> GemmTiles::tileOf(int64_t c) const {
  int64_t n = shape.channels;
  int64_t u = c % shape.groupBytes;
  int64_t group = std::min(shape.groupBytes, outC - (c - u));
  return {c - u % n, std::min(n, group - u / n * n)};
}

/// Weights per tile (its first channel c0, each group split into tiles of N
/// and the rest) and step, each of the tile's channels' 4 bytes, in the
/// order vmcu.dot_block loads them: tile c0 starts at byte c0 * rowStride;
/// the lanes past Cin are zero.
SmallVector<int8_t> GemmTiles::packWeights(ArrayRef<int8_t> w) const {
  SmallVector<int8_t> packed(outC * shape.rowStride, 0);
  for (int64_t c = 0; c < outC; ++c) {
    auto [c0, width] = tileOf(c);
    for (int64_t k = 0; k < inC; ++k) {
      int64_t step = k / kDotLanes;
      int64_t at = c0 * shape.rowStride +
                   (step * width + (c - c0)) * kDotLanes + k % kDotLanes;
      packed[at] = w[c * inC + k];
    }
  }
  return packed;
}

/// Calls `pair(c)` for the first channel c of every pair (c, c + 1) of a
/// tile (the tile's channels two by two, an odd last one alone).
void GemmTiles::forEachPair(function_ref<void(int64_t)> pair) const {
  for (int64_t c = 0; c + 1 < outC; ++c) {
    auto [c0, width] = tileOf(c);
    if ((c - c0) % 2 == 0 && c - c0 + 1 < width)
      pair(c);
  }
}

/// Whether any two adjacent channels (c, c + 1) may share weight words
/// (vmcu.dot_block's paired_weights), whatever the tiles: each half
/// 256 * w[c + 1] + w[c] fits int16, and the second channel's dot product
/// B stays within |B| < 2^23 for any int8 inputs (|x| <= 128, the lanes
/// past Cin included: their weights are 0), so (H - A) >> 8 recovers it.
/// (Its bias is in B too where pairedBiasesFit; else added after.)
bool GemmTiles::pairable(ArrayRef<int8_t> w, int64_t inC, int64_t outC) {
  bool ok = outC > 1;
  for (int64_t c = 0; ok && c + 1 < outC; ++c) {
    for (int64_t k = 0; k < inC; ++k)
      ok &= pairedHalf(w[c * inC + k], w[(c + 1) * inC + k]) >= INT16_MIN;
    ok &= secondSumBound(w, inC, c) < kMaxPairedSum;
  }
  return ok;
}

/// The bound 128 * sum |w[c + 1]| of pair (c, c + 1)'s second dot product
/// over int8 inputs.
int64_t GemmTiles::secondSumBound(ArrayRef<int8_t> w, int64_t inC, int64_t c) {
  int64_t bound = 0;
  for (int64_t k = 0; k < inC; ++k)
    bound += kMaxInputMagnitude * std::abs(int64_t{w[(c + 1) * inC + k]});
  return bound;
}

/// Whether every pair's second sum stays within 2^23 with its bias in it:
/// |bias[c + 1]| + 128 * sum |w[c + 1]| < 2^23 (the folded bias, as the
/// sums start from it).
bool GemmTiles::pairedBiasesFit(ArrayRef<int8_t> w,
                                ArrayRef<int32_t> folded) const {
  bool fit = true;
  forEachPair([&](int64_t c) {
    int64_t bound = std::abs(static_cast<int64_t>(folded[c + 1])) +
                    secondSumBound(w, inC, c);
    fit &= bound < kMaxPairedSum;
  });
  return fit;
}

/// Each pair's second bias replaced by H's start, bias[c] + 256 *
/// bias[c + 1] modulo 2^32.
void GemmTiles::packPairedBiases(MutableArrayRef<int32_t> folded) const {
  constexpr uint32_t kByteScale = 256;
  forEachPair([&](int64_t c) {
    folded[c + 1] =
        static_cast<int32_t>(static_cast<uint32_t>(folded[c]) +
                             kByteScale * static_cast<uint32_t>(folded[c + 1]));
  });
}

/// The int16 half of paired weights a (low byte) and b: 256 * b + a.
int64_t GemmTiles::pairedHalf(int64_t a, int64_t b) {
  constexpr int64_t kByteScale = 256;
  return kByteScale * b + a;
}

/// packWeights' layout, each pair of channels' two words of a step
/// replaced by its halves 256 * w[c + 1] + w[c]: lanes (0, 2) in the first
/// channel's word, (1, 3) in the second's (vmcu.dot_block's
/// paired_weights).
SmallVector<int8_t> GemmTiles::packPairedWeights(ArrayRef<int8_t> w) const {
  SmallVector<int8_t> packed = packWeights(w);
  auto half = [&](int64_t c, int64_t k) -> uint16_t {
    if (k >= inC)
      return 0;
    return static_cast<uint16_t>(
        pairedHalf(w[c * inC + k], w[(c + 1) * inC + k]));
  };
  forEachPair([&](int64_t c) {
    auto [c0, width] = tileOf(c);
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t h = 0; h < kWordsPerStep; ++h) {
        int64_t at =
            c0 * shape.rowStride + (step * width + (c - c0) + h) * kDotLanes;
        int64_t lane = step * kDotLanes + h;
        uint32_t word = half(c, lane) | uint32_t{half(c, lane + 2)}
                                            << kHalfWordBits;
        llvm::copy(wordBytes(word), packed.begin() + at);
      }
  });
  return packed;
}

/// Widened weights (shape.widenedWeights): per tile (its first channel c0,
/// each group split into tiles of N and the rest) and step,
/// the even-lane pairs (lanes 0, 2) of each channel, then the odd ones
/// (1, 3), as int16 pairs (times `scale`); tile c0 starts at word
/// c0 * steps * 2.
SmallVector<int32_t> GemmTiles::packWideWeights(ArrayRef<int8_t> w,
                                                int64_t scale) const {
  SmallVector<int32_t> packed(outC * steps * kWordsPerStep, 0);
  // Weight (c, k) as an int16 lane; the lanes past Cin are zero.
  auto lane16 = [&](int64_t c, int64_t k) -> uint32_t {
    return k < inC ? static_cast<uint16_t>(
                         static_cast<int16_t>(scale * w[c * inC + k]))
                   : 0;
  };
  for (int64_t c = 0; c < outC; ++c) {
    auto [c0, width] = tileOf(c);
    for (int64_t k = 0; k < steps; ++k)
      for (int64_t half = 0; half < kWordsPerStep; ++half) {
        int64_t lane = k * kDotLanes + half;
        uint32_t pair = lane16(c, lane) | lane16(c, lane + 2) << 16;
        int64_t index = c0 * steps * kWordsPerStep +
                        (k * kWordsPerStep + half) * width + (c - c0);
        packed[index] = static_cast<int32_t>(pair);
      }
  }
  return packed;
}

/// The records of vmcu.gemm_tile: per tile (first channel c0, width n) at
/// word c0 * (2 * steps + 4), its widened weights as packWideWeights lays
/// them out (`wide`, doubled), then its n biases doubled (modulo 2^32),
/// then its n requantization entries (`requant`, kBoundedRequantWords per
/// channel): the tile accumulates 2v (see vmcu.gemm_tile).
SmallVector<int32_t>
GemmTiles::packTileRecords(ArrayRef<int32_t> wide, ArrayRef<int32_t> bias,
                           ArrayRef<int32_t> requant) const {
  int64_t weightWords = steps * kWordsPerStep;
  SmallVector<int32_t> records(GemmTileOp::recordWords(outC, steps), 0);
  for (int64_t c = 0; c < outC; ++c) {
    auto [c0, width] = tileOf(c);
    int64_t from = c0 * weightWords;
    int64_t to = GemmTileOp::recordWords(c0, steps);
    // The tile's weights, copied once from its first channel.
    if (c == c0)
      for (int64_t k = 0; k < weightWords * width; ++k)
        records[to + k] = wide[from + k];
    int64_t j = c - c0, entries = to + weightWords * width;
    records[entries + j] =
        static_cast<int32_t>(2 * static_cast<uint32_t>(bias[c]));
    for (int64_t k = 0; k < kBoundedRequantWords; ++k)
      records[entries + width + j * kBoundedRequantWords + k] =
          requant[c * kBoundedRequantWords + k];
  }
  return records;
}

/// `bias - zp * sum_k w`, modulo 2^32 like the accumulator, so the dot
/// blocks multiply raw inputs.
SmallVector<int32_t> GemmTiles::foldZeroPoint(ArrayRef<int8_t> w,
                                              ArrayRef<int32_t> bias,
                                              int32_t inputZp) const {
  SmallVector<int32_t> folded(outC, 0);
  auto zp = static_cast<uint32_t>(inputZp);
  for (int64_t c = 0; c < outC; ++c) {
    auto sum = static_cast<uint32_t>(bias[c]);
    for (int64_t k = 0; k < inC; ++k)
      sum -= zp * static_cast<uint32_t>(w[c * inC + k]);
    folded[c] = static_cast<int32_t>(sum);
  }
  return folded;
}

Value GemmTiles::mul(Value a, int64_t b) {
  return arith::MulIOp::create(e.b, e.loc, a, e.index(b));
}

Value GemmTiles::add(Value a, Value b) {
  return arith::AddIOp::create(e.b, e.loc, a, b);
}

/// Rows i < `rows` of x as int16 pairs into xw: step k of row i at words
/// (i * steps + k) * 2 and + 1.
void GemmTiles::widenRows(Value x, int64_t rows) {
  auto lanes = VectorType::get({kDotLanes}, e.b.getI8Type());
  auto pairs = VectorType::get({kWordsPerStep}, e.b.getI32Type());
  for (int64_t i = 0; i < rows; ++i)
    e.loop(0, steps, [&](Value k) {
      Value from = e.apply(e.c(i * shape.rowStride) + e.d(0) * kDotLanes, {k});
      Value raw = vector::LoadOp::create(e.b, e.loc, lanes, x, from);
      Value wide = WidenPairsOp::create(e.b, e.loc, pairs, raw);
      Value to = e.apply((e.c(i * steps) + e.d(0)) * kWordsPerStep, {k});
      vector::StoreOp::create(e.b, e.loc, wide, xw, to);
    });
}

void GemmTiles::emit(Value x, int64_t rows, SegmentDone segmentDone,
                     bool once) {
  if (shape.widened) {
    widenRows(x, rows);
    x = xw;
  }
  forEachTile(rows, segmentDone, [&](Value first, int64_t n, Value at) {
    emitTile(x, rows, first, n, at, once);
  });
}

void GemmTiles::emitFromView(const RowView &row, SegmentDone segmentDone) {
  assert(shape.pixels == 1 && !shape.widened && !records &&
         "a row read in place is a single raw row");
  ViewRuns runs = viewRuns(row);
  forEachTile(1, segmentDone, [&](Value first, int64_t n, Value at) {
    emitViewTile(runs, first, n, at);
  });
}

/// Output group g: its tiles of n channels and one of the rest, then the
/// caller's stores of its segments.
void GemmTiles::forEachTile(int64_t rows, SegmentDone segmentDone,
                            TileBody tile) {
  int64_t group = shape.groupBytes, n = shape.channels;
  // Group g of `bytes` output channels (whole segments).
  auto emitGroup = [&](Value g, int64_t bytes) {
    Value groupFirst = mul(g, group);
    int64_t full = bytes / n, rest = bytes % n;
    if (full > 0) {
      scf::ForOp loop = e.rolledLoop(full);
      OpBuilder::InsertionGuard guard(e.b);
      e.b.setInsertionPointToStart(loop.getBody());
      Value at = mul(loop.getInductionVar(), n);
      tile(add(groupFirst, at), n, at);
    }
    if (rest > 0) {
      Value at = e.index(full * n);
      tile(add(groupFirst, at), rest, at);
    }
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < bytes / e.seg; ++j)
        segmentDone(g, i, j, obuf);
  };
  e.loop(0, outC / group, [&](Value g) { emitGroup(g, group); });
  if (int64_t last = outC % group)
    emitGroup(e.index(outC / group), last);
}

/// Every row starts from the tile's biases, loaded once; with paired
/// weights a pair's H starts from the table's packed start
/// (pairedBiasesInH) or else from the pair's first bias, as its A does
/// (unpairSums adds the second's).
SmallVector<Value> GemmTiles::initialSums(int64_t rows, Value first,
                                          int64_t n) {
  SmallVector<Value> biasOf;
  for (int64_t j = 0; j < n; ++j) {
    bool second = pairedWeights && !pairedBiasesInH && j % 2 == 1;
    biasOf.push_back(second ? biasOf[j - 1]
                            : e.load(biases, add(first, e.index(j))));
  }
  SmallVector<Value> sums;
  for (int64_t i = 0; i < rows; ++i)
    llvm::append_range(sums, biasOf);
  return sums;
}

/// With paired weights, each pair's second sum: (H - A) >> 8 (exact:
/// pairable and pairedBiasesFit bound it below 2^23), plus its bias unless
/// H started from it; else `sums` unchanged.
SmallVector<Value> GemmTiles::unpairSums(ArrayRef<Value> sums, int64_t rows,
                                         Value first, int64_t n) {
  SmallVector<Value> out(sums.begin(), sums.end());
  if (!pairedWeights)
    return out;
  constexpr int32_t kPairShift = 8;
  Value shift = arith::ConstantIntOp::create(e.b, e.loc, kPairShift, 32);
  for (int64_t j = 0; j + 1 < n; j += 2) {
    Value bias =
        pairedBiasesInH ? Value() : e.load(biases, add(first, e.index(j + 1)));
    for (int64_t i = 0; i < rows; ++i) {
      Value a = sums[i * n + j], h = sums[i * n + j + 1];
      Value diff = arith::SubIOp::create(e.b, e.loc, h, a);
      Value dot = arith::ShRSIOp::create(e.b, e.loc, diff, shift);
      out[i * n + j + 1] =
          bias ? arith::AddIOp::create(e.b, e.loc, dot, bias) : dot;
    }
  }
  return out;
}

/// The tile's sums requantized into obuf[at + i * group + j].
void GemmTiles::storeSums(ArrayRef<Value> pairedSums, int64_t rows, Value first,
                          int64_t n, Value at) {
  SmallVector<Value> sums = unpairSums(pairedSums, rows, first, n);
  // One requant block for the tile, or, where its sums and scratch exceed
  // the registers (a 2 x 4 tile's 8 sums), one per run of channels with
  // every row in it, so each channel's table entry is loaded once.
  int64_t blockChannels =
      std::min(n, (kMaxDotBlockRegisters -
                   requantBlockFixedRegisters(e.env.compactCode)) /
                      rows);
  bool blocked = true;
  for (int64_t j0 = 0; blocked && j0 < n; j0 += blockChannels) {
    int64_t width = std::min(blockChannels, n - j0);
    SmallVector<Value> blockSums;
    for (int64_t i = 0; i < rows; ++i)
      llvm::append_range(blockSums,
                         ArrayRef<Value>(sums).slice(i * n + j0, width));
    Value blockFirst = j0 == 0 ? first : add(first, e.index(j0));
    Value blockAt = j0 == 0 ? at : add(at, e.index(j0));
    blocked = e.requantizeBlock(blockSums, rows, rq, mult, blockFirst, obuf,
                                blockAt, shape.groupBytes);
  }
  if (blocked)
    return;
  for (int64_t j = 0; j < n; ++j) {
    Value c = add(first, e.index(j));
    for (int64_t i = 0; i < rows; ++i) {
      Value q =
          e.requantize(sums[i * n + j], rq, mult, shift, c, e.b.getI8Type());
      e.store(q, obuf, add(at, e.index(i * shape.groupBytes + j)));
    }
  }
}

/// The tile of output channels [first, first + n) over all input chunks,
/// its sums requantized into obuf[i * group + at + j].
void GemmTiles::emitTile(Value x, int64_t rows, Value first, int64_t n,
                         Value at, bool once) {
  if (records) {
    Value zero = e.index(0);
    Value record = mul(first, GemmTileOp::recordWords(1, steps));
    GemmTileOp::create(
        e.b, e.loc, x, zero, records, record, obuf, at,
        e.b.getI64IntegerAttr(rows), e.b.getI64IntegerAttr(n),
        e.b.getI64IntegerAttr(steps),
        e.b.getI64IntegerAttr(steps * kWordsPerStep * kWordBytes),
        e.b.getI64IntegerAttr(shape.groupBytes),
        e.b.getBoolAttr(rq.getDoubleRound()),
        e.b.getI32IntegerAttr(recordsZpFolded ? 0 : rq.getOutputZp()),
        e.b.getI32IntegerAttr(rq.getMin()), e.b.getI32IntegerAttr(rq.getMax()));
    return;
  }
  SmallVector<Value> accs = initialSums(rows, first, n);
  accs = accumulateTile(x, e.index(0), rows, first, n, accs, once);
  storeSums(accs, rows, first, n, at);
}

/// `sums` plus the dots of the tile of channels [first, first + n) over all
/// steps of rows i < `rows` of x, step 0 of row 0 at element `xStart`:
/// straight chunks, or chunks in a rolled loop, then one block of the rest.
SmallVector<Value> GemmTiles::accumulateTile(Value x, Value xStart,
                                             int64_t rows, Value first,
                                             int64_t n, ValueRange init,
                                             bool once) {
  SmallVector<Value> accs(init.begin(), init.end());
  // The tile's packed weights start at first * steps of its step elements.
  int64_t wStep = weightElementsPerStep();
  Value tileBase = mul(first, steps * wStep);
  int64_t chunk = rowChunkSteps();
  int64_t full = steps / chunk, rest = steps % chunk;
  int64_t straight =
      runsRarely(n, once) ? kCompactStraightChunks : maxStraightChunks();
  // x elements per step and bytes between rows: raw bytes, or the widened
  // rows' two words.
  int64_t stepElements = shape.widened ? kWordsPerStep : kDotLanes;
  int64_t xStride =
      shape.widened ? steps * kWordsPerStep * kWordBytes : shape.rowStride;
  auto block = [&](Value xIndex, Value wIndex, ValueRange sums, int64_t words) {
    auto op = DotBlockOp::create(
        e.b, e.loc, x, xIndex, weights, wIndex, sums,
        e.b.getI64IntegerAttr(rows), e.b.getI64IntegerAttr(words),
        e.b.getI64IntegerAttr(xStride),
        shape.widened ? e.b.getUnitAttr() : UnitAttr(),
        shape.widenedWeights ? e.b.getUnitAttr() : UnitAttr(),
        pairedWeights ? e.b.getUnitAttr() : UnitAttr());
    return SmallVector<Value>(op.getResults());
  };
  if (full <= straight) {
    for (int64_t ch = 0; ch < full; ++ch) {
      Value xIndex = add(xStart, e.index(ch * chunk * stepElements));
      Value w = add(tileBase, e.index(ch * chunk * n * wStep));
      accs = block(xIndex, w, accs, chunk);
    }
  } else {
    scf::ForOp chunks = e.rolledLoop(full, accs);
    OpBuilder::InsertionGuard inner(e.b);
    e.b.setInsertionPointToStart(chunks.getBody());
    Value ch = chunks.getInductionVar();
    Value xIndex = add(xStart, mul(ch, chunk * stepElements));
    Value wIndex = add(tileBase, mul(ch, chunk * n * wStep));
    SmallVector<Value> sums =
        block(xIndex, wIndex, chunks.getRegionIterArgs(), chunk);
    scf::YieldOp::create(e.b, e.loc, sums);
    e.b.setInsertionPointAfter(chunks);
    accs.assign(chunks.getResults().begin(), chunks.getResults().end());
  }
  if (rest > 0) {
    Value xIndex = add(xStart, e.index(full * chunk * stepElements));
    Value wIndex = add(tileBase, e.index(full * chunk * n * wStep));
    accs = block(xIndex, wIndex, accs, rest);
  }
  return accs;
}

/// Weight elements per channel and step: 4 bytes, or 2 widened words.
int64_t GemmTiles::weightElementsPerStep() const {
  return shape.widenedWeights ? kWordsPerStep : kDotLanes;
}

/// Whether a tile of `n` channels does a small share of the layer's work:
/// its rows run `once` per layer (emit()'s), or it is a group's narrower
/// last tile beside kMinTilesBesideCompactTail full ones.
bool GemmTiles::runsRarely(int64_t n, bool once) const {
  return once || (n < shape.channels && restTileRunsRarely(shape));
}

/// Chunks of a tile that run straight-line rather than in a rolled loop.
int64_t GemmTiles::maxStraightChunks() const {
  return e.env.compactCode ? kCompactStraightChunks : kMaxStraightChunks;
}

/// Steps per dot block: a single row too long to run straight goes in
/// longer chunks.
int64_t GemmTiles::rowChunkSteps() const {
  return chunkSteps(shape, steps, maxStraightChunks());
}

GemmTiles::ViewRuns GemmTiles::viewRuns(const RowView &row) {
  Value allSteps = e.index(steps);
  Value contiguousSteps =
      arith::DivUIOp::create(e.b, e.loc, row.contiguous, e.index(kDotLanes));
  Value split = arith::MinUIOp::create(e.b, e.loc, allSteps, contiguousSteps);
  Value pastEnd = arith::SubIOp::create(e.b, e.loc, e.index(0), row.contiguous);
  Value wraps = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ult,
                                      split, allSteps);
  return {row.view, row.offset, split, pastEnd, wraps};
}

/// emitTile over a row read in place. A row that does not cross the pool's
/// end (known once the offsets are placed, when LLVM folds the test) is
/// one straight run, as a staged row's; else its steps before the end from
/// `offset`, then the rest from byte 0.
void GemmTiles::emitViewTile(const ViewRuns &runs, Value first, int64_t n,
                             Value at) {
  SmallVector<Value> sums = initialSums(1, first, n);
  auto crossing =
      scf::IfOp::create(e.b, e.loc, TypeRange(ValueRange(sums)), runs.wraps,
                        /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(crossing.thenBlock());
    scf::YieldOp::create(e.b, e.loc, accumulateRuns(runs, first, n, sums));
    e.b.setInsertionPointToStart(crossing.elseBlock());
    scf::YieldOp::create(
        e.b, e.loc, accumulateTile(runs.view, runs.offset, 1, first, n, sums));
  }
  storeSums(SmallVector<Value>(crossing.getResults()), 1, first, n, at);
}

/// `sums` plus the tile's dots over a row that crosses the pool's end: two
/// runs of accumulateRun.
SmallVector<Value> GemmTiles::accumulateRuns(const ViewRuns &runs, Value first,
                                             int64_t n, ValueRange sums) {
  auto select = [&](Value c, Value a, Value b) {
    return arith::SelectOp::create(e.b, e.loc, c, a, b);
  };
  Value lower = e.index(0), upper = e.index(2), step = e.index(1);
  auto loop = scf::ForOp::create(e.b, e.loc, lower, upper, step, sums);
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(loop.getBody());
  Value isFirst = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                        loop.getInductionVar(), e.index(0));
  Value offset = select(isFirst, runs.offset, runs.pastEnd);
  Value from = select(isFirst, e.index(0), runs.split);
  Value to = select(isFirst, runs.split, e.index(steps));
  SmallVector<Value> out = accumulateRun(runs.view, offset, first, n,
                                         loop.getRegionIterArgs(), from, to);
  scf::YieldOp::create(e.b, e.loc, out);
  return SmallVector<Value>(loop.getResults());
}

/// `sums` plus steps [from, to) of the row, step k's 4 bytes at
/// offset + 4k of `view`: chunks of dot blocks, then single steps.
SmallVector<Value> GemmTiles::accumulateRun(Value view, Value offset,
                                            Value first, int64_t n,
                                            ValueRange sums, Value from,
                                            Value to) {
  int64_t wStep = weightElementsPerStep(), chunk = rowChunkSteps();
  Value tileBase = mul(first, steps * wStep);
  auto stepLoop = [&](Value lo, Value hi, int64_t words, ValueRange init) {
    auto loop = scf::ForOp::create(e.b, e.loc, lo, hi, e.index(words), init);
    // Whole chunks stay rolled, as a straight row's; single steps (fewer
    // than a chunk) LLVM may unroll.
    if (words > 1)
      setNoUnroll(loop);
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value xAt = add(offset, mul(k, kDotLanes));
    Value wAt = add(tileBase, mul(k, n * wStep));
    auto op = DotBlockOp::create(
        e.b, e.loc, view, xAt, weights, wAt, loop.getRegionIterArgs(),
        e.b.getI64IntegerAttr(1), e.b.getI64IntegerAttr(words),
        e.b.getI64IntegerAttr(shape.rowStride), UnitAttr(),
        shape.widenedWeights ? e.b.getUnitAttr() : UnitAttr(),
        pairedWeights ? e.b.getUnitAttr() : UnitAttr());
    scf::YieldOp::create(e.b, e.loc, op.getResults());
    return SmallVector<Value>(loop.getResults());
  };
  // Whole chunks up to `mid`, then single steps.
  Value span = arith::SubIOp::create(e.b, e.loc, to, from);
  Value mid = arith::SubIOp::create(
      e.b, e.loc, to, arith::RemUIOp::create(e.b, e.loc, span, e.index(chunk)));
  SmallVector<Value> chunked = stepLoop(from, mid, chunk, sums);
  return stepLoop(mid, to, 1, chunked);
}

namespace {

/// The pointwise / fully connected kernel: blocks of the tiles' pixels,
/// gathered, freed, multiplied and stored.
class GemmEmitter {
public:
  GemmEmitter(Emitter &e, const GemmShape &g, const KernelTensors &t,
              GemmTiles &tiles)
      : e(e), g(g), t(t), tiles(tiles) {}

  void emit() {
    if (g.pixels == 1)
      return emitInPlaceRow();
    int64_t pixels = tiles.shape.pixels;
    xbuf = e.scratch(pixels * tiles.shape.rowStride, e.b.getI8Type());
    e.loop(0, g.pixels / pixels, [&](Value mb) {
      block([&](int64_t i) { return e.d(0) * pixels + i; }, mb, pixels);
    });
    for (int64_t m = g.pixels - g.pixels % pixels; m < g.pixels; ++m)
      block([&](int64_t) { return e.c(m); }, Value(), 1, /*once=*/true);
  }

private:
  using PixelExpr = function_ref<AffineExpr(int64_t)>;

  /// One block of `pixels` pixels; pixel i is `pixel(i)` over `mb` (or a
  /// constant when `mb` is null); `once`: the block runs once per layer.
  void block(PixelExpr pixel, Value mb, int64_t pixels, bool once = false) {
    for (int64_t i = 0; i < pixels; ++i)
      forSegments(pixel(i), mb, g.inC / e.seg, [&](AffineExpr seg, auto dims) {
        Value at = e.apply(e.c(i * tiles.shape.rowStride) + e.d(0) * e.seg,
                           {dims.back()});
        e.loadSegment(t.input, seg, dims, xbuf, at);
      });
    for (int64_t i = 0; i < pixels; ++i)
      forSegments(pixel(i), mb, g.inC / e.seg, [&](AffineExpr seg, auto dims) {
        e.freeSegment(t.input, seg, dims);
      });
    int64_t outSegs = g.outC / e.seg;
    int64_t groupSegs = tiles.shape.groupBytes / e.seg;
    tiles.emit(
        xbuf, pixels,
        [&](Value group, int64_t i, int64_t j, Value out) {
          SmallVector<Value, 2> dims;
          if (mb)
            dims.push_back(mb);
          dims.push_back(group);
          AffineExpr kk = e.d(dims.size() - 1) * groupSegs + j;
          e.storeOutput(t.output, pixel(i) * outSegs + kk, dims, out,
                        e.index(i * tiles.shape.groupBytes + j * e.seg));
        },
        once);
  }

  /// A single row (a fully connected layer over one row) is read in place:
  /// staging it would take its whole length of stack, where reading it
  /// from the pool only keeps it live until the last output group (its
  /// output then cannot overlap it).
  void emitInPlaceRow() {
    int64_t segments = g.inC / e.seg;
    auto view = RingViewOp::create(
        e.b, e.loc, MemRefType::get({ShapedType::kDynamic}, e.b.getI8Type()),
        e.b.getIndexType(), e.b.getIndexType(), e.env.pool,
        e.ringAddress(t.input, e.c(0), {}),
        e.b.getI64IntegerAttr(segments * e.unitsPerSeg),
        e.b.getI64IntegerAttr(kWordBytes));
    int64_t groupSegs = tiles.shape.groupBytes / e.seg;
    tiles.emitFromView({view.getView(), view.getOffset(), view.getContiguous()},
                       [&](Value group, int64_t, int64_t j, Value out) {
                         e.storeOutput(t.output, e.d(0) * groupSegs + j,
                                       {group}, out, e.index(j * e.seg));
                       });
    forSegments(e.c(0), Value(), segments, [&](AffineExpr seg, auto dims) {
      e.freeSegment(t.input, seg, dims);
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

  Emitter &e;
  const GemmShape &g;
  const KernelTensors &t;
  GemmTiles &tiles;
  Value xbuf;
};

} // namespace

LogicalResult mlir::vmcu::tile::emitGemm(Emitter &e, const GemmShape &g,
                                         ArrayRef<int8_t> w,
                                         ArrayRef<int32_t> bias,
                                         int32_t inputZp, RequantAttr rq,
                                         const KernelTensors &t) {
  GemmTiles tiles(e, "", g.inC, g.outC, g.pixels, g.pixels, w, bias, inputZp,
                  rq);
  GemmEmitter(e, g, t, tiles).emit();
  return success();
}
