//===- VMCUInterfaces.cpp - vmcu op interfaces ----------------------------===//
//
// Implements LayerOpInterface and its shared verifier.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::vmcu;

#include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.cpp.inc"

LogicalResult mlir::vmcu::detail::verifyLayerOp(Operation *op) {
  auto layer = cast<LayerOpInterface>(op);
  std::optional<uint64_t> seg = layer.getSegmentSizeBytes();
  if (!seg)
    return success();
  for (int64_t extent : layer.getSegmentedExtents()) {
    if (extent <= 0)
      continue; // Dynamic; the op verifier rejects it.
    if (static_cast<uint64_t>(extent) % *seg != 0)
      return op->emitOpError("segment_bytes (")
             << *seg << ") must divide the segmented extent " << extent;
  }
  return success();
}
