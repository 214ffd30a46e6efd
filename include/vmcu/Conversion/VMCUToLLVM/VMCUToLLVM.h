//===- VMCUToLLVM.h - vmcu to LLVM dialect conversion -----------*- C++ -*-===//
//
// Patterns and pass that lower placed vmcu kernels to the LLVM dialect for
// Armv7E-M (Cortex-M4/M7), plus the names of the symbols a lowered model
// exports (its C API).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H
#define VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class ModuleOp;
class RewritePatternSet;

namespace vmcu {

#define GEN_PASS_DECL_CONVERTVMCUTOLLVMPASS
#include "vmcu/Conversion/Passes.h.inc"

/// Symbols of a lowered model. They are the C API of the object file
/// (runtime/vmcu_model_api.h mirrors them).
namespace model_abi {
/// The arena: one byte array holding the whole segment pool.
inline constexpr llvm::StringLiteral kArena = "vmcu_arena";
/// Linker section of the arena (NOLOAD in the runtime's linker scripts).
inline constexpr llvm::StringLiteral kArenaSection = ".vmcu_arena";
/// `int8_t *vmcu_input(void)` and `const int8_t *vmcu_output(void)`.
inline constexpr llvm::StringLiteral kInputFn = "vmcu_input";
inline constexpr llvm::StringLiteral kOutputFn = "vmcu_output";
/// `int vmcu_invoke(void)`: the model's entry function (a `func.func`).
inline constexpr llvm::StringLiteral kInvokeFn = "vmcu_invoke";
/// Exported `const unsigned` byte counts.
inline constexpr llvm::StringLiteral kArenaBytes = "vmcu_arena_bytes";
inline constexpr llvm::StringLiteral kInputBytes = "vmcu_input_bytes";
inline constexpr llvm::StringLiteral kOutputBytes = "vmcu_output_bytes";
/// Discardable attribute on `vmcu.tensor_base` marking the model's input
/// or output tensor; its value is "input" or "output".
inline constexpr llvm::StringLiteral kIOAttrName = "vmcu.io";
} // namespace model_abi

/// The runtime's ring-safety checker (runtime/vmcu_ring_check.h mirrors
/// these), called by models lowered with `ring-check`. Every argument is an
/// `i32`; segment addresses are unwrapped, as the ring ops take them.
namespace ring_check_abi {
/// `init(segments, segment_bytes, input_base, input_segments, names,
/// kernel_count)`: resets the checker, the model input is live.
inline constexpr llvm::StringLiteral kInitFn = "vmcu_ring_check_init";
/// `load(segment, offset, bytes, kernel)`: the bytes read must be live.
inline constexpr llvm::StringLiteral kLoadFn = "vmcu_ring_check_load";
/// `store(segment, offset, bytes, kernel)`: the bytes written must be dead
/// or already owned by `kernel`; they become `kernel`'s.
inline constexpr llvm::StringLiteral kStoreFn = "vmcu_ring_check_store";
/// `free(segment, count, kernel)`: the segments must be live; they die.
inline constexpr llvm::StringLiteral kFreeFn = "vmcu_ring_check_free";
/// `release(segment, count, kernel)`: `kernel`'s workspace dies at its end.
inline constexpr llvm::StringLiteral kReleaseFn = "vmcu_ring_check_release";
/// The kernels' names, each NUL-terminated, in kernel id order.
inline constexpr llvm::StringLiteral kKernelNames =
    "vmcu_ring_check_kernel_names";
/// Kernel id of a ring op outside any `vmcu.kernel`.
inline constexpr uint32_t kNoKernel = 0xffffffffu;
} // namespace ring_check_abi

/// The code generation target of a Cortex-M core vmcu supports.
struct CortexMTarget {
  /// LLVM CPU name, e.g. "cortex-m4".
  llvm::StringRef cpu;
  /// Subtarget features, e.g. {"+dsp"}.
  llvm::ArrayRef<llvm::StringRef> features;
};

/// The target triple and data layout of every lowered model.
inline constexpr llvm::StringLiteral kTargetTriple = "thumbv7em-none-eabi";
inline constexpr llvm::StringLiteral kDataLayout =
    "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64";

/// Returns the target for `cpu` ("cortex-m4" or "cortex-m7"), or nullopt.
std::optional<CortexMTarget> lookupCortexMTarget(llvm::StringRef cpu);

/// Converts `!vmcu.pool` to `!llvm.ptr` (the arena's address).
void populateVMCUToLLVMTypeConversion(LLVMTypeConverter &converter);

/// Patterns lowering the vmcu ring and micro-kernel ops to LLVM. `converter`
/// must include populateVMCUToLLVMTypeConversion.
void populateVMCUToLLVMConversionPatterns(const LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Instruments the ring ops of a placed `module` for the runtime's
/// ring-safety checker (the `ring-check` option of convert-vmcu-to-llvm):
/// declares the `ring_check_abi` functions and calls them next to the
/// segment pool and every ring_load, ring_store and free. Kernel ids are
/// the kernels' positions in the module. Run it before the kernels are
/// inlined.
LogicalResult insertRingChecks(ModuleOp module);

/// Attaches the ConvertToLLVMPatternInterface to the vmcu dialect, so the
/// generic `convert-to-llvm` pass lowers vmcu ops too.
void registerConvertVMCUToLLVMInterface(DialectRegistry &registry);

} // namespace vmcu
} // namespace mlir

#endif // VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H
