//===- TosaBuilder.h - Quantised int8 TOSA 1.0 layer builders ---*- C++ -*-===//
//
// Builds the TOSA 1.0 forms of int8 layers that convert-tosa-to-vmcu
// accepts: conv2d / depthwise_conv2d / matmul with an int32 accumulator and a
// per-channel rescale, the TFLite-style quantised add, avg_pool2d, and the
// tail slice that makes a strided window exact. Shared by vmcu-gen (random
// weights) and the .tflite importer (a model's weights).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_UTILS_TOSABUILDER_H
#define VMCU_UTILS_TOSABUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace mlir::vmcu {

/// The int32 headroom shift of TFLite's int8 add (reference_ops::Add's
/// left_shift), which the TOSA legalisation keeps.
constexpr int kAddInputShift = 20;

/// A fixed-point scale: real = multiplier * 2^-shift (TOSA rescale form).
struct Multiplier {
  int32_t multiplier = 0;
  int8_t shift = 0;
};

/// The TOSA multiplier/shift of a positive real `scale` (31-bit mantissa,
/// as TFLite's QuantizeMultiplier). Fails outside TOSA's shift range.
llvm::Expected<Multiplier> quantizeScale(double scale);
/// TFLite's (multiplier, shift), real = multiplier * 2^(shift - 31), in
/// TOSA form. Fails outside TOSA's shift range.
llvm::Expected<Multiplier> tfliteMultiplier(int32_t multiplier, int shift);

/// The window of one spatial dimension, made exact for TOSA 1.0: `trim`
/// trailing input rows are sliced off and `after` is reduced so that
/// (in - trim + before + after - kernel) is a multiple of the stride.
struct DimPads {
  int64_t before = 0;
  int64_t after = 0;
  int64_t trim = 0;
  int64_t out = 0;
};

/// Exact window for explicit pads. Fails when the kernel does not fit.
llvm::Expected<DimPads> computeWindow(llvm::StringRef what, llvm::StringRef dim,
                                      int64_t in, int64_t kernel,
                                      int64_t stride, int64_t before,
                                      int64_t after);

enum class Padding { Same, Valid };

/// TensorFlow's SAME padding of an extent `in`: the pads before and after
/// that give ceil(in / stride) outputs (the extra one goes after).
std::pair<int64_t, int64_t> samePads(int64_t in, int64_t kernel,
                                     int64_t stride);

/// Exact window for TensorFlow's SAME / VALID padding.
llvm::Expected<DimPads> computePads(llvm::StringRef what, llvm::StringRef dim,
                                    int64_t in, int64_t kernel, int64_t stride,
                                    Padding padding);

/// Builds TOSA ops at one location. Weights and biases are given.
class TosaBuilder {
public:
  TosaBuilder(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  void setLoc(Location newLoc) { loc = newLoc; }
  Location getLoc() const { return loc; }
  OpBuilder &getBuilder() { return b; }

  Value constI8(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int8_t> data);
  Value constI32(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int32_t> data);
  /// A one-element zero-point tensor of element type `elementType`.
  Value zeroPoint(Type elementType, int64_t zp);
  /// A !tosa.shape constant.
  Value shape(llvm::ArrayRef<int64_t> values);

  /// tosa.rescale of `input` to `outType` (scale32, DOUBLE_ROUND); with
  /// `perChannel`, one multiplier per innermost-dimension channel.
  Value rescale(Value input, RankedTensorType outType,
                llvm::ArrayRef<Multiplier> multipliers, int32_t inputZp,
                int32_t outputZp, bool perChannel);
  /// tosa.clamp of an int8 tensor to [lo, hi].
  Value clamp(Value input, int64_t lo, int64_t hi);
  /// tosa.reshape to `shape`.
  Value reshape(Value input, llvm::ArrayRef<int64_t> shape);
  /// tosa.slice of `size` elements from `start`.
  Value slice(Value input, llvm::ArrayRef<int64_t> start,
              llvm::ArrayRef<int64_t> size);
  /// tosa.concat of `inputs` along `axis` (their element type).
  Value concat(llvm::ArrayRef<Value> inputs, int32_t axis);
  /// tosa.resize of NHWC `in` in NEAREST_NEIGHBOR mode with `scale` [y_n,
  /// y_d, x_n, x_d], `offset` [y, x] and `border` [y, x]; the output size
  /// follows TOSA's rule ((in - 1) * n - offset + border) / d + 1.
  Value resizeNearest(Value in, llvm::ArrayRef<int64_t> scale,
                      llvm::ArrayRef<int64_t> offset,
                      llvm::ArrayRef<int64_t> border);
  /// `in` (NHWC) without its last `trimH` rows and `trimW` columns.
  Value sliceTail(Value in, int64_t trimH, int64_t trimW);

  /// tosa.conv2d of `x` (already trimmed) with OHWI `weights`
  /// [cout, kh, kw, cin], dilated by `dilationH` x `dilationW`; the int32
  /// accumulator.
  Value conv2d(Value x, int32_t inputZp, llvm::ArrayRef<int64_t> weightShape,
               llvm::ArrayRef<int8_t> weights, llvm::ArrayRef<int32_t> bias,
               const DimPads &h, const DimPads &w, int64_t strideH,
               int64_t strideW, int64_t dilationH = 1, int64_t dilationW = 1);
  /// tosa.depthwise_conv2d with weights [kh, kw, c, 1].
  Value depthwiseConv2d(Value x, int32_t inputZp,
                        llvm::ArrayRef<int64_t> weightShape,
                        llvm::ArrayRef<int8_t> weights,
                        llvm::ArrayRef<int32_t> bias, const DimPads &h,
                        const DimPads &w, int64_t strideH, int64_t strideW,
                        int64_t dilationH = 1, int64_t dilationW = 1);
  /// tosa.matmul of `x` [1, M, K] with constant [1, K, N] `weights` plus an
  /// int32 bias [1, 1, N]; the int32 accumulator.
  Value fullyConnected(Value x, int32_t inputZp, int64_t n,
                       llvm::ArrayRef<int8_t> weights,
                       llvm::ArrayRef<int32_t> bias);
  /// The TFLite-to-TOSA quantised add: both operands rescaled to int32,
  /// tosa.add (tosa.sub with `subtract`; TOSA broadcasting operands of
  /// `outType`'s rank), one rescale to int8 of `outType`.
  Value add(Value lhs, int32_t lhsZp, Multiplier lhsScale, Value rhs,
            int32_t rhsZp, Multiplier rhsScale, RankedTensorType outType,
            Multiplier outScale, int32_t outZp, bool subtract = false);
  /// The TFLite-to-TOSA quantised multiply: both operands rescaled to int32
  /// by 1 (their zero points subtracted), tosa.mul (shift 0, TOSA
  /// broadcasting operands of the result's rank), one rescale to int8 of
  /// the result's type.
  Value mul(Value lhs, int32_t lhsZp, Value rhs, int32_t rhsZp,
            RankedTensorType outType, Multiplier outScale, int32_t outZp);
  /// tosa.avg_pool2d with an int32 accumulator.
  Value avgPool2d(Value x, int32_t inputZp, int32_t outputZp, int64_t kernelH,
                  int64_t kernelW, int64_t strideH, int64_t strideW,
                  const DimPads &h, const DimPads &w);
  /// tosa.table of int8 `x` with the 256 entries for inputs -128..127.
  Value table(Value x, llvm::ArrayRef<int8_t> entries);
  /// tosa.max_pool2d (its padding never wins the max).
  Value maxPool2d(Value x, int64_t kernelH, int64_t kernelW, int64_t strideH,
                  int64_t strideW, const DimPads &h, const DimPads &w);

private:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::vmcu

#endif // VMCU_UTILS_TOSABUILDER_H
