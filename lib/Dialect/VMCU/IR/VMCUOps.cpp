//===- VMCUOps.cpp - vmcu operations --------------------------------------===//
//
// Verifiers and interface methods of the ring, kernel, sync and
// microkernel ops; the layer ops' are in VMCULayerOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Support/TargetConstants.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::vmcu;

//===----------------------------------------------------------------------===//
// Ring ops
//===----------------------------------------------------------------------===//

LogicalResult SegmentPoolOp::verify() {
  if (!llvm::isPowerOf2_64(getAlignment()))
    return emitOpError("alignment must be a power of two, got ")
           << getAlignment();
  return success();
}

/// Checks a ring access of `bytes` bytes at constant segment/offset values.
static LogicalResult verifyRingAccess(Operation *op, PoolType pool,
                                      Value segment, Value offset,
                                      int64_t bytes) {
  if (bytes > pool.getCapacityBytes())
    return op->emitOpError("accesses ")
           << bytes << " bytes but the pool holds only "
           << pool.getCapacityBytes();
  APInt cst;
  if (matchPattern(segment, m_ConstantInt(&cst)) && cst.isNegative())
    return op->emitOpError("segment address must be non-negative, got ")
           << cst.getSExtValue();
  if (offset && matchPattern(offset, m_ConstantInt(&cst))) {
    if (cst.isNegative())
      return op->emitOpError("byte offset must be non-negative, got ")
             << cst.getSExtValue();
    if (cst.getSExtValue() + bytes > pool.getCapacityBytes())
      return op->emitOpError("byte offset ")
             << cst.getSExtValue() << " plus " << bytes
             << " bytes runs past the end of the pool ("
             << pool.getCapacityBytes() << " bytes)";
  }
  return success();
}

LogicalResult RingLoadOp::verify() {
  return verifyRingAccess(*this, getPool().getType(), getSegment(), getOffset(),
                          getResult().getType().getNumElements());
}

LogicalResult RingStoreOp::verify() {
  return verifyRingAccess(*this, getPool().getType(), getSegment(), getOffset(),
                          getValue().getType().getNumElements());
}

LogicalResult RingViewOp::verify() {
  if (!llvm::isPowerOf2_64(getAlignment()))
    return emitOpError("alignment must be a power of two, got ")
           << getAlignment();
  if (getView().getType().hasStaticShape())
    return emitOpError("view must be a memref<?xi8>: the pool's size is set "
                       "by the offset solver");
  PoolType pool = getPool().getType();
  if (static_cast<int64_t>(getCount()) > pool.getSegments())
    return emitOpError("views ")
           << getCount() << " segments but the pool holds only "
           << pool.getSegments();
  return verifyRingAccess(*this, pool, getSegment(), Value(), 0);
}

LogicalResult FreeOp::verify() {
  int64_t segments = getPool().getType().getSegments();
  if (static_cast<int64_t>(getCount()) > segments)
    return emitOpError("frees ")
           << getCount() << " segments but the pool holds only " << segments;
  return verifyRingAccess(*this, getPool().getType(), getSegment(), Value(), 0);
}

LogicalResult TensorBaseOp::verify() {
  int64_t capacity = getPool().getType().getSegments();
  if (getSegments() > static_cast<uint64_t>(capacity))
    return emitOpError("tensor of ")
           << getSegments() << " segments does not fit the pool of "
           << capacity;
  if (getBase() && *getBase() >= static_cast<uint64_t>(capacity))
    return emitOpError("base ") << *getBase() << " is outside the pool of "
                                << capacity << " segments";
  return success();
}

/// The op of `block` that holds every ring load, view and store under
/// `region`, if one op does.
static FailureOr<Operation *> soleRingAccessHolder(Region &region,
                                                   Block &block) {
  Operation *holder = nullptr;
  WalkResult walk = region.walk([&](Operation *op) {
    if (!isa<RingLoadOp, RingViewOp, RingStoreOp>(op))
      return WalkResult::advance();
    Operation *ancestor = block.findAncestorOpInBlock(*op);
    if (holder && ancestor != holder)
      return WalkResult::interrupt();
    holder = ancestor;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return holder;
}

bool mlir::vmcu::accessesRing(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<RingLoadOp, RingViewOp, RingStoreOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

std::optional<RingAccess> mlir::vmcu::getRingAccess(Operation *op,
                                                    int64_t unitBytes) {
  using Kind = RingAccess::Kind;
  auto segmentBytes = [](Type t) {
    return cast<VectorType>(t).getNumElements();
  };
  if (auto load = dyn_cast<RingLoadOp>(op))
    return RingAccess{Kind::Load, load.getSegment(), load.getOffset(),
                      segmentBytes(load.getType())};
  if (auto store = dyn_cast<RingStoreOp>(op))
    return RingAccess{Kind::Store, store.getSegment(), store.getOffset(),
                      segmentBytes(store.getValue().getType())};
  if (auto view = dyn_cast<RingViewOp>(op))
    return RingAccess{Kind::View, view.getSegment(), Value(),
                      static_cast<int64_t>(view.getCount()) * unitBytes};
  if (auto free = dyn_cast<FreeOp>(op))
    return RingAccess{Kind::Free, free.getSegment(), Value(),
                      static_cast<int64_t>(free.getCount()) * unitBytes};
  return std::nullopt;
}

Operation *mlir::vmcu::splitLoopHolder(Block &kernelBody) {
  for (Operation &op : kernelBody)
    if (!isa<RingViewOp>(op) && accessesRing(&op))
      return &op;
  return nullptr;
}

/// A kernel split between cores (`cores`): the split count, and a
/// top-level loop before any other ring load, view or store, whose
/// iterations the cores take in turn (with `split_depth` 2, those of the
/// one loop inside it that holds its ring accesses).
static LogicalResult verifyCoreSplit(KernelOp kernel) {
  std::optional<int64_t> cores = kernel.getCores();
  std::optional<int64_t> depth = kernel.getSplitDepth();
  if (!cores)
    return depth || kernel.getSplitPhases()
               ? kernel.emitOpError("split_depth and split_phases need cores")
               : success();
  if (*cores != core_split::kSplitCores)
    return kernel.emitOpError("cores must be ")
           << core_split::kSplitCores << ", got " << *cores;
  if (depth && *depth != 1 && *depth != core_split::kMaxSplitDepth)
    return kernel.emitOpError("split_depth must be 1 or ")
           << core_split::kMaxSplitDepth << ", got " << *depth;
  Operation *loop = splitLoopHolder(kernel.getBody().front());
  if (loop && !isa<LoopLikeOpInterface>(loop))
    return kernel.emitOpError("split between cores needs a top-level loop "
                              "before any other ring load or store");
  if (kernel.getSplitPhases())
    return depth == core_split::kMaxSplitDepth
               ? success()
               : kernel.emitOpError("split_phases needs split_depth 2");
  if (!depth || *depth == 1 || !loop)
    return success();
  FailureOr<Operation *> inner =
      soleRingAccessHolder(loop->getRegion(0), loop->getRegion(0).front());
  if (failed(inner) || !*inner || !isa<LoopLikeOpInterface>(*inner))
    return kernel.emitOpError("split_depth 2 needs one loop inside the "
                              "split loop holding its ring loads and "
                              "stores");
  return success();
}

LogicalResult KernelOp::verify() {
  auto isBase = [](Value v) { return v.getDefiningOp<TensorBaseOp>(); };
  for (Value v : getInputs())
    if (!isBase(v))
      return emitOpError("inputs must be vmcu.tensor_base values");
  if (!isBase(getOutput()))
    return emitOpError("output must be a vmcu.tensor_base value");
  if (getWorkspace() && !isBase(getWorkspace()))
    return emitOpError("workspace must be a vmcu.tensor_base value");
  if (llvm::is_contained(getInputs(), getOutput()))
    return emitOpError("output must be a different tensor from its inputs");
  return verifyCoreSplit(*this);
}

// -zp for an int8 zero point lies in [-127, 128]; this keeps x + x_offset
// within int16 for every int8 x, as SXTAB16's 16-bit lanes need.
static constexpr int64_t kMaxDotOffset = 128;

/// A constant sync slot must name one of core_split's words.
static LogicalResult verifySyncSlot(Operation *op, Value slot) {
  APInt value;
  if (!matchPattern(slot, m_ConstantInt(&value)))
    return success();
  int64_t index = value.getSExtValue();
  if (index < 0 || index >= core_split::kSyncSlots)
    return op->emitOpError("slot must be in [0, ")
           << core_split::kSyncSlots << "), got " << index;
  return success();
}

LogicalResult SyncSetOp::verify() { return verifySyncSlot(*this, getSlot()); }
LogicalResult SyncWaitOp::verify() { return verifySyncSlot(*this, getSlot()); }
LogicalResult SyncReadOp::verify() { return verifySyncSlot(*this, getSlot()); }

LogicalResult DotOp::verify() {
  int64_t off = static_cast<int32_t>(getXOffset());
  if (off < -kMaxDotOffset || off > kMaxDotOffset)
    return emitOpError("x_offset must be in [")
           << -kMaxDotOffset << ", " << kMaxDotOffset << "], got " << off;
  return success();
}

static constexpr int64_t kMaxDotBlockPixels = 2;

/// Int8 bounds min <= max and an int8 output zero point: what a block's
/// SSAT #8 and immediate add/sub take.
static LogicalResult verifyInt8Requant(Operation *op, int32_t zp, int32_t lo,
                                       int32_t hi) {
  auto inInt8 = [](int64_t v) { return v >= kInt8Min && v <= kInt8Max; };
  if (!inInt8(lo) || !inInt8(hi) || lo > hi)
    return op->emitOpError("expects int8 bounds min <= max, got [")
           << lo << ", " << hi << "]";
  if (!inInt8(zp))
    return op->emitOpError("expects an int8 output_zp, got ") << zp;
  return success();
}

LogicalResult DepthwiseBlockOp::verify() {
  ArrayRef<int64_t> offsets = getTapOffsets();
  if (offsets.empty())
    return emitOpError("expects at least one tap");
  for (int64_t offset : offsets)
    if (offset < 0 || offset + kLanes - 1 > kMaxImmediateOffset)
      return emitOpError("tap offset ")
             << offset << " is outside [0, " << kMaxImmediateOffset - kLanes + 1
             << "]: the block reads every tap at an immediate offset";
  int64_t lastWord =
      (recordWords(static_cast<int64_t>(offsets.size())) - 1) * kWordBytes;
  if (lastWord > kMaxImmediateOffset)
    return emitOpError("reads its record up to byte ")
           << lastWord << ", beyond the immediate offset "
           << kMaxImmediateOffset;
  return verifyInt8Requant(*this, static_cast<int32_t>(getOutputZp()),
                           static_cast<int32_t>(getMin()),
                           static_cast<int32_t>(getMax()));
}

LogicalResult GemmTileOp::verify() {
  int64_t pixels = getPixels(), channels = getChannels();
  if (pixels > kMaxDotBlockPixels)
    return emitOpError("expects 1 or 2 pixels, got ") << pixels;
  int64_t registers = gemmTileRegisters(pixels, channels);
  if (registers > kMaxDotBlockRegisters)
    return emitOpError("needs ")
           << registers << " registers for " << pixels << " x " << channels
           << ", more than the " << kMaxDotBlockRegisters << " available";
  int64_t words = getWords(), stride = getXStride();
  int64_t rowBytes = kWordsPerStep * words * kWordBytes;
  if (pixels > 1 && stride < rowBytes)
    return emitOpError("x_stride (")
           << stride << ") overlaps the pixels' " << rowBytes << " bytes";
  int64_t lastX = (pixels - 1) * stride + rowBytes - kWordBytes;
  int64_t lastRecord = (recordWords(channels, words) - 1) * kWordBytes;
  auto outStride = static_cast<int64_t>(getOutStride());
  int64_t lastOut = (pixels - 1) * outStride + channels - 1;
  if (std::max({lastX, lastRecord, lastOut}) > kMaxImmediateOffset)
    return emitOpError("addresses bytes beyond offset ")
           << kMaxImmediateOffset << " of its operands (" << lastX << " of x, "
           << lastRecord << " of the record, " << lastOut << " of out)";
  if (pixels > 1 && outStride < channels)
    return emitOpError("out_stride (")
           << outStride << ") overlaps the pixels' " << channels << " bytes";
  return verifyInt8Requant(*this, static_cast<int32_t>(getOutputZp()),
                           static_cast<int32_t>(getMin()),
                           static_cast<int32_t>(getMax()));
}

LogicalResult RequantBlockOp::verify() {
  int64_t pixels = getPixels(), accs = getAcc().size();
  if (accs == 0 || accs % pixels != 0)
    return emitOpError("expects a whole number of channels per pixel, got ")
           << accs << " sums for " << pixels << " pixels";
  int64_t registers = accs + requantBlockFixedRegisters(getCompactTable());
  if (registers > kMaxDotBlockRegisters)
    return emitOpError("needs ")
           << registers << " registers for " << accs << " sums, more than the "
           << kMaxDotBlockRegisters << " available";
  if (getCompactTable() != static_cast<bool>(getExponents()) ||
      getCompactTable() != static_cast<bool>(getHalfOdd()))
    return emitOpError(
        "takes exponents and half_odd exactly with compact_table");
  // 1 + 2z for an int8 zero point z.
  APInt halfOdd;
  if (getHalfOdd() && matchPattern(getHalfOdd(), m_ConstantInt(&halfOdd)) &&
      (!halfOdd[0] || halfOdd.getSExtValue() < 1 + 2 * kInt8Min ||
       halfOdd.getSExtValue() > 1 + 2 * kInt8Max))
    return emitOpError("half_odd must be 1 + 2z for an int8 z, got ")
           << halfOdd.getSExtValue();
  if (failed(verifyInt8Requant(*this, static_cast<int32_t>(getOutputZp()),
                               static_cast<int32_t>(getMin()),
                               static_cast<int32_t>(getMax()))))
    return failure();
  auto stride = static_cast<int64_t>(getOutStride());
  int64_t lastByte = (pixels - 1) * stride + getChannels() - 1;
  if (lastByte > kMaxImmediateOffset)
    return emitOpError("stores up to byte ")
           << lastByte << " past out_index, beyond the " << kMaxImmediateOffset
           << " a store's immediate offset reaches";
  if (pixels > 1 && stride < getChannels())
    return emitOpError("out_stride (")
           << stride << ") overlaps the pixels' " << getChannels() << " bytes";
  return success();
}

LogicalResult DotBlockOp::verify() {
  int64_t pixels = getPixels(), accs = getAcc().size();
  if (pixels > kMaxDotBlockPixels || accs == 0 || accs % pixels != 0)
    return emitOpError("expects 1 or 2 pixels with a whole number of "
                       "channels each, got ")
           << accs << " accumulators for " << pixels << " pixels";
  int64_t channels = accs / pixels;
  bool wideW = getW().getType().getElementType().isInteger(32);
  if (wideW != getWidenedWeights())
    return emitOpError("w must be i32 exactly when widened_weights");
  if (wideW && getPairedWeights())
    return emitOpError("paired_weights packs int8 weights, not widened ones");
  if (wideW && !getWidened() && pixels != 1)
    return emitOpError("widened_weights over raw inputs takes 1 pixel, got ")
           << pixels;
  int64_t registers =
      dotBlockRegisters(pixels, channels, wideW, getPairedWeights());
  if (registers > kMaxDotBlockRegisters)
    return emitOpError("needs ")
           << registers << " registers for " << pixels << " x " << channels
           << ", more than the " << kMaxDotBlockRegisters << " available";
  int64_t words = getWords(), stride = getXStride();
  constexpr int64_t kBytesPerWord = 4;
  bool wideX = getX().getType().getElementType().isInteger(32);
  if (wideX != getWidened())
    return emitOpError("x must be i32 exactly when widened");
  // A step reads one word of each raw row, two of each widened row.
  int64_t stepBytes = (wideX ? 2 : 1) * kBytesPerWord;
  if (pixels > 1 && stride < stepBytes * words)
    return emitOpError("x_stride (") << stride << ") overlaps the pixels' "
                                     << stepBytes * words << " bytes";
  int64_t lastX = (pixels - 1) * stride + words * stepBytes - kBytesPerWord;
  int64_t wordsPerStep = wideW ? 2 : 1;
  int64_t lastW = (wordsPerStep * words * getChannels() - 1) * kBytesPerWord;
  if (std::max(lastX, lastW) > kMaxImmediateOffset)
    return emitOpError("addresses bytes beyond offset ")
           << kMaxImmediateOffset << " of its operands (" << lastX << " of x, "
           << lastW << " of w); split it into shorter blocks";
  return success();
}

LogicalResult DotBlockOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location>,
                                           ValueRange operands, DictionaryAttr,
                                           OpaqueProperties, RegionRange,
                                           SmallVectorImpl<Type> &inferred) {
  // x, x_index, w, w_index, then the accumulators.
  constexpr size_t kLeadingOperands = 4;
  if (operands.size() < kLeadingOperands)
    return failure();
  inferred.assign(operands.size() - kLeadingOperands,
                  IntegerType::get(context, 32));
  return success();
}

LogicalResult RequantizeOp::verify() {
  auto lo = static_cast<int32_t>(getMin()), hi = static_cast<int32_t>(getMax());
  if (lo > hi)
    return emitOpError("min (") << lo << ") is greater than max (" << hi << ")";
  if (getResult().getType().isInteger(8) && (lo < kInt8Min || hi > kInt8Max))
    return emitOpError("clamp [")
           << lo << ", " << hi << "] exceeds the int8 result range";
  // Constant tables are checked like #vmcu.requant; others are trusted.
  APInt shift, multiplier;
  int64_t minShift = getWideShift()     ? kRequantMinWideShift
                     : getNarrowValue() ? kRequantNarrowMinShift
                                        : kRequantMinShift;
  int64_t maxShift =
      getNarrowValue() ? kRequantMinWideShift - 1 : kRequantMaxShift;
  if (matchPattern(getShift(), m_ConstantInt(&shift)) &&
      (shift.getSExtValue() < minShift || shift.getSExtValue() > maxShift))
    return emitOpError("shift must be in [")
           << minShift << ", " << maxShift << "], got " << shift.getSExtValue();
  if (matchPattern(getMultiplier(), m_ConstantInt(&multiplier)) &&
      multiplier.isNegative())
    return emitOpError("multiplier must be non-negative, got ")
           << multiplier.getSExtValue();
  if (getRound() && !getWideShift())
    return emitOpError("a round operand needs wide_shift");
  if (getBoundedValue() && (!getWideShift() || getRound()))
    return emitOpError("bounded_value needs wide_shift and no round operand");
  if (getHalf() && !getBoundedValue())
    return emitOpError("a half operand needs bounded_value");
  if (getNarrowValue() && (getWideShift() || getRound() || getHalf()))
    return emitOpError(
        "narrow_value takes no wide_shift, round or half operand");
  APInt round;
  if (getRound() && matchPattern(getShift(), m_ConstantInt(&shift)) &&
      matchPattern(getRound(), m_ConstantInt(&round)) &&
      round.getSExtValue() !=
          requantRoundTerm(shift.getSExtValue(), getDoubleRound()))
    return emitOpError("round ")
           << round.getSExtValue() << " is not the rounding term of shift "
           << shift.getSExtValue();
  return success();
}

#define GET_OP_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUOps.cpp.inc"
