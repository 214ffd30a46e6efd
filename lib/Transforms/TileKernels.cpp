//===- TileKernels.cpp - add and table kernels, and the dispatch ----------===//
//
// The loops vmcu-tile emits for each layer (paper Figures 4-6): an outer
// level over output pixels and segments with ring loads, stores and frees at
// last use, and an inner level of 4-lane dots and requantisation.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

namespace {

//===----------------------------------------------------------------------===//
// add (and subtract): element-wise over two ring tensors, segment by
// segment.
//===----------------------------------------------------------------------===//

/// The largest |(a - za) * (b - zb)| of int8 operands and zero points.
constexpr int64_t kMaxInt8Product = 255 * 255;

/// The ring tensor of the lhs (or rhs) operand: the primary input is the
/// previous layer's output, `skip` the other one.
Value operandBase(const KernelTensors &t, bool lhs) {
  return t.skip && t.skipIsLhs == lhs ? t.skip : t.input;
}

/// Computes one output lane from the operands' lanes and its channel.
using LaneFn = function_ref<Value(Value lhs, Value rhs, Value ch)>;

/// The skeleton of the two-operand layers: per pixel and channel segment,
/// reads segment i of each full operand, `lane` of every lane, frees the
/// full operands' segments (at their last use) and stores output segment
/// i, so the output may overwrite either operand in place. A per-channel
/// gate operand (`gate`: its channels, staged by the caller) is read at
/// the lane's channel instead. Without a skip both operands are the input.
void emitOperandPairs(Emitter &e, const KernelTensors &t,
                      ShapedType outType, Value gate, bool lhsGate,
                      bool rhsGate, LaneFn lane) {
  int64_t channels = outType.getDimSize(outType.getRank() - 1);
  int64_t s = e.seg, cs = channels / s;
  int64_t pixels = outType.getNumElements() / channels;
  Value lhsBase = operandBase(t, /*lhs=*/true);
  Value rhsBase = operandBase(t, /*lhs=*/false);
  bool sameTensor = !t.skip && !lhsGate && !rhsGate;
  Type i8Type = e.b.getI8Type();
  Value lbuf = e.scratch(s, i8Type);
  Value rbuf = e.scratch(s, i8Type);
  Value obuf = e.scratch(s, i8Type);
  bool inputIsGate = t.skipIsLhs ? rhsGate : lhsGate;
  bool skipIsGate = t.skipIsLhs ? lhsGate : rhsGate;
  e.loop(0, pixels, [&](Value p) {
    e.loop(0, cs, [&](Value cc) {
      AffineExpr segIndex = e.d(0) * cs + e.d(1);
      if (!lhsGate)
        e.loadSegment(lhsBase, segIndex, {p, cc}, lbuf);
      if (!rhsGate && !sameTensor)
        e.loadSegment(rhsBase, segIndex, {p, cc}, rbuf);
      e.loop(0, s, [&](Value k) {
        Value ch = e.apply(e.d(0) * s + e.d(1), {cc, k});
        Value a = e.load(lhsGate ? gate : lbuf, lhsGate ? ch : k);
        Value b = e.load(rhsGate ? gate : (sameTensor ? lbuf : rbuf),
                         rhsGate ? ch : k);
        e.store(lane(a, b, ch), obuf, k);
      });
      if (!inputIsGate)
        e.freeSegment(t.input, segIndex, {p, cc});
      if (t.skip && !skipIsGate)
        e.freeSegment(t.skip, segIndex, {p, cc});
      e.storeSegment(t.output, segIndex, {p, cc}, obuf);
    });
  });
}

/// ADD (or SUB): both operands rescaled to int32, summed (or subtracted),
/// requantized.
LogicalResult emitAdd(Emitter &e, AddOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  auto [mult, shift] = e.requantTables("add_", op.getRequant(), channels,
                                       e.addValueBound(op));
  Type i8Type = e.b.getI8Type();
  emitOperandPairs(e, t, type, Value(), false, false,
                   [&](Value a, Value b, Value ch) {
                     Value lhs = e.rescaleToI32(a, op.getLhsRescale());
                     Value rhs = e.rescaleToI32(b, op.getRhsRescale());
                     Value sum =
                         op.getSubtract()
                             ? arith::SubIOp::create(e.b, e.loc, lhs, rhs)
                                   .getResult()
                             : arith::AddIOp::create(e.b, e.loc, lhs, rhs)
                                   .getResult();
                     return e.requantize(sum, op.getRequant(), mult, shift,
                                         ch, i8Type);
                   });
  return success();
}

/// MUL: the zero-point-free operands' product, requantized on the bounded
/// path (|product| <= 255^2). A per-channel gate operand (MulOp::isGate) is
/// staged once into a buffer of its channels and freed before the pixel
/// loop, since every pixel reads it.
LogicalResult emitMul(Emitter &e, MulOp op, const KernelTensors &t) {
  auto type = op.getOutput().getType();
  int64_t channels = type.getDimSize(type.getRank() - 1);
  int64_t s = e.seg, cs = channels / s;
  Type i8Type = e.b.getI8Type(), i32Type = e.b.getI32Type();
  bool lhsGate = op.getLhs().getType() != type;
  bool rhsGate = op.getRhs().getType() != type;
  auto [mult, shift] =
      e.requantTables("mul_", op.getRequant(), channels, kMaxInt8Product);
  Value gate;
  if (lhsGate || rhsGate) {
    Value gateBase = operandBase(t, /*lhs=*/lhsGate);
    gate = e.scratch(channels, i8Type);
    e.loop(0, cs, [&](Value cc) {
      e.loadSegment(gateBase, e.d(0), {cc}, gate,
                    e.apply(e.d(0) * s, {cc}));
    });
    e.loop(0, cs, [&](Value cc) { e.freeSegment(gateBase, e.d(0), {cc}); });
  }
  auto offset = [&](Value v, int64_t zp) {
    Value wide = arith::ExtSIOp::create(e.b, e.loc, i32Type, v);
    return arith::SubIOp::create(e.b, e.loc, wide, e.i32(zp)).getResult();
  };
  emitOperandPairs(e, t, type, gate, lhsGate, rhsGate,
                   [&](Value a, Value b, Value ch) {
                     Value lhs = offset(a, op.getLhsZp());
                     Value rhs = offset(b, op.getRhsZp());
                     Value product =
                         arith::MulIOp::create(e.b, e.loc, lhs, rhs);
                     return e.requantize(product, op.getRequant(), mult,
                                         shift, ch, i8Type);
                   });
  return success();
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
          .Case([&](SoftmaxOp op) { return emitSoftmax(e, op, tensors); })
          .Case([&](TableOp op) { return emitTable(e, op, tensors); })
          .Case([&](ConcatOp op) { return emitConcat(e, op, tensors); })
          .Case([&](SliceOp op) { return emitSlice(e, op, tensors); })
          .Case([&](TransposeOp op) {
            return emitTranspose(e, op, tensors);
          })
          .Default([&](Operation *op) {
            return op->emitOpError(
                "is not supported by vmcu-tile yet (only conv2d, "
                "depthwise_conv2d, fully_connected, avg_pool2d, "
                "max_pool2d, add, mul, table, softmax, concat, slice, "
                "transpose and bottleneck)");
          });
  if (succeeded(result) && !e.keepAlive.empty())
    eraseEmptyLoops(*body);
  return result;
}
