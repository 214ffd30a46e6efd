//===- KernelPatterns.h - Segment-tiled kernel patterns ---------*- C++ -*-===//
//
// Builders for the schedule trees the vmcu kernels execute (paper Figures 4-6).
// All sizes are in segments; every input segment is freed exactly once, right
// after its last use, and segments no output reads are freed up front.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TESTANALYSIS_KERNELPATTERNS_H
#define VMCU_TESTANALYSIS_KERNELPATTERNS_H

#include "vmcu/Analysis/AccessPattern.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::vmcu::analysis {

/// A built pattern or the reason the parameters were rejected.
struct PatternResult {
  std::optional<KernelPattern> pattern;
  std::string error;

  bool ok() const { return pattern.has_value(); }
  explicit operator bool() const { return ok(); }
  const KernelPattern &operator*() const { return *pattern; }
  const KernelPattern *operator->() const { return &*pattern; }
};

/// Out[m, n] = sum_k In[m, k] * W[k, n]; K and N are segments per row.
/// for m, n: { for k: load In[m,k]; if n == N-1: for k: free In[m,k];
///             store Out[m,n] }.
PatternResult fullyConnected(int64_t m, int64_t k, int64_t n);

/// NHWC convolution In[H,W,Cseg] -> Out[P,Q,Kseg] with TOSA output size
/// P = (H + padTop + padBottom - R) / strideH + 1 (same for Q). Loop order
/// p, q, k; each (p, q, k) loads the in-bounds window and stores Out[p,q,k].
/// Pixels whose last reader is (p, q) are freed before the store of its last
/// channel segment.
PatternResult conv2d(int64_t h, int64_t w, int64_t cSeg, int64_t r, int64_t s,
                     int64_t strideH, int64_t strideW, int64_t padTop,
                     int64_t padLeft, int64_t padBottom, int64_t padRight,
                     int64_t kSeg);

/// Depthwise convolution: output channel segment c reads only input channel
/// segment c. Loop order p, q, c.
PatternResult depthwiseConv2d(int64_t h, int64_t w, int64_t cSeg, int64_t r,
                              int64_t s, int64_t strideH, int64_t strideW,
                              int64_t padTop, int64_t padLeft,
                              int64_t padBottom, int64_t padRight);

/// Fused inverted bottleneck (paper Section 5.2): pw-expand (stride
/// strides[0]) -> dw RxR, pad R/2 (stride strides[1]) -> pw-project (stride
/// strides[2]) [+ A]. In = A[H,W,CinSeg], Out = E, workspace R*R+2 segments.
/// The residual requires E to have A's shape.
PatternResult bottleneck(int64_t h, int64_t w, int64_t cinSeg, int64_t coutSeg,
                         int64_t r, const std::array<int64_t, 3> &strides,
                         bool residual);

} // namespace mlir::vmcu::analysis

#endif // VMCU_TESTANALYSIS_KERNELPATTERNS_H
