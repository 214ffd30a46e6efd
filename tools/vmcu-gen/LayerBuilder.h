//===- LayerBuilder.h - Quantised int8 TOSA 1.0 layers ----------*- C++ -*-===//
//
// Builds the int8 layers vmcu-gen's models are made of (conv, depthwise,
// matmul, residual add, average pool), each with random weights and the
// rescale a TFLite-to-TOSA legalisation would emit, using the TOSA builders.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUGEN_LAYERBUILDER_H
#define VMCU_TOOLS_VMCUGEN_LAYERBUILDER_H

#include "Random.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::vmcu::gen {

enum class Padding { Same, Valid };

/// TOSA pads of one spatial dimension, the trailing input rows (or columns)
/// a tosa.slice must cut off first, and the output size they give.
struct DimPads {
  int64_t before = 0;
  int64_t after = 0;
  int64_t trim = 0;
  int64_t out = 0;
};

/// Pads of one spatial dimension of size `in` for an RxR window. `same`
/// follows TFLite (out = ceil(in / stride), pad_before = total / 2); then,
/// because TOSA 1.0 wants (in + before + after - kernel) divisible by the
/// stride, the remainder is trimmed from pad_after and, where pad_after runs
/// out, from the input itself (`trim`, rows no window reads), as the
/// TFLite-to-TOSA legalisation does. Fails only for a `valid` kernel larger
/// than the input. `what` and `dim` name the layer and dimension in the
/// message.
llvm::Expected<DimPads> computePads(llvm::StringRef what, llvm::StringRef dim,
                                    int64_t in, int64_t kernel, int64_t stride,
                                    Padding padding);

/// A TOSA scale32 multiplier: scale = multiplier * 2^-shift.
struct Multiplier {
  int32_t multiplier;
  int8_t shift;
};

/// TFLite's QuantizeMultiplier: multiplier in [2^30, 2^31), shift = 31 -
/// exponent. Fails unless the shift lands in TOSA's [2, 62].
llvm::Expected<Multiplier> quantizeScale(double scale);

/// Mean and standard deviation of `x - zp` of an int8 tensor, in int8 units,
/// modelled as normal; every scale vmcu-gen picks is derived from these.
struct Stats {
  double mean = 0;
  double std = 0;

  double rms() const;
};

/// The statistics of the generated model input: uniform over the 256 int8
/// values, less the zero point.
Stats uniformInputStats(int32_t zp);

/// An int8 activation with its zero point and statistics.
struct Act {
  Value value;
  int32_t zp = 0;
  Stats stats;

  RankedTensorType getType() const {
    return cast<RankedTensorType>(value.getType());
  }
};

/// Whether a conv is followed by the ReLU6-style tosa.clamp.
enum class Activation { None, Relu6 };

/// Creates quantised layers at the builder's insertion point. All weights,
/// biases, zero points and add scale ratios come from `rng`, in op order.
class LayerBuilder {
public:
  LayerBuilder(OpBuilder &builder, Location loc, Rng &rng)
      : b(builder), loc(loc), rng(rng) {}

  /// tosa.conv2d with OHWI weights [cout, R, R, cin], then a per-channel
  /// rescale to int8 and, for Relu6, a clamp.
  llvm::Expected<Act> conv2d(llvm::StringRef what, const Act &in, int64_t cout,
                             int64_t kernel, int64_t stride, Padding padding,
                             Activation act);

  /// tosa.depthwise_conv2d with weights [R, R, C, 1] (multiplier 1).
  llvm::Expected<Act> depthwiseConv2d(llvm::StringRef what, const Act &in,
                                      int64_t kernel, int64_t stride,
                                      Padding padding, Activation act);

  /// tosa.matmul of `in` [1, M, K] with a constant [1, K, N], an int32 bias
  /// add of a [1, 1, N] constant and a per-channel rescale to int8.
  llvm::Expected<Act> fullyConnected(llvm::StringRef what, const Act &in,
                                     int64_t n);

  /// The TFLite-to-TOSA quantised add: both int8 operands rescaled to int32
  /// (scale relative to twice the larger operand scale, << 20), tosa.add in
  /// int32, and one rescale back to int8.
  llvm::Expected<Act> add(llvm::StringRef what, const Act &lhs, const Act &rhs);

  /// tosa.avg_pool2d, int32 accumulator, output zero point = input zero
  /// point (TFLite keeps the quantisation of an average pool).
  llvm::Expected<Act> avgPool2d(llvm::StringRef what, const Act &in,
                                int64_t kernel, int64_t stride,
                                Padding padding);

  /// A tosa.const of shape `shape` holding `data`.
  Value constI8(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int8_t> data);
  Value constI32(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int32_t> data);

private:
  /// The input of an RxR window layer: its pads per dimension, and `in`
  /// with the unread tail sliced off.
  struct WindowInput {
    DimPads h, w;
    Act x;
  };
  llvm::Expected<WindowInput> windowInput(llvm::StringRef what, const Act &in,
                                          int64_t kernel, int64_t stride,
                                          Padding padding);
  /// `in` with its last `trimH` rows and `trimW` columns cut off by a
  /// tosa.slice (unchanged, and no op, when both are 0).
  Act sliceTail(const Act &in, int64_t trimH, int64_t trimW);
  /// A one-element zero-point tensor of element type `elementType`.
  Value zeroPoint(Type elementType, int64_t zp);
  /// tosa.rescale of `input` to `outType` (scale32, DOUBLE_ROUND); with
  /// `perChannel`, one multiplier per innermost-dimension channel.
  Value rescale(Value input, RankedTensorType outType,
                llvm::ArrayRef<Multiplier> multipliers, int32_t inputZp,
                int32_t outputZp, bool perChannel);
  /// Random weights, uniform in [-127, 127].
  SmallVector<int8_t> randomWeights(int64_t count);
  /// Draws the biases of an accumulator whose channel `c` sums the weights
  /// `w[i]` with `channelOf(i) == c` times inputs of statistics `in`, and
  /// picks per-channel multipliers that bring its RMS to ~30 int8 units.
  /// `accOut` receives the statistics of the rescaled result.
  llvm::Error requantParams(llvm::StringRef what, llvm::ArrayRef<int8_t> w,
                            int64_t channels,
                            llvm::function_ref<int64_t(int64_t)> channelOf,
                            const Stats &in, SmallVectorImpl<int32_t> &bias,
                            SmallVectorImpl<Multiplier> &multipliers,
                            Stats &accOut);
  /// Per-channel rescale of `acc` to int8 with a random output zero point,
  /// then, for Relu6, the clamp.
  Act requantize(Value acc, llvm::ArrayRef<Multiplier> multipliers,
                 const Stats &accOut, Activation act);

  OpBuilder &b;
  Location loc;
  Rng &rng;
};

} // namespace mlir::vmcu::gen

#endif // VMCU_TOOLS_VMCUGEN_LAYERBUILDER_H
