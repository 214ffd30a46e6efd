//===- TileSoftmax.cpp - the int8 softmax kernel --------------------------===//
//
// TFLite's int8 softmax row by row: the row is loaded from the ring into a
// stack buffer and freed, so the output may overwrite it in place. exp of
// each of the 256 possible differences from the row maximum is a flash table
// computed at compile time (vmcu::fixedpoint); the reciprocal of the row's
// sum is gemmlowp's fixed-point Newton-Raphson, emitted as arith ops.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "vmcu/Utils/FixedPoint.h"

#include <limits>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;
namespace fp = mlir::vmcu::fixedpoint;

namespace {

constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
/// Value bits of an int32 and width of the int8 output (the final shift of
/// reference_ops::Softmax is num_bits_over_unit + 31 - 8).
constexpr int64_t kInt32ValueBits = 31;
constexpr int64_t kOutputBits = 8;

/// gemmlowp's int32 fixed-point primitives as arith ops on i32 values.
class FixedPointBuilder {
public:
  FixedPointBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value c32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value c64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }

  /// SaturatingRoundingDoublingHighMul(x, y). One op per statement: C++
  /// leaves the order of argument evaluation to the compiler, and the IR
  /// must not depend on which one built vmcu.
  Value doublingHighMul(Value x, Value y) {
    Type i64 = b.getI64Type();
    Value x64 = arith::ExtSIOp::create(b, loc, i64, x);
    Value y64 = arith::ExtSIOp::create(b, loc, i64, y);
    Value product = arith::MulIOp::create(b, loc, x64, y64);
    Value positive = cmp(arith::CmpIPredicate::sge, product, c64(0));
    Value up = c64(int64_t(1) << 30);
    Value down = c64(1 - (int64_t(1) << 30));
    Value nudged = add(product, select(positive, up, down));
    Value high = arith::DivSIOp::create(b, loc, nudged,
                                        c64(int64_t(1) << kInt32ValueBits));
    Value result = arith::TruncIOp::create(b, loc, b.getI32Type(), high);
    Value xMin = cmp(arith::CmpIPredicate::eq, x, c32(kInt32Min));
    Value yMin = cmp(arith::CmpIPredicate::eq, y, c32(kInt32Min));
    Value bothMin = arith::AndIOp::create(b, loc, xMin, yMin);
    return select(bothMin, c32(kInt32Max), result);
  }

  /// RoundingDivideByPOT(x, exponent), exponent an i32 in [0, 31].
  Value divideByPOT(Value x, Value exponent) {
    Value bit = arith::ShLIOp::create(b, loc, c32(1), exponent);
    Value mask = sub(bit, c32(1));
    Value remainder = arith::AndIOp::create(b, loc, x, mask);
    Value isNegative = cmp(arith::CmpIPredicate::slt, x, c32(0));
    Value negative = arith::ExtUIOp::create(b, loc, b.getI32Type(), isNegative);
    Value halfMask = arith::ShRSIOp::create(b, loc, mask, c32(1));
    Value threshold = add(halfMask, negative);
    Value above = cmp(arith::CmpIPredicate::sgt, remainder, threshold);
    Value roundUp = arith::ExtUIOp::create(b, loc, b.getI32Type(), above);
    Value shifted = arith::ShRSIOp::create(b, loc, x, exponent);
    return add(shifted, roundUp);
  }

  /// SaturatingRoundingMultiplyByPOT<exponent> for exponent > 0.
  Value saturatingShiftLeft(Value x, int64_t exponent) {
    int64_t threshold = (int64_t(1) << (kInt32ValueBits - exponent)) - 1;
    Value shifted = arith::ShLIOp::create(b, loc, x, c32(exponent));
    Value tooLow = cmp(arith::CmpIPredicate::slt, x, c32(-threshold));
    Value low = select(tooLow, c32(kInt32Min), shifted);
    Value tooHigh = cmp(arith::CmpIPredicate::sgt, x, c32(threshold));
    return select(tooHigh, c32(kInt32Max), low);
  }

  /// one_over_one_plus_x_for_x_in_0_1(a), as vmcu::fixedpoint computes it.
  Value oneOverOnePlusX(Value a) {
    Value a64 = arith::ExtSIOp::create(b, loc, b.getI64Type(), a);
    Value sum = add(a64, c64(kInt32Max));
    Value nonNegative = cmp(arith::CmpIPredicate::sge, sum, c64(0));
    Value one = c64(1);
    Value sign = select(nonNegative, one, c64(-1));
    Value rounded = add(sum, sign);
    Value half = arith::DivSIOp::create(b, loc, rounded, c64(2));
    Value halfDenominator =
        arith::TruncIOp::create(b, loc, b.getI32Type(), half);
    Value start = c32(fp::k48Over17);
    Value x =
        add(start, doublingHighMul(halfDenominator, c32(fp::kMinus32Over17)));
    for (int i = 0; i < fp::kNewtonRaphsonSteps; ++i) {
      Value oneQ2 = c32(fp::kOneQ2);
      Value oneMinus = sub(oneQ2, doublingHighMul(halfDenominator, x));
      x = add(x, saturatingShiftLeft(doublingHighMul(x, oneMinus), 2));
    }
    return saturatingShiftLeft(x, 1);
  }

private:
  OpBuilder &b;
  Location loc;
};

/// `for c in [0, n)` carrying one i32 from `init` through `step(acc, c)`.
Value reduce(Emitter &e, int64_t n, Value init,
             function_ref<Value(Value, Value)> step) {
  auto forOp = affine::AffineForOp::create(
      e.b, e.loc, 0, n, 1, ValueRange{init},
      [&](OpBuilder &nested, Location, Value c, ValueRange args) {
        OpBuilder::InsertionGuard guard(e.b);
        e.b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
        affine::AffineYieldOp::create(e.b, e.loc, step(args[0], c));
      });
  return forOp.getResult(0);
}

} // namespace

LogicalResult mlir::vmcu::tile::emitSoftmax(Emitter &e, SoftmaxOp op,
                                            const KernelTensors &t) {
  auto type = op.getInput().getType();
  int64_t depth = type.getDimSize(type.getRank() - 1);
  int64_t rows = type.getNumElements() / depth;
  int64_t s = e.seg, segsPerRow = depth / s;
  fp::SoftmaxParams params{static_cast<int32_t>(op.getInputMultiplier()),
                           static_cast<int32_t>(op.getInputLeftShift()),
                           static_cast<int32_t>(op.getDiffMin())};
  std::array<int32_t, fp::kInt8Differences> exps = fp::softmaxExpTable(params);
  SmallVector<int32_t> expTable(exps.begin(), exps.end());
  Value expT = e.i32Table("softmax_exp", expTable);
  Value row = e.scratch(depth, e.b.getI8Type());
  FixedPointBuilder f(e.b, e.loc);
  Type i32Type = e.b.getI32Type();

  e.loop(0, rows, [&](Value i) {
    AffineExpr segIndex = e.d(0) * segsPerRow + e.d(1);
    e.loop(0, segsPerRow, [&](Value j) {
      e.loadSegment(t.input, segIndex, {i, j}, row, e.apply(e.d(0) * s, j));
    });
    e.loop(0, segsPerRow,
           [&](Value j) { e.freeSegment(t.input, segIndex, {i, j}); });

    auto element = [&](Value c) {
      return arith::ExtSIOp::create(e.b, e.loc, i32Type, e.load(row, c));
    };
    // The table index of element c: its distance below the maximum.
    auto difference = [&](Value max, Value c) -> Value {
      return arith::IndexCastOp::create(e.b, e.loc, e.b.getIndexType(),
                                        f.sub(max, element(c)));
    };
    Value max = reduce(e, depth, f.c32(kInt8Min), [&](Value acc, Value c) {
      return arith::MaxSIOp::create(e.b, e.loc, acc, element(c));
    });
    // Each exp rescaled to the sum's kAccumulationIntegerBits, as the
    // reference does, rather than read from a second 1 KB table.
    Value sum = reduce(e, depth, f.c32(0), [&](Value acc, Value c) {
      Value exp = e.load(expT, difference(max, c));
      return f.add(acc, f.divideByPOT(
                            exp, f.c32(fp::kAccumulationIntegerBits)));
    });
    // GetReciprocal: normalise the sum to [1, 2) and invert it.
    Value headroom = math::CountLeadingZerosOp::create(e.b, e.loc, sum);
    Value shiftedSum = arith::ShLIOp::create(e.b, e.loc, sum, headroom);
    Value shiftedSumMinusOne = f.sub(shiftedSum, f.c32(kInt32Min));
    Value scale = f.oneOverOnePlusX(shiftedSumMinusOne);
    Value outShift = f.sub(
        f.c32(fp::kAccumulationIntegerBits + kInt32ValueBits - kOutputBits),
        headroom);
    e.loop(0, depth, [&](Value c) {
      Value p = f.doublingHighMul(scale, e.load(expT, difference(max, c)));
      Value divided = f.divideByPOT(p, outShift);
      Value out = f.add(divided, f.c32(kInt8Min));
      out = arith::MinSIOp::create(e.b, e.loc, out, f.c32(kInt8Max));
      out = arith::MaxSIOp::create(e.b, e.loc, out, f.c32(kInt8Min));
      e.store(arith::TruncIOp::create(e.b, e.loc, e.b.getI8Type(), out), row,
              c);
    });
    e.loop(0, segsPerRow, [&](Value j) {
      e.storeSegment(t.output, segIndex, {i, j}, row, e.apply(e.d(0) * s, j));
    });
  });
  return success();
}
