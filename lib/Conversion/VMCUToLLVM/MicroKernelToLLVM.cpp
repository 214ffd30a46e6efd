//===- MicroKernelToLLVM.cpp - lower dot and requantize -------------------===//
//
// Lowers the micro-kernel ops to Armv7E-M DSP intrinsics (SXTB16, SXTAB16,
// SMLAD, SMLABB/SMLATT, SSAT) and the exact TOSA apply_scale_32 arithmetic.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Support/TargetConstants.h"

#include <limits>

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// `llvm.call_intrinsic "name"(args) : (...) -> i32`.
static Value callI32Intrinsic(OpBuilder &builder, Location loc, StringRef name,
                              ValueRange args) {
  auto call = LLVM::CallIntrinsicOp::create(builder, loc, builder.getI32Type(),
                                            builder.getStringAttr(name), args);
  return call.getResults();
}

static Value createI32(OpBuilder &builder, Location loc, int32_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

static Value createI64(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

/// The even bytes (lanes 0, 2) of a 4-byte vector and its odd bytes (lanes
/// 1, 3), each sign-extended to 16-bit halves (SXTB16 of the word and of
/// the word rotated right by 8, which the ARM backend folds into SXTB16's
/// ROR #8) and, if given, added to `evenAddend` and `oddAddend` (SXTAB16).
static std::pair<Value, Value> splitBytes(OpBuilder &b, Location loc,
                                          Value bytes, Value evenAddend,
                                          Value oddAddend) {
  Type i32 = b.getI32Type();
  Value word = LLVM::BitcastOp::create(b, loc, i32, bytes);
  Value eight = createI32(b, loc, 8);
  Value rotated = LLVM::FshrOp::create(b, loc, i32, word, word, eight);
  auto extend = [&](Value half, Value addend) {
    if (!addend)
      return callI32Intrinsic(b, loc, "llvm.arm.sxtb16", half);
    return callI32Intrinsic(b, loc, "llvm.arm.sxtab16", {addend, half});
  };
  Value even = extend(word, evenAddend);
  return {even, extend(rotated, oddAddend)};
}

/// splitBytes with one addend (or none) for both halves.
static std::pair<Value, Value> splitBytes(OpBuilder &b, Location loc,
                                          Value bytes, Value addend) {
  return splitBytes(b, loc, bytes, addend, addend);
}

/// The packed int16 pair (offset, offset), or null for offset 0.
static Value packedOffset(OpBuilder &b, Location loc, int32_t offset) {
  if (offset == 0)
    return Value();
  uint32_t lane = static_cast<uint16_t>(static_cast<int16_t>(offset));
  return createI32(b, loc, static_cast<int32_t>(lane << 16 | lane));
}

/// acc + sum_i (x[i] + x_offset) * w[i]: each operand is split into its
/// even bytes (SXTB16) and odd bytes (SXTB16 of the operand rotated right
/// by 8, which the ARM backend folds into SXTB16's ROR #8), both sign
/// extended to 16-bit lanes, and two SMLADs accumulate the lane products.
/// With an offset, x is split with SXTAB16 instead, which adds the packed
/// offset to both lanes in the same instruction. Unlike SADD16 (which
/// writes the GE flags, so LLVM must keep every call), SXTAB16 is pure:
/// LLVM shares one unpacked x among all the dots that read it.
struct DotOpLowering : public ConvertOpToLLVMPattern<DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto split = [&](Value bytes, Value addend) {
      return splitBytes(rewriter, loc, bytes, addend);
    };
    auto [wEven, wOdd] = split(adaptor.getW(), Value());
    auto [xEven, xOdd] = split(
        adaptor.getX(),
        packedOffset(rewriter, loc, static_cast<int32_t>(op.getXOffset())));
    Value acc = callI32Intrinsic(rewriter, loc, "llvm.arm.smlad",
                                 {xEven, wEven, adaptor.getAcc()});
    acc = callI32Intrinsic(rewriter, loc, "llvm.arm.smlad", {xOdd, wOdd, acc});
    rewriter.replaceOp(op, acc);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dot_block
//===----------------------------------------------------------------------===//

/// The inline-assembly text and constraints of one vmcu.dot_block. Operands
/// are numbered as LLVM numbers them: the outputs (accumulators, then the
/// scratch registers: two input halves per pixel, one weight word per
/// channel and one unpacked weight half), then the inputs (the x and w
/// pointers, then the accumulators, tied to their outputs).
struct DotBlockAsm {
  std::string text;
  std::string constraints;
  unsigned outputs;
};

/// Operands "=&r" x `outputs`, then `inputs` untied register inputs (the
/// pointers) and the accumulators tied to the first outputs.
static std::string dotBlockConstraints(int64_t outputs, int64_t accs,
                                       int64_t inputs = 2) {
  std::string constraints;
  for (int64_t o = 0; o < outputs; ++o)
    constraints += "=&r,";
  for (int64_t i = 0; i < inputs; ++i)
    constraints += i ? ",r" : "r";
  for (int64_t a = 0; a < accs; ++a)
    constraints += "," + std::to_string(a);
  constraints += ",~{memory}";
  return constraints;
}

/// The block over widened weights: per half step, one word of each pixel
/// and of each channel, loaded back to back, then the SMLADs. Operands:
/// accumulators, pixel words, channel words. Over raw inputs (`rawX`, one
/// pixel) the pixel's word is the step's raw word, loaded again for each
/// half and unpacked in place to that half's lanes (SXTB16, then SXTB16
/// ROR #8): a reload pipelines with the weight loads, where keeping the
/// raw word would take a register from the channels.
static DotBlockAsm buildWidenedWeightsAsm(int64_t pixels, int64_t channels,
                                          int64_t words, int64_t xStride,
                                          bool rawX) {
  constexpr int64_t kHalves = 2;
  int64_t accs = pixels * channels;
  auto xWord = [&](int64_t i) { return accs + i; };
  auto wWord = [&](int64_t j) { return accs + pixels + j; };
  int64_t outputs = accs + pixels + channels;
  int64_t px = outputs, pw = outputs + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto reg = [](int64_t operand) { return "$" + std::to_string(operand); };
  for (int64_t h = 0; h < kHalves * words; ++h) {
    // Widened rows hold a word per half step; raw rows one per step.
    int64_t xOffset = (rawX ? h / kHalves : h) * kWordBytes;
    for (int64_t i = 0; i < pixels; ++i)
      os << "ldr " << reg(xWord(i)) << ", [" << reg(px) << ", #"
         << i * xStride + xOffset << "]\n\t";
    for (int64_t j = 0; j < channels; ++j)
      os << "ldr " << reg(wWord(j)) << ", [" << reg(pw) << ", #"
         << (h * channels + j) * kWordBytes << "]\n\t";
    if (rawX)
      for (int64_t i = 0; i < pixels; ++i)
        os << "sxtb16 " << reg(xWord(i)) << ", " << reg(xWord(i))
           << (h % kHalves ? ", ror #8" : "") << "\n\t";
    for (int64_t j = 0; j < channels; ++j)
      for (int64_t i = 0; i < pixels; ++i) {
        std::string a = reg(i * channels + j);
        os << "smlad " << a << ", " << reg(xWord(i)) << ", " << reg(wWord(j))
           << ", " << a << "\n\t";
      }
  }
  return {text, dotBlockConstraints(outputs, accs),
          static_cast<unsigned>(outputs)};
}

/// The block over paired int8 weights a half step at a time
/// (pairedHalfSteps): each pixel's word of the half (a widened row's, or
/// the raw word unpacked in place to the half's lanes) and, where the
/// registers allow (pairedHalfStepWeightWords), every pair's word of the
/// half, back to back; then per pair of channels its word of the half
/// (else loaded now into the one weight register), multiplied whole into
/// the second channel's sums, unpacked in place (its low bytes) and
/// multiplied into the first's; a lone last channel's raw word is
/// unpacked in place to the half's lanes. Operands: accumulators, pixel
/// words, weight words.
static DotBlockAsm buildPairedHalfStepAsm(int64_t pixels, int64_t channels,
                                          int64_t words, int64_t xStride,
                                          bool widened) {
  constexpr int64_t kHalves = 2;
  int64_t accs = pixels * channels;
  auto acc = [&](int64_t i, int64_t j) { return i * channels + j; };
  auto xWord = [&](int64_t i) { return accs + i; };
  // Pair (or lone channel) j / 2's weight word, in its own register or
  // the one in flight.
  int64_t wRegs = pairedHalfStepWeightWords(pixels, channels);
  auto wReg = [&](int64_t j) { return accs + pixels + (j / 2) % wRegs; };
  int64_t outputs = accs + pixels + wRegs;
  int64_t px = outputs, pw = outputs + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto reg = [](int64_t operand) { return "$" + std::to_string(operand); };
  auto unpack = [&](int64_t r, int64_t half) {
    os << "sxtb16 " << reg(r) << ", " << reg(r) << (half ? ", ror #8" : "")
       << "\n\t";
  };
  auto smlad = [&](int64_t a, int64_t x, int64_t y) {
    os << "smlad " << reg(a) << ", " << reg(x) << ", " << reg(y) << ", "
       << reg(a) << "\n\t";
  };
  for (int64_t h = 0; h < kHalves * words; ++h) {
    int64_t step = h / kHalves, half = h % kHalves;
    // Widened rows hold a word per half step; raw rows one per step.
    int64_t xOffset = (widened ? h : step) * kWordBytes;
    for (int64_t i = 0; i < pixels; ++i)
      os << "ldr " << reg(xWord(i)) << ", [" << reg(px) << ", #"
         << i * xStride + xOffset << "]\n\t";
    auto loadW = [&](int64_t j) {
      // A pair's word of this half is its (j + half)-th of the step; a
      // lone channel's raw word is its j-th.
      bool pair = j + 1 < channels;
      int64_t word = step * channels + j + (pair ? half : 0);
      os << "ldr " << reg(wReg(j)) << ", [" << reg(pw) << ", #"
         << word * kWordBytes << "]\n\t";
    };
    if (wRegs > 1)
      for (int64_t j = 0; j < channels; j += 2)
        loadW(j);
    if (!widened)
      for (int64_t i = 0; i < pixels; ++i)
        unpack(xWord(i), half);
    for (int64_t j = 0; j < channels; j += 2) {
      bool pair = j + 1 < channels;
      int64_t w = wReg(j);
      if (wRegs == 1)
        loadW(j);
      if (pair)
        for (int64_t i = 0; i < pixels; ++i)
          smlad(acc(i, j + 1), xWord(i), w);
      unpack(w, pair ? 0 : half);
      for (int64_t i = 0; i < pixels; ++i)
        smlad(acc(i, j), xWord(i), w);
    }
  }
  return {text, dotBlockConstraints(outputs, accs),
          static_cast<unsigned>(outputs)};
}

/// The block over paired int8 weights on a single row: per step the row's
/// word split into its even and odd lanes (or a widened row's two words),
/// then the step's weight words in rounds of as many as the registers hold
/// (pairedRowWeightWords), each round's loads back to back. A pair's word
/// multiplies whole into the second channel's sum, is unpacked in place
/// (its low bytes) and multiplies into the first's; a lone last channel's
/// raw word is split into the next weight register and itself. 1 x 6: 29
/// cycles per step of 24 MACs, where the 1 x 4 tile takes 20 per 16.
/// Operands: accumulators, the row's halves, weight words.
static DotBlockAsm buildPairedRowAsm(int64_t channels, int64_t words,
                                     bool widened) {
  int64_t accs = channels;
  int64_t xEven = accs, xOdd = accs + 1;
  int64_t wRegs = pairedRowWeightWords(channels);
  // A step's words: two per pair (one per half of the row's word), then a
  // lone channel's raw word; word k goes to register k % wRegs.
  int64_t stepWords = channels;
  auto wReg = [&](int64_t k) { return accs + 2 + k % wRegs; };
  int64_t outputs = accs + 2 + wRegs;
  int64_t px = outputs, pw = outputs + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto reg = [](int64_t operand) { return "$" + std::to_string(operand); };
  auto load = [&](int64_t dst, int64_t base, int64_t word) {
    os << "ldr " << reg(dst) << ", [" << reg(base) << ", #" << word * kWordBytes
       << "]\n\t";
  };
  auto unpack = [&](int64_t dst, int64_t src, bool odd) {
    os << "sxtb16 " << reg(dst) << ", " << reg(src) << (odd ? ", ror #8" : "")
       << "\n\t";
  };
  auto smlad = [&](int64_t a, int64_t x, int64_t y) {
    os << "smlad " << reg(a) << ", " << reg(x) << ", " << reg(y) << ", "
       << reg(a) << "\n\t";
  };
  for (int64_t step = 0; step < words; ++step) {
    if (widened) {
      load(xEven, px, 2 * step);
      load(xOdd, px, 2 * step + 1);
    } else {
      load(xOdd, px, step);
    }
    for (int64_t k = 0; k < stepWords; ++k) {
      if (k % wRegs == 0)
        for (int64_t r = k; r < std::min(k + wRegs, stepWords); ++r)
          load(wReg(r), pw, step * stepWords + r);
      if (k == 0 && !widened) {
        unpack(xEven, xOdd, /*odd=*/false);
        unpack(xOdd, xOdd, /*odd=*/true);
      }
      int64_t w = wReg(k), j = k / 2 * 2;
      if (j + 1 < channels) {
        int64_t x = k % 2 ? xOdd : xEven;
        smlad(j + 1, x, w);
        unpack(w, w, /*odd=*/false);
        smlad(j, x, w);
        continue;
      }
      // The lone channel's even half goes to the next register, whose word
      // (if any) was used.
      int64_t even = wReg(k + 1);
      unpack(even, w, /*odd=*/false);
      unpack(w, w, /*odd=*/true);
      smlad(j, xEven, even);
      smlad(j, xOdd, w);
    }
  }
  return {text, dotBlockConstraints(outputs, accs),
          static_cast<unsigned>(outputs)};
}

/// The block over int8 weights: per step, one word (or a widened row's
/// two) of each pixel and one weight word of each channel, loaded back to
/// back, then per channel two unpacks and two SMLADs per pixel. With
/// `paired`, channels (2p, 2p + 1) hold one word per half step of int16
/// halves 256 * w[2p + 1] + w[2p] (vmcu.dot_block's paired_weights): one
/// unpack (the low bytes, w[2p]) per word, and the word itself multiplies
/// into channel 2p + 1's accumulator.
static DotBlockAsm buildDotBlockAsm(int64_t pixels, int64_t channels,
                                    int64_t words, int64_t xStride,
                                    bool widened, bool paired) {
  int64_t accs = pixels * channels;
  auto acc = [&](int64_t i, int64_t j) { return i * channels + j; };
  // Pixel i's input word is loaded into xOdd(i), then split into its even
  // lanes (xEven) and, in place, its odd lanes.
  auto xEven = [&](int64_t i) { return accs + 2 * i; };
  auto xOdd = [&](int64_t i) { return accs + 2 * i + 1; };
  auto wWord = [&](int64_t j) { return accs + 2 * pixels + j; };
  int64_t half = accs + 2 * pixels + channels;
  int64_t outputs = half + 1;
  int64_t px = outputs, pw = outputs + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto reg = [](int64_t operand) { return "$" + std::to_string(operand); };
  auto load = [&](int64_t dst, int64_t base, int64_t offset) {
    os << "ldr " << reg(dst) << ", [" << reg(base) << ", #" << offset
       << "]\n\t";
  };
  // SXTB16 of a word: lanes (0, 2) as int16 halves; with ROR #8, (1, 3).
  auto split = [&](int64_t even, int64_t word) {
    os << "sxtb16 " << reg(even) << ", " << reg(word) << "\n\t";
    os << "sxtb16 " << reg(word) << ", " << reg(word) << ", ror #8\n\t";
  };
  for (int64_t k = 0; k < words; ++k) {
    // All loads first: back-to-back LDRs pipeline (one cycle each after
    // the first).
    for (int64_t i = 0; i < pixels; ++i) {
      if (widened) {
        load(xEven(i), px, i * xStride + 2 * k * kWordBytes);
        load(xOdd(i), px, i * xStride + (2 * k + 1) * kWordBytes);
      } else {
        load(xOdd(i), px, i * xStride + k * kWordBytes);
      }
    }
    for (int64_t j = 0; j < channels; ++j)
      load(wWord(j), pw, (k * channels + j) * kWordBytes);
    if (!widened)
      for (int64_t i = 0; i < pixels; ++i)
        split(xEven(i), xOdd(i));
    int64_t pairs = paired ? channels / 2 : 0;
    for (int64_t p = 0; p < pairs; ++p)
      for (int64_t h = 0; h < 2; ++h) {
        int64_t word = wWord(2 * p + h);
        os << "sxtb16 " << reg(half) << ", " << reg(word) << "\n\t";
        for (int64_t i = 0; i < pixels; ++i) {
          std::string x = reg(h ? xOdd(i) : xEven(i));
          std::string a = reg(acc(i, 2 * p)), hi = reg(acc(i, 2 * p + 1));
          os << "smlad " << a << ", " << x << ", " << reg(half) << ", " << a
             << "\n\t";
          os << "smlad " << hi << ", " << x << ", " << reg(word) << ", " << hi
             << "\n\t";
        }
      }
    for (int64_t j = 2 * pairs; j < channels; ++j) {
      split(half, wWord(j));
      for (int64_t i = 0; i < pixels; ++i) {
        std::string a = reg(acc(i, j));
        os << "smlad " << a << ", " << reg(xEven(i)) << ", " << reg(half)
           << ", " << a << "\n\t";
        os << "smlad " << a << ", " << reg(xOdd(i)) << ", " << reg(wWord(j))
           << ", " << a << "\n\t";
      }
    }
  }
  return {text, dotBlockConstraints(outputs, accs),
          static_cast<unsigned>(outputs)};
}

/// [even pair, odd pair] of 4 int8 lanes: two SXTB16 into a vector<2xi32>.
struct WidenPairsOpLowering : public ConvertOpToLLVMPattern<WidenPairsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WidenPairsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [even, odd] = splitBytes(rewriter, loc, adaptor.getX(), Value());
    Type vecType = getTypeConverter()->convertType(op.getType());
    Value result = LLVM::PoisonOp::create(rewriter, loc, vecType);
    Value halves[] = {even, odd};
    for (auto [index, half] : llvm::enumerate(halves)) {
      Value pos = createI32(rewriter, loc, static_cast<int32_t>(index));
      result =
          LLVM::InsertElementOp::create(rewriter, loc, result, half, pos);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// An inline-assembly register block with `outputs` i32 results (its
/// scratch and accumulators); `writesMemory` keeps one with no used result.
static LLVM::InlineAsmOp
createRegisterBlockAsm(OpBuilder &b, Location loc, int64_t outputs,
                       ValueRange operands, StringRef text,
                       StringRef constraints, bool writesMemory) {
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(outputs, b.getI32Type()));
  return LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints,
      /*has_side_effects=*/writesMemory, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/LLVM::AsmDialectAttr(),
      /*operand_attrs=*/ArrayAttr());
}

/// One inline-assembly block: the sequence buildDotBlockAsm writes, with
/// the accumulators tied in and out and early-clobber scratch registers.
struct DotBlockOpLowering : public ConvertOpToLLVMPattern<DotBlockOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotBlockOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value px = getStridedElementPtr(rewriter, loc, op.getX().getType(),
                                    adaptor.getX(), {adaptor.getXIndex()});
    Value pw = getStridedElementPtr(rewriter, loc, op.getW().getType(),
                                    adaptor.getW(), {adaptor.getWIndex()});
    DotBlockAsm block =
        op.getWidenedWeights()
            ? buildWidenedWeightsAsm(op.getPixels(), op.getChannels(),
                                     op.getWords(), op.getXStride(),
                                     /*rawX=*/!op.getWidened())
        : op.getPairedWeights() &&
                pairedHalfSteps(op.getPixels(), op.getChannels())
            ? buildPairedHalfStepAsm(op.getPixels(), op.getChannels(),
                                     op.getWords(), op.getXStride(),
                                     op.getWidened())
        : op.getPairedWeights() && op.getPixels() == 1
            ? buildPairedRowAsm(op.getChannels(), op.getWords(),
                                op.getWidened())
            : buildDotBlockAsm(op.getPixels(), op.getChannels(), op.getWords(),
                               op.getXStride(), op.getWidened(),
                               op.getPairedWeights());
    SmallVector<Value> operands{px, pw};
    llvm::append_range(operands, adaptor.getAcc());
    auto asmOp = createRegisterBlockAsm(rewriter, loc, block.outputs, operands,
                                        block.text, block.constraints,
                                        /*writesMemory=*/false);
    SmallVector<Value> sums;
    for (int64_t a = 0, e = op.getAcc().size(); a < e; ++a)
      sums.push_back(LLVM::ExtractValueOp::create(rewriter, loc,
                                                  asmOp.getResult(0), a));
    rewriter.replaceOp(op, sums);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// requant_block
//===----------------------------------------------------------------------===//

/// `t = clamp(t, lo, hi)` for int8 bounds, after SSAT: a compare with an
/// immediate and a conditional move per bound that cuts into int8.
static void emitClampAsm(llvm::raw_ostream &os, const std::string &t,
                         int64_t lo, int64_t hi) {
  constexpr int64_t kInt8Lo = -128, kInt8Hi = 127;
  os << "ssat " << t << ", #8, " << t << "\n\t";
  auto bound = [&](int64_t b, const char *cond) {
    // cmp with a negative immediate is cmn; mov of one is mvn of ~b.
    if (b >= 0)
      os << "cmp " << t << ", #" << b << "\n\tit " << cond << "\n\tmov"
         << cond << " " << t << ", #" << b << "\n\t";
    else
      os << "cmn " << t << ", #" << -b << "\n\tit " << cond << "\n\tmvn"
         << cond << " " << t << ", #" << -b - 1 << "\n\t";
  };
  if (lo > kInt8Lo)
    bound(lo, "lt");
  if (hi < kInt8Hi)
    bound(hi, "gt");
}

/// The bounded requantization of one channel in inline assembly
/// (vmcu.requant_block, vmcu.depthwise_block): its registers for the
/// multiplier, exponent, half term and the value being requantized, and
/// the requantization's constants.
struct BoundedRequantAsm {
  std::string m, e, h, t;
  bool doubleRound;
  int32_t zp, lo, hi;
  /// The sums are 2v already (their block accumulated doubled biases and
  /// weights): SMMLAR takes them without a shift.
  bool doubledSums = false;

  /// Loads the channel's table entry (m, e, h) at `entry` bytes from
  /// `table` (kBoundedRequantWords words).
  void loadEntry(llvm::raw_ostream &os, const std::string &table,
                 int64_t entry) const {
    auto load = [&](const std::string &reg, int64_t word) {
      os << "ldr " << reg << ", [" << table << ", #"
         << entry + word * kWordBytes << "]\n\t";
    };
    load(m, 0);
    load(e, 1);
    load(h, 2);
  }

  /// Loads channel `j`'s multiplier from `table` and exponent from
  /// `exponents` (a compact table, kCompactRequantWords), and computes its
  /// half term `halfOdd << (e - 1)` in `h`, with `t` as scratch.
  void loadCompactEntry(llvm::raw_ostream &os, const std::string &table,
                        const std::string &exponents,
                        const std::string &halfOdd, int64_t j) const {
    os << "ldr " << m << ", [" << table << ", #" << j * kWordBytes << "]\n\t";
    os << "ldrb " << e << ", [" << exponents << ", #" << j << "]\n\t";
    os << "sub " << t << ", " << e << ", #1\n\t";
    os << "lsl " << h << ", " << halfOdd << ", " << t << "\n\t";
  }

  /// Requantizes sum `v` and stores the byte at `offset` from `out`.
  void store(llvm::raw_ostream &os, const std::string &v,
             const std::string &out, int64_t offset) const {
    // hi32(2v * m + h * 2^32 (+ 2^31)): SMMLAR rounds, SMMLA does not.
    std::string twice = doubledSums ? v : t;
    if (!doubledSums)
      os << "lsl " << t << ", " << v << ", #1\n\t";
    os << (doubleRound ? "smmlar " : "smmla ") << t << ", " << twice << ", "
       << m << ", " << h << "\n\t";
    if (doubleRound)
      os << "add " << t << ", " << t << ", " << v << ", asr #31\n\t";
    os << "asr " << t << ", " << t << ", " << e << "\n\t";
    if (zp > 0)
      os << "add " << t << ", " << t << ", #" << zp << "\n\t";
    else if (zp < 0)
      os << "sub " << t << ", " << t << ", #" << -zp << "\n\t";
    emitClampAsm(os, t, lo, hi);
    os << "strb " << t << ", [" << out << ", #" << offset << "]\n\t";
  }
};

/// Scratch registers of a requant block: multiplier, exponent, half term
/// and the value being requantized.
constexpr int64_t kRequantBlockScratch = 4;

/// The requantization of a block of sums (vmcu.requant_block): operands
/// $0-$3 scratch (m, e, h, t), $4 the output pointer, $5 the table
/// pointer, with a compact table $6 the exponent table's pointer and $7
/// half_odd, then the sums.
static std::string buildRequantBlockAsm(RequantBlockOp op) {
  constexpr int64_t kScratch = kRequantBlockScratch;
  int64_t pixels = op.getPixels(), channels = op.getChannels();
  bool compact = op.getCompactTable();
  auto reg = [](int64_t operand) { return "$" + std::to_string(operand); };
  std::string m = reg(0), e = reg(1), h = reg(2), t = reg(3);
  std::string out = reg(kScratch), table = reg(kScratch + 1);
  std::string exponents = reg(kScratch + 2), halfOdd = reg(kScratch + 3);
  int64_t firstSum = kScratch + (compact ? 4 : 2);
  auto sum = [&](int64_t i, int64_t j) {
    return reg(firstSum + i * channels + j);
  };
  BoundedRequantAsm rq{m,
                       e,
                       h,
                       t,
                       op.getDoubleRound(),
                       static_cast<int32_t>(op.getOutputZp()),
                       static_cast<int32_t>(op.getMin()),
                       static_cast<int32_t>(op.getMax())};
  int64_t entryBytes = boundedRequantWords(compact) * kWordBytes;
  std::string text;
  llvm::raw_string_ostream os(text);
  // A uniform table's one entry serves every channel: loaded once.
  bool uniform = op.getUniformTable();
  for (int64_t j = 0; j < channels; ++j) {
    int64_t entry = uniform ? 0 : j;
    if (j == 0 || !uniform) {
      if (compact)
        rq.loadCompactEntry(os, table, exponents, halfOdd, entry);
      else
        rq.loadEntry(os, table, entry * entryBytes);
    }
    for (int64_t i = 0; i < pixels; ++i)
      rq.store(os, sum(i, j), out, i * op.getOutStride() + j);
  }
  return text;
}

struct RequantBlockOpLowering : public ConvertOpToLLVMPattern<RequantBlockOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(RequantBlockOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out =
        getStridedElementPtr(rewriter, loc, op.getOut().getType(),
                             adaptor.getOut(), {adaptor.getOutIndex()});
    Value table =
        getStridedElementPtr(rewriter, loc, op.getTable().getType(),
                             adaptor.getTable(), {adaptor.getTableIndex()});
    SmallVector<Value> operands{out, table};
    if (op.getExponents()) {
      operands.push_back(getStridedElementPtr(
          rewriter, loc, op.getExponents().getType(), adaptor.getExponents(),
          {adaptor.getTableIndex()}));
      operands.push_back(adaptor.getHalfOdd());
    }
    llvm::append_range(operands, adaptor.getAcc());
    // The early-clobbered scratch outputs, then the pointers and sums.
    std::string constraints =
        dotBlockConstraints(kRequantBlockScratch, /*accs=*/0, operands.size()) +
        ",~{cc}";
    createRegisterBlockAsm(rewriter, loc, kRequantBlockScratch, operands,
                           buildRequantBlockAsm(op), constraints,
                           /*writesMemory=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// depthwise_block
//===----------------------------------------------------------------------===//

/// Operand numbers of a depthwise block's inline assembly: the 4 sums and
/// 6 scratch registers (all outputs), then the x, record and out pointers.
struct DepthwiseBlockRegisters {
  static constexpr int64_t kLanes = DepthwiseBlockOp::kLanes, kScratch = 6;
  static constexpr int64_t kOutputs = kLanes + kScratch;
  static constexpr int64_t kX = kOutputs, kRecord = kOutputs + 1,
                           kOut = kOutputs + 2;
  /// Scratch: the two taps' words (a, c), their even splits (e, f) and a
  /// paired word (g); weight words go to h and, once free, e.
  static constexpr int64_t a = 4, c = 5, e = 6, f = 7, g = 8, h = 9;
};

/// Writes the text of one vmcu.depthwise_block: the 4 biases, then per
/// pair of taps the two input words and lane 0's weight word loaded back
/// to back, lanes 0 and 2 (even splits) paired with PKHBT/PKHTB and
/// SMLADed, then lanes 1 and 3 (odd splits); an odd last tap by
/// SMLABB/SMLATT against its two words; last the 4 requantizations.
class DepthwiseBlockAsm {
  using R = DepthwiseBlockRegisters;

public:
  explicit DepthwiseBlockAsm(DepthwiseBlockOp op) : op(op), os(text) {}

  static int64_t numOutputs() { return R::kOutputs; }

  std::string build() {
    ArrayRef<int64_t> offsets = op.getTapOffsets();
    int64_t taps = offsets.size();
    int64_t laneBytes = DepthwiseBlockOp::kLaneWords * kWordBytes;
    for (int64_t lane = 0; lane < R::kLanes; ++lane)
      load(lane, R::kRecord, lane * laneBytes);
    int64_t w = R::kLanes * laneBytes;
    for (int64_t t = 0; t + 1 < taps; t += 2, w += R::kLanes * kWordBytes)
      tapPair(offsets[t], offsets[t + 1], w);
    if (taps % 2)
      lastTap(offsets[taps - 1], w);
    BoundedRequantAsm rq{reg(R::a),
                         reg(R::c),
                         reg(R::e),
                         reg(R::f),
                         op.getDoubleRound(),
                         static_cast<int32_t>(op.getOutputZp()),
                         static_cast<int32_t>(op.getMin()),
                         static_cast<int32_t>(op.getMax()),
                         /*doubledSums=*/true};
    for (int64_t lane = 0; lane < R::kLanes; ++lane) {
      rq.loadEntry(os, reg(R::kRecord), lane * laneBytes + kWordBytes);
      rq.store(os, reg(lane), reg(R::kOut), lane);
    }
    return text;
  }

private:
  static std::string reg(int64_t operand) {
    return "$" + std::to_string(operand);
  }
  void load(int64_t dst, int64_t base, int64_t offset) {
    os << "ldr " << reg(dst) << ", [" << reg(base) << ", #" << offset
       << "]\n\t";
  }
  void sxtb16(int64_t d, int64_t word, bool odd) {
    os << "sxtb16 " << reg(d) << ", " << reg(word) << (odd ? ", ror #8" : "")
       << "\n\t";
  }
  /// d = (n & 0xffff) | m << 16 (bottoms), or (m & 0xffff0000) | n >> 16
  /// (tops): lane i's two taps, the first tap's low.
  void pair(int64_t d, int64_t n, int64_t m, bool tops) {
    if (tops)
      os << "pkhtb " << reg(d) << ", " << reg(m) << ", " << reg(n)
         << ", asr #16\n\t";
    else
      os << "pkhbt " << reg(d) << ", " << reg(n) << ", " << reg(m)
         << ", lsl #16\n\t";
  }
  void mac(StringRef name, int64_t acc, int64_t x, int64_t w) {
    os << name << " " << reg(acc) << ", " << reg(x) << ", " << reg(w) << ", "
       << reg(acc) << "\n\t";
  }
  void tapPair(int64_t x0, int64_t x1, int64_t w) {
    load(R::a, R::kX, x0);
    load(R::c, R::kX, x1);
    load(R::h, R::kRecord, w);
    sxtb16(R::e, R::a, false);
    sxtb16(R::f, R::c, false);
    pair(R::g, R::e, R::f, false);
    pair(R::f, R::e, R::f, true);
    load(R::e, R::kRecord, w + 2 * kWordBytes);
    mac("smlad", 0, R::g, R::h);
    mac("smlad", 2, R::f, R::e);
    load(R::h, R::kRecord, w + kWordBytes);
    load(R::e, R::kRecord, w + 3 * kWordBytes);
    sxtb16(R::a, R::a, true);
    sxtb16(R::c, R::c, true);
    pair(R::g, R::a, R::c, false);
    pair(R::c, R::a, R::c, true);
    mac("smlad", 1, R::g, R::h);
    mac("smlad", 3, R::c, R::e);
  }
  void lastTap(int64_t x, int64_t w) {
    load(R::a, R::kX, x);
    load(R::h, R::kRecord, w);
    load(R::e, R::kRecord, w + kWordBytes);
    sxtb16(R::g, R::a, false);
    sxtb16(R::a, R::a, true);
    mac("smlabb", 0, R::g, R::h);
    mac("smlatt", 2, R::g, R::h);
    mac("smlabb", 1, R::a, R::e);
    mac("smlatt", 3, R::a, R::e);
  }

  DepthwiseBlockOp op;
  std::string text;
  llvm::raw_string_ostream os;
};

//===----------------------------------------------------------------------===//
// gemm_tile
//===----------------------------------------------------------------------===//

/// Writes the text of one vmcu.gemm_tile. Operands: the pixels x channels
/// sums, the scratch registers (one input word per pixel, then up to 2
/// weight words; at least 4, the requantization's), then the x, record and
/// out pointers. The biases first (pixel 0 loads, the others copy), per
/// half step the input words and the first weight words loaded back to
/// back and each channel's SMLADs, a third channel's word loaded into the
/// first's register; then per channel its requantization entry and the
/// pixels' outputs.
class GemmTileAsm {
public:
  explicit GemmTileAsm(GemmTileOp op)
      : op(op), pixels(op.getPixels()), channels(op.getChannels()),
        weightRegs(std::min(channels, kGemmTileWeightWords)),
        scratch(std::max(pixels + weightRegs, kGemmTileRequantScratch)),
        outputs(pixels * channels + scratch), os(text) {}

  int64_t numOutputs() const { return outputs; }

  std::string build() {
    int64_t words = op.getWords();
    int64_t weightWords = GemmTileOp::kWordsPerStep * words * channels;
    for (int64_t j = 0; j < channels; ++j)
      load(sum(0, j), record(), (weightWords + j) * kWordBytes);
    for (int64_t i = 1; i < pixels; ++i)
      for (int64_t j = 0; j < channels; ++j)
        os << "mov " << reg(sum(i, j)) << ", " << reg(sum(0, j)) << "\n\t";
    for (int64_t k = 0; k < GemmTileOp::kWordsPerStep * words; ++k)
      halfStep(k);
    BoundedRequantAsm rq{reg(outputs - scratch),
                         reg(outputs - scratch + 1),
                         reg(outputs - scratch + 2),
                         reg(outputs - scratch + 3),
                         op.getDoubleRound(),
                         static_cast<int32_t>(op.getOutputZp()),
                         static_cast<int32_t>(op.getMin()),
                         static_cast<int32_t>(op.getMax()),
                         /*doubledSums=*/true};
    int64_t entries = weightWords + channels;
    for (int64_t j = 0; j < channels; ++j) {
      rq.loadEntry(os, reg(record()),
                   (entries + j * kBoundedRequantWords) * kWordBytes);
      for (int64_t i = 0; i < pixels; ++i)
        rq.store(os, reg(sum(i, j)), reg(out()),
                 i * static_cast<int64_t>(op.getOutStride()) + j);
    }
    return text;
  }

private:
  static std::string reg(int64_t operand) {
    return "$" + std::to_string(operand);
  }
  int64_t sum(int64_t i, int64_t j) const { return i * channels + j; }
  int64_t xWord(int64_t i) const { return pixels * channels + i; }
  int64_t wWord(int64_t j) const {
    return pixels * channels + pixels + j % weightRegs;
  }
  int64_t x() const { return outputs; }
  int64_t record() const { return outputs + 1; }
  int64_t out() const { return outputs + 2; }
  void load(int64_t dst, int64_t base, int64_t offset) {
    os << "ldr " << reg(dst) << ", [" << reg(base) << ", #" << offset
       << "]\n\t";
  }
  /// Half step k: input word k of every pixel, weight word k of every
  /// channel.
  void halfStep(int64_t k) {
    for (int64_t i = 0; i < pixels; ++i)
      load(xWord(i), x(),
           i * static_cast<int64_t>(op.getXStride()) + k * kWordBytes);
    for (int64_t j = 0; j < weightRegs; ++j)
      load(wWord(j), record(), (k * channels + j) * kWordBytes);
    for (int64_t j = 0; j < channels; ++j) {
      if (j >= weightRegs)
        load(wWord(j), record(), (k * channels + j) * kWordBytes);
      for (int64_t i = 0; i < pixels; ++i) {
        std::string a = reg(sum(i, j));
        os << "smlad " << a << ", " << reg(xWord(i)) << ", " << reg(wWord(j))
           << ", " << a << "\n\t";
      }
    }
  }

  GemmTileOp op;
  int64_t pixels, channels, weightRegs, scratch, outputs;
  std::string text;
  llvm::raw_string_ostream os;
};

/// Lowers a register block that reads x and a flash record and writes its
/// outputs (vmcu.depthwise_block, vmcu.gemm_tile) to one inline-assembly
/// block: `Asm(op)`'s text over the x, record and out pointers, its
/// numOutputs() registers allocated once, the flags clobbered (the
/// requantization's clamps compare).
template <typename OpT, typename Asm>
struct RecordBlockLowering : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto pointer = [&](Value memref, Value converted, Value index) {
      return this->getStridedElementPtr(rewriter, loc,
                                        cast<MemRefType>(memref.getType()),
                                        converted, {index});
    };
    Value px = pointer(op.getX(), adaptor.getX(), adaptor.getXIndex());
    Value pr =
        pointer(op.getRecord(), adaptor.getRecord(), adaptor.getRecordIndex());
    Value po = pointer(op.getOut(), adaptor.getOut(), adaptor.getOutIndex());
    Asm block(op);
    std::string text = block.build();
    constexpr int64_t kPointers = 3;
    createRegisterBlockAsm(
        rewriter, loc, block.numOutputs(), {px, pr, po}, text,
        dotBlockConstraints(block.numOutputs(), /*accs=*/0, kPointers) +
            ",~{cc}",
        /*writesMemory=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};
using DepthwiseBlockOpLowering =
    RecordBlockLowering<DepthwiseBlockOp, DepthwiseBlockAsm>;
using GemmTileOpLowering = RecordBlockLowering<GemmTileOp, GemmTileAsm>;

//===----------------------------------------------------------------------===//
// add_pairs
//===----------------------------------------------------------------------===//

/// even += x's bytes (0, 2), odd += its bytes (1, 3), as 16-bit halves: one
/// SXTAB16 of the word and one of the word rotated right by 8 (folded
/// into SXTAB16's ROR #8).
struct AddPairsOpLowering : public ConvertOpToLLVMPattern<AddPairsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AddPairsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [even, odd] = splitBytes(rewriter, op.getLoc(), adaptor.getX(),
                                  adaptor.getEven(), adaptor.getOdd());
    rewriter.replaceOp(op, {even, odd});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// mac_lanes
//===----------------------------------------------------------------------===//

/// acc[i] += x[i] * w[i]: SXTB16 splits each word into lanes (0, 2) and,
/// rotated by 8, (1, 3) as 16-bit halves; SMLABB multiplies the bottom
/// halves, SMLATT the top ones.
struct MacLanesOpLowering : public ConvertOpToLLVMPattern<MacLanesOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MacLanesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [xEven, xOdd] = splitBytes(rewriter, loc, adaptor.getX(), Value());
    auto [wEven, wOdd] = splitBytes(rewriter, loc, adaptor.getW(), Value());
    Value acc = adaptor.getAcc();
    // Lane i: its half of (even, odd) and the intrinsic for that half.
    struct Lane {
      int64_t index;
      bool odd;
      const char *intrinsic;
    };
    for (Lane lane :
         {Lane{0, false, "llvm.arm.smlabb"}, Lane{1, true, "llvm.arm.smlabb"},
          Lane{2, false, "llvm.arm.smlatt"},
          Lane{3, true, "llvm.arm.smlatt"}}) {
      Value pos = createI32(rewriter, loc, static_cast<int32_t>(lane.index));
      Value old = LLVM::ExtractElementOp::create(rewriter, loc, acc, pos);
      Value sum = callI32Intrinsic(
          rewriter, loc, lane.intrinsic,
          {lane.odd ? xOdd : xEven, lane.odd ? wOdd : wEven, old});
      acc = LLVM::InsertElementOp::create(rewriter, loc, acc, sum, pos);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// requantize
//===----------------------------------------------------------------------===//

/// Bits in the low word of the 64-bit product.
constexpr int32_t kWordBits = 32;

/// TOSA's double rounding for shift > 31: +2^30 if `v >= 0`, else -2^30.
static Value doubleRoundAdjust(OpBuilder &b, Location loc, Value v) {
  constexpr int64_t kDoubleRoundTerm = int64_t{1} << 30;
  Value nonNegative = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, v,
                                           createI32(b, loc, 0));
  Value up = createI64(b, loc, kDoubleRoundTerm);
  Value down = createI64(b, loc, -kDoubleRoundTerm);
  return LLVM::SelectOp::create(b, loc, nonNegative, up, down);
}

/// `sext(v)` to i64.
static Value signExtend64(OpBuilder &b, Location loc, Value v) {
  return LLVM::SExtOp::create(b, loc, b.getI64Type(), v);
}

/// `x64 * sext(multiplier)`, the 64-bit product of apply_scale_32.
static Value mulByMultiplier(OpBuilder &b, Location loc, Value x64,
                             Value multiplier) {
  Value multiplier64 = signExtend64(b, loc, multiplier);
  return LLVM::MulOp::create(b, loc, x64, multiplier64);
}

/// `trunc(x64 >> 32)`, the high word of an i64; `wordBits` is the i64
/// constant 32.
static Value highWord(OpBuilder &b, Location loc, Value x64, Value wordBits) {
  Value shifted = LLVM::LShrOp::create(b, loc, x64, wordBits);
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), shifted);
}

/// `shift - 32`: what is left of `shift` to apply to the high word.
static Value highWordShift(OpBuilder &b, Location loc, Value shift) {
  return LLVM::SubOp::create(b, loc, shift, createI32(b, loc, kWordBits));
}

/// `1 << (exponent - 1)`, with `one` the constant 1 of exponent's type.
static Value halfPowerOfTwo(OpBuilder &b, Location loc, Value one,
                            Value exponent) {
  Value below = LLVM::SubOp::create(b, loc, exponent, one);
  return LLVM::ShlOp::create(b, loc, one, below);
}

/// TOSA 1.0 apply_scale_32 of `value - input_zp`, then `+ output_zp` and
/// the clamp:
///   round = 1 << (shift - 1)                                  (i64)
///   if double_round and shift > 31: round += v >= 0 ? 1<<30 : -(1<<30)
///   r = (sext(v) * sext(multiplier) + round) >> shift         (i64, ashr)
///   out = clamp(trunc(r) + output_zp, min, max)               (i32)
/// The clamp to exactly [-128, 127] is one SSAT #8.
struct RequantizeOpLowering : public ConvertOpToLLVMPattern<RequantizeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value v = adaptor.getValue();
    if (auto inputZp = static_cast<int32_t>(op.getInputZp()))
      v = LLVM::SubOp::create(rewriter, loc, v,
                              createI32(rewriter, loc, inputZp));
    Value scaled = applyScale(rewriter, op, adaptor, v);
    rewriter.replaceOp(op, clampAndTruncate(rewriter, op, scaled));
    return success();
  }

  /// apply_scale_32 of `v` in the form the op selects.
  Value applyScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                   OpAdaptor adaptor, Value v) const {
    Value multiplier = adaptor.getMultiplier();
    Value shift = adaptor.getShift();
    if (op.getBoundedValue())
      return boundedScale(rewriter, op, v, multiplier, shift,
                          adaptor.getHalf());
    if (Value round = adaptor.getRound())
      return tableRoundScale(rewriter, op, v, multiplier, shift, round);
    if (op.getWideShift())
      return wideShiftScale(rewriter, op, v, multiplier, shift);
    if (op.getNarrowValue())
      return narrowValueScale(rewriter, op, v, multiplier, shift);
    return roundingShiftScale(rewriter, op, v, multiplier, shift);
  }

  /// apply_scale_32 of |v| * 2^(32 - shift) < 2^31, shift <= 31 (one
  /// rounding): `hi32((v << (32 - shift)) * m + 2^31)`, since
  /// `(v * m + 2^(shift - 1)) >> shift` scaled by 2^(32 - shift) is the
  /// same quotient. The 64-bit form is what the ARM backend selects SMMULR
  /// for; `32 - shift` is loop-invariant where the shift is.
  Value narrowValueScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                         Value v, Value multiplier, Value shift) const {
    Location loc = op.getLoc();
    Value up = LLVM::SubOp::create(rewriter, loc,
                                   createI32(rewriter, loc, kWordBits), shift);
    Value scaled = LLVM::ShlOp::create(rewriter, loc, v, up);
    Value scaled64 = signExtend64(rewriter, loc, scaled);
    Value product = mulByMultiplier(rewriter, loc, scaled64, multiplier);
    Value sum = LLVM::AddOp::create(
        rewriter, loc, product,
        createI64(rewriter, loc, int64_t{1} << (kWordBits - 1)));
    return highWord(rewriter, loc, sum, createI64(rewriter, loc, kWordBits));
  }

  /// apply_scale_32 for any shift: the 64-bit rounding term and shift.
  Value roundingShiftScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                           Value v, Value multiplier, Value shift) const {
    Location loc = op.getLoc();
    Value shift64 =
        LLVM::ZExtOp::create(rewriter, loc, rewriter.getI64Type(), shift);
    Value one = createI64(rewriter, loc, 1);
    Value round = halfPowerOfTwo(rewriter, loc, one, shift64);
    if (op.getDoubleRound()) {
      Value wide =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::sgt, shift,
                               createI32(rewriter, loc, kWordBits - 1));
      Value adjust = doubleRoundAdjust(rewriter, loc, v);
      Value adjusted = LLVM::AddOp::create(rewriter, loc, round, adjust);
      round = LLVM::SelectOp::create(rewriter, loc, wide, adjusted, round);
    }
    // One op per statement: C++ leaves the order of argument evaluation
    // open, and the IR (and tests) must not depend on the host compiler.
    Value v64 = signExtend64(rewriter, loc, v);
    Value product = mulByMultiplier(rewriter, loc, v64, multiplier);
    Value sum = LLVM::AddOp::create(rewriter, loc, product, round);
    Value scaled = LLVM::AShrOp::create(rewriter, loc, sum, shift64);
    return LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), scaled);
  }

  /// apply_scale_32 for shift in [32, 62]: with s = shift - 32, the 64-bit
  /// rounding term is hi = (1 << s) >> 1, lo = s == 0 ? 2^31 : 0 (plus the
  /// double-round adjustment), and `(x >> shift)` truncated to 32 bits is
  /// `hi32(x) >> s`: one SMLAL and 32-bit shifts instead of 64-bit ones.
  Value wideShiftScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                       Value v, Value multiplier, Value shift) const {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value s = highWordShift(rewriter, loc, shift);
    Value one = createI32(rewriter, loc, 1);
    Value roundHi = LLVM::LShrOp::create(
        rewriter, loc, LLVM::ShlOp::create(rewriter, loc, one, s), one);
    Value sIsZero = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         s, createI32(rewriter, loc, 0));
    Value int32Min =
        createI32(rewriter, loc, std::numeric_limits<int32_t>::min());
    Value zero = createI32(rewriter, loc, 0);
    Value roundLo =
        LLVM::SelectOp::create(rewriter, loc, sIsZero, int32Min, zero);
    Value word = createI64(rewriter, loc, kWordBits);
    Value hi64 = LLVM::ZExtOp::create(rewriter, loc, i64, roundHi);
    Value hiWord = LLVM::ShlOp::create(rewriter, loc, hi64, word);
    Value lo64 = LLVM::ZExtOp::create(rewriter, loc, i64, roundLo);
    Value round = LLVM::OrOp::create(rewriter, loc, hiWord, lo64);
    if (op.getDoubleRound()) {
      Value adjust = doubleRoundAdjust(rewriter, loc, v);
      round = LLVM::AddOp::create(rewriter, loc, round, adjust);
    }
    Value v64 = signExtend64(rewriter, loc, v);
    Value product = mulByMultiplier(rewriter, loc, v64, multiplier);
    Value sum = LLVM::AddOp::create(rewriter, loc, product, round);
    Value hi = highWord(rewriter, loc, sum, word);
    return LLVM::AShrOp::create(rewriter, loc, hi, s);
  }

  /// apply_scale_32 of |v| < 2^30, shift in [32, 62]: with e = shift - 31,
  /// `(hi32(2v * m + 2^(e-1) * 2^32 + 2^31) + (v < 0 ? -1 : 0)) >> e` with
  /// double rounding, `hi32(2v * m + 2^(e-1) * 2^32) >> e` without. The
  /// 64-bit form is what the ARM backend selects SMMLAR / SMMLA for.
  /// `half` is 2^(e-1) when the op carries it.
  Value boundedScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                     Value v, Value multiplier, Value shift,
                     Value half) const {
    Location loc = op.getLoc();
    Value one = createI32(rewriter, loc, 1);
    Value twice = LLVM::ShlOp::create(rewriter, loc, v, one);
    Value e = LLVM::SubOp::create(rewriter, loc, shift,
                                  createI32(rewriter, loc, kWordBits - 1));
    if (!half)
      half = halfPowerOfTwo(rewriter, loc, one, e);
    Value word = createI64(rewriter, loc, kWordBits);
    Value twice64 = signExtend64(rewriter, loc, twice);
    Value product = mulByMultiplier(rewriter, loc, twice64, multiplier);
    Value half64 = signExtend64(rewriter, loc, half);
    Value high = LLVM::ShlOp::create(rewriter, loc, half64, word);
    Value sum = LLVM::AddOp::create(rewriter, loc, product, high);
    if (op.getDoubleRound())
      sum = LLVM::AddOp::create(
          rewriter, loc, sum,
          createI64(rewriter, loc, int64_t{1} << (kWordBits - 1)));
    Value q = highWord(rewriter, loc, sum, word);
    if (op.getDoubleRound())
      q = LLVM::AddOp::create(
          rewriter, loc, q,
          LLVM::AShrOp::create(rewriter, loc, v,
                               createI32(rewriter, loc, kWordBits - 1)));
    return LLVM::AShrOp::create(rewriter, loc, q, e);
  }

  /// The wide-shift scale with the rounding term from a table: `round`
  /// holds it for v >= 0; for v < 0 the double-round term flips sign,
  /// which is `round - 2^31` = `round + (sign(v) : sign(v) << 31)` as a
  /// 64-bit add. Then one SMLAL and `hi32 >> (shift - 32)`.
  Value tableRoundScale(ConversionPatternRewriter &rewriter, RequantizeOp op,
                        Value v, Value multiplier, Value shift,
                        Value round) const {
    Location loc = op.getLoc();
    Value v64 = signExtend64(rewriter, loc, v);
    if (op.getDoubleRound()) {
      Value sign = LLVM::AShrOp::create(
          rewriter, loc, v64, createI64(rewriter, loc, 2 * kWordBits - 1));
      Value adjust = LLVM::ShlOp::create(
          rewriter, loc, sign, createI64(rewriter, loc, kWordBits - 1));
      round = LLVM::AddOp::create(rewriter, loc, round, adjust);
    }
    Value product = mulByMultiplier(rewriter, loc, v64, multiplier);
    Value sum = LLVM::AddOp::create(rewriter, loc, product, round);
    Value word = createI64(rewriter, loc, kWordBits);
    Value hi = highWord(rewriter, loc, sum, word);
    Value s = highWordShift(rewriter, loc, shift);
    return LLVM::AShrOp::create(rewriter, loc, hi, s);
  }

  /// `+ output_zp`, the clamp and the truncation to the result type.
  Value clampAndTruncate(ConversionPatternRewriter &rewriter, RequantizeOp op,
                         Value result) const {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    if (auto outputZp = static_cast<int32_t>(op.getOutputZp()))
      result = LLVM::AddOp::create(rewriter, loc, result,
                                   createI32(rewriter, loc, outputZp));

    auto lo = static_cast<int32_t>(op.getMin());
    auto hi = static_cast<int32_t>(op.getMax());
    if (lo == kInt8Min && hi == kInt8Max) {
      constexpr int32_t kInt8Bits = 8;
      result = callI32Intrinsic(rewriter, loc, "llvm.arm.ssat",
                                {result, createI32(rewriter, loc, kInt8Bits)});
    } else {
      if (lo != std::numeric_limits<int32_t>::min())
        result = LLVM::SMaxOp::create(rewriter, loc, i32, result,
                                      createI32(rewriter, loc, lo));
      if (hi != std::numeric_limits<int32_t>::max())
        result = LLVM::SMinOp::create(rewriter, loc, i32, result,
                                      createI32(rewriter, loc, hi));
    }

    Type resultType = op.getType();
    if (resultType != i32)
      result = LLVM::TruncOp::create(rewriter, loc, resultType, result);
    return result;
  }
};

} // namespace

void mlir::vmcu::detail::populateMicroKernelToLLVMPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<AddPairsOpLowering, DotOpLowering, DotBlockOpLowering,
           MacLanesOpLowering, DepthwiseBlockOpLowering, GemmTileOpLowering,
           RequantBlockOpLowering, RequantizeOpLowering, WidenPairsOpLowering>(
          converter);
}
