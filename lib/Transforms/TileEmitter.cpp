//===- TileEmitter.cpp - the kernel emitters' shared builder --------------===//
//
// Emitter's index arithmetic, loops, flash tables, ring accesses, MACs and
// requantization, which every vmcu-tile kernel emitter builds on.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

void Emitter::loop(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                   ValueRange dims, function_ref<void(Value)> body) {
  auto lbMap = AffineMap::get(dims.size(), 0, lbs, ctx);
  auto ubMap = AffineMap::get(dims.size(), 0, ubs, ctx);
  auto op = affine::AffineForOp::create(b, loc, dims, lbMap, dims, ubMap);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(op.getBody());
  body(op.getInductionVar());
}

void Emitter::loop(int64_t lb, int64_t ub, function_ref<void(Value)> body) {
  if (lb >= ub)
    return;
  auto op = affine::AffineForOp::create(b, loc, lb, ub);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(op.getBody());
  body(op.getInductionVar());
}

scf::ForOp Emitter::rolledLoop(int64_t trips, ValueRange inits) {
  Value lower = index(0), upper = index(trips), step = index(1);
  auto loop = scf::ForOp::create(b, loc, lower, upper, step, inits);
  setNoUnroll(loop);
  return loop;
}

Value Emitter::ringAddress(Value base, AffineExpr segIndex, ValueRange dims) {
  SmallVector<Value> operands(dims.begin(), dims.end());
  operands.push_back(base);
  return apply(d(dims.size()) + segIndex * unitsPerSeg, operands);
}

void Emitter::loadSegment(Value base, AffineExpr segIndex, ValueRange dims,
                          Value buf, Value at) {
  Value addr = ringAddress(base, segIndex, dims);
  Value v = RingLoadOp::create(b, loc, segType(), env.pool, addr, Value());
  vector::StoreOp::create(b, loc, v, buf, ValueRange{at ? at : index(0)});
}

void Emitter::storeSegment(Value base, AffineExpr segIndex, ValueRange dims,
                           Value buf, Value at) {
  Value v = vector::LoadOp::create(b, loc, segType(), buf,
                                   ValueRange{at ? at : index(0)});
  Value addr = ringAddress(base, segIndex, dims);
  RingStoreOp::create(b, loc, v, env.pool, addr, Value());
}

void Emitter::freeSegment(Value base, AffineExpr segIndex, ValueRange dims) {
  if (llvm::is_contained(keepAlive, base))
    return;
  Value addr = ringAddress(base, segIndex, dims);
  FreeOp::create(b, loc, env.pool, addr, unitsPerSeg);
}

Value Emitter::mac(Value acc, Value x, int32_t zp, Value w) {
  Type i32Type = b.getI32Type();
  Value xs = arith::ExtSIOp::create(b, loc, i32Type, x);
  if (zp != 0)
    xs = arith::SubIOp::create(b, loc, xs, i32(zp));
  Value ws = w.getType() == i32Type
                 ? w
                 : Value(arith::ExtSIOp::create(b, loc, i32Type, w));
  Value prod = arith::MulIOp::create(b, loc, xs, ws);
  return arith::AddIOp::create(b, loc, acc, prod);
}

void Emitter::dotRow(Value acc, Value accIdx, Value xbuf, int64_t lanes,
                     int32_t zp, Value weights, AffineExpr wBase,
                     ValueRange wDims) {
  auto lane = VectorType::get({kDotLanes}, b.getI8Type());
  int64_t blocks = lanes / kDotLanes;
  Value sum = load(acc, accIdx);
  if (blocks > 0) {
    auto forOp = affine::AffineForOp::create(
        b, loc, 0, blocks, 1, ValueRange{sum},
        [&](OpBuilder &nested, Location, Value c4, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> dims(wDims.begin(), wDims.end());
          dims.push_back(c4);
          Value wIdx = apply(wBase + d(wDims.size()) * kDotLanes, dims);
          Value xIdx = apply(d(0) * kDotLanes, c4);
          Value xv =
              vector::LoadOp::create(b, loc, lane, xbuf, ValueRange{xIdx});
          Value wv =
              vector::LoadOp::create(b, loc, lane, weights, ValueRange{wIdx});
          Value r = DotOp::create(b, loc, b.getI32Type(), args[0], xv, wv,
                                  b.getI32IntegerAttr(-zp));
          affine::AffineYieldOp::create(b, loc, r);
        });
    sum = forOp.getResult(0);
  }
  // At most kDotLanes - 1 leftover lanes: straight-line scalar MACs.
  for (int64_t c = blocks * kDotLanes; c < lanes; ++c) {
    Value ci = index(c);
    SmallVector<Value> dims(wDims.begin(), wDims.end());
    dims.push_back(ci);
    Value wIdx = apply(wBase + d(wDims.size()), dims);
    Value x = load(xbuf, ci);
    Value w = load(weights, wIdx);
    sum = mac(sum, x, zp, w);
  }
  store(sum, acc, accIdx);
}

Value Emitter::requantize(Value v, RequantAttr rq, Value mult, Value shift,
                          Value ch, Type resultType) {
  auto bounded = boundedTables.find(mult);
  if (bounded != boundedTables.end())
    return boundedRequantize(v, rq, mult, bounded->second, ch, resultType);
  // requantTables gave `mult` a rounding table iff every shift it wrote is
  // wide.
  auto round = roundTables.find(mult);
  bool wide = round != roundTables.end();
  Value roundTerm = wide ? tableEntryWord(round->second, 1, ch, 0) : Value();
  Value channelMult = tableEntryWord(mult, 1, ch, 0);
  Value channelShift = tableEntryWord(shift, 1, ch, 0);
  return RequantizeOp::create(
      b, loc, resultType, v, channelMult, channelShift, roundTerm, Value(),
      b.getI32IntegerAttr(rq.getInputZp()),
      b.getI32IntegerAttr(rq.getOutputZp()), b.getI32IntegerAttr(rq.getMin()),
      b.getI32IntegerAttr(rq.getMax()), b.getBoolAttr(rq.getDoubleRound()),
      wide ? b.getUnitAttr() : UnitAttr(), UnitAttr());
}

Value Emitter::rescaleToI32(Value v, RequantAttr rq) {
  Type i32Type = b.getI32Type();
  Value wide = arith::ExtSIOp::create(b, loc, i32Type, v);
  if (v.getType().isInteger(8) && !env.compactCode) {
    Value table = getGlobal(rescaleTable(rq));
    Value offset = i32(-kInt8Lowest);
    Value biased = arith::AddIOp::create(b, loc, wide, offset);
    Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), biased);
    return load(table, at);
  }
  Value multiplier, shift;
  int32_t inputZp = 0;
  bool doubleRound = rq.getDoubleRound();
  bool narrow = false;
  if (v.getType().isInteger(8)) {
    RescaleWords words = rescaleWords(rq);
    multiplier = words.multiplier;
    shift = words.shift;
    wide = arith::SubIOp::create(b, loc, wide, words.inputZp);
    // TOSA rounds twice only above a shift of 31: decided here, where the
    // shift is known, rather than per element.
    doubleRound &= rq.getShift()[0] >= kRequantMinWideShift;
    // |x - zp| <= 255: one SMMULR where the shift leaves it room.
    narrow = rq.getShift()[0] >= kRequantNarrowMinShift &&
             rq.getShift()[0] < kRequantMinWideShift;
  } else {
    multiplier = i32(rq.getMultiplier()[0]);
    shift = i32(rq.getShift()[0]);
    inputZp = rq.getInputZp();
  }
  return RequantizeOp::create(
      b, loc, i32Type, wide, multiplier, shift, Value(), Value(),
      b.getI32IntegerAttr(inputZp), b.getI32IntegerAttr(rq.getOutputZp()),
      b.getI32IntegerAttr(rq.getMin()), b.getI32IntegerAttr(rq.getMax()),
      b.getBoolAttr(doubleRound), UnitAttr(), UnitAttr(),
      narrow ? b.getUnitAttr() : UnitAttr());
}

int64_t Emitter::addValueBound(RequantAttr lhs, RequantAttr rhs) {
  auto largest = [](RequantAttr rq) {
    int64_t bound = 0;
    for (int32_t r : rescaleResults(rq))
      bound = std::max<int64_t>(bound, std::abs(int64_t{r}));
    return bound;
  };
  return largest(lhs) + largest(rhs);
}

void Emitter::foldResidual(Value skip, ResidualAddAttr add, int64_t channels) {
  auto [mult, shift] =
      requantTables("add_", add.getRequant(), channels,
                    addValueBound(add.getConv(), add.getSkip()));
  residual = ResidualEpilogue{skip,
                              add,
                              channels / seg,
                              mult,
                              shift,
                              scratch(seg, b.getI8Type()),
                              scratch(seg, b.getI8Type())};
}

Emitter::PoolAverage Emitter::PoolAverage::of(GlobalAvgPoolAttr average) {
  return {average.getInputZp(),       average.getOutputZp(),
          average.getMin(),           average.getMax(),
          average.getRoundHalfAway(), average.getRequant()};
}

Emitter::PoolAverage Emitter::PoolAverage::of(WindowAvgPoolAttr average) {
  return {average.getInputZp(), average.getOutputZp(),      average.getMin(),
          average.getMax(),     average.getRoundHalfAway(), RequantAttr()};
}

Emitter::PoolEpilogue Emitter::makePoolSums(PoolAverage average, int64_t pixels,
                                            int64_t channels) {
  Value sums = scratch(channels, b.getI32Type());
  loop(0, channels, [&](Value ch) { store(i32(0), sums, ch); });
  return PoolEpilogue{average, channels / seg, pixels, sums,
                      scratch(seg, b.getI8Type())};
}

void Emitter::foldGlobalPool(GlobalAvgPoolAttr average, int64_t pixels,
                             int64_t channels) {
  pool = makePoolSums(PoolAverage::of(average), pixels, channels);
}

// TOSA's average or a MEAN: the zero point's share of the sum subtracted,
// then reciprocal_scale(count) (single rounding) or the MEAN's
// requantization applied.
Emitter::PoolTables Emitter::poolTables(const PoolEpilogue &p) {
  const PoolAverage &average = p.average;
  PoolTables tables{average.requant, Value(), Value(), Value()};
  if (average.roundHalfAway)
    return tables;
  RequantAttr &rq = tables.rq;
  if (!rq) {
    auto [m, sh] = reciprocalScale(p.pixels);
    rq = RequantAttr::get(ctx, 0, average.outputZp, {m}, {sh},
                          /*double_round=*/false, average.min, average.max);
  }
  std::tie(tables.mult, tables.shift) =
      requantTables("pool_", rq, rq.isPerChannel() ? p.pixelSegments * seg : 1);
  tables.zpShare = i32(p.pixels * int64_t{average.inputZp});
  return tables;
}

void Emitter::storePoolAverages(const PoolTables &tables, Value output,
                                AffineExpr pixel, ValueRange dims,
                                bool resetSums) {
  const PoolEpilogue &p = *pool;
  const PoolAverage &average = p.average;
  unsigned k = dims.size();
  SmallVector<Value> operands(dims.begin(), dims.end());
  loop(0, p.pixelSegments, [&](Value cc) {
    loop(0, seg, [&](Value lane) {
      Value ch = apply(d(0) * seg + d(1), {cc, lane});
      Value sum = load(p.sums, ch);
      Value value;
      if (average.roundHalfAway) {
        value = roundHalfAwayAverage(*this, sum, index(p.pixels), average.min,
                                     average.max);
      } else {
        // Each op named first: argument order is unspecified.
        Value raw = arith::SubIOp::create(b, loc, sum, tables.zpShare);
        Value channel = tables.rq.isPerChannel() ? ch : index(0);
        value = requantize(raw, tables.rq, tables.mult, tables.shift, channel,
                           b.getI8Type());
      }
      store(value, p.averages, lane);
      if (resetSums)
        store(i32(0), p.sums, ch);
    });
    operands.push_back(cc);
    storeSegment(output, pixel * p.pixelSegments + d(k), operands, p.averages);
    operands.pop_back();
  });
}

void Emitter::finishGlobalPool(Value output) {
  PoolTables tables = poolTables(*pool);
  storePoolAverages(tables, output, c(0), {}, /*resetSums=*/false);
}

void Emitter::foldWindowPool(WindowAvgPoolAttr average, int64_t channels,
                             Value output, int64_t outCols) {
  int64_t pixels = average.getKernelH() * average.getKernelW();
  pool = makePoolSums(PoolAverage::of(average), pixels, channels);
  windowPool = WindowPool{average.getKernelH(), average.getKernelW(), output,
                          outCols, poolTables(*pool)};
}

void Emitter::storeOutput(Value output, AffineExpr segIndex, ValueRange dims,
                          Value buf, Value at) {
  if (pool)
    return addToPoolSums(segIndex, dims, buf, at);
  if (!residual)
    return storeSegment(output, segIndex, dims, buf, at);
  const ResidualEpilogue &r = *residual;
  loadSegment(r.skip, segIndex, dims, r.skipBuf);
  forEachLane(segIndex, dims, r.pixelSegments, [&](Value lane, Value ch) {
    Value y = load(buf, at ? apply(d(0) + d(1), {at, lane}) : lane);
    Value conv32 = rescaleToI32(y, r.add.getConv());
    Value skip32 = rescaleToI32(load(r.skipBuf, lane), r.add.getSkip());
    Value sum = arith::AddIOp::create(b, loc, conv32, skip32);
    store(
        requantize(sum, r.add.getRequant(), r.mult, r.shift, ch, b.getI8Type()),
        r.sumBuf, lane);
  });
  freeSegment(r.skip, segIndex, dims);
  storeSegment(output, segIndex, dims, r.sumBuf);
}

void Emitter::addToPoolSums(AffineExpr segIndex, ValueRange dims, Value buf,
                            Value at) {
  const PoolEpilogue &p = *pool;
  forEachLane(segIndex, dims, p.pixelSegments, [&](Value lane, Value ch) {
    Value y = load(buf, at ? apply(d(0) + d(1), {at, lane}) : lane);
    Value y32 = arith::ExtSIOp::create(b, loc, b.getI32Type(), y);
    store(arith::AddIOp::create(b, loc, load(p.sums, ch), y32), p.sums, ch);
  });
}

void Emitter::forEachLane(AffineExpr segIndex, ValueRange dims,
                          int64_t pixelSegments,
                          function_ref<void(Value, Value)> body) {
  unsigned k = dims.size();
  SmallVector<Value> operands(dims.begin(), dims.end());
  loop(0, seg, [&](Value lane) {
    operands.push_back(lane);
    body(lane, apply(segIndex % pixelSegments * seg + d(k), operands));
    operands.pop_back();
  });
}

std::pair<Value, Value>
Emitter::requantTables(StringRef prefix, RequantAttr rq, int64_t channels,
                       std::optional<int64_t> valueBound) {
  auto [mult, shift] = channelScales(rq, channels);
  // A per-tensor scale (or equal channels' scales) keeps one entry.
  bool uniform = llvm::all_equal(mult) && llvm::all_equal(shift);
  int64_t entries = uniform ? 1 : channels;
  if (std::optional<BoundedWords> bounded =
          boundedWords(rq, entries, valueBound, env.compactCode)) {
    BoundedTable table{bounded->zpFolded, env.compactCode, {}, {}};
    Value params;
    if (env.compactCode)
      std::tie(params, table.exponents, table.halfOdd) = compactRequantTable(
          (prefix + "requant").str(), bounded->words, bounded->exponents,
          halfOddFactor(rq, bounded->zpFolded));
    else
      params = i32Table((prefix + "requant").str(), bounded->words);
    boundedTables[params] = table;
    if (uniform)
      uniformTables.insert(params);
    return {params, params};
  }
  mult.resize(entries);
  shift.resize(entries);
  bool wide =
      llvm::all_of(shift, [](int32_t s) { return s >= kRequantMinWideShift; });
  Value multTable = i32Table((prefix + "mult").str(), mult);
  Value shiftTable = i32Table((prefix + "shift").str(), shift);
  if (wide) {
    SmallVector<int64_t> round;
    for (int32_t s : shift)
      round.push_back(requantRoundTerm(s, rq.getDoubleRound()));
    Value roundTable = table((prefix + "round").str(), ArrayRef<int64_t>(round),
                             b.getI64Type());
    roundTables[multTable] = roundTable;
    if (uniform)
      uniformTables.insert(roundTable);
  }
  if (uniform)
    uniformTables.insert_range(ArrayRef<Value>{multTable, shiftTable});
  return {multTable, shiftTable};
}

std::tuple<Value, Value, Value>
Emitter::compactRequantTable(StringRef suffix, ArrayRef<int32_t> multipliers,
                             ArrayRef<int8_t> exponents, int32_t halfOdd) {
  SmallVector<int8_t> bytes;
  auto appendWord = [&](int32_t word) {
    llvm::append_range(bytes, wordBytes(static_cast<uint32_t>(word)));
  };
  llvm::for_each(multipliers, appendWord);
  llvm::append_range(bytes, exponents);
  bytes.resize(llvm::alignTo(bytes.size(), kWordBytes), 0);
  int64_t halfOddAt = static_cast<int64_t>(bytes.size());
  appendWord(halfOdd);
  Value packed = i8Table(suffix, bytes);
  auto view = [&](int64_t at, int64_t n, Type type) {
    return memref::ViewOp::create(b, loc, MemRefType::get({n}, type), packed,
                                  index(at), ValueRange());
  };
  Type i32Type = b.getI32Type();
  auto n = static_cast<int64_t>(multipliers.size());
  Value words = view(0, n, i32Type);
  Value exponentBytes = view(n * kWordBytes, n, b.getI8Type());
  Value odd = load(view(halfOddAt, 1, i32Type), index(0));
  return {words, exponentBytes, odd};
}

Value Emitter::tableEntryWord(Value table, int64_t entryWords, Value ch,
                              int64_t k) {
  if (uniformTables.contains(table))
    return load(table, index(k));
  return load(table, apply(d(0) * entryWords + k, ch));
}

bool Emitter::requantizeBlock(ValueRange sums, int64_t pixels, RequantAttr rq,
                              Value mult, Value first, Value out, Value at,
                              int64_t stride) {
  auto bounded = boundedTables.find(mult);
  if (bounded == boundedTables.end())
    return false;
  const BoundedTable &table = bounded->second;
  bool uniform = uniformTables.contains(mult);
  Value entry = uniform ? index(0) : apply(d(0) * table.words(), first);
  RequantBlockOp::create(
      b, loc, sums, out, at, mult, entry, table.exponents, table.halfOdd,
      b.getI64IntegerAttr(pixels), b.getI64IntegerAttr(stride),
      b.getBoolAttr(rq.getDoubleRound()),
      b.getI32IntegerAttr(table.zpFolded ? 0 : rq.getOutputZp()),
      b.getI32IntegerAttr(rq.getMin()), b.getI32IntegerAttr(rq.getMax()),
      table.compactTable ? b.getUnitAttr() : UnitAttr(),
      uniform ? b.getUnitAttr() : UnitAttr());
  return true;
}

SmallVector<int32_t> Emitter::rescaleResults(RequantAttr rq) {
  SmallVector<int32_t> results;
  for (int64_t x = kInt8Lowest; x < kInt8Lowest + kInt8Values; ++x)
    results.push_back(static_cast<int32_t>(fixedpoint::tosaRescale(
        x, rq.getMultiplier()[0], rq.getShift()[0], rq.getDoubleRound(),
        rq.getInputZp(), rq.getOutputZp(), rq.getMin(), rq.getMax())));
  return results;
}

Emitter::RescaleWords Emitter::rescaleWords(RequantAttr rq) {
  auto cached = rescaleWordValues.find(rq);
  if (cached != rescaleWordValues.end())
    return cached->second;
  // Read once, not per element: stores in the kernel's loops may alias a
  // table whose address is an argument, so LLVM would not hoist the loads.
  // At the kernel's start, after the words read before (in the order the
  // kernel asks for them).
  OpBuilder::InsertionGuard guard(b);
  if (lastRescaleRead)
    b.setInsertionPointAfter(lastRescaleRead);
  else
    b.setInsertionPointToStart(kernelBody);
  std::array<int32_t, kRescaleParamWords> table;
  table[kRescaleMultiplierWord] = rq.getMultiplier()[0];
  table[kRescaleShiftWord] = rq.getShift()[0];
  table[kRescaleInputZpWord] = rq.getInputZp();
  Value params = i32Table("rescale_params", ArrayRef<int32_t>(table));
  RescaleWords words{load(params, index(kRescaleMultiplierWord)),
                     load(params, index(kRescaleShiftWord)),
                     load(params, index(kRescaleInputZpWord))};
  rescaleWordValues[rq] = words;
  lastRescaleRead = words.inputZp.getDefiningOp();
  return words;
}

memref::GlobalOp Emitter::rescaleTable(RequantAttr rq) {
  auto cached = rescaleTables.find(rq);
  if (cached != rescaleTables.end())
    return cached->second;
  memref::GlobalOp global = globalTable(
      "rescale", ArrayRef<int32_t>(rescaleResults(rq)), b.getI32Type());
  rescaleTables[rq] = global;
  return global;
}

std::pair<SmallVector<int32_t>, SmallVector<int32_t>>
Emitter::channelScales(RequantAttr rq, int64_t channels) {
  SmallVector<int32_t> mult, shift;
  for (int64_t k = 0; k < channels; ++k) {
    size_t i = rq.isPerChannel() ? k : 0;
    mult.push_back(rq.getMultiplier()[i]);
    shift.push_back(mult.back() == 0 ? std::max<int32_t>(rq.getShift()[i],
                                                         kRequantMinWideShift)
                                     : rq.getShift()[i]);
  }
  return {mult, shift};
}

std::optional<Emitter::BoundedWords>
Emitter::boundedWords(RequantAttr rq, int64_t channels,
                      std::optional<int64_t> valueBound, bool compactTable) {
  SmallVector<int32_t> mult, shift;
  std::tie(mult, shift) = channelScales(rq, channels);
  bool wide =
      llvm::all_of(shift, [](int32_t s) { return s >= kRequantMinWideShift; });
  if (!wide || !valueBound || *valueBound >= kRequantBoundedValue ||
      rq.getInputZp() != 0)
    return std::nullopt;
  constexpr int64_t kWordBits = 32;
  int64_t zp = rq.getOutputZp();
  auto exponent = [&](size_t k) { return shift[k] - kProductShift; };
  auto fits = [&](size_t k) {
    int64_t e = exponent(k);
    int64_t product =
        (2 * *valueBound * std::abs(int64_t{mult[k]})) >> kWordBits;
    int64_t q = product + (int64_t{1} << (e - 1)) + 2;
    return q + std::abs(zp) * (int64_t{1} << e) <=
           std::numeric_limits<int32_t>::max();
  };
  bool fold = zp != 0 && llvm::all_of(llvm::seq<size_t>(0, mult.size()), fits);
  BoundedWords bounded{{}, fold, {}};
  for (size_t k = 0; k < mult.size(); ++k) {
    int64_t e = exponent(k);
    int64_t half =
        (int64_t{1} << (e - 1)) + (fold ? zp * (int64_t{1} << e) : 0);
    if (compactTable) {
      bounded.words.push_back(mult[k]);
      bounded.exponents.push_back(static_cast<int8_t>(e));
    } else {
      llvm::append_values(bounded.words, mult[k], static_cast<int32_t>(e),
                          static_cast<int32_t>(half));
    }
  }
  return bounded;
}

int32_t Emitter::halfOddFactor(RequantAttr rq, bool zpFolded) {
  return 1 + 2 * (zpFolded ? rq.getOutputZp() : 0);
}

Value Emitter::boundedRequantize(Value v, RequantAttr rq, Value params,
                                 BoundedTable table, Value ch,
                                 Type resultType) {
  auto word = [&](int64_t k) {
    return tableEntryWord(params, table.words(), ch, k);
  };
  // The op takes the shift: e + 31, which its lowering's e = shift - 31
  // folds away. A compact table's e is a byte of its exponents and its
  // half term is computed.
  // One op per statement: the IR must not depend on the host compiler's
  // order of argument evaluation.
  Value m = word(0), half, sh;
  if (table.compactTable) {
    // half = (1 + 2z) << (e - 1), z the output zero point where folded.
    Value at = uniformTables.contains(params) ? index(0) : ch;
    Value e8 = load(table.exponents, at);
    Value e = arith::ExtUIOp::create(b, loc, b.getI32Type(), e8);
    Value below = arith::SubIOp::create(b, loc, e, i32(1));
    half = arith::ShLIOp::create(b, loc, table.halfOdd, below);
    sh = arith::AddIOp::create(b, loc, e, i32(kProductShift));
  } else {
    half = word(2);
    Value e = word(1);
    sh = arith::AddIOp::create(b, loc, e, i32(kProductShift));
  }
  return RequantizeOp::create(
      b, loc, resultType, v, m, sh, Value(), half, b.getI32IntegerAttr(0),
      b.getI32IntegerAttr(table.zpFolded ? 0 : rq.getOutputZp()),
      b.getI32IntegerAttr(rq.getMin()), b.getI32IntegerAttr(rq.getMax()),
      b.getBoolAttr(rq.getDoubleRound()), b.getUnitAttr(), b.getUnitAttr());
}

void Emitter::forEachTap(const Axis &rows, const Axis &cols, Value p, Value q,
                         function_ref<void(Value, Value, Value, Value)> body,
                         function_ref<void(Value)> rowEnd, int64_t rowStep,
                         int64_t colStep) {
  if (rowStep > 1 || colStep > 1)
    return forEachSteppedTap(rows, cols, p, q, body, rowEnd, rowStep, colStep);
  // An axis whose windows all lie inside the input takes every tap: its
  // bounds are constants whatever the range of p or q is known to be.
  auto tapBounds = [&](const Axis &a) -> Bounds {
    if (interiorOutputs(a) == a.outExtent)
      return {{c(0)}, {c(a.kernel)}};
    auto [first, end] = insideTaps(a);
    return {{c(0), first}, {c(a.kernel), end}};
  };
  Bounds rowTaps = tapBounds(rows), colTaps = tapBounds(cols);
  loop(rowTaps.first, rowTaps.second, p,
       [&](Value r) {
         loop(colTaps.first, colTaps.second, q,
              [&](Value t) {
                Value y =
                    apply((d(0) * rows.stride - rows.pad + d(1)) * rows.scale,
                          {p, r});
                Value x =
                    apply((d(0) * cols.stride - cols.pad + d(1)) * cols.scale,
                          {q, t});
                body(r, t, y, x);
              });
         if (rowEnd)
           rowEnd(r);
       });
}

void Emitter::forEachSteppedTap(
    const Axis &rows, const Axis &cols, Value p, Value q,
    function_ref<void(Value, Value, Value, Value)> body,
    function_ref<void(Value)> rowEnd, int64_t rowStep, int64_t colStep) {
  // Tap i of output o sits at input position o * stride - pad + i * step.
  // Where some window leaves the input, a loop of at most one trip takes
  // the tap only inside it: bounds linear in o and i, which the first
  // inside tap's ceil((pad - o * stride) / step) is not.
  auto eachTap = [&](const Axis &a, int64_t step, Value o,
                     function_ref<void(Value, Value)> tapBody) {
    int64_t taps = (a.kernel - 1) / step + 1;
    AffineExpr pos = tapPosition(a, step);
    loop(0, taps, [&](Value i) {
      auto visit = [&](Value) { tapBody(i, apply(pos * a.scale, {o, i})); };
      if (interiorOutputs(a) == a.outExtent)
        return visit(Value());
      loop({c(0), -pos}, {c(1), c(a.bExtent) - pos}, {o, i}, visit);
    });
  };
  eachTap(rows, rowStep, p, [&](Value r, Value y) {
    eachTap(cols, colStep, q, [&](Value t, Value x) { body(r, t, y, x); });
    if (rowEnd)
      rowEnd(r);
  });
}

int64_t Emitter::interiorOutputs(const Axis &a) {
  int64_t count = 0;
  for (int64_t o = 0; o < a.outExtent; ++o)
    if (o * a.stride >= a.pad && o * a.stride - a.pad + a.kernel <= a.bExtent)
      ++count;
  return count;
}

int64_t mlir::vmcu::tile::accumulatorBound(ArrayRef<int32_t> bias, int64_t macs,
                                           RequantAttr rq) {
  constexpr int64_t kMaxProduct = 255 * 128;
  int64_t largest = 0;
  for (auto [k, v] : llvm::enumerate(bias)) {
    if (rq.getMultiplier()[rq.isPerChannel() ? k : 0] == 0)
      continue;
    largest = std::max<int64_t>(largest, std::abs(static_cast<int64_t>(v)));
  }
  return largest + macs * kMaxProduct;
}
