//===- TileWindowed.cpp - depthwise and pooling kernels -------------------===//

#include "TileEmitter.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

//===----------------------------------------------------------------------===//
// depthwise_conv2d and avg_pool2d: per-channel windows.
//===----------------------------------------------------------------------===//

FailureOr<DepthwiseTables>
mlir::vmcu::tile::packDepthwise(Emitter &e, StringRef prefix,
                                DepthwiseConv2DOp op, int64_t s,
                                std::optional<GatheredTaps> gathered) {
  auto wType = op.getWeight().getType();
  int64_t ch = wType.getDimSize(2);
  auto w = constantValues<int8_t>(op, op.getWeight(), "depthwise weight");
  auto bv = constantValues<int32_t>(op, op.getBias(), "depthwise bias");
  if (failed(w) || failed(bv))
    return failure();
  int64_t kr = wType.getDimSize(0), kc = wType.getDimSize(1);
  if (gathered) {
    // Weights [r][t][ch] of the gathered taps only.
    SmallVector<int8_t> kept;
    for (int64_t r = 0; r < gathered->rows; ++r)
      for (int64_t t = 0; t < gathered->cols; ++t)
        llvm::append_range(
            kept,
            ArrayRef<int8_t>(*w).slice(
                ((r * gathered->rowStep) * kc + t * gathered->colStep) * ch,
                ch));
    *w = std::move(kept);
    kr = gathered->rows;
    kc = gathered->cols;
  }
  uint32_t zp = static_cast<uint32_t>(op.getInputZp());
  // Packed [cc][r][t][k]: one segment's taps are contiguous.
  SmallVector<int8_t> packed(w->size());
  SmallVector<int32_t> bias(*bv);
  for (int64_t r = 0; r < kr; ++r)
    for (int64_t tt = 0; tt < kc; ++tt)
      for (int64_t c = 0; c < ch; ++c) {
        int8_t wv = (*w)[(r * kc + tt) * ch + c];
        packed[((c / s * kr + r) * kc + tt) * s + c % s] = wv;
        bias[c] = static_cast<int32_t>(static_cast<uint32_t>(bias[c]) -
                                       zp * static_cast<uint32_t>(wv));
      }
  DepthwiseTables tables;
  tables.bias = e.i32Table((prefix + "bias").str(), bias);
  tables.valueBound = accumulatorBound(*bv, kr * kc, op.getRequant());
  tables.weights = e.i8Table((prefix + "weights").str(), packed);
  // Whole blocks of 4 lanes read one record each where the requantization
  // is bounded (vmcu.depthwise_block). The records hold the weights as
  // int16 (twice the int8 table's flash), so they are widened weights.
  std::optional<Emitter::BoundedWords> bounded =
      Emitter::boundedWords(op.getRequant(), ch, tables.valueBound,
                            /*compactTable=*/false);
  if (e.env.widenWeights && s >= kDotLanes && bounded) {
    tables.records =
        e.i32Table((prefix + "blocks").str(),
                   packDepthwiseRecords(*w, bias, bounded->words, kr * kc, s));
    tables.recordsZpFolded = bounded->zpFolded;
  }
  return tables;
}

SmallVector<int32_t> mlir::vmcu::tile::packDepthwiseRecords(
    ArrayRef<int8_t> w, ArrayRef<int32_t> bias, ArrayRef<int32_t> requant,
    int64_t taps, int64_t s) {
  constexpr int64_t kLanes = DepthwiseBlockOp::kLanes;
  int64_t ch = bias.size(), blocks = s / kLanes;
  int64_t words = DepthwiseBlockOp::recordWords(taps);
  int64_t laneWords = kLanes * DepthwiseBlockOp::kLaneWords;
  SmallVector<int32_t> records(ch / s * blocks * words, 0);
  // The int16 weight half `half` of the block at `at` (words).
  // Weights and biases doubled: the block accumulates 2v (see
  // vmcu.depthwise_block).
  auto setHalf = [&](int64_t at, int64_t half, int8_t v) {
    int32_t &word = records[at + half / 2];
    uint32_t bits = static_cast<uint16_t>(static_cast<int16_t>(2 * v));
    word = static_cast<int32_t>(static_cast<uint32_t>(word) |
                                bits << (half % 2 * kHalfWordBits));
  };
  for (int64_t c = 0; c < ch; ++c) {
    int64_t k = c % s, lane = k % kLanes;
    if (k >= blocks * kLanes)
      continue;
    int64_t at = (c / s * blocks + k / kLanes) * words;
    records[at + lane * DepthwiseBlockOp::kLaneWords] =
        static_cast<int32_t>(2 * static_cast<uint32_t>(bias[c]));
    for (int64_t j = 0; j < kBoundedRequantWords; ++j)
      records[at + lane * DepthwiseBlockOp::kLaneWords + 1 + j] =
          requant[c * kBoundedRequantWords + j];
    for (int64_t tap = 0; tap < taps; ++tap) {
      int64_t pairAt = at + laneWords + tap / 2 * kLanes;
      if (tap + 1 < taps || taps % 2 == 0)
        setHalf(pairAt, lane * 2 + tap % 2, w[tap * ch + c]);
      else // odd last tap: words (w0, w2), (w1, w3)
        setHalf(pairAt, lane % 2 * 2 + lane / 2, w[tap * ch + c]);
    }
  }
  return records;
}

namespace {

/// The window buffer column of tap column d1 for output column d0 when the
/// window slides along the row (emitDepthwise): a ring of kc columns.
AffineExpr slideColumn(Emitter &e, int64_t kc) {
  return (e.d(0) + e.d(1)) % kc;
}

/// Sum over the window of channel lanes [k, k + n) of output segment `cc`
/// as a vector<n x i32> carried through both tap loops; `init` holds the
/// biases. The lanes of tap i start at window byte i * tapBytes + winLane.
/// With `slideQ`, tap column t is window column slideColumn(slideQ, t).
Value windowSum(Emitter &e, Value win, const DepthwiseTables &dw, int64_t kr,
                int64_t kc, Value cc, Value k, int64_t n, Value init,
                Value slideQ, Value winLane, int64_t tapBytes) {
  int64_t s = e.seg;
  Type i32Type = e.b.getI32Type();
  auto x8 = VectorType::get({n}, e.b.getI8Type());
  auto rLoop =
      affine::AffineForOp::create(e.b, e.loc, 0, kr, 1, ValueRange{init});
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(rLoop.getBody());
  Value r = rLoop.getInductionVar();
  auto tLoop = affine::AffineForOp::create(
      e.b, e.loc, 0, kc, 1, ValueRange{rLoop.getRegionIterArgs()[0]});
  {
    OpBuilder::InsertionGuard inner(e.b);
    e.b.setInsertionPointToStart(tLoop.getBody());
    Value tt = tLoop.getInductionVar();
    Value column = slideQ ? e.apply(slideColumn(e, kc), {slideQ, tt}) : tt;
    Value xIdx = e.apply((e.d(0) * kc + e.d(1)) * tapBytes + e.d(2),
                         {r, column, winLane});
    Value xv = vector::LoadOp::create(e.b, e.loc, x8, win, ValueRange{xIdx});
    Value acc = tLoop.getRegionIterArgs()[0];
    AffineExpr tap = (e.d(0) * kr + e.d(1)) * kc + e.d(2);
    Value wIdx = e.apply(tap * s + e.d(3), {cc, r, tt, k});
    Value wv =
        vector::LoadOp::create(e.b, e.loc, x8, dw.weights, ValueRange{wIdx});
    Value sum;
    if (n == kDotLanes) {
      sum = MacLanesOp::create(e.b, e.loc, acc.getType(), acc, xv, wv);
    } else {
      auto wide = VectorType::get({n}, i32Type);
      Value xWide = arith::ExtSIOp::create(e.b, e.loc, wide, xv);
      Value wWide = arith::ExtSIOp::create(e.b, e.loc, wide, wv);
      Value prod = arith::MulIOp::create(e.b, e.loc, xWide, wWide);
      sum = arith::AddIOp::create(e.b, e.loc, acc, prod);
    }
    affine::AffineYieldOp::create(e.b, e.loc, sum);
  }
  affine::AffineYieldOp::create(e.b, e.loc, tLoop.getResult(0));
  return rLoop.getResult(0);
}

/// The byte offsets in the window buffer of its kr x kc taps (row-major),
/// tapBytes apart; with a constant `slideQ`, tap column t
/// is window column slideColumn(slideQ, t). None where a sliding window's
/// column is not a constant.
std::optional<SmallVector<int64_t>> tapOffsets(int64_t kr, int64_t kc,
                                               int64_t tapBytes, Value slideQ) {
  int64_t phase = 0;
  if (slideQ) {
    std::optional<int64_t> q = getConstantIntValue(slideQ);
    if (!q)
      return std::nullopt;
    phase = *q;
  }
  SmallVector<int64_t> offsets;
  for (int64_t r = 0; r < kr; ++r)
    for (int64_t tt = 0; tt < kc; ++tt) {
      int64_t column = slideQ ? (phase + tt) % kc : tt;
      offsets.push_back((r * kc + column) * tapBytes);
    }
  return offsets;
}

/// True if whole 4-lane blocks of a kr x kc window read at `slideQ` are
/// summed and requantized by vmcu.depthwise_block: their taps at constant
/// offsets within its reach, a record per block.
bool hasDepthwiseBlocks(const DepthwiseTables &dw, int64_t kr, int64_t kc,
                        int64_t tapBytes, Value slideQ) {
  std::optional<SmallVector<int64_t>> offsets =
      tapOffsets(kr, kc, tapBytes, slideQ);
  return dw.records && offsets &&
         *llvm::max_element(*offsets) + DepthwiseBlockOp::kLanes <=
             kMaxImmediateOffset + 1;
}

/// Lanes [k, k + 4) of output segment `cc`, summed over the window (from
/// byte winLane of each tap, taps tapBytes apart), requantized and stored
/// at out[at] by one vmcu.depthwise_block (hasDepthwiseBlocks).
void emitDepthwiseBlock(Emitter &e, Value win, const DepthwiseTables &dw,
                        int64_t kr, int64_t kc, Value cc, Value k,
                        Value winLane, int64_t tapBytes, RequantAttr rq,
                        Value out, Value at, Value slideQ) {
  SmallVector<int64_t> offsets = *tapOffsets(kr, kc, tapBytes, slideQ);
  int64_t words = DepthwiseBlockOp::recordWords(kr * kc);
  int64_t blocksPerSegment = e.seg / DepthwiseBlockOp::kLanes;
  AffineExpr block =
      e.d(0) * blocksPerSegment + e.d(1).floorDiv(DepthwiseBlockOp::kLanes);
  Value record = e.apply(block * words, {cc, k});
  DepthwiseBlockOp::create(
      e.b, e.loc, win, winLane, dw.records, record, out, at,
      e.b.getDenseI64ArrayAttr(offsets), e.b.getBoolAttr(rq.getDoubleRound()),
      e.b.getI32IntegerAttr(dw.recordsZpFolded ? 0 : rq.getOutputZp()),
      e.b.getI32IntegerAttr(rq.getMin()), e.b.getI32IntegerAttr(rq.getMax()));
}

/// Blocks of 4 lanes a single-segment window always emits straight-line:
/// 16 channels, about 400 instructions of flash.
constexpr int64_t kMaxStraightBlocks = 4;
/// Stack bytes per tap and block of a straight-line window: LLVM hoists
/// each tap's two unpacked weight words out of the pixel loop and spills
/// them (measured on KWS: 16 blocks x 9 taps grew the stack by 1,288
/// bytes).
constexpr int64_t kHoistedBytesPerTap = 8;

/// The widest segment whose looped blocks requantize with
/// vmcu.requant_block. Measured (Cortex-M4 cycles): KWS's 64-byte
/// depthwise segments 19 K cycles faster per layer with it, MLPerf Tiny
/// VWW's 128-byte ones 8 K slower (and the stack 4 bytes larger) than
/// with LLVM's lane-by-lane code.
constexpr int64_t kMaxBlockRequantSegment = 64;

/// True if `iv` is the induction variable of an affine.for of one trip.
bool isSingleTrip(Value iv) {
  affine::AffineForOp loop = affine::getForInductionVarOwner(iv);
  return loop && affine::getConstantTripCount(loop) == 1;
}

} // namespace

void mlir::vmcu::tile::emitWindowRequant(Emitter &e, Value win,
                                         const DepthwiseTables &dw, int64_t kr,
                                         int64_t kc, Value cc,
                                         const LaneRequant &rq, Value out,
                                         AffineExpr outAt, Value slideQ,
                                         WindowLanes layout) {
  int64_t s = e.seg, blocks = s / kDotLanes;
  int64_t tapBytes = layout.tapBytes ? layout.tapBytes : s;
  Type i32Type = e.b.getI32Type(), i8Type = e.b.getI8Type();
  // Lane k's byte in each tap of the window.
  auto winLane = [&](Value k) {
    return layout.laneBase ? e.apply(e.d(0) + e.d(1), {layout.laneBase, k}) : k;
  };
  // With one segment, straight-line blocks see constant channels: LLVM
  // folds their requant table loads into immediates. Beyond a few blocks
  // only where the stack their hoisted weights take is free; never in a
  // compact kernel.
  bool asmBlocks =
      blocks > 0 && hasDepthwiseBlocks(dw, kr, kc, tapBytes, slideQ);
  bool straight =
      !asmBlocks && !e.env.compactCode && isSingleTrip(cc) &&
      (blocks <= kMaxStraightBlocks ||
       blocks * kr * kc * kHoistedBytesPerTap <= e.env.stackAllowanceBytes);
  // Lanes [k, k + n): sums in registers, requantized in one block from the
  // table (blocks in a loop) or lane by lane with the constant channels
  // LLVM folds (straight-line blocks), one n-byte store.
  auto lanes = [&](Value k, int64_t n) {
    Value at = e.apply(outAt + e.d(1), {cc, k});
    if (asmBlocks && n == kDotLanes) {
      emitDepthwiseBlock(e, win, dw, kr, kc, cc, k, winLane(k), tapBytes,
                         rq.attr, out, at, slideQ);
      return;
    }
    Value init = vector::LoadOp::create(
        e.b, e.loc, VectorType::get({n}, i32Type), dw.bias,
        ValueRange{e.apply(e.d(0) * s + e.d(1), {cc, k})});
    Value sums = windowSum(e, win, dw, kr, kc, cc, k, n, init, slideQ,
                           winLane(k), tapBytes);
    Value first = e.apply(e.d(0) * s + e.d(1), {cc, k});
    SmallVector<Value, kDotLanes> laneSums;
    for (int64_t j = 0; j < n; ++j)
      laneSums.push_back(vector::ExtractOp::create(e.b, e.loc, sums, j));
    if (!straight && s <= kMaxBlockRequantSegment &&
        e.requantizeBlock(laneSums, /*pixels=*/1, rq.attr, rq.mult, first, out,
                          at, /*stride=*/0))
      return;
    SmallVector<Value, kDotLanes> bytes;
    for (int64_t j = 0; j < n; ++j) {
      Value c = e.apply(e.d(0) * s + e.d(1) + j, {cc, k});
      bytes.push_back(
          e.requantize(laneSums[j], rq.attr, rq.mult, rq.shift, c, i8Type));
    }
    Value packed = vector::FromElementsOp::create(
        e.b, e.loc, VectorType::get({n}, i8Type), bytes);
    vector::StoreOp::create(e.b, e.loc, packed, out, ValueRange{at});
  };
  if (straight) {
    for (int64_t kb = 0; kb < blocks; ++kb)
      lanes(e.index(kb * kDotLanes), kDotLanes);
  } else if (asmBlocks && blocks > 1) {
    scf::ForOp loop = e.rolledLoop(blocks);
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(loop.getBody());
    lanes(e.apply(e.d(0) * kDotLanes, {loop.getInductionVar()}), kDotLanes);
  } else if (blocks > 0) {
    e.loop(0, blocks, [&](Value kb) {
      lanes(e.apply(e.d(0) * kDotLanes, {kb}), kDotLanes);
    });
  }
  // Leftover lanes: one narrower block.
  if (int64_t rest = s - blocks * kDotLanes)
    lanes(e.index(blocks * kDotLanes), rest);
}

namespace {

/// The kr x kc window buffer of a depthwise kernel ([row][column][lane]
/// int8, each tap's segment lanes repeated `multiplier` times: lane j of a
/// tap is input lane j / multiplier) and how it is filled from the ring:
/// in-bounds taps ring-loaded in clipped tap loops, padding taps set to
/// the input zero point. With `taps` stepped, it holds only those taps.
struct DepthwiseWindow {
  Emitter &e;
  const KernelTensors &t;
  Axis rows, cols;
  int64_t cs;
  int32_t zp;
  int64_t multiplier;
  GatheredTaps taps;
  Value win;

  /// Bytes of one tap in the window.
  int64_t tapBytes() const { return e.seg * multiplier; }

  /// Calls `body` if stepped tap i of output o lies outside the input
  /// along `a`: under two loops of at most one trip (before it, after it),
  /// none where every window of `a` lies inside.
  void ifOutside(const Axis &a, int64_t step, Value o, Value i,
                 function_ref<void(Value)> body) {
    if (Emitter::interiorOutputs(a) == a.outExtent)
      return;
    AffineExpr pos = e.tapPosition(a, step);
    e.loop({e.c(0)}, {e.c(1), -pos}, {o, i}, body);
    e.loop({e.c(0)}, {e.c(1), pos - (a.bExtent - 1)}, {o, i}, body);
  }

  /// Fills the gathered taps of output (p, q) for channel segment `cc`:
  /// those over the padding (rows of taps outside the input, then the taps
  /// outside in the other rows) with the zero point, those inside from the
  /// ring.
  void fillStepped(Value p, Value q, Value cc) {
    auto tapType = VectorType::get({tapBytes()}, e.b.getI8Type());
    Value zpSegment =
        arith::ConstantOp::create(e.b, e.loc,
                                  cast<TypedAttr>(DenseElementsAttr::get(
                                      tapType, static_cast<int8_t>(zp))));
    auto at = [&](Value r, Value tt) {
      return e.apply((e.d(0) * taps.cols + e.d(1)) * tapBytes(), {r, tt});
    };
    auto fillTap = [&](Value r, Value tt) {
      vector::StoreOp::create(e.b, e.loc, zpSegment, win,
                              ValueRange{at(r, tt)});
    };
    e.loop(0, taps.rows, [&](Value r) {
      ifOutside(rows, taps.rowStep, p, r, [&](Value) {
        e.loop(0, taps.cols, [&](Value tt) { fillTap(r, tt); });
      });
    });
    // (A tap outside along both is filled twice.)
    e.loop(0, taps.rows, [&](Value r) {
      e.loop(0, taps.cols, [&](Value tt) {
        ifOutside(cols, taps.colStep, q, tt, [&](Value) { fillTap(r, tt); });
      });
    });
    e.forEachTap(
        rows, cols, p, q,
        [&](Value r, Value tt, Value y, Value x) {
          Value addr = e.ringAddress(
              t.input, (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
              {y, x, cc});
          Value v = RingLoadOp::create(e.b, e.loc, e.segType(), e.env.pool,
                                       addr, Value());
          vector::StoreOp::create(e.b, e.loc, repeatLanes(v), win,
                                  ValueRange{at(r, tt)});
        },
        {}, taps.rowStep, taps.colStep);
  }

  /// Fills tap columns [firstTap, kc) of output (p, qv) for channel segment
  /// `cc`. With `slide`, tap column t goes to window column
  /// slideColumn(qv, t), else to column t.
  void fill(Value p, Value qv, Value cc, int64_t firstTap, bool slide) {
    int64_t kr = rows.kernel, kc = cols.kernel;
    auto columnOf = [&](Value tt) {
      return slide ? e.apply(slideColumn(e, kc), {qv, tt}) : tt;
    };
    auto at = [&](Value r, Value tt) {
      return e.apply((e.d(0) * kc + e.d(1)) * tapBytes(), {r, columnOf(tt)});
    };
    auto tapType = VectorType::get({tapBytes()}, e.b.getI8Type());
    // Padding taps read as the zero point.
    IntegerSet inside = insideSet();
    Value zpSegment =
        arith::ConstantOp::create(e.b, e.loc,
                                  cast<TypedAttr>(DenseElementsAttr::get(
                                      tapType, static_cast<int8_t>(zp))));
    e.loop(0, kr, [&](Value r) {
      e.loop(firstTap, kc, [&](Value tt) {
        auto ifOp = affine::AffineIfOp::create(
            e.b, e.loc, inside, ValueRange{p, qv, r, tt}, /*withElse=*/true);
        OpBuilder::InsertionGuard guard(e.b);
        e.b.setInsertionPointToStart(ifOp.getElseBlock());
        vector::StoreOp::create(e.b, e.loc, zpSegment, win,
                                ValueRange{at(r, tt)});
      });
    });
    // The in-bounds taps, ring-loaded in the usual order.
    e.loop({e.c(0), e.c(rows.pad) - e.d(0) * rows.stride},
           {e.c(kr), e.c(rows.bExtent + rows.pad) - e.d(0) * rows.stride}, p,
           [&](Value r) {
             e.loop(
                 {e.c(firstTap), e.c(cols.pad) - e.d(0) * cols.stride},
                 {e.c(kc), e.c(cols.bExtent + cols.pad) - e.d(0) * cols.stride},
                 qv, [&](Value tt) {
                   Value y = e.apply(e.d(0) * rows.stride - rows.pad + e.d(1),
                                     {p, r});
                   Value x = e.apply(e.d(0) * cols.stride - cols.pad + e.d(1),
                                     {qv, tt});
                   Value addr = e.ringAddress(
                       t.input, (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
                       {y, x, cc});
                   Value v = RingLoadOp::create(e.b, e.loc, e.segType(),
                                                e.env.pool, addr, Value());
                   Value lanes = repeatLanes(v);
                   Value slot = at(r, tt);
                   vector::StoreOp::create(e.b, e.loc, lanes, win,
                                           ValueRange{slot});
                 });
           });
  }

private:
  /// A segment's lanes, each repeated `multiplier` times.
  Value repeatLanes(Value segment) {
    if (multiplier == 1)
      return segment;
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < tapBytes(); ++j)
      mask.push_back(j / multiplier);
    return vector::ShuffleOp::create(e.b, e.loc, segment, segment, mask);
  }

  /// Tap (r, t) of output (p, q) is in bounds: d0 = p, d1 = q, d2 = r,
  /// d3 = t.
  IntegerSet insideSet() {
    auto bounds = [&](const Axis &a, AffineExpr o, AffineExpr k) {
      AffineExpr i = o * a.stride - a.pad + k;
      return std::array<AffineExpr, 2>{i, e.c(a.bExtent - 1) - i};
    };
    auto [r0, r1] = bounds(rows, e.d(0), e.d(2));
    auto [c0, c1] = bounds(cols, e.d(1), e.d(3));
    return IntegerSet::get(4, 0, {r0, r1, c0, c1},
                           {false, false, false, false});
  }
};

} // namespace

namespace {

/// Calls `body` once per phase of a sliding window (q mod kc) with the
/// phase as a constant, under an scf.index_switch on the phase of `q`, so
/// every window column of the body is a constant (the last phase is the
/// default case).
void eachSlidePhase(Emitter &e, Value q, int64_t kc,
                    function_ref<void(Value)> body) {
  Value phase = e.apply(e.d(0) % kc, {q});
  SmallVector<int64_t> cases = llvm::to_vector(llvm::seq<int64_t>(0, kc - 1));
  auto switchOp = scf::IndexSwitchOp::create(e.b, e.loc, TypeRange{}, phase,
                                             cases, cases.size());
  OpBuilder::InsertionGuard guard(e.b);
  auto emitCase = [&](Region &region, int64_t value) {
    e.b.setInsertionPointToStart(&region.emplaceBlock());
    body(e.index(value));
    scf::YieldOp::create(e.b, e.loc);
  };
  for (int64_t c : cases)
    emitCase(switchOp.getCaseRegions()[c], c);
  emitCase(switchOp.getDefaultRegion(), kc - 1);
}

} // namespace

/// Depthwise: every channel has its own accumulator, so the inner level runs
/// over blocks of 4 channels with their 4 sums in registers: one
/// vmcu.depthwise_block each where the requantization is bounded (see
/// emitWindowRequant), else iter_args of the tap loops.
///
/// The window segments go into a kr x kc window buffer (DepthwiseWindow);
/// padding taps hold the input zero point, so the tap loops over the
/// window have constant bounds (vmcu-unroll-microkernels unrolls them) and
/// `(x - zp) * w` of a padding tap is 0. The zero point is folded into the
/// bias: `bias - zp * sum_taps w` (exact modulo 2^32, like the int32
/// accumulator), so a MAC is one multiply-accumulate.
///
/// With one channel segment and column stride 1 the window slides along
/// the row: its columns are a ring (slideColumn), a row starts with tap
/// columns 1..kc-1 of a virtual output column -1 loaded, and each output
/// loads only its last tap column, over the column the previous output
/// read first. Every input pixel is ring-loaded once per window row
/// instead of kc times.
LogicalResult mlir::vmcu::tile::emitDepthwise(Emitter &e, DepthwiseConv2DOp op,
                                              const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  auto wType = op.getWeight().getType();
  int64_t m = op.getDepthMultiplier();
  int64_t s = e.seg, cs = in.getDimSize(3) / s;
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  Axis rows = makeAxis(in.getDimSize(1), out.getDimSize(1), stride[0], pad[0],
                       wType.getDimSize(0));
  Axis cols = makeAxis(in.getDimSize(2), out.getDimSize(2), stride[1], pad[2],
                       wType.getDimSize(1));
  // The window holds the taps with weights: kr x kc of them (a dilated
  // depthwise's own; gatheredTaps).
  GatheredTaps taps = gatheredTaps(op);
  int64_t kr = taps.rows, kc = taps.cols;
  bool stepped = taps.stepped();
  FailureOr<DepthwiseTables> tables =
      packDepthwise(e, "", op, e.seg,
                    stepped ? std::optional<GatheredTaps>(taps) : std::nullopt);
  if (failed(tables))
    return failure();
  RequantAttr rq = op.getRequant();
  Value mult, shift;
  std::tie(mult, shift) =
      e.requantTables("", rq, out.getDimSize(3), tables->valueBound);
  DepthwiseWindow window{
      e,    t,    rows,
      cols, cs,   static_cast<int32_t>(op.getInputZp()),
      m,    taps, e.scratch(kr * kc * s * m, e.b.getI8Type())};
  // The pixel's m output segments of input segment cc, stored once it is
  // freed.
  Value obuf = e.scratch(s * m, e.b.getI8Type());
  // Stepped taps' columns are not consecutive: no sliding window.
  bool slide = cs == 1 && cols.stride == 1 && kc > 1 && !stepped;
  auto rowStart = [&](Value p) {
    Value before = e.index(-1);
    Value segment = e.index(0);
    window.fill(p, before, segment, /*firstTap=*/1, /*slide=*/true);
  };
  // Output segment cc * m + j of a pixel (into obuf[j * s]) from lanes
  // j * s of each window tap.
  auto outputSegments = [&](Value cc, Value slideQ) {
    if (m == 1) {
      emitWindowRequant(e, window.win, *tables, kr, kc, cc, {rq, mult, shift},
                        obuf, e.c(0), slideQ);
      return;
    }
    e.loop(0, m, [&](Value j) {
      Value occ = e.apply(e.d(0) * m + e.d(1), {cc, j});
      WindowLanes lanes{window.tapBytes(), e.apply(e.d(0) * s, {j})};
      emitWindowRequant(e, window.win, *tables, kr, kc, occ, {rq, mult, shift},
                        obuf, (e.d(0) % m) * s, slideQ, lanes);
    });
  };

  e.emitWindowed(
      rows, cols, t.input, cs,
      [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, cs, [&](Value cc) {
          if (stepped)
            window.fillStepped(p, q, cc);
          else
            window.fill(p, q, cc, slide ? kc - 1 : 0, slide);
          auto sums = [&](Value slideQ) { outputSegments(cc, slideQ); };
          // Only register blocks need constant columns: one copy per phase.
          if (slide &&
              hasDepthwiseBlocks(*tables, kr, kc, window.tapBytes(), Value()))
            eachSlidePhase(e, q, kc, sums);
          else
            sums(slide ? q : Value());
          // Channel segment cc of the window is dead once its outputs are
          // computed.
          frees(cc, Value(), 0);
          AffineExpr pixelSegment =
              (e.d(0) * cols.outExtent + e.d(1)) * cs + e.d(2);
          if (m == 1) {
            e.storeSegment(t.output, pixelSegment, {p, q, cc}, obuf);
            return;
          }
          e.loop(0, m, [&](Value j) {
            e.storeSegment(t.output, pixelSegment * m + e.d(3), {p, q, cc, j},
                           obuf, e.apply(e.d(0) * s, {j}));
          });
        });
      },
      slide ? function_ref<void(Value)>(rowStart)
            : function_ref<void(Value)>());
  return success();
}

std::pair<int32_t, int32_t> mlir::vmcu::tile::reciprocalScale(int64_t count) {
  // k = 32 - clz(count - 1), so (1 << k) / 2 < count <= 1 << k.
  int64_t k = 0;
  while ((int64_t(1) << k) < count)
    ++k;
  constexpr int64_t kOne30 = int64_t(1) << 30;
  int64_t numerator = (kOne30 + 1) << k;
  return {static_cast<int32_t>(numerator / count),
          static_cast<int32_t>(30 + k)};
}

namespace {

/// The row and column axes of a pool's windows.
template <typename PoolOp> std::pair<Axis, Axis> poolAxes(PoolOp op) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  return {makeAxis(in.getDimSize(1), out.getDimSize(1), stride[0], pad[0],
                   op.getKernel()[0]),
          makeAxis(in.getDimSize(2), out.getDimSize(2), stride[1], pad[2],
                   op.getKernel()[1])};
}

} // namespace

Value mlir::vmcu::tile::roundHalfAwayAverage(Emitter &e, Value sum, Value count,
                                             int32_t min, int32_t max) {
  OpBuilder &b = e.b;
  Value n = arith::IndexCastOp::create(b, e.loc, b.getI32Type(), count);
  Value half = arith::DivSIOp::create(b, e.loc, n, e.i32(2));
  Value positive =
      arith::CmpIOp::create(b, e.loc, arith::CmpIPredicate::sgt, sum, e.i32(0));
  Value up = arith::AddIOp::create(b, e.loc, sum, half);
  Value down = arith::SubIOp::create(b, e.loc, sum, half);
  Value biased = arith::SelectOp::create(b, e.loc, positive, up, down);
  Value average = arith::DivSIOp::create(b, e.loc, biased, n);
  average = arith::MaxSIOp::create(b, e.loc, average, e.i32(min));
  average = arith::MinSIOp::create(b, e.loc, average, e.i32(max));
  return arith::TruncIOp::create(b, e.loc, b.getI8Type(), average);
}

namespace {

/// The per-lane sums of one channel segment of an average pool. Each whole
/// word of 4 lanes adds into two words of int16 pairs (vmcu.add_pairs:
/// lanes 0 and 2, then 1 and 3); the last 1-3 lanes add into int32 sums.
/// A window of more than 256 taps widens the pairs into int32 sums and
/// clears them after every 256 / kc window rows (or, for rows of more than
/// 256 taps, after each tap).
class PoolSums {
public:
  PoolSums(Emitter &e, int64_t lanes, int64_t rowTaps, int64_t windowTaps)
      : e(e), words(lanes / kDotLanes), tail(lanes % kDotLanes),
        widenEachTap(words > 0 && rowTaps > kInt16SumTerms),
        rowsPerWiden(words > 0 && windowTaps > kInt16SumTerms && !widenEachTap
                         ? kInt16SumTerms / rowTaps
                         : 0) {
    Type i32 = e.b.getI32Type();
    if (words > 0)
      pairs = e.scratch(2 * words, i32);
    if (words > 0 && windowTaps > kInt16SumTerms)
      wide = e.scratch(words * kDotLanes, i32);
    if (tail > 0)
      tailSums = e.scratch(tail, i32);
  }

  bool widensEachTap() const { return widenEachTap; }
  bool widensByRows() const { return rowsPerWiden > 0; }

  /// Zero sums.
  void clear() {
    zero(pairs, 2 * words);
    zero(wide, words * kDotLanes);
    zero(tailSums, tail);
  }

  /// Adds the segment staged in `xbuf`.
  void add(Value xbuf) {
    auto x4 = VectorType::get({kDotLanes}, e.b.getI8Type());
    e.loop(0, words, [&](Value w) {
      Value at = e.apply(e.d(0) * kDotLanes, {w});
      Value x = vector::LoadOp::create(e.b, e.loc, x4, xbuf, ValueRange{at});
      Value evenAt = e.apply(e.d(0) * 2, {w});
      Value oddAt = e.apply(e.d(0) * 2 + 1, {w});
      // Named first: argument order is unspecified, and the IR must not
      // depend on the host compiler.
      Value even = e.load(pairs, evenAt);
      Value odd = e.load(pairs, oddAt);
      auto sum = AddPairsOp::create(e.b, e.loc, even, odd, x);
      e.store(sum.getEvenSum(), pairs, evenAt);
      e.store(sum.getOddSum(), pairs, oddAt);
    });
    for (int64_t i = 0; i < tail; ++i) {
      Value at = e.index(i);
      Value x =
          arith::ExtSIOp::create(e.b, e.loc, e.b.getI32Type(),
                                 e.load(xbuf, e.index(words * kDotLanes + i)));
      e.store(arith::AddIOp::create(e.b, e.loc, e.load(tailSums, at), x),
              tailSums, at);
    }
  }

  /// After window row `r`: widens once every rowsPerWiden rows, so that
  /// no pair sums more than 256 taps.
  void rowEnd(Value r) {
    if (rowsPerWiden == 1) {
      widen();
      return;
    }
    Value phase = e.apply((e.d(0) + 1) % rowsPerWiden, {r});
    Value due = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                      phase, e.index(0));
    auto ifOp = scf::IfOp::create(e.b, e.loc, due, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(ifOp.thenBlock());
    widen();
  }

  /// Adds the pairs into the int32 sums and clears them.
  void widen() {
    e.loop(0, words, [&](Value w) {
      for (int64_t i = 0; i < kDotLanes; ++i) {
        Value at = e.apply(e.d(0) * kDotLanes + i, {w});
        Value old = e.load(wide, at);
        Value sum = arith::AddIOp::create(e.b, e.loc, old, pairLane(w, i));
        e.store(sum, wide, at);
      }
    });
    zero(pairs, 2 * words);
  }

  /// Calls `body(lane, sum)` with every lane's int32 sum: whole words in a
  /// loop, then the tail lanes.
  void forEachLane(function_ref<void(Value, Value)> body) {
    e.loop(0, words, [&](Value w) {
      for (int64_t i = 0; i < kDotLanes; ++i) {
        Value lane = e.apply(e.d(0) * kDotLanes + i, {w});
        Value sum = pairLane(w, i);
        if (wide)
          sum = arith::AddIOp::create(e.b, e.loc, e.load(wide, lane), sum);
        body(lane, sum);
      }
    });
    for (int64_t i = 0; i < tail; ++i) {
      Value sum = e.load(tailSums, e.index(i));
      body(e.index(words * kDotLanes + i), sum);
    }
  }

private:
  void zero(Value sums, int64_t n) {
    if (sums)
      e.loop(0, n, [&](Value k) { e.store(e.i32(0), sums, k); });
  }

  /// Lane `i` of word `w`, sign-extended from its int16 half.
  Value pairLane(Value w, int64_t i) {
    Value word = e.load(pairs, e.apply(e.d(0) * 2 + i % 2, {w}));
    Value half = e.i32(kHalfWordBits);
    if (i / 2 == 0)
      word = arith::ShLIOp::create(e.b, e.loc, word, half);
    return arith::ShRSIOp::create(e.b, e.loc, word, half);
  }

  Emitter &e;
  int64_t words, tail;
  bool widenEachTap;
  int64_t rowsPerWiden;
  Value pairs, wide, tailSums;
};

} // namespace

/// Average pooling: per channel segment of output (p, q), each in-bounds
/// tap's segment is staged and added 4 lanes at a time (PoolSums), then
/// each lane's sum is averaged as TFLite (round half away from zero) or
/// TOSA (the reciprocal's requantization) does.
LogicalResult mlir::vmcu::tile::emitAvgPool(Emitter &e, AvgPool2DOp op,
                                            const KernelTensors &t) {
  Axis rows, cols;
  std::tie(rows, cols) = poolAxes(op);
  int64_t kr = rows.kernel, kc = cols.kernel;
  int64_t s = e.seg, cs = op.getInput().getType().getDimSize(3) / s;
  // 1 / count for every possible number of in-bounds taps.
  SmallVector<int32_t> mults(kr * kc + 1, 0), shifts(kr * kc + 1, 1);
  for (int64_t n = 1; n <= kr * kc; ++n)
    std::tie(mults[n], shifts[n]) = reciprocalScale(n);
  Value mt = e.i32Table("recip_mult", mults);
  Value st = e.i32Table("recip_shift", shifts);
  bool tflite = op.getRoundHalfAway();
  // TFLite averages the raw values; TOSA subtracts the zero point from each
  // value first, which the raw sum does at the end: sum - taps * zp.
  int32_t zp = tflite ? 0 : static_cast<int32_t>(op.getInputZp());
  auto rq = RequantAttr::get(e.ctx, 0, static_cast<int32_t>(op.getOutputZp()),
                             {1}, {1}, /*double_round=*/false,
                             static_cast<int32_t>(op.getMin()),
                             static_cast<int32_t>(op.getMax()));
  PoolSums sums(e, s, kc, kr * kc);
  Value count = e.scratch(1, e.b.getIndexType());
  Value xbuf = e.scratch(s, e.b.getI8Type());
  Value obuf = e.scratch(s, e.b.getI8Type());

  auto average = [&](Value sum, Value n) {
    if (tflite)
      return roundHalfAwayAverage(e, sum, n, rq.getMin(), rq.getMax());
    if (zp != 0) {
      Value taps = arith::IndexCastOp::create(e.b, e.loc, e.b.getI32Type(), n);
      Value offset = arith::MulIOp::create(e.b, e.loc, taps, e.i32(zp));
      sum = arith::SubIOp::create(e.b, e.loc, sum, offset);
    }
    return e.requantize(sum, rq, mt, st, n, e.b.getI8Type());
  };

  e.emitWindowed(
      rows, cols, t.input, cs, [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, cs, [&](Value cc) {
          Value zeroIdx = e.index(0);
          e.store(zeroIdx, count, zeroIdx);
          sums.clear();
          auto tap = [&](Value, Value, Value y, Value x) {
            Value z = e.index(0);
            Value taps = e.load(count, z);
            e.store(arith::AddIOp::create(e.b, e.loc, taps, e.index(1)), count,
                    z);
            e.loadSegment(t.input,
                          (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
                          {y, x, cc}, xbuf);
            sums.add(xbuf);
            if (sums.widensEachTap())
              sums.widen();
          };
          auto rowEnd = [&](Value r) { sums.rowEnd(r); };
          e.forEachTap(rows, cols, p, q, tap,
                       sums.widensByRows() ? function_ref<void(Value)>(rowEnd)
                                           : function_ref<void(Value)>());
          Value n = e.load(count, e.index(0));
          sums.forEachLane([&](Value lane, Value sum) {
            e.store(average(sum, n), obuf, lane);
          });
          frees(cc, Value(), 0);
          e.storeSegment(t.output,
                         (e.d(0) * cols.outExtent + e.d(1)) * cs + e.d(2),
                         {p, q, cc}, obuf);
        });
      });
  return success();
}

/// Max pooling: per channel segment of output (p, q), the running maximum
/// over the in-bounds taps (padding never wins), then the clamp.
LogicalResult mlir::vmcu::tile::emitMaxPool(Emitter &e, MaxPool2DOp op,
                                            const KernelTensors &t) {
  Axis rows, cols;
  std::tie(rows, cols) = poolAxes(op);
  int64_t s = e.seg, cs = op.getInput().getType().getDimSize(3) / s;
  Type i8 = e.b.getI8Type();
  Value best = e.scratch(s, i8);
  Value xbuf = e.scratch(s, i8);
  Value lowest = arith::ConstantOp::create(
      e.b, e.loc, e.b.getI8IntegerAttr(std::numeric_limits<int8_t>::min()));
  auto clampTo = [&](int64_t v) {
    return arith::ConstantOp::create(e.b, e.loc, e.b.getI8IntegerAttr(v));
  };
  Value lo = clampTo(static_cast<int32_t>(op.getMin()));
  Value hi = clampTo(static_cast<int32_t>(op.getMax()));

  e.emitWindowed(
      rows, cols, t.input, cs, [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, cs, [&](Value cc) {
          e.loop(0, s, [&](Value k) { e.store(lowest, best, k); });
          e.forEachTap(rows, cols, p, q, [&](Value, Value, Value y, Value x) {
            e.loadSegment(t.input,
                          (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
                          {y, x, cc}, xbuf);
            e.loop(0, s, [&](Value k) {
              Value bestK = e.load(best, k);
              Value xK = e.load(xbuf, k);
              e.store(arith::MaxSIOp::create(e.b, e.loc, bestK, xK), best, k);
            });
          });
          e.loop(0, s, [&](Value k) {
            Value v = arith::MaxSIOp::create(e.b, e.loc, e.load(best, k), lo);
            e.store(arith::MinSIOp::create(e.b, e.loc, v, hi), best, k);
          });
          frees(cc, Value(), 0);
          e.storeSegment(t.output,
                         (e.d(0) * cols.outExtent + e.d(1)) * cs + e.d(2),
                         {p, q, cc}, best);
        });
      });
  return success();
}
