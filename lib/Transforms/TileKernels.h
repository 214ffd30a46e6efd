//===- TileKernels.h - segment-tiled kernel emitters ------------*- C++ -*-===//
//
// Internal to vmcu-tile: emits the loops of one layer over the ring pool.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_TILEKERNELS_H
#define VMCU_LIB_TRANSFORMS_TILEKERNELS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Transforms/LayerWork.h"

namespace mlir::vmcu::tile {

/// Where a kernel emits: the pool, its unit, and the module for globals.
struct KernelEnv {
  ModuleOp module;
  Value pool;
  int64_t unitBytes;
  std::string name;
  /// vmcu-tile's window-cache option: stack bytes a bottleneck may spend on
  /// its window of expanded pixels (0: none).
  uint64_t windowCacheBytes = 0;
  /// vmcu-tile's widen-weights option (GemmTileShape::widenedWeights).
  bool widenWeights = true;
  /// Emit for less code (vmcu-tile's compact-kernels lists the layer, or
  /// it is compact by default: a one-row softmax, a fully connected head
  /// where the flash price says so).
  bool compactCode = false;
  /// vmcu-tile's widen-cycles-per-byte: the cycles per inference each flash
  /// byte a faster tile shape adds must save (GemmTiles::chooseShape); 0
  /// takes the fastest shape.
  int64_t cyclesPerFlashByte = 0;
  /// How long GEMM rows are tiled (longRowTiling).
  LongRowTiling longRows = {};
  /// Stack bytes the kernel may spend beyond its buffers
  /// (kernelScratchBytes) without exceeding the plan's largest kernel.
  int64_t stackAllowanceBytes = 0;
  /// vmcu-tile's cores option (twoCoreRemainderScratchBytes).
  int64_t cores = 1;
};

/// The ring tensors one kernel reads and writes (tensor_base values).
/// `skip` is the other tensor a vmcu.add or vmcu.mul reads besides `input`.
/// A tensor is freed only by its last reader: `keptAlive` lists those this
/// kernel reads but a later one frees.
struct KernelTensors {
  Value input;
  Value output;
  Value skip = {};
  bool skipIsLhs = false;
  /// Every activation operand's tensor, in operand order (a vmcu.concat's
  /// pieces).
  SmallVector<Value> operands = {};
  SmallVector<Value> keptAlive = {};
  /// A region of the pool only this kernel uses (a bottleneck's line
  /// buffer), or null.
  Value workspace = {};
};

/// Emits the tiled kernel of `layer` at the builder's insertion point (inside
/// a vmcu.kernel body). `segmentBytes` is the layer's segment size.
LogicalResult emitKernel(OpBuilder &b, const KernelEnv &env,
                         LayerOpInterface layer, int64_t segmentBytes,
                         const KernelTensors &tensors);

} // namespace mlir::vmcu::tile

#endif // VMCU_LIB_TRANSFORMS_TILEKERNELS_H
