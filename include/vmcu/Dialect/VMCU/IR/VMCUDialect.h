//===- VMCUDialect.h - vmcu dialect -----------------------------*- C++ -*-===//
//
// Declares the vmcu dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H
#define VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "vmcu/Dialect/VMCU/IR/VMCUAttributes.h"

#include <algorithm>

#include "vmcu/Dialect/VMCU/IR/VMCUOpsDialect.h.inc"

namespace mlir {
class DialectRegistry;
namespace vmcu {
/// Shift range of requantization: TOSA 1.0 apply_scale_32 requires
/// 2 <= shift <= 62; shift 1 is accepted too since it is exact (rounding
/// term 1) and TFLite emits it.
inline constexpr int kRequantMinShift = 1;
inline constexpr int kRequantMaxShift = 62;
/// Smallest shift `vmcu.requantize {wide_shift}` allows: the product's
/// high word then holds every bit of the result.
inline constexpr int kRequantMinWideShift = 32;
/// Smallest shift `vmcu.requantize {narrow_value}` allows for an int8
/// operand less its zero point (|v| <= 255 < 2^8): v << (32 - shift) then
/// fits an int32's 31 magnitude bits.
inline constexpr int kRequantNarrowMinShift = 32 - (31 - 8);
/// Registers Thumb-2 code can allocate: r0-r12 and lr (vmcuc's kernels
/// keep no frame pointer).
inline constexpr int64_t kAllocatableRegisters = 14;
/// Registers a vmcu.dot_block may take: one of the 14 stays free for the
/// register allocator around the block.
inline constexpr int64_t kMaxDotBlockRegisters = kAllocatableRegisters - 1;

/// Thumb-2 LDR and STRB (immediate, T3 / T2) reach offsets up to 4095
/// bytes: every access of an inline-assembly block (dot_block,
/// requant_block, depthwise_block, gemm_tile) addresses its operand from
/// one base.
inline constexpr int64_t kMaxImmediateOffset = 4095;

/// Words per channel of a bounded requantization table (vmcu-tile's
/// interleaved multiplier, exponent e = shift - 31 and half term), which
/// vmcu.requant_block reads.
inline constexpr int64_t kBoundedRequantWords = 3;

/// Words per channel of a compact kernel's bounded requantization table:
/// the multiplier only. Its exponents e are bytes of a second table, and
/// its half terms 2^(e - 1) times 1 + 2z (z the output zero point where
/// the table folds it, else 0) are computed: 5 bytes per channel where the
/// interleaved table takes 12, for a SUB and LSL per entry in place of a
/// pipelined load.
inline constexpr int64_t kCompactRequantWords = 1;

/// The words per channel of a bounded requantization table.
inline constexpr int64_t boundedRequantWords(bool compactTable) {
  return compactTable ? kCompactRequantWords : kBoundedRequantWords;
}

/// Registers a vmcu.requant_block takes besides its sums: the output and
/// table pointers, with a compact table the exponent table's pointer and
/// the half terms' odd factor, and four scratch registers (multiplier,
/// exponent, half term and the value being requantized).
inline constexpr int64_t requantBlockFixedRegisters(bool compactTable) {
  constexpr int64_t kPointersAndScratch = 6, kCompactOperands = 2;
  return kPointersAndScratch + (compactTable ? kCompactOperands : 0);
}

/// Weight words a vmcu.gemm_tile keeps loaded at once: 2 (a third channel's
/// word reuses the first's register).
inline constexpr int64_t kGemmTileWeightWords = 2;
/// Scratch registers a vmcu.gemm_tile's requantization needs (multiplier,
/// exponent, half term and the value being requantized).
inline constexpr int64_t kGemmTileRequantScratch = 4;

/// Registers a vmcu.gemm_tile of `pixels` x `channels` takes: the sums, its
/// scratch (one input word per pixel and up to 2 weight words, at least
/// the requantization's 4) and the x, record and output pointers.
inline constexpr int64_t gemmTileRegisters(int64_t pixels, int64_t channels) {
  constexpr int64_t kPointers = 3;
  int64_t words =
      pixels +
      (channels < kGemmTileWeightWords ? channels : kGemmTileWeightWords);
  int64_t scratch =
      words > kGemmTileRequantScratch ? words : kGemmTileRequantScratch;
  return pixels * channels + scratch + kPointers;
}

/// Whether a vmcu.dot_block over paired int8 weights works half a step at
/// a time (two rows into more than one pair of channels): one input word
/// per pixel and one weight word in flight.
inline constexpr bool pairedHalfSteps(int64_t pixels, int64_t channels) {
  return pixels > 1 && channels > 2;
}

/// Registers a vmcu.dot_block of `pixels` x `channels` takes: the
/// accumulators, 2 input halves per pixel, a weight word per channel, a
/// scratch half and the two pointers (2 x 2 and 1 x 4 take 13). With
/// widened weights it works on one half of a step at a time: one input
/// word per pixel (widened, or a raw row's word unpacked in place), one
/// weight word per channel and the pointers (2 x 3 and 1 x 5 take 13).
/// Over paired weights in half steps (pairedHalfSteps): an input word per
/// pixel, the weight word in flight and the pointers (2 x 4 takes 13, and
/// a 14th for the second pair's word: pairedHalfStepWeightWords). Over
/// paired weights on one row: the row's 2 halves, the weight word in
/// flight (unpacked in place; a lone last channel's word and its even
/// half) and the pointers (1 x 6 takes 11, and 2 more for a step's words
/// in rounds of three: pairedRowWeightWords).
inline constexpr int64_t dotBlockRegisters(int64_t pixels, int64_t channels,
                                           bool widenedWeights = false,
                                           bool pairedWeights = false) {
  constexpr int64_t kPointers = 2;
  if (widenedWeights)
    return pixels * channels + pixels + channels + kPointers;
  constexpr int64_t kWeightWord = 1;
  if (pairedWeights && pairedHalfSteps(pixels, channels))
    return pixels * channels + pixels + kWeightWord + kPointers;
  constexpr int64_t kRowHalves = 2;
  if (pairedWeights && pixels == 1)
    return channels + kRowHalves + kWeightWord + channels % 2 + kPointers;
  constexpr int64_t kScratchHalf = 1;
  return pixels * channels + 2 * pixels + channels + kScratchHalf + kPointers;
}

/// Weight words a half-step block (pairedHalfSteps) keeps: one per pair
/// (and lone channel), loaded back to back after the pixels' words, where
/// the block's dotBlockRegisters with those words for its one in flight
/// fit all kAllocatableRegisters (2 x 4: the second pair's load pipelines,
/// 15 cycles per 16 MACs instead of 16; LLVM spills the loop's state
/// around the block); else one word in flight.
inline constexpr int64_t pairedHalfStepWeightWords(int64_t pixels,
                                                   int64_t channels) {
  int64_t words = (channels + 1) / 2;
  int64_t oneInFlight = dotBlockRegisters(pixels, channels,
                                          /*widenedWeights=*/false,
                                          /*pairedWeights=*/true);
  return oneInFlight - 1 + words <= kAllocatableRegisters ? words : 1;
}
static_assert(pairedHalfStepWeightWords(2, 4) == 2,
              "a 2 x 4 block keeps both pairs' words in 14 registers");

/// Weight words a single row's block over paired weights keeps (a pair's
/// two per step, a lone channel's one): as many as all
/// kAllocatableRegisters hold beside the sums, the row's halves and the
/// pointers, up to a step's; the step's words load in rounds of that many,
/// back to back. At least the one in flight (two for a lone channel, whose
/// even half takes the next register).
inline constexpr int64_t pairedRowWeightWords(int64_t channels) {
  int64_t inFlight = 1 + channels % 2;
  int64_t free = kMaxDotBlockRegisters -
                 (dotBlockRegisters(1, channels, /*widenedWeights=*/false,
                                    /*pairedWeights=*/true) -
                  inFlight);
  return std::max(inFlight, std::min(channels, free));
}
static_assert(pairedRowWeightWords(6) == 3,
              "a 1 x 6 block keeps three weight words in 13 registers");

/// `vmcu.requantize`'s `bounded_value` promises |value| below this: twice
/// the value then fits an int32 operand of SMMLAR.
inline constexpr int64_t kRequantBoundedValue = int64_t{1} << 30;

/// The 64-bit rounding term of apply_scale_32 for a non-negative value:
/// 2^(shift - 1), plus 2^30 with double rounding and shift > 31 (TOSA 1.0).
inline int64_t requantRoundTerm(int64_t shift, bool doubleRound) {
  constexpr int64_t kDoubleRoundTerm = int64_t(1) << 30;
  bool adjust = doubleRound && shift > 31;
  return (int64_t(1) << (shift - 1)) + (adjust ? kDoubleRoundTerm : 0);
}

/// Adds the vmcu dialect to `registry` (for compilers that embed vmcu).
void registerVMCUDialect(DialectRegistry &registry);
} // namespace vmcu
} // namespace mlir

#endif // VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H
