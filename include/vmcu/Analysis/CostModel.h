//===- CostModel.h - estimated Cortex-M4 cycles of vmcu kernels -*- C++ -*-===//
//
// A linear cycle model per kernel family: cycles = MACs * perMac +
// outputs * perOutput (requantisation, loop overhead) + ring accesses *
// perAccess (a step of the segment loops: address, wrap, gather). The
// constants are fitted to vmcu-prof's Cortex-M4 counts of the kernels of
// the shared models (bench/cost-model.sh prints the fit and its error). The
// schedule chooser ranks alternatives with it; the memory report prints it.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_ANALYSIS_COSTMODEL_H
#define VMCU_ANALYSIS_COSTMODEL_H

#include <cstdint>
#include <string_view>

namespace mlir::vmcu::analysis {

enum class KernelKind {
  /// A pointwise conv2d or a fully_connected layer: a GEMM of
  /// vmcu.dot_block register tiles.
  Gemm,
  /// conv2d with a window too large for Im2col: 4-lane SMLAD dots over
  /// input segments.
  Dot,
  /// A windowed conv as an im2col column per output pixel, then GEMM tiles
  /// over it: stem convs (segments narrower than the 4 SIMD lanes) and
  /// windows of at most 256 bytes (usesIm2col in LayerWork.h).
  Im2col,
  /// depthwise_conv2d: per-channel windows.
  Depthwise,
  /// add, max_pool2d and the other layers without weights.
  Elementwise,
  /// avg_pool2d: each tap's segment added 4 lanes at a time into int16
  /// pairs.
  AvgPool,
  /// A fused bottleneck that re-expands each input pixel per tap.
  FusedRecompute,
  /// A fused bottleneck that expands each input pixel once into a line
  /// buffer.
  FusedLineBuffer,
  /// A stem bottleneck: a KxK conv computed row by row into a line buffer
  /// on the stack, the depthwise and projection behind it.
  FusedStem,
};

std::string_view kindName(KernelKind kind);

/// What a kernel executes: MACs as executed (recomputation included),
/// output elements and ring segment accesses (loads and stores, one per
/// step of its segment loops).
struct KernelWork {
  KernelKind kind = KernelKind::Dot;
  int64_t macs = 0;
  int64_t outputs = 0;
  int64_t ringAccesses = 0;
};

struct CycleCost {
  double perMac;
  double perOutput;
  double perAccess;
};

/// The fitted constants of `kind`.
CycleCost cycleCost(KernelKind kind);

/// Estimated Cortex-M4 cycles of `work`.
int64_t estimateCycles(const KernelWork &work);

/// The work whose speed widened weights buy: GEMM and im2col MACs (int8
/// weights unpack each weight word per use) and depthwise outputs (int8
/// weights take the per-channel path instead of the 4-lane records).
struct WidenedWeightWork {
  int64_t gemmMacs = 0;
  int64_t im2colMacs = 0;
  int64_t depthwiseOutputs = 0;
};

/// Estimated Cortex-M4 cycles that int8 weights add to `work` over widened
/// ones, on flash with `flashWaitStates` wait states behind an STM32F4-style
/// accelerator, where the widened weights' extra reads stall the core:
/// the flash budget's price of giving a layer's widening up. Never below
/// 0: where int8 weights are faster, giving the widening up costs nothing.
int64_t estimateInt8WeightCycles(const WidenedWeightWork &work,
                                 unsigned flashWaitStates);

/// Estimated Cortex-M4 cycles a compact kernel (vmcu-tile's
/// compact-kernels: rolled loops, no gemm_tile) adds to one whose
/// estimated cycles are `cycles`: a share of them, measured (docs/flash.md,
/// "Compact kernels"). The flash budget's price of compacting a layer.
int64_t estimateCompactCycles(int64_t cycles);

} // namespace mlir::vmcu::analysis

#endif // VMCU_ANALYSIS_COSTMODEL_H
