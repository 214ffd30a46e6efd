//===- CostModel.cpp - estimated Cortex-M4 cycles of vmcu kernels ---------===//

#include "vmcu/Analysis/CostModel.h"

#include <cmath>

using namespace mlir::vmcu::analysis;

std::string_view mlir::vmcu::analysis::kindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::Dot:
    return "dot";
  case KernelKind::NarrowDot:
    return "narrow-dot";
  case KernelKind::Depthwise:
    return "depthwise";
  case KernelKind::Elementwise:
    return "elementwise";
  case KernelKind::FusedRecompute:
    return "fused-recompute";
  case KernelKind::FusedLineBuffer:
    return "fused-line-buffer";
  }
  return "unknown";
}

CycleCost mlir::vmcu::analysis::cycleCost(KernelKind kind) {
  // Fitted to vmcu-prof on the kernels of MCUNet-5fps-VWW, MLPerf Tiny VWW
  // and KWS (bench/cost-model.sh prints the fit and each kernel's error).
  switch (kind) {
  case KernelKind::Dot:
    return {2.05, 34.8};
  case KernelKind::NarrowDot:
    return {3.5, 50.0};
  case KernelKind::Depthwise:
    return {4.70, 41.4};
  case KernelKind::Elementwise:
    return {0.0, 42.7};
  case KernelKind::FusedRecompute:
    return {3.94, 305.0};
  case KernelKind::FusedLineBuffer:
    return {5.56, 27.1};
  }
  return {0, 0};
}

int64_t mlir::vmcu::analysis::estimateCycles(const KernelWork &work) {
  CycleCost cost = cycleCost(work.kind);
  return static_cast<int64_t>(
      std::llround(cost.perMac * static_cast<double>(work.macs) +
                   cost.perOutput * static_cast<double>(work.outputs)));
}
