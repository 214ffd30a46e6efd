//===- ScheduleBound.h - Memory bounds over all output orders ---*- C++ -*-===//
//
// Pixel-granularity live-bytes model of one window layer, and lower bounds on
// its peak that hold for every order in which the outputs are computed, not
// just the row-major order of the vmcu kernels. Plain C++17.
//
// Model. Output pixel o reads the set N(o) of input pixels in its RxR window
// (stride, padding, clipped to the image). A schedule stores every output
// exactly once, in some order o_1..o_n, computing each one from its window in
// one go (no partial sums kept for later outputs). An input pixel is the only
// copy: it stays live until its last reader is done. Outputs stay live from
// their store onward. Step t stores o_t; the live bytes after it are
//   Cin * |{inputs read by one of o_{t+1}..o_n}| + Cout * t    (BeforeStore)
//   Cin * |{inputs read by one of o_t..o_n}|     + Cout * t    (AfterStore)
// and step 0 counts the whole input, Cin * Hi * Wi. Peak(order) is the max
// over t = 0..n. The workspace that holds an output while it is computed is
// not counted: these are bounds on the input/output ring alone.
//
// Halo theorem (docs/offset-solver.md, "Is the halo inherent?"). For stride
// 1, pad p = (R-1)/2 >= 1, Cin == Cout == C and Hi = Ho = H, Wi = Wo = W,
// with m = min(H, W), every order has (BeforeStore)
//   Peak >= C * (H*W + q*m),    q = min(p, m - 1),
//   Peak >= C * (H*W + m + 1)   if p == 1 and m >= 2,
// and C more under AfterStore when that exceeds C*H*W. For p == 1 the
// row-major order along the shorter side attains the bound, so it is the
// exact optimum.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TESTANALYSIS_SCHEDULEBOUND_H
#define VMCU_TESTANALYSIS_SCHEDULEBOUND_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::vmcu::analysis {

/// A window layer at pixel granularity; channel counts are bytes per pixel.
/// Output pixel (y, x) reads input rows y*stride - pad + [0, kernel) and the
/// same columns, clipped to the image. Use makeWindowLayer() for the TOSA
/// output size.
struct WindowLayer {
  int64_t inHeight = 1, inWidth = 1, inChannels = 1;
  int64_t outHeight = 1, outWidth = 1, outChannels = 1;
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t pad = 0;
};

/// When the inputs whose last reader is o_t are released.
enum class ReleasePoint {
  /// Before o_t's store; o_t is held in the workspace meanwhile. This is the
  /// vmcu kernels' free schedule and the offset solver's model.
  BeforeStore,
  /// After o_t's store: N(o_t) is still live when o_t lands. Never below
  /// BeforeStore, so every lower bound here holds for it too.
  AfterStore,
};

/// exactMinPeak() refuses layers with more output pixels than this (the
/// dynamic program has 2^n states).
constexpr int64_t kMaxExactOutputPixels = 20;

/// The layer with the TOSA output size (in + 2*pad - kernel) / stride + 1 on
/// both axes. The result may be invalid (see validate()).
WindowLayer makeWindowLayer(int64_t inHeight, int64_t inWidth,
                            int64_t inChannels, int64_t outChannels,
                            int64_t kernel, int64_t stride, int64_t pad);

/// Why `layer` is malformed: non-positive sizes, pad outside [0, kernel), or
/// an output size other than the TOSA one. std::nullopt if it is valid.
std::optional<std::string> validate(const WindowLayer &layer);

/// Peak live bytes when the outputs are stored in `order` (row-major output
/// indices y * outWidth + x). std::nullopt if `order` is not a permutation of
/// the outputs. `layer` must be valid.
std::optional<int64_t>
peakForOrder(const WindowLayer &layer, const std::vector<int64_t> &order,
             ReleasePoint release = ReleasePoint::BeforeStore);

/// peakForOrder() for the row-major order 0, 1, ..., n-1.
int64_t rowMajorPeak(const WindowLayer &layer,
                     ReleasePoint release = ReleasePoint::BeforeStore);

/// Minimum of peakForOrder() over all n! orders, by dynamic programming over
/// the 2^n sets of stored outputs. std::nullopt above kMaxExactOutputPixels.
/// If `bestOrder` is given, it receives an order that attains the minimum.
std::optional<int64_t>
exactMinPeak(const WindowLayer &layer,
             ReleasePoint release = ReleasePoint::BeforeStore,
             std::vector<int64_t> *bestOrder = nullptr);

/// Whether the halo theorem above applies to `layer`.
bool haloTheoremApplies(const WindowLayer &layer);

/// A lower bound on peakForOrder(layer, order, release) for every order:
/// max(input bytes, output bytes), raised by the halo theorem when
/// haloTheoremApplies(). `layer` must be valid.
int64_t anyOrderLowerBound(const WindowLayer &layer,
                           ReleasePoint release = ReleasePoint::BeforeStore);

} // namespace mlir::vmcu::analysis

#endif // VMCU_TESTANALYSIS_SCHEDULEBOUND_H
