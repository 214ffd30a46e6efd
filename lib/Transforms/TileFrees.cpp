//===- TileFrees.cpp - windowed traversals and their frees ----------------===//
//
// Emitter's windowed skeleton: the output traversals of windowed kernels
// (row-major, in blocks of a row, reversed) and when each input row, column
// and segment is freed, at its last use or, never read, up front or at the
// end.
//
//===----------------------------------------------------------------------===//

#include "TileEmitter.h"

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tile;

Emitter::Bounds Emitter::lastUseRange(const Axis &a) {
  return {{c(0), (d(0) * a.stride - a.pad) * a.scale},
          {c(a.inExtent), (d(0) * a.stride + (a.stride - a.pad)) * a.scale}};
}

int64_t Emitter::tailStart(const Axis &a) {
  return std::max<int64_t>(0, (a.outExtent * a.stride - a.pad) * a.scale);
}

Emitter::Bounds Emitter::reverseLastUseRange(const Axis &a) {
  AffineExpr top = (d(0) * a.stride - a.pad + a.kernel - 1) * a.scale + 1;
  return {{c(0), top - a.stride * a.scale}, {c(a.inExtent), top}};
}

int64_t Emitter::headStart(const Axis &a) {
  int64_t top =
      ((a.outExtent - 1) * a.stride - a.pad + a.kernel - 1) * a.scale + 1;
  return std::clamp<int64_t>(top, 0, a.inExtent);
}

int64_t Emitter::bottomEnd(const Axis &a) {
  int64_t top = (-a.stride - a.pad + a.kernel - 1) * a.scale + 1;
  return std::clamp<int64_t>(top, 0, a.inExtent);
}

void Emitter::freePixels(Value inBase, int64_t inCols, int64_t segsPerPixel,
                         Value y, Value x) {
  loop(0, segsPerPixel, [&](Value cc) {
    freeSegment(inBase, (d(0) * inCols + d(1)) * segsPerPixel + d(2),
                {y, x, cc});
  });
}

void Emitter::freePixels(Value inBase, const Axis &cols, int64_t segsPerPixel,
                         Value y, Value x) {
  freePixels(inBase, cols.inExtent, segsPerPixel, y, x);
}

void Emitter::emitWindowed(const Axis &rows, const Axis &cols, Value inBase,
                           int64_t inSegsPerPixel,
                           function_ref<void(Value, Value, FreeHook)> pixelBody,
                           function_ref<void(Value)> rowStart) {
  if (windowPool) {
    assert(!rowStart && "a window pool's pixels run window by window");
    return emitPooledWindows(
        rows, cols, inBase, inSegsPerPixel, [&](Value p, ArrayRef<Value> qs) {
          for (Value q : qs) {
            auto hook = [&](Value cc, Value guard, int64_t guardLast) {
              freeLastUses(rows, cols, inBase, inSegsPerPixel, p, q, cc, guard,
                           guardLast);
            };
            pixelBody(p, q, hook);
          }
        });
  }
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

void Emitter::emitWindowedReversed(
    const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
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
        freeReverseLastUses(rows, cols, inBase, inSegsPerPixel, p, q, cc, guard,
                            guardLast);
      };
      pixelBody(p, q, hook);
    });
  });
}

void Emitter::freeReverseLastUses(const Axis &rows, const Axis &cols,
                                  Value inBase, int64_t inSegsPerPixel, Value p,
                                  Value q, Value cc, Value guard,
                                  int64_t guardLast) {
  Bounds rowRange = reverseLastUseRange(rows);
  Bounds colRange = reverseLastUseRange(cols);
  Bounds rowBottom{{c(0)}, {c(bottomEnd(rows))}};
  Bounds colBottom{{c(0)}, {c(bottomEnd(cols))}};
  auto frees = [&](const Bounds &rowSet, const Bounds &colSet) {
    freeRanges(rowSet, colSet, cols.inExtent, inBase, inSegsPerPixel, p, q, cc,
               guard, guardLast);
  };
  auto whereZero = [&](Value index, int64_t bottom, function_ref<void()> body) {
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

void Emitter::emitWindowedBlocks(
    const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
    int64_t block, function_ref<void(Value, ArrayRef<Value>)> blockBody) {
  if (windowPool) {
    assert(windowPool->cols <= block && "a window row is one block");
    return emitPooledWindows(rows, cols, inBase, inSegsPerPixel, blockBody);
  }
  loop(0, rows.outExtent, [&](Value p) {
    emitWindowedRowBlocks(rows, cols, inBase, inSegsPerPixel, block, p,
                          blockBody);
  });
  freeTail(rows, cols, inBase, inSegsPerPixel);
}

void Emitter::emitPooledWindows(
    const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
    function_ref<void(Value, ArrayRef<Value>)> windowRow) {
  const WindowPool &w = *windowPool;
  loop(0, rows.outExtent / w.rows, [&](Value pooledRow) {
    loop(0, cols.outExtent / w.cols, [&](Value pooledCol) {
      loop(0, w.rows, [&](Value i) {
        Value p = apply(d(0) * w.rows + d(1), {pooledRow, i});
        SmallVector<Value, 2> qs;
        for (int64_t j = 0; j < w.cols; ++j)
          qs.push_back(apply(d(0) * w.cols + j, {pooledCol}));
        windowRow(p, qs);
      });
      storePoolAverages(w.tables, w.output, d(0) * w.outCols + d(1),
                        {pooledRow, pooledCol}, /*resetSums=*/true);
    });
    loop(0, w.rows, [&](Value i) {
      freeRowTail(rows, cols, inBase, inSegsPerPixel,
                  apply(d(0) * w.rows + d(1), {pooledRow, i}));
    });
  });
  freeTail(rows, cols, inBase, inSegsPerPixel);
}

void Emitter::emitWindowedRowPairs(
    const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
    function_ref<void(Value, Value, int64_t)> gatherPixel,
    function_ref<void(AffineExpr, ValueRange, int64_t)> computeBlock) {
  constexpr int64_t kPair = kIm2colBlockPixels;
  int64_t width = cols.outExtent, height = rows.outExtent;
  // The pair of the first row's last pixel and the second row's first.
  int64_t crossBlock = width / kPair;
  loop(0, (height + 1) / kPair, [&](Value pp) {
    Value p0 = apply(d(0) * kPair, pp), p1 = apply(d(0) * kPair + 1, pp);
    // Slot s of block b: pixel 2b + s of the row pair, in the first row
    // for b < (width - s + 1) / 2; the column is over the index of the
    // single-trip loop that selects the row, whose bounds keep it in
    // [0, width).
    auto gatherSlot = [&](Value b, int64_t slot) {
      int64_t firstRowBlocks = (width - slot + 1) / kPair;
      loop({d(0)}, {d(0) + 1, c(firstRowBlocks)}, b, [&](Value bi) {
        gatherPixel(p0, apply(d(0) * kPair + slot, bi), slot);
      });
      loop({d(0), c(firstRowBlocks)}, {d(0) + 1}, b, [&](Value bi) {
        gatherPixel(p1, apply(d(0) * kPair + slot - width, bi), slot);
      });
    };
    // `width` blocks; a last row alone has crossBlock.
    AffineExpr blocks =
        c(crossBlock + (height - 1) * width) - d(0) * (kPair * width);
    loop({c(0)}, {c(width), blocks}, pp, [&](Value b) {
      gatherSlot(b, 0);
      // The first row's last pixel is read: its unread columns go before
      // the second row's first pixel is stored, as a row at a time does.
      loop({d(0), c(crossBlock)}, {d(0) + 1, c(crossBlock + 1)}, b,
           [&](Value) { freeRowTail(rows, cols, inBase, inSegsPerPixel, p0); });
      gatherSlot(b, 1);
      computeBlock(d(0) * (kPair * width) + d(1) * kPair, {pp, b}, kPair);
    });
    loop({d(0)}, {d(0) + 1, c(height / kPair)}, pp,
         [&](Value) { freeRowTail(rows, cols, inBase, inSegsPerPixel, p1); });
  });
  if (height % kPair) {
    Value p = index(height - 1);
    gatherPixel(p, index(width - 1), 0);
    computeBlock(c(height * width - 1), {}, 1);
    freeRowTail(rows, cols, inBase, inSegsPerPixel, p);
  }
  freeTail(rows, cols, inBase, inSegsPerPixel);
}

void Emitter::emitWindowedRowBlocks(
    const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
    int64_t block, Value p,
    function_ref<void(Value, ArrayRef<Value>)> blockBody,
    bool shorterBlockInLoop) {
  int64_t full = cols.outExtent / block, first = full * block;
  loop(0, full, [&](Value qb) {
    SmallVector<Value, 2> qs;
    for (int64_t i = 0; i < block; ++i)
      qs.push_back(apply(d(0) * block + i, qb));
    blockBody(p, qs);
  });
  if (first < cols.outExtent && shorterBlockInLoop) {
    loop(first, first + 1, [&](Value q0) {
      SmallVector<Value, 2> rest;
      for (int64_t q = first; q < cols.outExtent; ++q)
        rest.push_back(apply(d(0) + (q - first), q0));
      blockBody(p, rest);
    });
  } else if (first < cols.outExtent) {
    SmallVector<Value, 2> rest;
    for (int64_t q = first; q < cols.outExtent; ++q)
      rest.push_back(index(q));
    blockBody(p, rest);
  }
  freeRowTail(rows, cols, inBase, inSegsPerPixel, p);
}

void Emitter::freeTail(const Axis &rows, const Axis &cols, Value inBase,
                       int64_t inSegsPerPixel) {
  freeRows(tailStart(rows), rows.inExtent, cols, inBase, inSegsPerPixel);
}

void Emitter::freeLastUses(const Axis &rows, const Axis &cols, Value inBase,
                           int64_t inSegsPerPixel, Value p, Value q, Value cc,
                           Value guard, int64_t guardLast) {
  freeRanges(lastUseRange(rows), lastUseRange(cols), cols.inExtent, inBase,
             inSegsPerPixel, p, q, cc, guard, guardLast);
}

void Emitter::freeRanges(const Bounds &rowRange, const Bounds &colRange,
                         int64_t inCols, Value inBase, int64_t inSegsPerPixel,
                         Value p, Value q, Value cc, Value guard,
                         int64_t guardLast) {
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

void Emitter::freeRowTail(const Axis &rows, const Axis &cols, Value inBase,
                          int64_t inSegsPerPixel, Value p) {
  freeColumns(lastUseRange(rows), p, tailStart(cols), cols.inExtent, cols,
              inBase, inSegsPerPixel);
}

void Emitter::freeColumns(const Bounds &rowRange, Value p, int64_t from,
                          int64_t to, const Axis &cols, Value inBase,
                          int64_t inSegsPerPixel) {
  if (from >= to)
    return;
  loop(rowRange.first, rowRange.second, p, [&](Value y) {
    loop(from, to,
         [&](Value x) { freePixels(inBase, cols, inSegsPerPixel, y, x); });
  });
}

void Emitter::freeRows(int64_t from, int64_t to, const Axis &cols, Value inBase,
                       int64_t inSegsPerPixel) {
  freePixelBlock(from, to, 0, cols.inExtent, cols, inBase, inSegsPerPixel);
}

void Emitter::freePixelBlock(int64_t rowFrom, int64_t rowTo, int64_t colFrom,
                             int64_t colTo, const Axis &cols, Value inBase,
                             int64_t inSegsPerPixel) {
  loop(rowFrom, rowTo, [&](Value y) {
    loop(colFrom, colTo,
         [&](Value x) { freePixels(inBase, cols, inSegsPerPixel, y, x); });
  });
}
