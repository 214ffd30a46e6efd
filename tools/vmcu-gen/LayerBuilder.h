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
#include "vmcu/Utils/TosaBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::vmcu::gen {

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
      : b(builder), tosa(builder, loc), rng(rng) {}

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

  /// tosa.concat of `pieces` along the channels. The bytes are copied, so
  /// the result takes the first piece's zero point and the largest spread.
  Act concatChannels(llvm::ArrayRef<Act> pieces);

  /// tosa.resize (NEAREST_NEIGHBOR) of `in`: a byte copy, so the result
  /// keeps the zero point and the statistics.
  Act resizeNearest(const Act &in, llvm::ArrayRef<int64_t> scale,
                    llvm::ArrayRef<int64_t> offset,
                    llvm::ArrayRef<int64_t> border);

  /// tosa.avg_pool2d, int32 accumulator, output zero point = input zero
  /// point (TFLite keeps the quantisation of an average pool).
  llvm::Expected<Act> avgPool2d(llvm::StringRef what, const Act &in,
                                int64_t kernel, int64_t stride,
                                Padding padding);

  /// tosa.avg_pool2d over the whole plane of `in` (a network's head): one
  /// pixel out, output zero point = input zero point.
  Act globalAvgPool(const Act &in);

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
  /// Random weights, uniform in [-127, 127].
  SmallVector<int8_t> randomWeights(int64_t count);
  /// A weighted layer's random parameters and its accumulator's statistics
  /// after the rescale.
  struct LayerParams {
    SmallVector<int8_t> weights;
    SmallVector<int32_t> bias;
    SmallVector<Multiplier> multipliers;
    Stats accOut;
  };
  /// Draws `count` random weights, then the biases of an accumulator whose
  /// channel `c` sums the weights `i` with `channelOf(i) == c` times inputs
  /// of statistics `in`, and picks per-channel multipliers that bring its
  /// RMS to ~30 int8 units.
  llvm::Expected<LayerParams>
  randomParams(llvm::StringRef what, int64_t count, int64_t channels,
               llvm::function_ref<int64_t(int64_t)> channelOf, const Stats &in);
  /// Per-channel rescale of `acc` to int8 with a random output zero point,
  /// then, for Relu6, the clamp.
  Act requantize(Value acc, llvm::ArrayRef<Multiplier> multipliers,
                 const Stats &accOut, Activation act);

  OpBuilder &b;
  TosaBuilder tosa;
  Rng &rng;
};

} // namespace mlir::vmcu::gen

#endif // VMCU_TOOLS_VMCUGEN_LAYERBUILDER_H
