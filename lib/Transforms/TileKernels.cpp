//===- TileKernels.cpp - segment-tiled kernel emitters --------------------===//
//
// The loops vmcu-tile emits for each layer (paper Figures 4-6): an outer
// level over output pixels and segments with ring loads, stores and frees at
// last use, and an inner level of 4-lane dots and requantisation.
//
//===----------------------------------------------------------------------===//

#include "TileKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {

/// Lanes of one vmcu.dot: SMLAD multiplies two int16 pairs, and one 32-bit
/// word of int8 data feeds two of them.
constexpr int64_t kDotLanes = 4;
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

  /// A private constant table in flash, read back with memref.get_global.
  template <typename T>
  Value table(StringRef suffix, ArrayRef<T> data, Type elemType) {
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
    return memref::GetGlobalOp::create(b, loc, memrefType, global.getSymName());
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

  void storeSegment(Value base, AffineExpr segIndex, ValueRange dims,
                    Value buf) {
    Value v =
        vector::LoadOp::create(b, loc, segType(), buf, ValueRange{index(0)});
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

  /// vmcu.requantize of `v` with channel `ch`'s entry of the tables.
  Value requantize(Value v, RequantAttr rq, Value mult, Value shift, Value ch,
                   Type resultType) {
    bool wide = llvm::all_of(
        rq.getShift(), [](int32_t s) { return s >= kRequantMinWideShift; });
    return RequantizeOp::create(
        b, loc, resultType, v, load(mult, ch), load(shift, ch),
        b.getI32IntegerAttr(rq.getInputZp()),
        b.getI32IntegerAttr(rq.getOutputZp()), b.getI32IntegerAttr(rq.getMin()),
        b.getI32IntegerAttr(rq.getMax()), b.getBoolAttr(rq.getDoubleRound()),
        wide ? b.getUnitAttr() : UnitAttr());
  }

  /// A per-tensor input rescale of int8 `v` to int32 (channel 0 of
  /// one-entry tables, as TOSA rescales an add's operands).
  Value rescaleToI32(Value v, RequantAttr rq) {
    Type i32Type = b.getI32Type();
    Value wide = arith::ExtSIOp::create(b, loc, i32Type, v);
    return RequantizeOp::create(
        b, loc, i32Type, wide, i32(rq.getMultiplier()[0]),
        i32(rq.getShift()[0]), b.getI32IntegerAttr(rq.getInputZp()),
        b.getI32IntegerAttr(rq.getOutputZp()), b.getI32IntegerAttr(rq.getMin()),
        b.getI32IntegerAttr(rq.getMax()), b.getBoolAttr(rq.getDoubleRound()),
        UnitAttr());
  }

  /// Per-channel multiplier and shift tables for `channels` channels.
  std::pair<Value, Value> requantTables(StringRef prefix, RequantAttr rq,
                                        int64_t channels) {
    SmallVector<int32_t> mult, shift;
    for (int64_t k = 0; k < channels; ++k) {
      size_t i = rq.isPerChannel() ? k : 0;
      mult.push_back(rq.getMultiplier()[i]);
      shift.push_back(rq.getShift()[i]);
    }
    return {i32Table((prefix + "mult").str(), mult),
            i32Table((prefix + "shift").str(), shift)};
  }

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

  /// Input indices whose last reader is output `d0`: [lo, hi) as bounds.
  std::pair<SmallVector<AffineExpr>, SmallVector<AffineExpr>>
  lastUseRange(const Axis &a) {
    return {{c(0), (d(0) * a.stride - a.pad) * a.scale},
            {c(a.inExtent), (d(0) * a.stride + (a.stride - a.pad)) * a.scale}};
  }

  /// First input index never freed inside the output loop.
  int64_t tailStart(const Axis &a) {
    return std::max<int64_t>(0, (a.outExtent * a.stride - a.pad) * a.scale);
  }

  /// Frees every input segment of pixels (y, x) for y, x in the ranges.
  void freePixels(Value inBase, const Axis &cols, int64_t segsPerPixel, Value y,
                  Value x) {
    loop(0, segsPerPixel, [&](Value cc) {
      freeSegment(inBase, (d(0) * cols.inExtent + d(1)) * segsPerPixel + d(2),
                  {y, x, cc});
    });
  }

  /// Frees, for output pixel (p, q), the input pixels whose last reader it
  /// is: every segment of them, or only segment `cc` when given. With
  /// `guard`, the frees run only when guard == guardLast (a single-trip
  /// affine.for), so they can sit before the pixel's last store.
  using FreeHook = function_ref<void(Value cc, Value guard, int64_t guardLast)>;

  void emitWindowed(const Axis &rows, const Axis &cols, Value inBase,
                    int64_t inSegsPerPixel,
                    function_ref<void(Value, Value, FreeHook)> pixelBody) {
    auto [rowLo, rowHi] = lastUseRange(rows);
    auto [colLo, colHi] = lastUseRange(cols);
    loop(0, rows.outExtent, [&](Value p) {
      loop(0, cols.outExtent, [&](Value q) {
        auto hook = [&](Value cc, Value guard, int64_t guardLast) {
          auto frees = [&]() {
            loop(rowLo, rowHi, p, [&](Value y) {
              loop(colLo, colHi, q, [&](Value x) {
                if (!cc)
                  return freePixels(inBase, cols, inSegsPerPixel, y, x);
                freeSegment(inBase,
                            (d(0) * cols.inExtent + d(1)) * inSegsPerPixel +
                                d(2),
                            {y, x, cc});
              });
            });
          };
          if (!guard)
            return frees();
          loop({d(0), c(guardLast)}, {d(0) + 1, c(guardLast + 1)}, guard,
               [&](Value) { frees(); });
        };
        pixelBody(p, q, hook);
      });
      if (tailStart(cols) < cols.inExtent)
        loop(rowLo, rowHi, p, [&](Value y) {
          loop(tailStart(cols), cols.inExtent, [&](Value x) {
            freePixels(inBase, cols, inSegsPerPixel, y, x);
          });
        });
    });
    loop(tailStart(rows), rows.inExtent, [&](Value y) {
      loop(0, cols.inExtent,
           [&](Value x) { freePixels(inBase, cols, inSegsPerPixel, y, x); });
    });
  }
};

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

Axis makeAxis(int64_t in, int64_t out, int64_t stride, int64_t pad,
              int64_t kernel) {
  return Axis{in, out, 1, stride, pad, kernel, in};
}

//===----------------------------------------------------------------------===//
// conv2d / fully_connected: paper Figures 4 and 5.
//===----------------------------------------------------------------------===//

struct ConvGeometry {
  Axis rows, cols;
  int64_t inC, outC;
};

LogicalResult emitConvLike(Emitter &e, Operation *op, const ConvGeometry &g,
                           Value weight, Value bias, int32_t inputZp,
                           RequantAttr rq, const KernelTensors &t) {
  int64_t s = e.seg, cs = g.inC / s, ks = g.outC / s;
  int64_t kr = g.rows.kernel, kc = g.cols.kernel;
  auto w = constantValues<int8_t>(op, weight, "weight");
  auto bv = constantValues<int32_t>(op, bias, "bias");
  if (failed(w) || failed(bv))
    return failure();
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
  auto [mult, shift] = e.requantTables("", rq, g.outC);
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
          e.storeSegment(t.output,
                         (e.d(0) * g.cols.outExtent + e.d(1)) * ks + e.d(2),
                         {p, q, kk}, obuf);
        });
      });
  return success();
}

LogicalResult emitConv(Emitter &e, Conv2DOp op, const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  auto w = op.getWeight().getType();
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  ConvGeometry g{makeAxis(in.getDimSize(1), out.getDimSize(1), stride[0],
                          pad[0], w.getDimSize(1)),
                 makeAxis(in.getDimSize(2), out.getDimSize(2), stride[1],
                          pad[2], w.getDimSize(2)),
                 in.getDimSize(3), out.getDimSize(3)};
  return emitConvLike(e, op, g, op.getWeight(), op.getBias(),
                      static_cast<int32_t>(op.getInputZp()), op.getRequant(),
                      t);
}

/// A fully connected layer is a 1x1 conv over an M x 1 image (Figure 4).
LogicalResult emitFullyConnected(Emitter &e, FullyConnectedOp op,
                                 const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  int64_t m = in.getDimSize(0);
  ConvGeometry g{makeAxis(m, m, 1, 0, 1), makeAxis(1, 1, 1, 0, 1),
                 in.getDimSize(1), out.getDimSize(1)};
  return emitConvLike(e, op, g, op.getWeight(), op.getBias(),
                      static_cast<int32_t>(op.getInputZp()), op.getRequant(),
                      t);
}

//===----------------------------------------------------------------------===//
// depthwise_conv2d and avg_pool2d: per-channel windows.
//===----------------------------------------------------------------------===//

/// Depthwise: every channel has its own accumulator, so the inner level runs
/// over blocks of 4 channels with their 4 sums in registers (iter_args of
/// the tap loops) instead of a memref round trip per MAC.
///
/// The in-bounds window segments are ring-loaded in the same order as
/// before (clipped tap loops) into a kr x kc window buffer; padding taps are
/// filled with the input zero point, so the tap loops over the window have
/// constant bounds (vmcu-unroll-microkernels unrolls them) and
/// `(x - zp) * w` of a padding tap is 0. The zero point is folded into the
/// bias: `bias - zp * sum_taps w` (exact modulo 2^32, like the int32
/// accumulator), so a MAC is one multiply-accumulate.
LogicalResult emitDepthwise(Emitter &e, DepthwiseConv2DOp op,
                            const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  auto wType = op.getWeight().getType();
  int64_t kr = wType.getDimSize(0), kc = wType.getDimSize(1);
  int64_t ch = in.getDimSize(3), s = e.seg, cs = ch / s;
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  Axis rows =
      makeAxis(in.getDimSize(1), out.getDimSize(1), stride[0], pad[0], kr);
  Axis cols =
      makeAxis(in.getDimSize(2), out.getDimSize(2), stride[1], pad[2], kc);
  auto w = constantValues<int8_t>(op, op.getWeight(), "weight");
  auto bv = constantValues<int32_t>(op, op.getBias(), "bias");
  if (failed(w) || failed(bv))
    return failure();
  int32_t zp = static_cast<int32_t>(op.getInputZp());
  // Packed [cc][r][t][k]: one segment's taps are contiguous.
  SmallVector<int8_t> packed(w->size());
  SmallVector<int32_t> bias(*bv);
  for (int64_t r = 0; r < kr; ++r)
    for (int64_t tt = 0; tt < kc; ++tt)
      for (int64_t c = 0; c < ch; ++c) {
        int8_t wv = (*w)[(r * kc + tt) * ch + c];
        packed[((c / s * kr + r) * kc + tt) * s + c % s] = wv;
        bias[c] = static_cast<int32_t>(static_cast<uint32_t>(bias[c]) -
                                       static_cast<uint32_t>(zp) *
                                           static_cast<uint32_t>(wv));
      }
  Value wt = e.i8Table("weights", packed);
  Value bt = e.i32Table("bias", bias);
  RequantAttr rq = op.getRequant();
  auto [mult, shift] = e.requantTables("", rq, ch);
  int64_t taps = kr * kc, blocks = s / kDotLanes;
  Type i32Type = e.b.getI32Type();
  Value win = e.scratch(taps * s, e.b.getI8Type());
  Value acc = e.scratch(s, i32Type);
  Value obuf = e.scratch(s, e.b.getI8Type());
  auto lane32 = VectorType::get({kDotLanes}, i32Type);
  // Window tap (r, t) of output (p, q) is in bounds: d0 = p, d1 = q, d2 = r,
  // d3 = t.
  auto inBounds = [&](const Axis &a, AffineExpr o, AffineExpr k) {
    AffineExpr i = o * a.stride - a.pad + k;
    return std::array<AffineExpr, 2>{i, e.c(a.bExtent - 1) - i};
  };
  auto [r0, r1] = inBounds(rows, e.d(0), e.d(2));
  auto [c0, c1] = inBounds(cols, e.d(1), e.d(3));
  IntegerSet inside =
      IntegerSet::get(4, 0, {r0, r1, c0, c1}, {false, false, false, false});
  Value zpSegment =
      arith::ConstantOp::create(e.b, e.loc,
                                cast<TypedAttr>(DenseElementsAttr::get(
                                    e.segType(), static_cast<int8_t>(zp))));

  // Sum over the window of channel lanes [k, k + n) as a vector<n x i32>
  // carried through both tap loops; `init` holds the biases.
  auto windowSum = [&](Value cc, Value k, int64_t n, Value init) -> Value {
    auto x8 = VectorType::get({n}, e.b.getI8Type());
    auto rLoop =
        affine::AffineForOp::create(e.b, e.loc, 0, kr, 1, ValueRange{init});
    {
      OpBuilder::InsertionGuard guard(e.b);
      e.b.setInsertionPointToStart(rLoop.getBody());
      Value r = rLoop.getInductionVar();
      auto tLoop = affine::AffineForOp::create(
          e.b, e.loc, 0, kc, 1, ValueRange{rLoop.getRegionIterArgs()[0]});
      {
        OpBuilder::InsertionGuard inner(e.b);
        e.b.setInsertionPointToStart(tLoop.getBody());
        Value tt = tLoop.getInductionVar();
        Value xIdx = e.apply((e.d(0) * kc + e.d(1)) * s + e.d(2), {r, tt, k});
        Value wIdx =
            e.apply(((e.d(0) * kr + e.d(1)) * kc + e.d(2)) * s + e.d(3),
                    {cc, r, tt, k});
        Value xv =
            vector::LoadOp::create(e.b, e.loc, x8, win, ValueRange{xIdx});
        Value wv = vector::LoadOp::create(e.b, e.loc, x8, wt, ValueRange{wIdx});
        auto wide = VectorType::get({n}, i32Type);
        Value prod = arith::MulIOp::create(
            e.b, e.loc, arith::ExtSIOp::create(e.b, e.loc, wide, xv),
            arith::ExtSIOp::create(e.b, e.loc, wide, wv));
        Value sum = arith::AddIOp::create(e.b, e.loc,
                                          tLoop.getRegionIterArgs()[0], prod);
        affine::AffineYieldOp::create(e.b, e.loc, sum);
      }
      affine::AffineYieldOp::create(e.b, e.loc, tLoop.getResult(0));
    }
    return rLoop.getResult(0);
  };
  e.emitWindowed(
      rows, cols, t.input, cs, [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, cs, [&](Value cc) {
          // Padding taps read as the zero point.
          e.loop(0, kr, [&](Value r) {
            e.loop(0, kc, [&](Value tt) {
              auto ifOp = affine::AffineIfOp::create(e.b, e.loc, inside,
                                                     ValueRange{p, q, r, tt},
                                                     /*withElse=*/true);
              OpBuilder::InsertionGuard guard(e.b);
              e.b.setInsertionPointToStart(ifOp.getElseBlock());
              vector::StoreOp::create(
                  e.b, e.loc, zpSegment, win,
                  ValueRange{e.apply((e.d(0) * kc + e.d(1)) * s, {r, tt})});
            });
          });
          // The in-bounds taps, ring-loaded in the usual order.
          e.forEachTap(
              rows, cols, p, q, [&](Value r, Value tt, Value y, Value x) {
                Value addr = e.ringAddress(
                    t.input, (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
                    {y, x, cc});
                Value v = RingLoadOp::create(e.b, e.loc, e.segType(),
                                             e.env.pool, addr, Value());
                vector::StoreOp::create(
                    e.b, e.loc, v, win,
                    ValueRange{e.apply((e.d(0) * kc + e.d(1)) * s, {r, tt})});
              });
          if (blocks > 0)
            e.loop(0, blocks, [&](Value kb) {
              Value k = e.apply(e.d(0) * kDotLanes, {kb});
              Value init = vector::LoadOp::create(
                  e.b, e.loc, lane32, bt,
                  ValueRange{e.apply(e.d(0) * s + e.d(1), {cc, k})});
              vector::StoreOp::create(e.b, e.loc,
                                      windowSum(cc, k, kDotLanes, init), acc,
                                      ValueRange{k});
            });
          // Leftover lanes: one narrower block.
          if (int64_t rest = s - blocks * kDotLanes) {
            Value k = e.index(blocks * kDotLanes);
            auto restType = VectorType::get({rest}, i32Type);
            Value init = vector::LoadOp::create(
                e.b, e.loc, restType, bt,
                ValueRange{e.apply(e.d(0) * s + e.d(1), {cc, k})});
            vector::StoreOp::create(e.b, e.loc, windowSum(cc, k, rest, init),
                                    acc, ValueRange{k});
          }
          // A separate loop, so vmcu-unroll-microkernels can unroll it for
          // small segments and LLVM folds the table loads into constant requant
          // steps.
          e.loop(0, s, [&](Value k) {
            Value c = e.apply(e.d(0) * s + e.d(1), {cc, k});
            e.store(e.requantize(e.load(acc, k), rq, mult, shift, c,
                                 e.b.getI8Type()),
                    obuf, k);
          });
          // Channel segment cc of the window is dead once this segment is done.
          frees(cc, Value(), 0);
          e.storeSegment(t.output,
                         (e.d(0) * cols.outExtent + e.d(1)) * cs + e.d(2),
                         {p, q, cc}, obuf);
        });
      });
  return success();
}

/// TOSA reciprocal_scale(count): multiplier and shift of 1 / count.
std::pair<int32_t, int32_t> reciprocalScale(int64_t count) {
  // k = 32 - clz(count - 1), so (1 << k) / 2 < count <= 1 << k.
  int64_t k = 0;
  while ((int64_t(1) << k) < count)
    ++k;
  constexpr int64_t kOne30 = int64_t(1) << 30;
  int64_t numerator = (kOne30 + 1) << k;
  return {static_cast<int32_t>(numerator / count),
          static_cast<int32_t>(30 + k)};
}

LogicalResult emitAvgPool(Emitter &e, AvgPool2DOp op, const KernelTensors &t) {
  auto in = op.getInput().getType(), out = op.getOutput().getType();
  int64_t kr = op.getKernel()[0], kc = op.getKernel()[1];
  int64_t ch = in.getDimSize(3), s = e.seg, cs = ch / s;
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  Axis rows =
      makeAxis(in.getDimSize(1), out.getDimSize(1), stride[0], pad[0], kr);
  Axis cols =
      makeAxis(in.getDimSize(2), out.getDimSize(2), stride[1], pad[2], kc);
  // 1 / count for every possible number of in-bounds taps.
  SmallVector<int32_t> mults(kr * kc + 1, 0), shifts(kr * kc + 1, 1);
  for (int64_t n = 1; n <= kr * kc; ++n)
    std::tie(mults[n], shifts[n]) = reciprocalScale(n);
  Value mt = e.i32Table("recip_mult", mults);
  Value st = e.i32Table("recip_shift", shifts);
  int32_t zp = static_cast<int32_t>(op.getInputZp());
  auto rq = RequantAttr::get(e.ctx, 0, static_cast<int32_t>(op.getOutputZp()),
                             {1}, {1}, /*double_round=*/false,
                             static_cast<int32_t>(op.getMin()),
                             static_cast<int32_t>(op.getMax()));
  Value acc = e.scratch(s, e.b.getI32Type());
  Value count = e.scratch(1, e.b.getIndexType());
  Value xbuf = e.scratch(s, e.b.getI8Type());
  Value obuf = e.scratch(s, e.b.getI8Type());
  Value one = e.i32(1);

  e.emitWindowed(
      rows, cols, t.input, cs, [&](Value p, Value q, Emitter::FreeHook frees) {
        e.loop(0, cs, [&](Value cc) {
          Value zeroIdx = e.index(0);
          e.store(zeroIdx, count, zeroIdx);
          e.loop(0, s, [&](Value k) { e.store(e.i32(0), acc, k); });
          e.forEachTap(rows, cols, p, q, [&](Value, Value, Value y, Value x) {
            Value z = e.index(0);
            e.store(
                arith::AddIOp::create(e.b, e.loc, e.load(count, z), e.index(1)),
                count, z);
            e.loadSegment(t.input,
                          (e.d(0) * cols.inExtent + e.d(1)) * cs + e.d(2),
                          {y, x, cc}, xbuf);
            e.loop(0, s, [&](Value k) {
              e.store(e.mac(e.load(acc, k), e.load(xbuf, k), zp, one), acc, k);
            });
          });
          Value n = e.load(count, e.index(0));
          e.loop(0, s, [&](Value k) {
            e.store(
                e.requantize(e.load(acc, k), rq, mt, st, n, e.b.getI8Type()),
                obuf, k);
          });
          frees(cc, Value(), 0);
          e.storeSegment(t.output,
                         (e.d(0) * cols.outExtent + e.d(1)) * cs + e.d(2),
                         {p, q, cc}, obuf);
        });
      });
  return success();
}

//===----------------------------------------------------------------------===//
// bottleneck: paper Figure 6, one output pixel at a time.
//===----------------------------------------------------------------------===//

LogicalResult emitBottleneck(Emitter &e, BottleneckOp op,
                             const KernelTensors &t) {
  Conv2DOp expand = op.getExpand(), project = op.getProject();
  DepthwiseConv2DOp dw = op.getDepthwise();
  AddOp residual = op.getResidual();
  auto a = op.getInput().getType(), bType = expand.getOutput().getType();
  auto out = op.getOutput().getType();
  int64_t cin = a.getDimSize(3), cmid = bType.getDimSize(3),
          cout = out.getDimSize(3);
  int64_t s = e.seg, cinS = cin / s, coutS = cout / s;
  auto dwW = dw.getWeight().getType();
  int64_t kr = dwW.getDimSize(0), kc = dwW.getDimSize(1);
  ArrayRef<int64_t> s1 = expand.getStride(), s2 = dw.getStride(),
                    s3 = project.getStride(), dwPad = dw.getPad();
  Axis rows{a.getDimSize(1),    out.getDimSize(1), s1[0],
            s2[0] * s3[0],      dwPad[0],          kr,
            bType.getDimSize(1)};
  Axis cols{a.getDimSize(2),    out.getDimSize(2), s1[1],
            s2[1] * s3[1],      dwPad[2],          kc,
            bType.getDimSize(2)};
  if (residual && (s1[0] * s2[0] * s3[0] != 1 || s1[1] * s2[1] * s3[1] != 1))
    return op.emitOpError("a residual bottleneck must have unit strides");

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
  Value w1t = e.i8Table("expand_weights", *w1);
  Value b1t = e.i32Table("expand_bias", *b1);
  Value w2t = e.i8Table("dw_weights", *w2);
  Value b2t = e.i32Table("dw_bias", *b2);
  Value w3tt = e.i8Table("project_weights", w3t);
  Value b3t = e.i32Table("project_bias", *b3);
  auto [m1, sh1] = e.requantTables("expand_", expand.getRequant(), cmid);
  auto [m2, sh2] = e.requantTables("dw_", dw.getRequant(), cmid);
  auto [m3, sh3] = e.requantTables("project_", project.getRequant(), cout);
  Value addMult, addShift;
  if (residual)
    std::tie(addMult, addShift) =
        e.requantTables("add_", residual.getRequant(), cout);
  int32_t zpA = static_cast<int32_t>(expand.getInputZp());
  int32_t zpB = static_cast<int32_t>(dw.getInputZp());
  int32_t zpC = static_cast<int32_t>(project.getInputZp());

  Value accD = e.scratch(cout, e.b.getI32Type());
  Value accB = e.scratch(1, e.b.getI32Type());
  Value accC = e.scratch(1, e.b.getI32Type());
  Value xbuf = e.scratch(s, e.b.getI8Type());
  Value obuf = e.scratch(s, e.b.getI8Type());
  Type i8Type = e.b.getI8Type();

  // With a window-cache budget of at least R*R*Cmid bytes, the expanded
  // pixels (B) of the R x R window live in `window`, slot (r, column mod R,
  // m): at each output pixel only the `stride` columns the window slides
  // onto are expanded, at the row's first pixel all of it. Each input pixel
  // is then loaded and expanded once per output row instead of once per tap
  // and mid channel.
  int64_t cs = cols.stride;
  bool cacheWindow = cs <= kc && static_cast<uint64_t>(kr * kc * cmid) <=
                                     e.env.windowCacheBytes;
  Value window, xrow;
  if (cacheWindow) {
    window = e.scratch(kr * kc * cmid, i8Type);
    xrow = e.scratch(cin, i8Type);
  }
  // Expands the input pixels of window rows (clipped) and tap columns
  // [tLo, tHi) (clipped) of output pixel (p, q) into `window`.
  auto fillWindow = [&](Value p, Value q, int64_t tLo, int64_t tHi) {
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
                  Value slot = e.apply(
                      (e.d(0) * kc + (e.d(1) * cs - cols.pad + e.d(2)) % kc) *
                              cmid +
                          e.d(3),
                      {r, q, tt, m});
                  e.store(bq, window, slot);
                });
              });
        });
  };

  // Once accD is complete only the residual still reads the input, and
  // only pixel (p, q), which is among the pixels freed here only without
  // padding. Otherwise free them before the first output segment's store:
  // the output may then start one segment closer.
  int64_t freeBefore =
      residual && rows.pad == 0 && cols.pad == 0 ? coutS - 1 : 0;
  e.emitWindowed(
      rows, cols, t.input, cinS,
      [&](Value p, Value q, Emitter::FreeHook frees) {
        Value z = e.index(0);
        if (cacheWindow) {
          // The whole window at the row's first pixel, then its new column.
          e.loop({e.d(0)}, {e.d(0) + 1, e.c(1)}, q,
                 [&](Value) { fillWindow(p, q, 0, kc - cs); });
          fillWindow(p, q, kc - cs, kc);
        }
        e.loop(0, cout, [&](Value k) { e.store(e.load(b3t, k), accD, k); });
        e.loop(0, cmid, [&](Value m) {
          e.store(e.load(b2t, m), accC, z);
          e.forEachTap(
              rows, cols, p, q, [&](Value r, Value tt, Value y, Value x) {
                if (cacheWindow) {
                  Value slot = e.apply(
                      (e.d(0) * kc + (e.d(1) * cs - cols.pad + e.d(2)) % kc) *
                              cmid +
                          e.d(3),
                      {r, q, tt, m});
                  Value w2Idx = e.apply((e.d(0) * kc + e.d(1)) * cmid + e.d(2),
                                        {r, tt, m});
                  e.store(e.mac(e.load(accC, z), e.load(window, slot), zpB,
                                e.load(w2t, w2Idx)),
                          accC, z);
                  return;
                }
                e.store(e.load(b1t, m), accB, z);
                e.loop(0, cinS, [&](Value cc) {
                  e.loadSegment(t.input,
                                (e.d(0) * cols.inExtent + e.d(1)) * cinS +
                                    e.d(2),
                                {y, x, cc}, xbuf);
                  e.dotRow(accB, z, xbuf, s, zpA, w1t,
                           e.d(0) * cin + e.d(1) * s, {m, cc});
                });
                Value bq = e.requantize(e.load(accB, z), expand.getRequant(),
                                        m1, sh1, m, i8Type);
                Value w2Idx =
                    e.apply((e.d(0) * kc + e.d(1)) * cmid + e.d(2), {r, tt, m});
                e.store(e.mac(e.load(accC, z), bq, zpB, e.load(w2t, w2Idx)),
                        accC, z);
              });
          Value cq = e.requantize(e.load(accC, z), dw.getRequant(), m2, sh2, m,
                                  i8Type);
          e.loop(0, cout, [&](Value k) {
            Value wIdx = e.apply(e.d(0) * cout + e.d(1), {m, k});
            e.store(e.mac(e.load(accD, k), cq, zpC, e.load(w3tt, wIdx)), accD,
                    k);
          });
        });
        e.loop(0, coutS, [&](Value kk) {
          AffineExpr pixelSeg =
              (e.d(0) * cols.outExtent + e.d(1)) * coutS + e.d(2);
          if (residual)
            e.loadSegment(t.input, pixelSeg, {p, q, kk}, xbuf);
          e.loop(0, s, [&](Value k) {
            Value ch = e.apply(e.d(0) * s + e.d(1), {kk, k});
            Value dq = e.requantize(e.load(accD, ch), project.getRequant(), m3,
                                    sh3, ch, i8Type);
            if (residual) {
              bool projIsLhs = residual.getLhs() == project.getOutput();
              Value av = e.load(xbuf, k);
              Value lhs = projIsLhs ? dq : av, rhs = projIsLhs ? av : dq;
              Value sum = arith::AddIOp::create(
                  e.b, e.loc, e.rescaleToI32(lhs, residual.getLhsRescale()),
                  e.rescaleToI32(rhs, residual.getRhsRescale()));
              dq = e.requantize(sum, residual.getRequant(), addMult, addShift,
                                ch, i8Type);
            }
            e.store(dq, obuf, k);
          });
          frees(Value(), kk, freeBefore);
          e.storeSegment(t.output, pixelSeg, {p, q, kk}, obuf);
        });
      });
  return success();
}

//===----------------------------------------------------------------------===//
// add: element-wise over two ring tensors, segment by segment.
//===----------------------------------------------------------------------===//

/// Reads segment i of both operands, frees them (at their last use) and
/// stores output segment i, so the output may overwrite either operand in
/// place.
LogicalResult emitAdd(Emitter &e, AddOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  int64_t s = e.seg, cs = channels / s;
  int64_t pixels = type.getNumElements() / channels;
  // The primary input is the previous layer's output; `skip` the other one.
  Value lhsBase = t.skip && t.skipIsLhs ? t.skip : t.input;
  Value rhsBase = t.skip && !t.skipIsLhs ? t.skip : t.input;
  auto [mult, shift] = e.requantTables("add_", op.getRequant(), channels);
  Value lbuf = e.scratch(s, e.b.getI8Type());
  Value rbuf = e.scratch(s, e.b.getI8Type());
  Value obuf = e.scratch(s, e.b.getI8Type());
  Type i8Type = e.b.getI8Type();
  e.loop(0, pixels, [&](Value p) {
    e.loop(0, cs, [&](Value cc) {
      AffineExpr segIndex = e.d(0) * cs + e.d(1);
      e.loadSegment(lhsBase, segIndex, {p, cc}, lbuf);
      if (t.skip)
        e.loadSegment(rhsBase, segIndex, {p, cc}, rbuf);
      Value rsrc = t.skip ? rbuf : lbuf;
      e.loop(0, s, [&](Value k) {
        Value ch = e.apply(e.d(0) * s + e.d(1), {cc, k});
        Value sum = arith::AddIOp::create(
            e.b, e.loc, e.rescaleToI32(e.load(lbuf, k), op.getLhsRescale()),
            e.rescaleToI32(e.load(rsrc, k), op.getRhsRescale()));
        e.store(e.requantize(sum, op.getRequant(), mult, shift, ch, i8Type),
                obuf, k);
      });
      e.freeSegment(t.input, segIndex, {p, cc});
      if (t.skip)
        e.freeSegment(t.skip, segIndex, {p, cc});
      e.storeSegment(t.output, segIndex, {p, cc}, obuf);
    });
  });
  return success();
}

/// Erases the loops left empty when frees of a kept-alive tensor were not
/// emitted (innermost first).
void eraseEmptyLoops(Block &body) {
  body.walk<WalkOrder::PostOrder>([](affine::AffineForOp loop) {
    if (loop.getBody()->without_terminator().empty())
      loop.erase();
  });
}

} // namespace

LogicalResult mlir::vmcu::tile::emitKernel(OpBuilder &b, const KernelEnv &env,
                                           LayerOpInterface layer,
                                           int64_t segmentBytes,
                                           const KernelTensors &tensors) {
  Emitter e(b, env, layer->getLoc(), segmentBytes);
  if (!tensors.freeInput)
    e.keepAlive.push_back(tensors.input);
  if (tensors.skip && !tensors.freeSkip)
    e.keepAlive.push_back(tensors.skip);
  Block *body = b.getInsertionBlock();
  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(layer)
          .Case([&](Conv2DOp op) { return emitConv(e, op, tensors); })
          .Case([&](FullyConnectedOp op) {
            return emitFullyConnected(e, op, tensors);
          })
          .Case([&](DepthwiseConv2DOp op) {
            return emitDepthwise(e, op, tensors);
          })
          .Case([&](AvgPool2DOp op) { return emitAvgPool(e, op, tensors); })
          .Case([&](BottleneckOp op) { return emitBottleneck(e, op, tensors); })
          .Case([&](AddOp op) { return emitAdd(e, op, tensors); })
          .Default([&](Operation *op) {
            return op->emitOpError(
                "is not supported by vmcu-tile yet (only conv2d, "
                "depthwise_conv2d, fully_connected, avg_pool2d, add and "
                "bottleneck)");
          });
  if (succeeded(result) && !e.keepAlive.empty())
    eraseEmptyLoops(*body);
  return result;
}
