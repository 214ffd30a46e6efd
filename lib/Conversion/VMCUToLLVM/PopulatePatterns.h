//===- PopulatePatterns.h - vmcu to LLVM pattern groups ---------*- C++ -*-===//
//
// Internal: the pattern groups that populateVMCUToLLVMConversionPatterns
// combines, one per source file.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_CONVERSION_VMCUTOLLVM_POPULATEPATTERNS_H
#define VMCU_LIB_CONVERSION_VMCUTOLLVM_POPULATEPATTERNS_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;

namespace vmcu::detail {

/// segment_pool, tensor_base, kernel, ring_load, ring_store and free.
void populateRingToLLVMPatterns(const LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

/// dot and requantize.
void populateMicroKernelToLLVMPatterns(const LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// sync_set, sync_read and sync_wait (two cores).
void populateSyncToLLVMPatterns(const LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

} // namespace vmcu::detail
} // namespace mlir

#endif // VMCU_LIB_CONVERSION_VMCUTOLLVM_POPULATEPATTERNS_H
