//===- TileKernels.cpp - add and table kernels, and the dispatch ----------===//
//
// The loops vmcu-tile emits for each layer (paper Figures 4-6): an outer
// level over output pixels and segments with ring loads, stores and frees at
// last use, and an inner level of 4-lane dots and requantisation.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {

//===----------------------------------------------------------------------===//
// add, subtract and mul: element-wise over two operands that broadcast to
// the output, segment by segment.
//===----------------------------------------------------------------------===//

/// The largest |(a - za) * (b - zb)| of int8 operands and zero points.
constexpr int64_t kMaxInt8Product = 255 * 255;

/// How a binary kernel reads one of its operands.
enum class OperandRead {
  /// The output's shape, in the ring: segment by segment, freed once read,
  /// so the output may overwrite it in place.
  Full,
  /// Every dimension but the innermost 1 (a per-channel gate), in the
  /// ring: staged once into a buffer of its channels.
  Staged,
  /// Any other broadcast, in the ring: each output segment reads the
  /// operand segment it maps to.
  Broadcast,
  /// A constant: read from a flash table through the broadcast.
  Constant,
};

/// One operand of a binary kernel as its loops read it.
struct BinaryOperand {
  OperandRead read;
  /// The operand's ring tensor; null for a constant.
  Value base;
  /// Full and Broadcast: a segment buffer; Staged: its channels;
  /// Constant: the flash table.
  Value buf;
  /// The operand's innermost extent: the output's, or 1 when broadcast.
  int64_t channels;
  /// Whether its frees wait until after the loops: several output
  /// segments read each of its segments, or the other operand reads the
  /// same tensor differently.
  bool freeAfterLoops = false;
  /// The operand pixel (all dimensions but the innermost, row-major) read
  /// at the pixel loops' indices.
  AffineExpr pixel = {};
};

/// Classifies `operand` of `op` (whose ring tensor, if any, is `base`) and
/// allocates what its reads need.
FailureOr<BinaryOperand> readOperand(Emitter &e, Operation *op, Value operand,
                                     Value base, StringRef side) {
  auto type = cast<ShapedType>(operand.getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  BinaryOperand read{OperandRead::Full, base, Value(), type.getShape().back()};
  Type i8Type = e.b.getI8Type();
  if (matchPattern(operand, m_Constant())) {
    auto values = constantValues<int8_t>(op, operand, "constant operand");
    if (failed(values))
      return failure();
    read.read = OperandRead::Constant;
    read.base = Value();
    read.buf = e.i8Table((side + "_constant").str(), *values);
    return read;
  }
  if (type == out) {
    read.buf = e.scratch(e.seg, i8Type);
    return read;
  }
  if (isStagedBinaryOperand(operand, out)) {
    read.read = OperandRead::Staged;
    read.buf = e.scratch(read.channels, i8Type);
    return read;
  }
  read.read = OperandRead::Broadcast;
  read.freeAfterLoops = true;
  read.buf = e.scratch(e.seg, i8Type);
  return read;
}

/// One loop of a binary kernel's pixel nest: a run of the output's
/// dimensions (all but the innermost) that each operand either spans or
/// broadcasts over.
struct PixelLoop {
  int64_t extent;
  /// Pixel strides of the output and of each operand (0: broadcast).
  int64_t outStride;
  std::array<int64_t, 2> operandStrides;
};

/// The pixel loops, outermost first: dimensions of extent 1 get none, and
/// adjacent dimensions merge where both operands treat them alike, so the
/// indices stay linear (what vmcu-solve-offsets reads) and the nest
/// shallow (one loop when nothing broadcasts).
SmallVector<PixelLoop> pixelLoops(ShapedType out,
                                  std::array<ShapedType, 2> operands) {
  SmallVector<PixelLoop> loops;
  int64_t outStride = 1;
  std::array<int64_t, 2> strides = {1, 1};
  for (int64_t dim = out.getRank() - 2; dim >= 0; --dim) {
    int64_t extent = out.getDimSize(dim);
    PixelLoop loop{extent, outStride, {}};
    for (int i : {0, 1}) {
      int64_t own = operands[i].getDimSize(dim);
      loop.operandStrides[i] = own == extent ? strides[i] : 0;
      strides[i] *= own;
    }
    outStride *= extent;
    if (extent == 1)
      continue;
    auto alike = [&](const PixelLoop &inner) {
      return llvm::all_of(llvm::seq(0, 2), [&](int i) {
        return (inner.operandStrides[i] == 0) == (loop.operandStrides[i] == 0);
      });
    };
    if (!loops.empty() && alike(loops.back()))
      loops.back().extent *= extent;
    else
      loops.push_back(loop);
  }
  std::reverse(loops.begin(), loops.end());
  return loops;
}

/// Segment index, over the pixel loops' indices and d_n = the output's
/// channel segment (n loops), of the operand segment it reads.
AffineExpr operandSegment(Emitter &e, const BinaryOperand &x, unsigned n,
                          int64_t outChannels) {
  int64_t segs = x.channels / e.seg;
  return x.channels == outChannels ? x.pixel * segs + e.d(n)
                                   : x.pixel * segs;
}

/// Lane d_{n+1} of output segment d_n of operand `x` (at the pixel loops'
/// indices; `dims` all n + 2 of them), its buffers filled for the segment.
Value readLane(Emitter &e, const BinaryOperand &x, int64_t outChannels,
               ValueRange dims) {
  unsigned n = dims.size() - 2;
  bool channelWise = x.channels == outChannels;
  AffineExpr channel = e.d(n) * e.seg + e.d(n + 1);
  switch (x.read) {
  case OperandRead::Full:
  case OperandRead::Broadcast:
    return e.load(x.buf, channelWise ? dims[n + 1] : e.index(0));
  case OperandRead::Staged:
    return e.load(x.buf, channelWise ? e.apply(channel, dims) : e.index(0));
  case OperandRead::Constant: {
    AffineExpr element = x.pixel * x.channels;
    return e.load(x.buf,
                  e.apply(channelWise ? element + channel : element, dims));
  }
  }
  llvm_unreachable("unknown operand read");
}

/// Frees every segment of `x`'s tensor, `bytes` long.
void freeWhole(Emitter &e, const BinaryOperand &x, int64_t bytes) {
  e.loop(0, bytes / e.seg,
         [&](Value i) { e.freeSegment(x.base, e.d(0), {i}); });
}

/// Computes one output lane from the operands' lanes and its channel.
using LaneFn = function_ref<Value(Value lhs, Value rhs, Value ch)>;

/// The skeleton of the binary layers: stages the per-channel operands;
/// over the pixel loops and the channel segments, loads the operands'
/// segments, computes `lane` of every lane, frees the full operands'
/// segments (at their last use) and stores the output segment, so the
/// output may overwrite a full operand in place; frees the broadcast
/// operands last.
LogicalResult emitBinary(Emitter &e, Operation *op, const KernelTensors &t,
                         LaneFn lane) {
  auto out = cast<ShapedType>(op->getResult(0).getType());
  int64_t channels = out.getShape().back();
  int64_t s = e.seg, cs = channels / s;
  // The lhs's tensor is the skip where the skip is the lhs; a constant
  // leaves the other operand the only (input) tensor.
  auto baseOf = [&](bool lhs) {
    return t.skip && t.skipIsLhs == lhs ? t.skip : t.input;
  };
  FailureOr<BinaryOperand> lhs =
      readOperand(e, op, op->getOperand(0), baseOf(true), "lhs");
  FailureOr<BinaryOperand> rhs =
      readOperand(e, op, op->getOperand(1), baseOf(false), "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  std::array<BinaryOperand *, 2> sides = {&*lhs, &*rhs};
  std::array<ShapedType, 2> types = {
      cast<ShapedType>(op->getOperand(0).getType()),
      cast<ShapedType>(op->getOperand(1).getType())};
  SmallVector<PixelLoop> loops = pixelLoops(out, types);
  unsigned n = loops.size();
  AffineExpr outPixel = e.c(0);
  lhs->pixel = rhs->pixel = e.c(0);
  for (auto [level, loop] : llvm::enumerate(loops)) {
    outPixel = outPixel + e.d(level) * loop.outStride;
    for (int i : {0, 1})
      sides[i]->pixel = sides[i]->pixel + e.d(level) * loop.operandStrides[i];
  }
  AffineExpr outSegment = outPixel * cs + e.d(n);

  bool sameTensor = lhs->base && lhs->base == rhs->base;
  bool bothFull =
      lhs->read == OperandRead::Full && rhs->read == OperandRead::Full;
  if (sameTensor && !bothFull)
    lhs->freeAfterLoops = rhs->freeAfterLoops = true;
  // Two full reads of one tensor share the lhs's segment.
  if (sameTensor && bothFull)
    rhs->buf = lhs->buf;
  auto ownsTensor = [&](BinaryOperand *x) { return !(x == &*rhs && sameTensor); };
  for (BinaryOperand *x : sides) {
    if (x->read != OperandRead::Staged)
      continue;
    Value buf = x->buf;
    e.loop(0, x->channels / s, [&](Value cc) {
      e.loadSegment(x->base, e.d(0), {cc}, buf, e.apply(e.d(0) * s, {cc}));
    });
    if (!x->freeAfterLoops)
      freeWhole(e, *x, x->channels);
  }
  Value obuf = e.scratch(s, e.b.getI8Type());
  SmallVector<Value> ivs;
  std::function<void(unsigned)> nest = [&](unsigned level) {
    if (level < n) {
      e.loop(0, loops[level].extent, [&](Value iv) {
        ivs.push_back(iv);
        nest(level + 1);
        ivs.pop_back();
      });
      return;
    }
    e.loop(0, cs, [&](Value cc) {
      SmallVector<Value> dims(ivs);
      dims.push_back(cc);
      for (BinaryOperand *x : sides) {
        bool shared = x == &*rhs && sameTensor && bothFull;
        if (x->read == OperandRead::Full && !shared)
          e.loadSegment(x->base, outSegment, dims, x->buf);
        if (x->read == OperandRead::Broadcast)
          e.loadSegment(x->base, operandSegment(e, *x, n, channels), dims,
                        x->buf);
      }
      e.loop(0, s, [&](Value k) {
        SmallVector<Value> lanes(dims);
        lanes.push_back(k);
        Value ch = e.apply(e.d(0) * s + e.d(1), {cc, k});
        // Each side named first: argument order is unspecified.
        Value a = readLane(e, *lhs, channels, lanes);
        Value b = readLane(e, *rhs, channels, lanes);
        e.store(lane(a, b, ch), obuf, k);
      });
      for (BinaryOperand *x : sides)
        if (x->read == OperandRead::Full && !x->freeAfterLoops &&
            ownsTensor(x))
          e.freeSegment(x->base, outSegment, dims);
      e.storeSegment(t.output, outSegment, dims, obuf);
    });
  };
  nest(0);
  for (auto [x, type] : llvm::zip(sides, types))
    if (x->freeAfterLoops && ownsTensor(x))
      freeWhole(e, *x, type.getNumElements());
  return success();
}

/// ADD (or SUB): both operands rescaled to int32, summed (or subtracted),
/// requantized.
LogicalResult emitAdd(Emitter &e, AddOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  Value mult, shift;
  std::tie(mult, shift) =
      e.requantTables("add_", op.getRequant(), channels, e.addValueBound(op));
  Type i8Type = e.b.getI8Type();
  return emitBinary(e, op, t, [&](Value a, Value b, Value ch) {
    Value lhs = e.rescaleToI32(a, op.getLhsRescale());
    Value rhs = e.rescaleToI32(b, op.getRhsRescale());
    Value sum = op.getSubtract()
                    ? arith::SubIOp::create(e.b, e.loc, lhs, rhs).getResult()
                    : arith::AddIOp::create(e.b, e.loc, lhs, rhs).getResult();
    return e.requantize(sum, op.getRequant(), mult, shift, ch, i8Type);
  });
}

/// MUL: the zero-point-free operands' product, requantized on the bounded
/// path (|product| <= 255^2).
LogicalResult emitMul(Emitter &e, MulOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  Type i8Type = e.b.getI8Type(), i32Type = e.b.getI32Type();
  Value mult, shift;
  std::tie(mult, shift) =
      e.requantTables("mul_", op.getRequant(), channels, kMaxInt8Product);
  auto offset = [&](Value v, int64_t zp) {
    Value wide = arith::ExtSIOp::create(e.b, e.loc, i32Type, v);
    return arith::SubIOp::create(e.b, e.loc, wide, e.i32(zp)).getResult();
  };
  return emitBinary(e, op, t, [&](Value a, Value b, Value ch) {
    Value lhs = offset(a, op.getLhsZp());
    Value rhs = offset(b, op.getRhsZp());
    Value product = arith::MulIOp::create(e.b, e.loc, lhs, rhs);
    return e.requantize(product, op.getRequant(), mult, shift, ch, i8Type);
  });
}

//===----------------------------------------------------------------------===//
// table: element-wise lookup, segment by segment, in place.
//===----------------------------------------------------------------------===//

/// Loads segment i, frees it and stores the looked-up segment i, so the
/// output may overwrite the input in place.
LogicalResult emitTable(Emitter &e, TableOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  int64_t s = e.seg, cs = channels / s;
  int64_t pixels = type.getNumElements() / channels;
  auto entries = constantValues<int8_t>(op, op.getTable(), "table");
  if (failed(entries))
    return failure();
  Value table = e.i8Table("table", *entries);
  Value buf = e.scratch(s, e.b.getI8Type());
  e.loop(0, pixels, [&](Value p) {
    e.loop(0, cs, [&](Value cc) {
      AffineExpr segIndex = e.d(0) * cs + e.d(1);
      e.loadSegment(t.input, segIndex, {p, cc}, buf);
      e.loop(0, s, [&](Value k) {
        Value x = arith::ExtSIOp::create(e.b, e.loc, e.b.getI32Type(),
                                         e.load(buf, k));
        Value index = arith::IndexCastOp::create(
            e.b, e.loc, e.b.getIndexType(),
            arith::AddIOp::create(e.b, e.loc, x, e.i32(TableOp::kOffset)));
        e.store(e.load(table, index), buf, k);
      });
      e.freeSegment(t.input, segIndex, {p, cc});
      e.storeSegment(t.output, segIndex, {p, cc}, buf);
    });
  });
  return success();
}

//===----------------------------------------------------------------------===//
// concat: each output row is the pieces' rows, copied segment by segment.
//===----------------------------------------------------------------------===//

/// Per output row, copies every piece's row in operand order, freeing a
/// piece's segments at its last occurrence among the operands, so the
/// output may grow over the rows already copied.
LogicalResult emitConcat(Emitter &e, ConcatOp op, const KernelTensors &t) {
  int64_t s = e.seg;
  int64_t outSegs = op.getRowBytes(op.getOutput()) / s;
  Value buf = e.scratch(s, e.b.getI8Type());
  ArrayRef<Value> pieces = t.operands;
  e.loop(0, op.getRows(), [&](Value row) {
    int64_t offset = 0;
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      Value piece = pieces[i];
      int64_t segs = op.getRowBytes(input) / s;
      bool lastUse = !llvm::is_contained(pieces.drop_front(i + 1), piece);
      e.loop(0, segs, [&](Value j) {
        AffineExpr in = e.d(0) * segs + e.d(1);
        e.loadSegment(piece, in, {row, j}, buf);
        if (lastUse)
          e.freeSegment(piece, in, {row, j});
        e.storeSegment(t.output, e.d(0) * outSegs + offset + e.d(1), {row, j},
                       buf);
      });
      offset += segs;
    }
  });
  return success();
}

//===----------------------------------------------------------------------===//
// slice: a strided box of the input, row by row.
//===----------------------------------------------------------------------===//

/// Nested loops over `extents`, outermost first; `body` gets every
/// induction variable.
void forEachIndex(Emitter &e, ArrayRef<int64_t> extents,
                  function_ref<void(ValueRange)> body,
                  SmallVector<Value> ivs = {}) {
  if (ivs.size() == extents.size())
    return body(ivs);
  e.loop(0, extents[ivs.size()], [&](Value iv) {
    SmallVector<Value> inner = ivs;
    inner.push_back(iv);
    forEachIndex(e, extents, body, inner);
  });
}

/// Strides (in segments of `seg` bytes) of a row-major tensor of `shape`
/// whose innermost dimension is counted in segments.
SmallVector<int64_t> segmentStrides(ArrayRef<int64_t> shape, int64_t seg) {
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= d + 1 == static_cast<int64_t>(shape.size()) ? shape[d] / seg
                                                           : shape[d];
  }
  return strides;
}

/// Frees every input segment whose index along dimension `k` is `index`,
/// all other dimensions whole.
void freeInputSlice(Emitter &e, Value input, ArrayRef<int64_t> inExtents,
                    ArrayRef<int64_t> inStrides, int64_t k, Value index) {
  SmallVector<int64_t> otherExtents;
  AffineExpr seg = e.d(0) * inStrides[k];
  for (int64_t j = 0; j < static_cast<int64_t>(inExtents.size()); ++j)
    if (j != k) {
      otherExtents.push_back(inExtents[j]);
      seg = seg + e.d(otherExtents.size()) * inStrides[j];
    }
  forEachIndex(e, otherExtents, [&](ValueRange rest) {
    SmallVector<Value> at = {index};
    at.append(rest.begin(), rest.end());
    e.freeSegment(input, seg, at);
  });
}

/// Frees every input segment whose index along dimension `k` is in
/// [lo, hi) (bounds over `dims`), all other dimensions whole.
void freeSlab(Emitter &e, Value input, ArrayRef<int64_t> inExtents,
              ArrayRef<int64_t> inStrides, int64_t k, AffineExpr lo,
              ArrayRef<AffineExpr> hi, ValueRange dims) {
  e.loop({lo}, hi, dims, [&](Value r) {
    freeInputSlice(e, input, inExtents, inStrides, k, r);
  });
}

/// For every output row (all dimensions but the innermost), copies its
/// segments from the input row the starts and strides select. Along the
/// outermost output dimension k longer than 1 (not the innermost), the
/// input slab between one selected index and the next is dead once its
/// output slice is written: it is freed then (the part before the first
/// and after the last too), so the output can grow over it. Otherwise the
/// whole input is freed after the copy.
LogicalResult emitSlice(Emitter &e, SliceOp op, const KernelTensors &t) {
  auto in = op.getInput().getType();
  auto out = op.getOutput().getType();
  int64_t rank = out.getRank(), s = e.seg;
  ArrayRef<int64_t> start = op.getStart(), stride = op.getStride();
  SmallVector<int64_t> inStrides = segmentStrides(in.getShape(), s);
  SmallVector<int64_t> outStrides = segmentStrides(out.getShape(), s);
  AffineExpr inSeg = e.b.getAffineConstantExpr(start.back() / s);
  AffineExpr outSeg = e.b.getAffineConstantExpr(0);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t first = d + 1 == rank ? 0 : start[d];
    inSeg = inSeg + (e.d(d) * stride[d] + first) * inStrides[d];
    outSeg = outSeg + e.d(d) * outStrides[d];
  }
  SmallVector<int64_t> extents(out.getShape());
  extents.back() /= s;
  SmallVector<int64_t> inExtents(in.getShape());
  inExtents.back() /= s;
  Value buf = e.scratch(s, e.b.getI8Type());
  auto copy = [&](ValueRange ivs) {
    e.loadSegment(t.input, inSeg, ivs, buf);
    e.storeSegment(t.output, outSeg, ivs, buf);
  };
  int64_t k = 0;
  while (k + 1 < rank && extents[k] == 1)
    ++k;
  if (k + 1 == rank) {
    forEachIndex(e, extents, copy);
    e.loop(0, in.getNumElements() / s,
           [&](Value q) { e.freeSegment(t.input, e.d(0), {q}); });
    return success();
  }
  auto constant = [&](int64_t v) { return e.b.getAffineConstantExpr(v); };
  int64_t past = start[k] + extents[k] * stride[k]; // after the last slab
  if (start[k] > 0)
    freeSlab(e, t.input, inExtents, inStrides, k, constant(0),
             {constant(start[k])}, {});
  SmallVector<int64_t> head(extents.begin(), extents.begin() + k);
  SmallVector<int64_t> tail(extents.begin() + k + 1, extents.end());
  forEachIndex(e, head, [&](ValueRange outer) {
    e.loop(0, extents[k], [&](Value ik) {
      forEachIndex(e, tail, [&](ValueRange inner) {
        SmallVector<Value> ivs(outer.begin(), outer.end());
        ivs.push_back(ik);
        ivs.append(inner.begin(), inner.end());
        copy(ivs);
      });
      AffineExpr lo = e.d(0) * stride[k] + start[k];
      freeSlab(e, t.input, inExtents, inStrides, k, lo,
               {lo + stride[k], constant(inExtents[k])}, {ik});
    });
  });
  if (past < inExtents[k])
    freeSlab(e, t.input, inExtents, inStrides, k, constant(past),
             {constant(inExtents[k])}, {});
  return success();
}

//===----------------------------------------------------------------------===//
// batch_matmul: per batch, the rhs staged transposed, then the lhs rows.
//===----------------------------------------------------------------------===//

/// Stages rhs[b] ([K, N] in the pool) transposed into `staged` ([N, K]),
/// freeing its segments unless the lhs is the same tensor.
void stageTransposedRhs(Emitter &e, Value rhs, bool freeRhs, Value b,
                        int64_t depth, int64_t colSegs, Value seg,
                        Value staged) {
  int64_t s = e.seg;
  e.loop(0, depth, [&](Value k) {
    e.loop(0, colSegs, [&](Value j) {
      AffineExpr index = (e.d(0) * depth + e.d(1)) * colSegs + e.d(2);
      e.loadSegment(rhs, index, {b, k, j}, seg);
      if (freeRhs)
        e.freeSegment(rhs, index, {b, k, j});
      e.loop(0, s, [&](Value l) {
        Value at = e.apply((e.d(0) * s + e.d(1)) * depth + e.d(2), {j, l, k});
        e.store(e.load(seg, l), staged, at);
      });
    });
  });
}

/// -rhs_zp * sum_k (row[k] - lhs_zp): the rhs zero point's share of each
/// of a row's sums, so that the dot products read raw rhs bytes.
Value rhsZeroPointTerm(Emitter &e, BatchMatMulOp op, Value row, int64_t depth) {
  if (op.getRhsZp() == 0)
    return e.i32(0);
  Type i32Type = e.b.getI32Type();
  Value sum = e.scratch(1, i32Type);
  Value zero = e.index(0);
  e.store(e.i32(0), sum, zero);
  e.loop(0, depth, [&](Value k) {
    Value x = arith::ExtSIOp::create(e.b, e.loc, i32Type, e.load(row, k));
    Value partial = e.load(sum, zero);
    e.store(arith::AddIOp::create(e.b, e.loc, partial, x), sum, zero);
  });
  int64_t zp = static_cast<int32_t>(op.getLhsZp());
  int64_t rhsZp = static_cast<int32_t>(op.getRhsZp());
  Value total = e.load(sum, zero);
  Value centred = arith::SubIOp::create(e.b, e.loc, total, e.i32(depth * zp));
  return arith::MulIOp::create(e.b, e.loc, centred, e.i32(-rhsZp));
}

/// Per batch b: stages rhs[b] transposed on the stack; then per lhs row m
/// loads and frees the row, computes its N sums as 4-lane dot products
/// over raw rhs bytes (rhsZeroPointTerm), requantizes them and stores the
/// output row, which may land on the rows and the rhs already freed.
LogicalResult emitBatchMatMul(Emitter &e, BatchMatMulOp op,
                              const KernelTensors &t) {
  if (t.operands.size() != 2)
    return op.emitOpError("needs both operands in the pool (a constant rhs "
                          "is a vmcu.fully_connected)");
  auto lhsType = op.getLhs().getType();
  int64_t batches = lhsType.getDimSize(0), rows = lhsType.getDimSize(1);
  int64_t depth = lhsType.getDimSize(2);
  int64_t cols = op.getRhs().getType().getDimSize(2);
  int64_t s = e.seg, depthSegs = depth / s, colSegs = cols / s;
  Value lhs = t.operands[0], rhs = t.operands[1];
  Type i8Type = e.b.getI8Type(), i32Type = e.b.getI32Type();
  Value mult, shift;
  std::tie(mult, shift) =
      e.requantTables("bmm_", op.getRequant(), 1, depth * kMaxInt8Product);
  Value staged = e.scratch(cols * depth, i8Type);
  Value row = e.scratch(depth, i8Type);
  Value seg = e.scratch(s, i8Type);
  Value acc = e.scratch(cols, i32Type);
  Value out = e.scratch(cols, i8Type);
  e.loop(0, batches, [&](Value b) {
    stageTransposedRhs(e, rhs, lhs != rhs, b, depth, colSegs, seg, staged);
    e.loop(0, rows, [&](Value m) {
      e.loop(0, depthSegs, [&](Value j) {
        AffineExpr index = (e.d(0) * rows + e.d(1)) * depthSegs + e.d(2);
        e.loadSegment(lhs, index, {b, m, j}, row, e.apply(e.d(0) * s, {j}));
        e.freeSegment(lhs, index, {b, m, j});
      });
      Value start = rhsZeroPointTerm(e, op, row, depth);
      e.loop(0, cols, [&](Value n) {
        e.store(start, acc, n);
        e.dotRow(acc, n, row, depth, static_cast<int32_t>(op.getLhsZp()),
                 staged, e.d(0) * depth, {n});
        Value wide = e.load(acc, n);
        Value channel = e.index(0);
        e.store(
            e.requantize(wide, op.getRequant(), mult, shift, channel, i8Type),
            out, n);
      });
      e.loop(0, colSegs, [&](Value j) {
        AffineExpr index = (e.d(0) * rows + e.d(1)) * colSegs + e.d(2);
        e.storeSegment(t.output, index, {b, m, j}, out,
                       e.apply(e.d(0) * s, {j}));
      });
    });
  });
  return success();
}

//===----------------------------------------------------------------------===//
// transpose: a permutation of the dimensions, segment by segment.
//===----------------------------------------------------------------------===//


/// Writes the output in order, each segment read from where the
/// permutation puts it. Once a slice of the outermost output dimension
/// longer than 1 is done, the input slice it read (that index of input
/// dimension perms[k]) is dead: it is freed, so the output can grow over
/// it.
LogicalResult emitTranspose(Emitter &e, TransposeOp op,
                            const KernelTensors &t) {
  auto in = op.getInput().getType();
  auto out = op.getOutput().getType();
  int64_t rank = out.getRank(), s = e.seg;
  ArrayRef<int32_t> perms = op.getPerms();
  SmallVector<int64_t> inStrides = segmentStrides(in.getShape(), s);
  SmallVector<int64_t> outExtents(out.getShape());
  outExtents.back() /= s;
  SmallVector<int64_t> inExtents(in.getShape());
  inExtents.back() /= s;
  // The output segment index and the input one, over the output's indices.
  AffineExpr outSeg = e.b.getAffineConstantExpr(0);
  AffineExpr inSeg = e.b.getAffineConstantExpr(0);
  SmallVector<int64_t> outStrides = segmentStrides(out.getShape(), s);
  for (int64_t d = 0; d < rank; ++d) {
    outSeg = outSeg + e.d(d) * outStrides[d];
    inSeg = inSeg + e.d(d) * inStrides[perms[d]];
  }
  int64_t k = 0;
  while (k + 1 < rank && outExtents[k] == 1)
    ++k;
  Value buf = e.scratch(s, e.b.getI8Type());
  SmallVector<int64_t> outer(outExtents.begin(), outExtents.begin() + k);
  forEachIndex(e, outer, [&](ValueRange head) {
    e.loop(0, outExtents[k], [&](Value ik) {
      SmallVector<Value> prefix(head.begin(), head.end());
      prefix.push_back(ik);
      SmallVector<int64_t> inner(outExtents.begin() + k + 1, outExtents.end());
      forEachIndex(e, inner, [&](ValueRange tail) {
        SmallVector<Value> ivs = prefix;
        ivs.append(tail.begin(), tail.end());
        e.loadSegment(t.input, inSeg, ivs, buf);
        e.storeSegment(t.output, outSeg, ivs, buf);
      });
      freeInputSlice(e, t.input, inExtents, inStrides, perms[k], ik);
    });
  });
  return success();
}

//===----------------------------------------------------------------------===//
// resize_nearest: rows and columns copied as the index maps say.
//===----------------------------------------------------------------------===//

/// The longest period of an index map vmcu-tile unrolls: each run of
/// equal indices in a period is one copy of the copying loop nest, so a
/// period of P outputs costs up to P copies per axis (flash, not time).
constexpr int64_t kMaxResizePeriod = 16;

/// An index map as periods: output j * period + k reads input j * step +
/// offsets[k], for `periods` whole periods and a last partial one of
/// `rest` outputs. Integer up-scaling by f is one period of f equal
/// offsets, integer down-scaling a period of 1; every rational ratio TFLite
/// or TOSA rounds repeats too. Runs of equal offsets are copied by one
/// loop.
struct PeriodicSampling {
  int64_t period, step, periods, rest;
  /// Each run of equal offsets in a period: its first output and length.
  SmallVector<std::pair<int64_t, int64_t>> runs;
  SmallVector<int64_t> offsets;

  int64_t first() const { return offsets.front(); }
};

std::optional<PeriodicSampling> periodicSampling(ArrayRef<int64_t> map) {
  int64_t size = map.size();
  for (int64_t period = 1; period <= std::min(size, kMaxResizePeriod);
       ++period) {
    int64_t step = period < size ? map[period] - map[0] : 0;
    bool repeats = true;
    for (int64_t o = 0; o + period < size && repeats; ++o)
      repeats = map[o + period] == map[o] + step;
    if (!repeats)
      continue;
    PeriodicSampling sampling{period, step, size / period, size % period, {},
                              SmallVector<int64_t>(map.take_front(period))};
    for (int64_t k = 0; k < period; ++k)
      if (k == 0 || map[k] != map[k - 1])
        sampling.runs.push_back({k, 1});
      else
        ++sampling.runs.back().second;
    return sampling;
  }
  return std::nullopt;
}

/// Calls body(first output, count, input offset) for each run of `s` in a
/// whole period, or in the first `limit` outputs of one.
void forEachRun(const PeriodicSampling &s, int64_t limit,
                function_ref<void(int64_t, int64_t, int64_t)> body) {
  for (auto [start, count] : s.runs)
    if (start < limit)
      body(start, std::min(count, limit - start), s.offsets[start]);
}

/// Copies rows and columns as the index maps say, period by period: each
/// run of output rows reading one input row loads that row's sampled
/// segments once per output row and stores each as often as its column
/// run repeats it. The input rows before the first sample are freed first,
/// the rows up to the next period's first after each period, the rest at
/// the end, so the output can grow over them.
LogicalResult emitResizeNearest(Emitter &e, ResizeNearestOp op,
                                const KernelTensors &t) {
  std::optional<PeriodicSampling> rows = periodicSampling(op.getRows());
  std::optional<PeriodicSampling> cols = periodicSampling(op.getCols());
  if (!rows || !cols) {
    auto diag = op.emitOpError()
                << "(layer '" << e.env.name
                << "') needs index maps that repeat with a period of at most "
                << kMaxResizePeriod << " outputs, got rows [";
    llvm::interleaveComma(op.getRows(), diag);
    diag << "] and cols [";
    llvm::interleaveComma(op.getCols(), diag);
    return diag << "]";
  }
  ArrayRef<int64_t> in = op.getInput().getType().getShape();
  ArrayRef<int64_t> out = op.getOutput().getType().getShape();
  int64_t cs = in[3] / e.seg;
  int64_t inRow = in[2] * cs;
  Value buf = e.scratch(e.seg, e.b.getI8Type());
  // Frees input rows [lo, min(hi, H)) of image dims[0] (bounds over dims).
  auto freeRows = [&](AffineExpr lo, AffineExpr hi, ValueRange dims) {
    e.loop({lo}, {hi, e.c(in[1])}, dims, [&](Value row) {
      e.loop(0, inRow, [&](Value k) {
        e.freeSegment(t.input, (e.d(0) * in[1] + e.d(1)) * inRow + e.d(2),
                      {dims[0], row, k});
      });
    });
  };
  // Copies one output row: `dims` = {n, ...}, `inY` and `outY` over them.
  auto copyRow = [&](SmallVector<Value> dims, AffineExpr inY,
                     AffineExpr outY) {
    unsigned n = dims.size();
    auto columns = [&](AffineExpr period, int64_t limit,
                       SmallVector<Value> at) {
      unsigned m = at.size();
      forEachRun(*cols, limit, [&](int64_t start, int64_t count,
                                   int64_t offset) {
        e.loop(0, cs, [&](Value cc) {
          SmallVector<Value> seg(at);
          seg.push_back(cc);
          AffineExpr inX = period * cols->step + offset;
          e.loadSegment(t.input,
                        ((e.d(0) * in[1] + inY) * in[2] + inX) * cs + e.d(m),
                        seg, buf);
          e.loop(0, count, [&](Value q) {
            SmallVector<Value> all(seg);
            all.push_back(q);
            AffineExpr outX = period * cols->period + start + e.d(m + 1);
            e.storeSegment(
                t.output,
                ((e.d(0) * out[1] + outY) * out[2] + outX) * cs + e.d(m), all,
                buf);
          });
        });
      });
    };
    e.loop(0, cols->periods, [&](Value jc) {
      SmallVector<Value> at(dims);
      at.push_back(jc);
      columns(e.d(n), cols->period, at);
    });
    if (cols->rest)
      columns(e.c(cols->periods), cols->rest, dims);
  };
  // Output rows of a period (`period` over `dims`), or its first `limit`.
  auto rowsOf = [&](AffineExpr period, int64_t limit, SmallVector<Value> dims) {
    unsigned n = dims.size();
    forEachRun(*rows, limit, [&](int64_t start, int64_t count, int64_t offset) {
      e.loop(0, count, [&](Value r) {
        SmallVector<Value> all(dims);
        all.push_back(r);
        copyRow(all, period * rows->step + offset,
                period * rows->period + start + e.d(n));
      });
    });
  };
  e.loop(0, in[0], [&](Value n) {
    if (rows->first() > 0)
      freeRows(e.c(0), e.c(rows->first()), {n});
    e.loop(0, rows->periods, [&](Value j) {
      rowsOf(e.d(1), rows->period, {n, j});
      if (rows->step > 0) {
        AffineExpr next = e.d(1) * rows->step + rows->first();
        freeRows(next, next + rows->step, {n, j});
      }
    });
    if (rows->rest)
      rowsOf(e.c(rows->periods), rows->rest, {n});
    int64_t past = rows->step > 0
                       ? rows->first() + rows->periods * rows->step
                       : rows->first();
    if (past < in[1])
      freeRows(e.c(past), e.c(in[1]), {n});
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
  e.keepAlive.append(tensors.keptAlive.begin(), tensors.keptAlive.end());
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
          .Case([&](MaxPool2DOp op) { return emitMaxPool(e, op, tensors); })
          .Case([&](BottleneckOp op) {
            return op.getLineBuffer() ? emitBottleneckLineBuffer(e, op, tensors)
                                      : emitBottleneck(e, op, tensors);
          })
          .Case([&](AddOp op) { return emitAdd(e, op, tensors); })
          .Case([&](MulOp op) { return emitMul(e, op, tensors); })
          .Case(
              [&](BatchMatMulOp op) { return emitBatchMatMul(e, op, tensors); })
          .Case([&](SoftmaxOp op) { return emitSoftmax(e, op, tensors); })
          .Case([&](TableOp op) { return emitTable(e, op, tensors); })
          .Case([&](ConcatOp op) { return emitConcat(e, op, tensors); })
          .Case([&](SliceOp op) { return emitSlice(e, op, tensors); })
          .Case([&](ResizeNearestOp op) {
            return emitResizeNearest(e, op, tensors);
          })
          .Case([&](TransposeOp op) { return emitTranspose(e, op, tensors); })
          .Default([&](Operation *op) {
            return op->emitOpError(
                "is not supported by vmcu-tile yet (only conv2d, "
                "depthwise_conv2d, fully_connected, avg_pool2d, "
                "max_pool2d, add, mul, batch_matmul, table, softmax, concat, "
                "slice, transpose and bottleneck)");
          });
  if (succeeded(result) && !e.keepAlive.empty())
    eraseEmptyLoops(*body);
  return result;
}
