//===- TileEmitter.h - shared pieces of the kernel emitters -----*- C++ -*-===//
//
// The loop, table and ring-access builder every vmcu-tile kernel emitter
// uses (paper Figures 4-6; TileEmitter.cpp, its windowed traversals and
// frees TileFrees.cpp), and the emitters of each kernel family:
// TileConv.cpp (conv2d, fully_connected), TileGemm.cpp (their pointwise
// GEMM form; its tiles in TileGemm.h), TileWindowed.cpp (depthwise,
// avg_pool2d), TileBottleneck.cpp (fused bottlenecks), TileSoftmax.cpp
// (softmax), TileKernels.cpp (add and the dispatch).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_TILEEMITTER_H
#define VMCU_LIB_TRANSFORMS_TILEEMITTER_H

#include "TileKernels.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/LoopAnnotations.h"
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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

namespace mlir::vmcu::tile {

/// Alignment of the flash tables, so 4-lane weight loads are word loads.
constexpr int64_t kTableAlignment = 4;

/// The bytes of `word` in the order the Cortex-M cores vmcu targets load
/// them (little endian): a word in an int8 table.
inline std::array<int8_t, kWordBytes> wordBytes(uint32_t word) {
  constexpr int64_t kByteBits = 8;
  std::array<int8_t, kWordBytes> bytes;
  for (int64_t k = 0; k < kWordBytes; ++k)
    bytes[k] = static_cast<int8_t>(word >> (kByteBits * k));
  return bytes;
}

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
  /// `b` inserts at the start of the kernel's body.
  Emitter(OpBuilder &b, const KernelEnv &env, Location loc, int64_t segBytes)
      : b(b), env(env), loc(loc), ctx(b.getContext()), seg(segBytes),
        unitsPerSeg(segBytes / env.unitBytes),
        kernelBody(b.getInsertionBlock()) {}

  /// Tensors a later kernel still reads: their frees are not emitted.
  SmallVector<Value, 2> keepAlive;

  OpBuilder &b;
  const KernelEnv &env;
  Location loc;
  MLIRContext *ctx;
  int64_t seg;
  int64_t unitsPerSeg;
  /// The body of the vmcu.kernel being emitted.
  Block *kernelBody;

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
            function_ref<void(Value)> body);

  void loop(int64_t lb, int64_t ub, function_ref<void(Value)> body);

  /// An scf.for LLVM must not unroll: its body is a long fixed sequence
  /// already (an inline-assembly block), and unrolled copies only grow
  /// flash and the stack frame.
  scf::ForOp rolledLoop(int64_t trips, ValueRange inits = {});

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
    return privateGlobal(suffix, memrefType,
                         DenseElementsAttr::get(tensorType, data),
                         /*constant=*/true);
  }

  /// A private global of the module of `type`, named after the kernel and
  /// `suffix` (made unique), holding `initialValue` (a unit attribute:
  /// uninitialized).
  memref::GlobalOp privateGlobal(StringRef suffix, MemRefType type,
                                 Attribute initialValue, bool constant) {
    OpBuilder detached(ctx);
    auto global = memref::GlobalOp::create(
        detached, loc, (env.name + "_" + suffix).str(),
        detached.getStringAttr("private"), type, initialValue, constant,
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

  /// A stack buffer of `n` elements.
  Value scratch(int64_t n, Type type) {
    return memref::AllocaOp::create(b, loc, MemRefType::get({n}, type));
  }

  /// A word-aligned stack buffer of `n` bytes, for rows that register tiles
  /// read a word at a time: an unaligned word load costs the Cortex-M4
  /// extra bus cycles. Used for im2col column rows only (measured,
  /// docs/kernels.md): LLVM pairs the stores into an aligned buffer as
  /// STRD/STM, a cycle slower each than separate STRs, and aligning every
  /// kernel buffer made MCUNet-5fps-VWW 0.6% slower.
  Value alignedRows(int64_t n) {
    return memref::AllocaOp::create(b, loc, MemRefType::get({n}, b.getI8Type()),
                                    b.getI64IntegerAttr(kWordBytes));
  }

  /// A buffer of `n` elements that both cores of a split kernel see: a
  /// private, uninitialized global of the module (.bss), named after the
  /// kernel and `suffix` (made unique). Each core has its own stack, so
  /// what one phase hands the next on two cores lives here.
  Value sharedScratch(StringRef suffix, int64_t n, Type type) {
    return getGlobal(privateGlobal(suffix, MemRefType::get({n}, type),
                                   b.getUnitAttr(), /*constant=*/false));
  }
  Value load(Value mem, Value i) {
    return memref::LoadOp::create(b, loc, mem, ValueRange{i});
  }
  void store(Value v, Value mem, Value i) {
    memref::StoreOp::create(b, loc, v, mem, ValueRange{i});
  }

  /// Pool unit address of segment `segIndex` of the tensor at `base`.
  Value ringAddress(Value base, AffineExpr segIndex, ValueRange dims);

  VectorType segType() { return VectorType::get({seg}, b.getI8Type()); }

  /// Ring-loads one segment into `buf` at element `at` (default 0).
  void loadSegment(Value base, AffineExpr segIndex, ValueRange dims, Value buf,
                   Value at = Value());

  /// Ring-stores the segment at element `at` (default 0) of `buf`.
  void storeSegment(Value base, AffineExpr segIndex, ValueRange dims, Value buf,
                    Value at = Value());

  void freeSegment(Value base, AffineExpr segIndex, ValueRange dims);

  /// acc + (sext(x) - zp) * sext(w), all int32.
  Value mac(Value acc, Value x, int32_t zp, Value w);

  /// acc[accIdx] += sum_c (xbuf[c] - zp) * w[wBase + c] over `lanes`
  /// channels: 4-lane vmcu.dot blocks, then scalar lanes. The sum is carried
  /// in a register (iter_args) and stored once.
  void dotRow(Value acc, Value accIdx, Value xbuf, int64_t lanes, int32_t zp,
              Value weights, AffineExpr wBase, ValueRange wDims);

  /// vmcu.requantize of `v` with channel `ch`'s entry of the tables (from
  /// requantTables, or others without a rounding table).
  Value requantize(Value v, RequantAttr rq, Value mult, Value shift, Value ch,
                   Type resultType);

  /// A per-tensor input rescale of int8 `v` to int32 (channel 0 of
  /// one-entry tables, as TOSA rescales an add's operands): one load from a
  /// flash table of its 256 results (rescaleTable). Compact code computes
  /// it (vmcu.requantize), its multiplier, shift and zero point read from
  /// rescaleWords' table: 12 bytes of flash per distinct rescale instead of 1
  /// KB (14 KB of MCUNet-5fps-VWW's smallest plan).
  Value rescaleToI32(Value v, RequantAttr rq);

  /// The largest |sum| (or difference) of the two int8 operands of `add`
  /// after their input rescales: the value bound of its requantization.
  int64_t addValueBound(AddOp add) {
    return addValueBound(add.getLhsRescale(), add.getRhsRescale());
  }
  /// The same for two int8 operands rescaled by `lhs` and `rhs`.
  int64_t addValueBound(RequantAttr lhs, RequantAttr rhs);

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
  void foldResidual(Value skip, ResidualAddAttr add, int64_t channels);

  /// The arithmetic of a folded average pool (global_avg_pool's or
  /// window_avg_pool's).
  struct PoolAverage {
    int32_t inputZp, outputZp, min, max;
    bool roundHalfAway;
    /// A MEAN's requantization (global_avg_pool only), or none.
    RequantAttr requant;
    static PoolAverage of(GlobalAvgPoolAttr average);
    static PoolAverage of(WindowAvgPoolAttr average);
  };

  /// An average pool folded into this kernel's conv (vmcu.conv2d's
  /// global_avg_pool or window_avg_pool), or none: storeOutput adds each
  /// output segment into `sums` instead of storing it; finishGlobalPool
  /// averages them after the plane, emitPooledWindows after each window.
  struct PoolEpilogue {
    PoolAverage average;
    /// Output segments per pixel, and the pixels each average covers.
    int64_t pixelSegments, pixels;
    Value sums, averages;
  };
  std::optional<PoolEpilogue> pool;

  /// What TOSA's average or a MEAN needs: the requantization and its
  /// tables, and the zero point's share of a sum (none for TFLite's).
  struct PoolTables {
    RequantAttr rq;
    Value mult, shift, zpShare;
  };

  /// A window pool's windows, and where its averages go (set by
  /// foldWindowPool).
  struct WindowPool {
    /// The window's conv rows and columns.
    int64_t rows, cols;
    /// The pooled output and its pixels per row.
    Value output;
    int64_t outCols;
    PoolTables tables;
  };
  std::optional<WindowPool> windowPool;

  /// Folds a global average pool over `pixels` pixels of `channels`
  /// channels into every storeOutput: its zeroed sums, at the kernel's
  /// start.
  void foldGlobalPool(GlobalAvgPoolAttr average, int64_t pixels,
                      int64_t channels);

  /// Stores the folded pool's averages into `output` (one pixel).
  void finishGlobalPool(Value output);

  /// Folds an average pool over non-overlapping windows of the conv's
  /// output into every storeOutput: zeroed sums for one window of
  /// `channels` channels, at the kernel's start; emitWindowed and
  /// emitWindowedBlocks then run the conv's pixels window by window and
  /// store each window's averages into `output`. Each window is summed
  /// within one iteration of the window loops, on the stack of the core
  /// that runs it: the kernel does not `accumulate`.
  void foldWindowPool(WindowAvgPoolAttr average, int64_t channels, Value output,
                      int64_t outCols);

  /// Zeroed sums of `channels` channels for averages over `pixels`.
  PoolEpilogue makePoolSums(PoolAverage average, int64_t pixels,
                            int64_t channels);
  /// The tables `pool`'s averages need, made at the insertion point.
  PoolTables poolTables(const PoolEpilogue &sums);
  /// Stores the averages of `pool`'s sums as output pixel `pixel` (over
  /// `dims`); with `resetSums`, zeroes the sums for the next window.
  void storePoolAverages(const PoolTables &tables, Value output,
                         AffineExpr pixel, ValueRange dims, bool resetSums);

  /// Ring-stores output segment `segIndex` from `buf` at `at` (default 0)
  /// as storeSegment does; with a folded residual, first adds the
  /// residual's segment at the same index (TFLite's int8 ADD) and frees
  /// it, so the output may be placed over the residual; with a folded
  /// pool (global or window), adds the segment into its sums instead.
  void storeOutput(Value output, AffineExpr segIndex, ValueRange dims,
                   Value buf, Value at = Value());

  /// Adds output segment `segIndex` of `buf` at `at` into the folded
  /// pool's per-channel sums.
  void addToPoolSums(AffineExpr segIndex, ValueRange dims, Value buf, Value at);

  /// A loop over the lanes of output segment `segIndex` (over `dims`) of
  /// a tensor of `pixelSegments` segments per pixel: `body(lane, channel)`.
  void forEachLane(AffineExpr segIndex, ValueRange dims, int64_t pixelSegments,
                   function_ref<void(Value, Value)> body);

  /// Per-channel multiplier and shift tables for `channels` channels. With
  /// shifts of at least 32 and `valueBound` (the largest |value| the
  /// kernel can requantize, if known) below 2^30, one interleaved bounded
  /// table (boundedTables) is both; with such shifts otherwise, the
  /// rounding terms are a table too (roundTables). Channels that all share
  /// one scale keep one entry (uniformTables). `requantize` follows each.
  std::pair<Value, Value>
  requantTables(StringRef prefix, RequantAttr rq, int64_t channels,
                std::optional<int64_t> valueBound = std::nullopt);

  /// A compact requantization table: one global of the multipliers'
  /// words, the exponents' bytes and the half terms' odd factor, so that a
  /// kernel reads them all from one address (one argument where layers
  /// share its function: vmcu-share-kernels, which could not make the
  /// factor an argument as a constant: the clamp's SSAT needs what it
  /// reaches as one); its views as words and as exponent bytes, and the
  /// factor loaded.
  std::tuple<Value, Value, Value>
  compactRequantTable(StringRef suffix, ArrayRef<int32_t> multipliers,
                      ArrayRef<int8_t> exponents, int32_t halfOdd);

  /// The rounding-term table (wide shifts only) of each multiplier table.
  DenseMap<Value, Value> roundTables;
  /// Requantization tables (bounded, or multiplier, shift and rounding)
  /// whose channels all share one scale (a per-tensor requantization): one
  /// entry, which every channel reads.
  DenseSet<Value> uniformTables;
  /// Element `k` of channel `ch`'s entry of `entryWords` words in `table`:
  /// the only entry of a uniform table.
  Value tableEntryWord(Value table, int64_t entryWords, Value ch, int64_t k);

  /// A bounded requantization's interleaved table: per channel
  /// kBoundedRequantWords words (multiplier, exponent e = shift - 31, half
  /// term), so one base address serves all three loads, and the shift by e
  /// needs no subtraction at run time. `zpFolded`: the half terms carry the
  /// output zero point. `compactTable` (a compact kernel's): per channel
  /// kCompactRequantWords words (the multiplier), its exponent a byte of
  /// `exponents`, its half term computed.
  struct BoundedTable {
    bool zpFolded;
    bool compactTable;
    /// A compact table's exponent bytes and its half terms' odd factor
    /// (halfOddFactor, loaded).
    Value exponents, halfOdd;
    int64_t words() const { return boundedRequantWords(compactTable); }
  };
  DenseMap<Value, BoundedTable> boundedTables;
  /// The bits below the doubled product's high word: e = shift - this.
  static constexpr int64_t kProductShift = 31;

  /// Requantizes `pixels` x n sums (pixel-major) of channels [first,
  /// first + n) into out[at + i * stride + j] with one vmcu.requant_block,
  /// if `mult` is a bounded table; returns false (emitting nothing)
  /// otherwise.
  bool requantizeBlock(ValueRange sums, int64_t pixels, RequantAttr rq,
                       Value mult, Value first, Value out, Value at,
                       int64_t stride);

private:
  /// The lowest int8 value: entry 0 of a rescale table.
  static constexpr int64_t kInt8Lowest = -128;
  static constexpr int64_t kInt8Values = 256;

  /// `rq` (per tensor, to int32) applied to every int8 value: entry
  /// x + 128 for x.
  static SmallVector<int32_t> rescaleResults(RequantAttr rq);

  /// The flash table of rescaleResults(rq), one per distinct rescale in
  /// the kernel.
  memref::GlobalOp rescaleTable(RequantAttr rq);
  DenseMap<Attribute, memref::GlobalOp> rescaleTables;

  /// The words of a rescaleWords table.
  static constexpr int64_t kRescaleMultiplierWord = 0;
  static constexpr int64_t kRescaleShiftWord = 1;
  static constexpr int64_t kRescaleInputZpWord = 2;
  static constexpr int64_t kRescaleParamWords = 3;
  /// `rq`'s multiplier, shift and input zero point (per tensor), loaded
  /// once at the start of the kernel's body from a flash table of those
  /// three words, one table per distinct rescale in the kernel (compact
  /// code, so that kernels that differ only in them still share a
  /// function: vmcu-share-kernels).
  struct RescaleWords {
    Value multiplier, shift, inputZp;
  };
  RescaleWords rescaleWords(RequantAttr rq);
  DenseMap<Attribute, RescaleWords> rescaleWordValues;
  /// The last op that read rescale words at the kernel body's start.
  Operation *lastRescaleRead = nullptr;

  /// Per channel of `rq`: its multiplier and shift. A zero multiplier (a
  /// channel of zero weights) scales everything to 0 at any shift: it gets
  /// a wide one, so it keeps its layer on the cheap wide-shift path.
  static std::pair<SmallVector<int32_t>, SmallVector<int32_t>>
  channelScales(RequantAttr rq, int64_t channels);

public:
  /// The words of a bounded requantization's interleaved table
  /// (kBoundedRequantWords per channel: multiplier, exponent e = shift -
  /// 31, half term; with `compactTable` kCompactRequantWords, the
  /// multiplier, and the exponents apart) and whether the half terms fold
  /// the output zero point;
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
    /// With `compactTable`, each channel's exponent e.
    SmallVector<int8_t> exponents;
  };
  static std::optional<BoundedWords>
  boundedWords(RequantAttr rq, int64_t channels,
               std::optional<int64_t> valueBound, bool compactTable = false);

private:
  /// A compact table's half terms are `halfOddFactor << (e - 1)`: 1, or
  /// 1 + 2z to fold the output zero point z.
  static int32_t halfOddFactor(RequantAttr rq, bool zpFolded);

  /// `requantize` from a bounded table.
  Value boundedRequantize(Value v, RequantAttr rq, Value params,
                          BoundedTable table, Value ch, Type resultType);

public:
  /// Calls `body(r, t, y, x)` for every in-bounds tap of output (p, q); y and
  /// x are input (A) coordinates. `rowEnd(r)`, if given, runs after the
  /// taps of window row r.
  /// The first and the end expression, over output index d0, of the taps
  /// along `a` that lie inside the input (before clipping to the kernel):
  /// forEachTap visits [max(0, first), min(kernel, end)), and what a window
  /// takes from the padding is the rest.
  std::pair<AffineExpr, AffineExpr> insideTaps(const Axis &a) {
    return {c(a.pad) - d(0) * a.stride,
            c(a.bExtent + a.pad) - d(0) * a.stride};
  }

  /// The outputs along `a` whose window lies inside the input.
  static int64_t interiorOutputs(const Axis &a);

  /// The input position (before `scale`) of tap d1 of output d0 along `a`,
  /// taps `step` apart.
  AffineExpr tapPosition(const Axis &a, int64_t step) {
    return d(0) * a.stride - a.pad + d(1) * step;
  }

  /// With steps, only every rowStep-th row and colStep-th column of taps
  /// from the first: r and t then count those (GatheredTaps).
  void forEachTap(const Axis &rows, const Axis &cols, Value p, Value q,
                  function_ref<void(Value, Value, Value, Value)> body,
                  function_ref<void(Value)> rowEnd = {}, int64_t rowStep = 1,
                  int64_t colStep = 1);

private:
  /// forEachTap with a step above 1.
  void forEachSteppedTap(const Axis &rows, const Axis &cols, Value p, Value q,
                         function_ref<void(Value, Value, Value, Value)> body,
                         function_ref<void(Value)> rowEnd, int64_t rowStep,
                         int64_t colStep);

public:
  //===--------------------------------------------------------------------===//
  // Windowed skeleton: outputs in row-major order, frees at last use
  // (TileFrees.cpp).
  //===--------------------------------------------------------------------===//

  /// Loop bounds: lower (their max) and upper (their min) expressions.
  using Bounds = std::pair<SmallVector<AffineExpr>, SmallVector<AffineExpr>>;

  /// Input indices whose last reader is output `d0`: [lo, hi) as bounds.
  Bounds lastUseRange(const Axis &a);

  /// First input index never freed inside the output loop.
  int64_t tailStart(const Axis &a);

  /// In reverse order (outputs from the last to the first), the input
  /// indices whose last reader is output `d0`: those above the window of
  /// output d0 - 1, up to the top of d0's own, as bounds. Output 0, the
  /// last, also frees [0, bottomEnd).
  Bounds reverseLastUseRange(const Axis &a);

  /// In reverse order, the first input index above every window: those from
  /// here up are never read.
  int64_t headStart(const Axis &a);

  /// In reverse order, [0, this): the inputs a virtual output -1 would
  /// read, which reverseLastUseRange(0) leaves out; output 0, the last,
  /// frees them too.
  int64_t bottomEnd(const Axis &a);

  /// Frees every input segment of pixel (y, x), of an input `inCols` pixels
  /// wide.
  void freePixels(Value inBase, int64_t inCols, int64_t segsPerPixel, Value y,
                  Value x);
  void freePixels(Value inBase, const Axis &cols, int64_t segsPerPixel, Value y,
                  Value x);

  /// freeLastUses for the output pixel a pixel body is called for.
  using FreeHook = function_ref<void(Value cc, Value guard, int64_t guardLast)>;

  /// Calls `pixelBody(p, q, frees)` for the output pixels in row-major
  /// order, then frees the inputs no output reads. `rowStart(p)`, if given,
  /// runs before each output row's first pixel.
  void emitWindowed(const Axis &rows, const Axis &cols, Value inBase,
                    int64_t inSegsPerPixel,
                    function_ref<void(Value, Value, FreeHook)> pixelBody,
                    function_ref<void(Value)> rowStart = {});

  /// With a folded window pool: calls `windowRow(p, qs)` for each row of
  /// conv pixels of each window (row-major over the windows), stores each
  /// window's averages, then frees the inputs past the last window as
  /// emitWindowed does. Each input pixel's last reader in row-major order
  /// comes after its other readers in this order too, so the frees of
  /// emitWindowed hold. A window's sums are zero when it starts (zeroed at
  /// the kernel's start, and after each window on the core that ran it),
  /// so a split between cores must give each core whole windows, from its
  /// first: vmcu-split-kernels shares out whole iterations of the window
  /// loops.
  void emitPooledWindows(const Axis &rows, const Axis &cols, Value inBase,
                         int64_t inSegsPerPixel,
                         function_ref<void(Value, ArrayRef<Value>)> windowRow);

  /// emitWindowed with the output pixels in reverse row-major order (the
  /// last pixel first): the inputs no window reads are freed first, each
  /// other input pixel before the first store of its reader of lowest index
  /// (freeReverseLastUses).
  void
  emitWindowedReversed(const Axis &rows, const Axis &cols, Value inBase,
                       int64_t inSegsPerPixel,
                       function_ref<void(Value, Value, FreeHook)> pixelBody);

  /// freeLastUses for reverse order: the inputs whose last reader is output
  /// (p, q) there (reverseLastUseRange on each axis), and where p or q is 0
  /// those below the ranges as well (bottomEnd), each under a single-trip
  /// loop where the index is 0.
  void freeReverseLastUses(const Axis &rows, const Axis &cols, Value inBase,
                           int64_t inSegsPerPixel, Value p, Value q, Value cc,
                           Value guard, int64_t guardLast);

  /// emitWindowed over blocks of `block` consecutive output pixels of a
  /// row (the last block of a row may be shorter): `blockBody(p, qs)` gets
  /// the block's columns and frees the inputs whose last reader is (p, q)
  /// with freeLastUses.
  void emitWindowedBlocks(const Axis &rows, const Axis &cols, Value inBase,
                          int64_t inSegsPerPixel, int64_t block,
                          function_ref<void(Value, ArrayRef<Value>)> blockBody);

  /// emitWindowedBlocks for pairs of output pixels on a map of odd width,
  /// with no row ending in a block of one pixel: rows two at a time, W
  /// pairs each in row-major order, the first row's last pixel with the
  /// second's first (a last row of an odd height: its pairs, then its last
  /// pixel alone). `gatherPixel(p, q, slot)` reads pixel (p, q) into slot 0
  /// or 1 of the block and frees what it reads last, under bounds that
  /// select its row; `computeBlock(first, dims, count)` computes the
  /// block's `count` pixels, the first at flat index p * W + q = `first`
  /// over `dims`. One copy of each covers every pair.
  void emitWindowedRowPairs(
      const Axis &rows, const Axis &cols, Value inBase, int64_t inSegsPerPixel,
      function_ref<void(Value, Value, int64_t)> gatherPixel,
      function_ref<void(AffineExpr, ValueRange, int64_t)> computeBlock);

  /// Output row p of emitWindowedBlocks: its blocks, then the input
  /// columns of its last-use rows that no output reads. With
  /// `shorterBlockInLoop`, a last, shorter block is computed inside a loop
  /// of one trip: vmcu-distribute-kernels gives the loop, which holds the
  /// block's ring loads with the rest of its work, to one core.
  void
  emitWindowedRowBlocks(const Axis &rows, const Axis &cols, Value inBase,
                        int64_t inSegsPerPixel, int64_t block, Value p,
                        function_ref<void(Value, ArrayRef<Value>)> blockBody,
                        bool shorterBlockInLoop = false);

  /// The input rows no output reads (from tailStart(rows)).
  void freeTail(const Axis &rows, const Axis &cols, Value inBase,
                int64_t inSegsPerPixel);

  /// Frees the input pixels whose last reader is output (p, q): every
  /// segment of them, or only segment `cc` when given. With `guard`, the
  /// frees run only when guard == guardLast (a single-trip affine.for), so
  /// they can sit before the pixel's last store.
  void freeLastUses(const Axis &rows, const Axis &cols, Value inBase,
                    int64_t inSegsPerPixel, Value p, Value q, Value cc,
                    Value guard = Value(), int64_t guardLast = 0);

private:
  /// Frees the input pixels in `rowRange` (over p) x `colRange` (over q),
  /// as freeLastUses does.
  void freeRanges(const Bounds &rowRange, const Bounds &colRange,
                  int64_t inCols, Value inBase, int64_t inSegsPerPixel, Value p,
                  Value q, Value cc, Value guard, int64_t guardLast);

  /// The input columns of row p's last-use rows that no output reads.
  void freeRowTail(const Axis &rows, const Axis &cols, Value inBase,
                   int64_t inSegsPerPixel, Value p);

  /// Frees input columns [from, to) of the rows in `rowRange` over p.
  void freeColumns(const Bounds &rowRange, Value p, int64_t from, int64_t to,
                   const Axis &cols, Value inBase, int64_t inSegsPerPixel);

  /// Frees input rows [from, to), every column.
  void freeRows(int64_t from, int64_t to, const Axis &cols, Value inBase,
                int64_t inSegsPerPixel);

  /// Frees the input pixels of rows [rowFrom, rowTo) x columns [colFrom,
  /// colTo).
  void freePixelBlock(int64_t rowFrom, int64_t rowTo, int64_t colFrom,
                      int64_t colTo, const Axis &cols, Value inBase,
                      int64_t inSegsPerPixel);
};

/// The largest |accumulator| of an int8 kernel whose outputs start from
/// `bias` and add `macs` products (x - zp) * w, each at most 255 * 128,
/// over the channels `rq` does not scale by 0: a zero multiplier gives the
/// output zero point whatever the sum (TOSA's rounding term alone, shifted
/// out; the bounded requantization's half term alone), so its sum needs no
/// bound. MCUNet-5fps-VWW has such channels with |bias| near 2^31.
int64_t accumulatorBound(ArrayRef<int32_t> bias, int64_t macs, RequantAttr rq);

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

/// With `gathered`, the tables of those taps only (gatheredTaps).
FailureOr<DepthwiseTables>
packDepthwise(Emitter &e, StringRef prefix, DepthwiseConv2DOp op, int64_t s,
              std::optional<GatheredTaps> gathered = {});

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

/// TOSA reciprocal_scale(count): multiplier and shift of 1 / count.
std::pair<int32_t, int32_t> reciprocalScale(int64_t count);

/// TFLite's int8 average of a raw sum over `count` elements (an index):
/// rounded half away from zero with C's truncating division, then clamped
/// to [min, max].
Value roundHalfAwayAverage(Emitter &e, Value sum, Value count, int32_t min,
                           int32_t max);

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
