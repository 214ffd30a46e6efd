//===- ReferenceFlash.h - the flash CMSIS-NN takes for a model --*- C++ -*-===//
//
// An estimate of the flash a model takes when CMSIS-NN's kernels run it
// layer by layer, as TFLite Micro's cmsis_nn kernels call them: the int8
// weights, int32 biases and requantization words of every layer, a call
// per layer, and the code of every kernel family the model uses. The
// default flash budget (--cmsis-flash-percent) is a share of it. The
// constants were measured on cmsis-anchor's builds of CMSIS-NN (-O3,
// Cortex-M4, arm-none-eabi-gcc) linked for the 45 corpus models that it
// runs (docs/flash.md, "The default budget").
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_ANALYSIS_REFERENCEFLASH_H
#define VMCU_ANALYSIS_REFERENCEFLASH_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mlir::vmcu::analysis {

/// The CMSIS-NN kernel family that runs a layer. Each links its own code
/// once, however many layers call it.
enum class ReferenceKernel {
  Conv,
  Depthwise,
  FullyConnected,
  AvgPool,
  MaxPool,
  Add,
  Mul,
  Softmax,
  Concat,
  Transpose,
  /// A layer TFLite Micro runs with its reference kernel (no CMSIS-NN
  /// code): only its call is counted.
  Other,
};

/// What one layer stores in CMSIS-NN's flash besides its kernel's code.
struct ReferenceLayer {
  ReferenceKernel kernel = ReferenceKernel::Other;
  /// int8 weight bytes.
  int64_t weightBytes = 0;
  /// int32 biases.
  int64_t biases = 0;
  /// Requantization (multiplier, shift) pairs: one per output channel of
  /// a per-channel layer, one for a per-tensor one.
  int64_t requantPairs = 0;
};

/// The code bytes of `kernel`'s CMSIS-NN functions.
int64_t referenceKernelCodeBytes(ReferenceKernel kernel);

/// The flash bytes CMSIS-NN takes for `layers` (without the application's
/// startup code, main and C library, which any engine links too).
int64_t estimateReferenceFlashBytes(llvm::ArrayRef<ReferenceLayer> layers);

} // namespace mlir::vmcu::analysis

#endif // VMCU_ANALYSIS_REFERENCEFLASH_H
