//===- LayerWork.h - the work of a vmcu layer's kernel ----------*- C++ -*-===//
//
// MACs and outputs of the kernel vmcu-tile emits for a layer, in the cost
// model's terms (vmcu/Analysis/CostModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_LAYERWORK_H
#define VMCU_TRANSFORMS_LAYERWORK_H

#include "vmcu/Analysis/CostModel.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {

/// The work of `layer`'s kernel with segments of `segmentBytes` (a
/// bottleneck counts the expansion it recomputes per tap).
analysis::KernelWork layerWork(LayerOpInterface layer, int64_t segmentBytes);

/// The MACs of `layer` computed once each (no recomputation).
int64_t layerMacs(LayerOpInterface layer);

/// Channels whose int32 accumulators a line-buffer kernel keeps on the
/// stack at once: the largest multiple of `s` dividing `channels` that is
/// at most 64 (enough for jammed dot rows to amortise their loop, few
/// enough to keep the stack small), at least `s`.
int64_t lineBufferChunk(int64_t channels, int64_t s);

/// The stack bytes of the buffers `layer`'s kernel allocates with
/// segments of `segmentBytes` (accumulators, staging segments, the
/// depthwise window), as TileKernels.cpp emits them.
int64_t kernelScratchBytes(LayerOpInterface layer, int64_t segmentBytes);

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_LAYERWORK_H
