//===- TileEmitter.h - shared pieces of the kernel emitters -----*- C++ -*-===//
//
// The loop, table and ring-access builder every vmcu-tile kernel emitter
// uses (paper Figures 4-6), and the emitters of each kernel family:
// TileConv.cpp (conv2d, fully_connected), TileGemm.cpp (their pointwise
// GEMM form), TileWindowed.cpp (depthwise,
// avg_pool2d), TileBottleneck.cpp (fused bottlenecks), TileSoftmax.cpp
// (softmax), TileKernels.cpp (add and the dispatch).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_TILEEMITTER_H
#define VMCU_LIB_TRANSFORMS_TILEEMITTER_H

#include "TileKernels.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Utils/FixedPoint.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::vmcu::tile {

/// Alignment of the flash tables, so 4-lane weight loads are word loads.
constexpr int64_t kTableAlignment = 4;

/// One spatial dimension of a windowed kernel. Output index p reads the
/// B-space indices p * stride - pad + r for taps r < kernel that lie in
/// [0, bExtent); B index b is input (A) index b * scale. For a plain conv
/// scale is 1 and B is the input; a bottleneck's first pointwise stride is
/// the scale.
struct Axis {
  int64_t inExtent;
  int64_t outExtent;
  int64_t scale;
  int64_t stride;
  int64_t pad;
  int64_t kernel;
  int64_t bExtent;
};

/// Builds index arithmetic, loops, tables and ring accesses for one kernel.
class Emitter {
public:
  Emitter(OpBuilder &b, const KernelEnv &env, Location loc, int64_t segBytes)
      : b(b), env(env), loc(loc), ctx(b.getContext()), seg(segBytes),
        unitsPerSeg(segBytes / env.unitBytes) {}

  /// Tensors a later kernel still reads: their frees are not emitted.
  SmallVector<Value, 2> keepAlive;

  OpBuilder &b;
  const KernelEnv &env;
  Location loc;
  MLIRContext *ctx;
  int64_t seg;
  int64_t unitsPerSeg;

  AffineExpr d(unsigned i) { return getAffineDimExpr(i, ctx); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, ctx); }

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }

  /// affine.apply of `e` over `dims` (d0, d1, ... in order).
  Value apply(AffineExpr e, ValueRange dims) {
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(dims.size(), 0, e), dims);
  }

  /// `for iv = max(lbs) to min(ubs)` with the bounds over `dims`.
  void loop(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs, ValueRange dims,
            function_ref<void(Value)> body) {
    auto lbMap = AffineMap::get(dims.size(), 0, lbs, ctx);
    auto ubMap = AffineMap::get(dims.size(), 0, ubs, ctx);
    auto op = affine::AffineForOp::create(b, loc, dims, lbMap, dims, ubMap);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.getBody());
    body(op.getInductionVar());
  }

  void loop(int64_t lb, int64_t ub, function_ref<void(Value)> body) {
    if (lb >= ub)
      return;
    auto op = affine::AffineForOp::create(b, loc, lb, ub);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.getBody());
    body(op.getInductionVar());
  }

  /// An scf.for LLVM must not unroll: its body is a long fixed sequence
  /// already (an inline-assembly block), and unrolled copies only grow
  /// flash and the stack frame.
  scf::ForOp rolledLoop(int64_t trips, ValueRange inits = {}) {
    auto loop =
        scf::ForOp::create(b, loc, index(0), index(trips), index(1), inits);
    auto noUnroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                              {}, {}, {}, {}, {});
    loop->setAttr("llvm.loop_annotation",
                  LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, noUnroll, {},
                                                {}, {}, {}, {}, {}, {}, {}, {},
                                                {}, {}));
    return loop;
  }

  /// A private constant table in flash, read back with memref.get_global.
  template <typename T>
  Value table(StringRef suffix, ArrayRef<T> data, Type elemType) {
    return getGlobal(globalTable(suffix, data, elemType));
  }

  /// A private constant global of the module holding `data`, named after
  /// the kernel and `suffix` (made unique).
  template <typename T>
  memref::GlobalOp globalTable(StringRef suffix, ArrayRef<T> data,
                               Type elemType) {
    auto memrefType =
        MemRefType::get({static_cast<int64_t>(data.size())}, elemType);
    auto tensorType = RankedTensorType::get(memrefType.getShape(), elemType);
    OpBuilder detached(ctx);
    auto global = memref::GlobalOp::create(
        detached, loc, (env.name + "_" + suffix).str(),
        detached.getStringAttr("private"), memrefType,
        DenseElementsAttr::get(tensorType, data), /*constant=*/true,
        detached.getI64IntegerAttr(kTableAlignment));
    ModuleOp module = env.module;
    SymbolTable(module).insert(global, module.getBody()->begin());
    return global;
  }

  Value getGlobal(memref::GlobalOp global) {
    return memref::GetGlobalOp::create(b, loc, global.getType(),
                                       global.getSymName());
  }

  Value i8Table(StringRef suffix, ArrayRef<int8_t> data) {
    return table(suffix, data, b.getI8Type());
  }
  Value i32Table(StringRef suffix, ArrayRef<int32_t> data) {
    return table(suffix, data, b.getI32Type());
  }

  Value scratch(int64_t n, Type type) {
    return memref::AllocaOp::create(b, loc, MemRefType::get({n}, type));
  }
  Value load(Value mem, Value i) {
    return memref::LoadOp::create(b, loc, mem, ValueRange{i});
  }
  void store(Value v, Value mem, Value i) {
    memref::StoreOp::create(b, loc, v, mem, ValueRange{i});
  }

  /// Pool unit address of segment `segIndex` of the tensor at `base`.
  Value ringAddress(Value base, AffineExpr segIndex, ValueRange dims) {
    SmallVector<Value> operands(dims.begin(), dims.end());
    operands.push_back(base);
    return apply(d(dims.size()) + segIndex * unitsPerSeg, operands);
  }

  VectorType segType() { return VectorType::get({seg}, b.getI8Type()); }

  /// Ring-loads one segment into `buf` at element `at` (default 0).
  void loadSegment(Value base, AffineExpr segIndex, ValueRange dims, Value buf,
                   Value at = Value()) {
    Value addr = ringAddress(base, segIndex, dims);
    Value v = RingLoadOp::create(b, loc, segType(), env.pool, addr, Value());
    vector::StoreOp::create(b, loc, v, buf, ValueRange{at ? at : index(0)});
  }

  /// Ring-stores the segment at element `at` (default 0) of `buf`.
  void storeSegment(Value base, AffineExpr segIndex, ValueRange dims, Value buf,
                    Value at = Value()) {
    Value v = vector::LoadOp::create(b, loc, segType(), buf,
                                     ValueRange{at ? at : index(0)});
    Value addr = ringAddress(base, segIndex, dims);
    RingStoreOp::create(b, loc, v, env.pool, addr, Value());
  }

  void freeSegment(Value base, AffineExpr segIndex, ValueRange dims) {
    if (llvm::is_contained(keepAlive, base))
      return;
    Value addr = ringAddress(base, segIndex, dims);
    FreeOp::create(b, loc, env.pool, addr, unitsPerSeg);
  }

  /// acc + (sext(x) - zp) * sext(w), all int32.
  Value mac(Value acc, Value x, int32_t zp, Value w) {
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

  /// acc[accIdx] += sum_c (xbuf[c] - zp) * w[wBase + c] over `lanes`
  /// channels: 4-lane vmcu.dot blocks, then scalar lanes. The sum is carried
  /// in a register (iter_args) and stored once.
  void dotRow(Value acc, Value accIdx, Value xbuf, int64_t lanes, int32_t zp,
              Value weights, AffineExpr wBase, ValueRange wDims) {
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
      sum = mac(sum, load(xbuf, ci), zp, load(weights, wIdx));
    }
    store(sum, acc, accIdx);
  }

  /// vmcu.requantize of `v` with channel `ch`'s entry of the tables (from
  /// requantTables, or others without a rounding table).
  Value requantize(Value v, RequantAttr rq, Value mult, Value shift, Value ch,
                   Type resultType) {
    auto bounded = boundedTables.find(mult);
    if (bounded != boundedTables.end())
      return boundedRequantize(v, rq, mult, bounded->second, ch, resultType);
    // requantTables gave `mult` a rounding table iff every shift it wrote is
    // wide.
    auto round = roundTables.find(mult);
    bool wide = round != roundTables.end();
    Value roundTerm = wide ? load(round->second, ch) : Value();
    return RequantizeOp::create(
        b, loc, resultType, v, load(mult, ch), load(shift, ch), roundTerm,
        Value(), b.getI32IntegerAttr(rq.getInputZp()),
        b.getI32IntegerAttr(rq.getOutputZp()), b.getI32IntegerAttr(rq.getMin()),
        b.getI32IntegerAttr(rq.getMax()), b.getBoolAttr(rq.getDoubleRound()),
        wide ? b.getUnitAttr() : UnitAttr(), UnitAttr());
  }

  /// A per-tensor input rescale of int8 `v` to int32 (channel 0 of
  /// one-entry tables, as TOSA rescales an add's operands): one load from a
  /// flash table of its 256 results (rescaleTable).
  Value rescaleToI32(Value v, RequantAttr rq) {
    Type i32Type = b.getI32Type();
    Value wide = arith::ExtSIOp::create(b, loc, i32Type, v);
    if (v.getType().isInteger(8)) {
      Value table = getGlobal(rescaleTable(rq));
      Value offset = i32(-kInt8Lowest);
      Value biased = arith::AddIOp::create(b, loc, wide, offset);
      Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), biased);
      return load(table, at);
    }
    return RequantizeOp::create(
        b, loc, i32Type, wide, i32(rq.getMultiplier()[0]),
        i32(rq.getShift()[0]), Value(), Value(),
        b.getI32IntegerAttr(rq.getInputZp()),
        b.getI32IntegerAttr(rq.getOutputZp()), b.getI32IntegerAttr(rq.getMin()),
        b.getI32IntegerAttr(rq.getMax()), b.getBoolAttr(rq.getDoubleRound()),
        UnitAttr());
  }

  /// The largest |sum| (or difference) of the two int8 operands of `add`
  /// after their input rescales: the value bound of its requantization.
  int64_t addValueBound(AddOp add) {
    return addValueBound(add.getLhsRescale(), add.getRhsRescale());
  }
  /// The same for two int8 operands rescaled by `lhs` and `rhs`.
  int64_t addValueBound(RequantAttr lhs, RequantAttr rhs) {
    auto largest = [](RequantAttr rq) {
      int64_t bound = 0;
      for (int32_t r : rescaleResults(rq))
        bound = std::max<int64_t>(bound, std::abs(int64_t{r}));
      return bound;
    };
    return largest(lhs) + largest(rhs);
  }

  /// A residual ADD folded into this kernel's conv (vmcu.conv2d's
  /// residual_add), or none: storeOutput applies it.
  struct ResidualEpilogue {
    Value skip;
    ResidualAddAttr add;
    /// Output segments per pixel.
    int64_t pixelSegments;
    Value mult, shift, skipBuf, sumBuf;
  };
  std::optional<ResidualEpilogue> residual;

  /// Folds the residual ADD of a conv of `channels` output channels into
  /// every storeOutput: its tables and buffers, at the kernel's start.
  void foldResidual(Value skip, ResidualAddAttr add, int64_t channels) {
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

  /// Ring-stores output segment `segIndex` from `buf` at `at` (default 0)
  /// as storeSegment does; with a folded residual, first adds the
  /// residual's segment at the same index (TFLite's int8 ADD) and frees
  /// it, so the output may be placed over the residual.
  void storeOutput(Value output, AffineExpr segIndex, ValueRange dims,
                   Value buf, Value at = Value()) {
    if (!residual)
      return storeSegment(output, segIndex, dims, buf, at);
    const ResidualEpilogue &r = *residual;
    loadSegment(r.skip, segIndex, dims, r.skipBuf);
    unsigned k = dims.size();
    SmallVector<Value> operands(dims.begin(), dims.end());
    loop(0, seg, [&](Value lane) {
      operands.push_back(lane);
      Value ch = apply(segIndex % r.pixelSegments * seg + d(k), operands);
      Value y = load(buf, at ? apply(d(0) + d(1), {at, lane}) : lane);
      Value sum = arith::AddIOp::create(
          b, loc, rescaleToI32(y, r.add.getConv()),
          rescaleToI32(load(r.skipBuf, lane), r.add.getSkip()));
      store(requantize(sum, r.add.getRequant(), r.mult, r.shift, ch,
                       b.getI8Type()),
            r.sumBuf, lane);
      operands.pop_back();
    });
    freeSegment(r.skip, segIndex, dims);
    storeSegment(output, segIndex, dims, r.sumBuf);
  }

  /// Per-channel multiplier and shift tables for `channels` channels. With
  /// shifts of at least 32 and `valueBound` (the largest |value| the
  /// kernel can requantize, if known) below 2^30, one interleaved bounded
  /// table (boundedTables) is both; with such shifts otherwise, the
  /// rounding terms are a table too (roundTables). `requantize` follows
  /// either.
  std::pair<Value, Value>
  requantTables(StringRef prefix, RequantAttr rq, int64_t channels,
                std::optional<int64_t> valueBound = std::nullopt) {
    if (std::optional<BoundedWords> bounded =
            boundedWords(rq, channels, valueBound)) {
      Value params = i32Table((prefix + "requant").str(), bounded->words);
      boundedTables[params] = BoundedTable{bounded->zpFolded};
      return {params, params};
    }
    auto [mult, shift] = channelScales(rq, channels);
    bool wide = llvm::all_of(
        shift, [](int32_t s) { return s >= kRequantMinWideShift; });
    Value multTable = i32Table((prefix + "mult").str(), mult);
    if (wide) {
      SmallVector<int64_t> round;
      for (int32_t s : shift)
        round.push_back(requantRoundTerm(s, rq.getDoubleRound()));
      roundTables[multTable] = table((prefix + "round").str(),
                                     ArrayRef<int64_t>(round), b.getI64Type());
    }
    return {multTable, i32Table((prefix + "shift").str(), shift)};
  }

  /// The rounding-term table (wide shifts only) of each multiplier table.
  DenseMap<Value, Value> roundTables;

  /// A bounded requantization's interleaved table: per channel
  /// kBoundedWords words (multiplier, exponent e = shift - 31, half term),
  /// so one base address serves all three loads, and the shift by e needs
  /// no subtraction at run time. `zpFolded`: the half terms carry the
  /// output zero point.
  struct BoundedTable {
    bool zpFolded;
  };
  static constexpr int64_t kBoundedWords = kBoundedRequantWords;
  DenseMap<Value, BoundedTable> boundedTables;
  /// The bits below the doubled product's high word: e = shift - this.
  static constexpr int64_t kProductShift = 31;

  /// Requantizes `pixels` x n sums (pixel-major) of channels [first,
  /// first + n) into out[at + i * stride + j] with one vmcu.requant_block,
  /// if `mult` is a bounded table; returns false (emitting nothing)
  /// otherwise.
  bool requantizeBlock(ValueRange sums, int64_t pixels, RequantAttr rq,
                       Value mult, Value first, Value out, Value at,
                       int64_t stride) {
    auto bounded = boundedTables.find(mult);
    if (bounded == boundedTables.end())
      return false;
    Value entry = apply(d(0) * kBoundedWords, first);
    RequantBlockOp::create(
        b, loc, sums, out, at, mult, entry, b.getI64IntegerAttr(pixels),
        b.getI64IntegerAttr(stride), b.getBoolAttr(rq.getDoubleRound()),
        b.getI32IntegerAttr(bounded->second.zpFolded ? 0 : rq.getOutputZp()),
        b.getI32IntegerAttr(rq.getMin()), b.getI32IntegerAttr(rq.getMax()));
    return true;
  }

private:
  /// The lowest int8 value: entry 0 of a rescale table.
  static constexpr int64_t kInt8Lowest = -128;
  static constexpr int64_t kInt8Values = 256;

  /// `rq` (per tensor, to int32) applied to every int8 value: entry
  /// x + 128 for x.
  static SmallVector<int32_t> rescaleResults(RequantAttr rq) {
    SmallVector<int32_t> results;
    for (int64_t x = kInt8Lowest; x < kInt8Lowest + kInt8Values; ++x)
      results.push_back(static_cast<int32_t>(fixedpoint::tosaRescale(
          x, rq.getMultiplier()[0], rq.getShift()[0], rq.getDoubleRound(),
          rq.getInputZp(), rq.getOutputZp(), rq.getMin(), rq.getMax())));
    return results;
  }

  /// The flash table of rescaleResults(rq), one per distinct rescale in
  /// the kernel.
  memref::GlobalOp rescaleTable(RequantAttr rq) {
    auto cached = rescaleTables.find(rq);
    if (cached != rescaleTables.end())
      return cached->second;
    memref::GlobalOp global = globalTable(
        "rescale", ArrayRef<int32_t>(rescaleResults(rq)), b.getI32Type());
    rescaleTables[rq] = global;
    return global;
  }
  DenseMap<Attribute, memref::GlobalOp> rescaleTables;

  /// Per channel of `rq`: its multiplier and shift. A zero multiplier (a
  /// channel of zero weights) scales everything to 0 at any shift: it gets
  /// a wide one, so it keeps its layer on the cheap wide-shift path.
  static std::pair<SmallVector<int32_t>, SmallVector<int32_t>>
  channelScales(RequantAttr rq, int64_t channels) {
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

public:
  /// The words of a bounded requantization's interleaved table
  /// (kBoundedWords per channel: multiplier, exponent e = shift - 31,
  /// half term) and whether the half terms fold the output zero point;
  /// none unless every shift is wide, values stay below
  /// kRequantBoundedValue and the input zero point is 0.
  ///
  /// The half term is c = 2^(e - 1), or c + z * 2^e to fold the output
  /// zero point z: `(q + z * 2^e) >> e == (q >> e) + z` while q + z * 2^e
  /// fits an int32, which holds when every channel's |q| <= |value| *
  /// 2|m| / 2^32 + c + 2 (the product, half, rounding and sign terms)
  /// leaves room.
  struct BoundedWords {
    SmallVector<int32_t> words;
    bool zpFolded;
  };
  static std::optional<BoundedWords>
  boundedWords(RequantAttr rq, int64_t channels,
               std::optional<int64_t> valueBound) {
    auto [mult, shift] = channelScales(rq, channels);
    bool wide = llvm::all_of(
        shift, [](int32_t s) { return s >= kRequantMinWideShift; });
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
    bool fold =
        zp != 0 && llvm::all_of(llvm::seq<size_t>(0, mult.size()), fits);
    BoundedWords bounded{{}, fold};
    for (size_t k = 0; k < mult.size(); ++k) {
      int64_t e = exponent(k);
      int64_t half =
          (int64_t{1} << (e - 1)) + (fold ? zp * (int64_t{1} << e) : 0);
      llvm::append_values(bounded.words, mult[k], static_cast<int32_t>(e),
                          static_cast<int32_t>(half));
    }
    return bounded;
  }

private:
  /// `requantize` from a bounded table.
  Value boundedRequantize(Value v, RequantAttr rq, Value params,
                          BoundedTable table, Value ch, Type resultType) {
    auto word = [&](int64_t k) {
      return load(params, apply(d(0) * kBoundedWords + k, ch));
    };
    // The op takes the shift: e + 31, which its lowering's e = shift - 31
    // folds away.
    // One op per statement: the IR must not depend on the host compiler's
    // order of argument evaluation.
    Value m = word(0), half = word(2), e = word(1);
    Value productShift = i32(kProductShift);
    Value sh = arith::AddIOp::create(b, loc, e, productShift);
    return RequantizeOp::create(
        b, loc, resultType, v, m, sh, Value(), half, b.getI32IntegerAttr(0),
        b.getI32IntegerAttr(table.zpFolded ? 0 : rq.getOutputZp()),
        b.getI32IntegerAttr(rq.getMin()), b.getI32IntegerAttr(rq.getMax()),
        b.getBoolAttr(rq.getDoubleRound()), b.getUnitAttr(), b.getUnitAttr());
  }

public:
  //===--------------------------------------------------------------------===//
  // Windowed skeleton: outputs in row-major order, frees at last use.
  //===--------------------------------------------------------------------===//

  /// Calls `body(r, t, y, x)` for every in-bounds tap of output (p, q); y and
  /// x are input (A) coordinates.
  void forEachTap(const Axis &rows, const Axis &cols, Value p, Value q,
                  function_ref<void(Value, Value, Value, Value)> body) {
    loop({c(0), c(rows.pad) - d(0) * rows.stride},
         {c(rows.kernel), c(rows.bExtent + rows.pad) - d(0) * rows.stride}, p,
         [&](Value r) {
           loop({c(0), c(cols.pad) - d(0) * cols.stride},
                {c(cols.kernel),
                 c(cols.bExtent + cols.pad) - d(0) * cols.stride},
                q, [&](Value t) {
                  Value y =
                      apply((d(0) * rows.stride - rows.pad + d(1)) * rows.scale,
                            {p, r});
                  Value x =
                      apply((d(0) * cols.stride - cols.pad + d(1)) * cols.scale,
                            {q, t});
                  body(r, t, y, x);
                });
         });
  }

  /// Loop bounds: lower (their max) and upper (their min) expressions.
  using Bounds = std::pair<SmallVector<AffineExpr>, SmallVector<AffineExpr>>;

  /// Input indices whose last reader is output `d0`: [lo, hi) as bounds.
  Bounds lastUseRange(const Axis &a) {
    return {{c(0), (d(0) * a.stride - a.pad) * a.scale},
            {c(a.inExtent), (d(0) * a.stride + (a.stride - a.pad)) * a.scale}};
  }

  /// First input index never freed inside the output loop.
  int64_t tailStart(const Axis &a) {
    return std::max<int64_t>(0, (a.outExtent * a.stride - a.pad) * a.scale);
  }

  /// In reverse order (outputs from the last to the first), the input
  /// indices whose last reader is output `d0`: those above the window of
  /// output d0 - 1, up to the top of d0's own, as bounds. Output 0, the
  /// last, also frees [0, bottomEnd).
  Bounds reverseLastUseRange(const Axis &a) {
    AffineExpr top = (d(0) * a.stride - a.pad + a.kernel - 1) * a.scale + 1;
    return {{c(0), top - a.stride * a.scale}, {c(a.inExtent), top}};
  }

  /// In reverse order, the first input index above every window: those from
  /// here up are never read.
  int64_t headStart(const Axis &a) {
    int64_t top =
        ((a.outExtent - 1) * a.stride - a.pad + a.kernel - 1) * a.scale + 1;
    return std::clamp<int64_t>(top, 0, a.inExtent);
  }

  /// In reverse order, [0, this): the inputs a virtual output -1 would
  /// read, which reverseLastUseRange(0) leaves out; output 0, the last,
  /// frees them too.
  int64_t bottomEnd(const Axis &a) {
    int64_t top = (-a.stride - a.pad + a.kernel - 1) * a.scale + 1;
    return std::clamp<int64_t>(top, 0, a.inExtent);
  }

  /// Frees every input segment of pixel (y, x), of an input `inCols` pixels
  /// wide.
  void freePixels(Value inBase, int64_t inCols, int64_t segsPerPixel, Value y,
                  Value x) {
    loop(0, segsPerPixel, [&](Value cc) {
      freeSegment(inBase, (d(0) * inCols + d(1)) * segsPerPixel + d(2),
                  {y, x, cc});
    });
  }
  void freePixels(Value inBase, const Axis &cols, int64_t segsPerPixel, Value y,
                  Value x) {
    freePixels(inBase, cols.inExtent, segsPerPixel, y, x);
  }

  /// freeLastUses for the output pixel a pixel body is called for.
  using FreeHook = function_ref<void(Value cc, Value guard, int64_t guardLast)>;

  /// Calls `pixelBody(p, q, frees)` for the output pixels in row-major
  /// order, then frees the inputs no output reads. `rowStart(p)`, if given,
  /// runs before each output row's first pixel.
  void emitWindowed(const Axis &rows, const Axis &cols, Value inBase,
                    int64_t inSegsPerPixel,
                    function_ref<void(Value, Value, FreeHook)> pixelBody,
                    function_ref<void(Value)> rowStart = {}) {
    loop(0, rows.outExtent, [&](Value p) {
      if (rowStart)
        rowStart(p);
      loop(0, cols.outExtent, [&](Value q) {
        auto hook = [&](Value cc, Value guard, int64_t guardLast) {
          freeLastUses(rows, cols, inBase, inSegsPerPixel, p, q, cc, guard,
                       guardLast);
        };
        pixelBody(p, q, hook);
      });
      freeRowTail(rows, cols, inBase, inSegsPerPixel, p);
    });
    freeTail(rows, cols, inBase, inSegsPerPixel);
  }

  /// emitWindowed with the output pixels in reverse row-major order (the
  /// last pixel first): the inputs no window reads are freed first, each
  /// other input pixel before the first store of its reader of lowest index
  /// (freeReverseLastUses).
  void
  emitWindowedReversed(const Axis &rows, const Axis &cols, Value inBase,
                       int64_t inSegsPerPixel,
                       function_ref<void(Value, Value, FreeHook)> pixelBody) {
    // Above every window: whole rows, then the columns of the other rows.
    freeRows(headStart(rows), rows.inExtent, cols, inBase, inSegsPerPixel);
    freePixelBlock(0, headStart(rows), headStart(cols), cols.inExtent, cols,
                   inBase, inSegsPerPixel);
    loop(0, rows.outExtent, [&](Value pr) {
      Value p = apply(c(rows.outExtent - 1) - d(0), {pr});
      loop(0, cols.outExtent, [&](Value qr) {
        Value q = apply(c(cols.outExtent - 1) - d(0), {qr});
        auto hook = [&](Value cc, Value guard, int64_t guardLast) {
          freeReverseLastUses(rows, cols, inBase, inSegsPerPixel, p, q, cc,
                              guard, guardLast);
        };
        pixelBody(p, q, hook);
      });
    });
  }

  /// freeLastUses for reverse order: the inputs whose last reader is output
  /// (p, q) there (reverseLastUseRange on each axis), and where p or q is 0
  /// those below the ranges as well (bottomEnd), each under a single-trip
  /// loop where the index is 0.
  void freeReverseLastUses(const Axis &rows, const Axis &cols, Value inBase,
                           int64_t inSegsPerPixel, Value p, Value q, Value cc,
                           Value guard, int64_t guardLast) {
    Bounds rowRange = reverseLastUseRange(rows);
    Bounds colRange = reverseLastUseRange(cols);
    Bounds rowBottom{{c(0)}, {c(bottomEnd(rows))}};
    Bounds colBottom{{c(0)}, {c(bottomEnd(cols))}};
    auto frees = [&](const Bounds &rowSet, const Bounds &colSet) {
      freeRanges(rowSet, colSet, cols.inExtent, inBase, inSegsPerPixel, p, q,
                 cc, guard, guardLast);
    };
    auto whereZero = [&](Value index, int64_t bottom,
                         function_ref<void()> body) {
      if (bottom > 0)
        loop({d(0)}, {d(0) + 1, c(1)}, index, [&](Value) { body(); });
    };
    frees(rowRange, colRange);
    whereZero(q, bottomEnd(cols), [&] { frees(rowRange, colBottom); });
    whereZero(p, bottomEnd(rows), [&] {
      frees(rowBottom, colRange);
      whereZero(q, bottomEnd(cols), [&] { frees(rowBottom, colBottom); });
    });
  }

  /// emitWindowed over blocks of `block` consecutive output pixels of a
  /// row (the last block of a row may be shorter): `blockBody(p, qs)` gets
  /// the block's columns and frees the inputs whose last reader is (p, q)
  /// with freeLastUses.
  void
  emitWindowedBlocks(const Axis &rows, const Axis &cols, Value inBase,
                     int64_t inSegsPerPixel, int64_t block,
                     function_ref<void(Value, ArrayRef<Value>)> blockBody) {
    loop(0, rows.outExtent, [&](Value p) {
      emitWindowedRowBlocks(rows, cols, inBase, inSegsPerPixel, block, p,
                            blockBody);
    });
    freeTail(rows, cols, inBase, inSegsPerPixel);
  }

  /// Output row p of emitWindowedBlocks: its blocks, then the input
  /// columns of its last-use rows that no output reads.
  void
  emitWindowedRowBlocks(const Axis &rows, const Axis &cols, Value inBase,
                        int64_t inSegsPerPixel, int64_t block, Value p,
                        function_ref<void(Value, ArrayRef<Value>)> blockBody) {
    int64_t full = cols.outExtent / block;
    loop(0, full, [&](Value qb) {
      SmallVector<Value, 2> qs;
      for (int64_t i = 0; i < block; ++i)
        qs.push_back(apply(d(0) * block + i, qb));
      blockBody(p, qs);
    });
    SmallVector<Value, 2> rest;
    for (int64_t q = full * block; q < cols.outExtent; ++q)
      rest.push_back(index(q));
    if (!rest.empty())
      blockBody(p, rest);
    freeRowTail(rows, cols, inBase, inSegsPerPixel, p);
  }

  /// The input rows no output reads (from tailStart(rows)).
  void freeTail(const Axis &rows, const Axis &cols, Value inBase,
                int64_t inSegsPerPixel) {
    freeRows(tailStart(rows), rows.inExtent, cols, inBase, inSegsPerPixel);
  }

  /// Frees the input pixels whose last reader is output (p, q): every
  /// segment of them, or only segment `cc` when given. With `guard`, the
  /// frees run only when guard == guardLast (a single-trip affine.for), so
  /// they can sit before the pixel's last store.
  void freeLastUses(const Axis &rows, const Axis &cols, Value inBase,
                    int64_t inSegsPerPixel, Value p, Value q, Value cc,
                    Value guard = Value(), int64_t guardLast = 0) {
    freeRanges(lastUseRange(rows), lastUseRange(cols), cols.inExtent, inBase,
               inSegsPerPixel, p, q, cc, guard, guardLast);
  }

private:
  /// Frees the input pixels in `rowRange` (over p) x `colRange` (over q),
  /// as freeLastUses does.
  void freeRanges(const Bounds &rowRange, const Bounds &colRange,
                  int64_t inCols, Value inBase, int64_t inSegsPerPixel, Value p,
                  Value q, Value cc, Value guard, int64_t guardLast) {
    auto frees = [&]() {
      loop(rowRange.first, rowRange.second, p, [&](Value y) {
        loop(colRange.first, colRange.second, q, [&](Value x) {
          if (!cc)
            return freePixels(inBase, inCols, inSegsPerPixel, y, x);
          freeSegment(inBase, (d(0) * inCols + d(1)) * inSegsPerPixel + d(2),
                      {y, x, cc});
        });
      });
    };
    if (!guard)
      return frees();
    loop({d(0), c(guardLast)}, {d(0) + 1, c(guardLast + 1)}, guard,
         [&](Value) { frees(); });
  }

  /// The input columns of row p's last-use rows that no output reads.
  void freeRowTail(const Axis &rows, const Axis &cols, Value inBase,
                   int64_t inSegsPerPixel, Value p) {
    freeColumns(lastUseRange(rows), p, tailStart(cols), cols.inExtent, cols,
                inBase, inSegsPerPixel);
  }

  /// Frees input columns [from, to) of the rows in `rowRange` over p.
  void freeColumns(const Bounds &rowRange, Value p, int64_t from, int64_t to,
                   const Axis &cols, Value inBase, int64_t inSegsPerPixel) {
    if (from >= to)
      return;
    loop(rowRange.first, rowRange.second, p, [&](Value y) {
      loop(from, to,
           [&](Value x) { freePixels(inBase, cols, inSegsPerPixel, y, x); });
    });
  }

  /// Frees input rows [from, to), every column.
  void freeRows(int64_t from, int64_t to, const Axis &cols, Value inBase,
                int64_t inSegsPerPixel) {
    freePixelBlock(from, to, 0, cols.inExtent, cols, inBase, inSegsPerPixel);
  }

  /// Frees the input pixels of rows [rowFrom, rowTo) x columns [colFrom,
  /// colTo).
  void freePixelBlock(int64_t rowFrom, int64_t rowTo, int64_t colFrom,
                      int64_t colTo, const Axis &cols, Value inBase,
                      int64_t inSegsPerPixel) {
    loop(rowFrom, rowTo, [&](Value y) {
      loop(colFrom, colTo,
           [&](Value x) { freePixels(inBase, cols, inSegsPerPixel, y, x); });
    });
  }
};

/// The largest |accumulator| of an int8 kernel whose outputs start from
/// `bias` and add `macs` products (x - zp) * w, each at most 255 * 128,
/// over the channels `rq` does not scale by 0: a zero multiplier gives the
/// output zero point whatever the sum (TOSA's rounding term alone, shifted
/// out; the bounded requantization's half term alone), so its sum needs no
/// bound. MCUNet-5fps-VWW has such channels with |bias| near 2^31.
inline int64_t accumulatorBound(ArrayRef<int32_t> bias, int64_t macs,
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

/// Reads a constant operand's values, or fails with a located error.
template <typename T>
FailureOr<SmallVector<T>> constantValues(Operation *user, Value v,
                                         StringRef what) {
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return user->emitOpError() << what << " must be a constant to be tiled";
  SmallVector<T> out;
  for (const APInt &x : attr.getValues<APInt>())
    out.push_back(static_cast<T>(x.getSExtValue()));
  return out;
}

inline Axis makeAxis(int64_t in, int64_t out, int64_t stride, int64_t pad,
                     int64_t kernel) {
  return Axis{in, out, 1, stride, pad, kernel, in};
}

/// A depthwise layer's flash tables for segments of `s` channels: biases
/// with the input zero point folded in (`bias - zp * sum_taps w`, modulo
/// 2^32 like the accumulator), so padding taps may read the zero point and
/// a MAC is one multiply-accumulate; the weights as bytes packed
/// [c / s][r][t][c % s]; and, where the requantization is bounded, one
/// record per whole block of 4 lanes as vmcu.depthwise_block reads it
/// (packDepthwiseRecords).
struct DepthwiseTables {
  Value weights;
  Value bias;
  /// The largest |accumulator| (accumulatorBound).
  int64_t valueBound = 0;
  /// Only where s >= 4 and the requantization is bounded.
  Value records;
  /// The records' half terms carry the output zero point.
  bool recordsZpFolded = false;
};

/// The records of a depthwise layer's whole 4-lane blocks, from weights
/// `w` [tap][ch], folded biases, a bounded requantization's table words
/// (Emitter::boundedWords) and segments of `s` channels, in the order
/// vmcu.depthwise_block reads them: per block (segment c / s, lanes
/// (c % s) / 4), DepthwiseBlockOp::recordWords(taps) words.
SmallVector<int32_t> packDepthwiseRecords(ArrayRef<int8_t> w,
                                          ArrayRef<int32_t> bias,
                                          ArrayRef<int32_t> requant,
                                          int64_t taps, int64_t s);

FailureOr<DepthwiseTables> packDepthwise(Emitter &e, StringRef prefix,
                                         DepthwiseConv2DOp op, int64_t s);

/// A layer's requantization and its per-channel tables (requantTables).
struct LaneRequant {
  RequantAttr attr;
  Value mult;
  Value shift;
};

/// Where a segment's lanes sit in a depthwise window buffer: those of tap
/// i start at byte i * tapBytes + laneBase. A depthwise with depth
/// multiplier M keeps each tap's input lanes repeated M times (the lanes
/// of M output segments), so output segment m reads tapBytes = M * seg
/// from laneBase = m * seg. The default is one segment per tap.
struct WindowLanes {
  /// 0: the segment size.
  int64_t tapBytes = 0;
  /// Null: 0.
  Value laneBase;
};

/// The requantized per-channel sums of output channel segment `cc` over the
/// kr x kc window buffer `win` ([tap][lane] int8, laid out as `lanes`
/// says): lane k of the segment (channel cc * seg + k) goes to
/// out[outAt + k], outAt an expression over d0 = cc. Each block of 4 lanes
/// keeps its sums in registers through tap loops of constant bounds
/// (vmcu-unroll-microkernels unrolls them) and through its
/// requantization, and stores its 4 bytes at once. With `slideQ` (a
/// sliding window, see emitDepthwise), tap column t of output column q is
/// window column (q + t) mod kc.
void emitWindowRequant(Emitter &e, Value win, const DepthwiseTables &dw,
                       int64_t kr, int64_t kc, Value cc, const LaneRequant &rq,
                       Value out, AffineExpr outAt, Value slideQ = Value(),
                       WindowLanes lanes = {});

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
  /// `maxPixels`: rows the caller can hand over at once (1 or more).
  GemmTiles(Emitter &e, StringRef prefix, int64_t inC, int64_t outC,
            int64_t maxPixels, ArrayRef<int8_t> w, ArrayRef<int32_t> bias,
            int32_t inputZp, RequantAttr rq);

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
  /// narrow ones).
  void emit(Value x, int64_t rows, SegmentDone segmentDone);

  /// A single row read in place from the pool (vmcu.ring_view's results):
  /// its bytes from `offset` up to `contiguous` bytes, then from byte 0.
  struct RowView {
    Value view, offset, contiguous;
  };
  /// emit() over one row read in place (shape.pixels == 1).
  void emitFromView(const RowView &row, SegmentDone segmentDone);

  /// Rows and channels per tile and the bytes between rows of x.
  const GemmTileShape shape;

private:
  SmallVector<int8_t> packWeights(ArrayRef<int8_t> w) const;
  SmallVector<int32_t> packWideWeights(ArrayRef<int8_t> w,
                                       int64_t scale = 1) const;
  SmallVector<int32_t> packTileRecords(ArrayRef<int32_t> wide,
                                       ArrayRef<int32_t> bias,
                                       ArrayRef<int32_t> requant) const;
  SmallVector<int32_t> foldZeroPoint(ArrayRef<int8_t> w, ArrayRef<int32_t> bias,
                                     int32_t inputZp) const;
  using TileBody = function_ref<void(Value first, int64_t n, Value at)>;
  void forEachTile(int64_t rows, SegmentDone segmentDone, TileBody tile);
  void emitTile(Value x, int64_t rows, Value first, int64_t n, Value at);
  void emitViewTile(const RowView &row, Value first, int64_t n, Value at);
  SmallVector<Value> initialSums(int64_t rows, Value first, int64_t n);
  SmallVector<Value> accumulateRun(const RowView &run, Value first, int64_t n,
                                   ValueRange sums, Value from, Value to);
  void storeSums(ArrayRef<Value> sums, int64_t rows, Value first, int64_t n,
                 Value at);
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
  /// `w` is [Cout][kr][kc][Cin]; `maxPixels` output pixels per block.
  WindowGemm(Emitter &ring, Emitter &tileEmitter, StringRef prefix,
             const ConvGeometry &g, int64_t maxPixels, ArrayRef<int8_t> w,
             ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
             Value input);

  /// Output pixels (p, qs[i]), at most tiles.shape.pixels of one row.
  void emitBlock(Value p, ArrayRef<Value> qs, GemmTiles::SegmentDone done);

  GemmTiles tiles;

private:
  void gather(Value p, Value q, int64_t i);

  Emitter &e;
  ConvGeometry g;
  Value input, col, zp;
};

/// The GEMM kernel (TileGemm.cpp): GemmTiles over blocks of up to two
/// pixels; `w` is [Cout][Cin].
LogicalResult emitGemm(Emitter &e, const GemmShape &g, ArrayRef<int8_t> w,
                       ArrayRef<int32_t> bias, int32_t inputZp, RequantAttr rq,
                       const KernelTensors &t);

LogicalResult emitConv(Emitter &e, Conv2DOp op, const KernelTensors &t);
LogicalResult emitFullyConnected(Emitter &e, FullyConnectedOp op,
                                 const KernelTensors &t);
LogicalResult emitDepthwise(Emitter &e, DepthwiseConv2DOp op,
                            const KernelTensors &t);
LogicalResult emitAvgPool(Emitter &e, AvgPool2DOp op, const KernelTensors &t);
LogicalResult emitMaxPool(Emitter &e, MaxPool2DOp op, const KernelTensors &t);
LogicalResult emitSoftmax(Emitter &e, SoftmaxOp op, const KernelTensors &t);
LogicalResult emitBottleneck(Emitter &e, BottleneckOp op,
                             const KernelTensors &t);
LogicalResult emitBottleneckLineBuffer(Emitter &e, BottleneckOp op,
                                       const KernelTensors &t);

} // namespace mlir::vmcu::tile

#endif // VMCU_LIB_TRANSFORMS_TILEEMITTER_H
