//===- VMCUToLLVM.h - vmcu to LLVM dialect conversion -----------*- C++ -*-===//
//
// Patterns and passes that lower placed vmcu kernels to the LLVM dialect
// for Armv7E-M and Armv8-M Mainline (Cortex-M4/M7/M33), the table of those
// cores and, through ModelABI.h, the symbols a lowered model exports.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H
#define VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H

#include "mlir/Pass/Pass.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Support/EnumNames.h"
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
#define GEN_PASS_DECL_VMCUASSIGNSECTIONSPASS
#define GEN_PASS_DECL_VMCUCREATEIOTABLESPASS
#define GEN_PASS_DECL_VMCULOWERVECTORSLICESPASS
#define GEN_PASS_DECL_VMCUPREFIXSYMBOLSPASS
#define GEN_PASS_DECL_VMCUSETTARGETPASS
#define GEN_PASS_DECL_VMCUSHAREKERNELSPASS
#define GEN_PASS_DECL_VMCUTAILCALLKERNELSPASS
#include "vmcu/Conversion/Passes.h.inc"

/// The cores vmcu compiles for.
enum class TargetCpu { CortexM4, CortexM7, CortexM33 };
inline constexpr EnumName<TargetCpu> kTargetCpus[] = {
    {TargetCpu::CortexM4, "cortex-m4",
     "Armv7E-M with the DSP extension (default; QEMU mps2-an386)"},
    {TargetCpu::CortexM7, "cortex-m7",
     "Armv7E-M with the DSP extension, dual-issue (QEMU mps2-an500)"},
    {TargetCpu::CortexM33, "cortex-m33",
     "Armv8-M Mainline with the DSP extension, the same SIMD kernels "
     "(QEMU mps2-an505)"},
};

/// The code generation target of a Cortex-M core vmcu supports.
struct CortexMTarget {
  /// LLVM CPU name, e.g. "cortex-m4".
  llvm::StringRef cpu;
  /// Subtarget features, e.g. {"+dsp"}.
  llvm::ArrayRef<llvm::StringRef> features;
  /// Target triple of the core's architecture.
  llvm::StringRef triple;
};

/// The target triples of the Armv7E-M and Armv8-M Mainline cores, and the
/// data layout of every lowered model (the same AAPCS layout on both).
inline constexpr llvm::StringLiteral kTargetTriple = "thumbv7em-none-eabi";
inline constexpr llvm::StringLiteral kTargetTripleV8M =
    "thumbv8m.main-none-eabi";
inline constexpr llvm::StringLiteral kDataLayout =
    "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64";

/// Returns the target for `cpu` (a kTargetCpus name), or nullopt.
std::optional<CortexMTarget> lookupCortexMTarget(llvm::StringRef cpu);

/// Converts `!vmcu.pool` to `!llvm.ptr` (the arena's address).
void populateVMCUToLLVMTypeConversion(LLVMTypeConverter &converter);

/// Patterns lowering the vmcu ring and micro-kernel ops to LLVM. `converter`
/// must include populateVMCUToLLVMTypeConversion.
void populateVMCUToLLVMConversionPatterns(const LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Attaches the ConvertToLLVMPatternInterface to the vmcu dialect, so the
/// generic `convert-to-llvm` pass lowers vmcu ops too.
void registerConvertVMCUToLLVMInterface(DialectRegistry &registry);

} // namespace vmcu
} // namespace mlir

#endif // VMCU_CONVERSION_VMCUTOLLVM_VMCUTOLLVM_H
