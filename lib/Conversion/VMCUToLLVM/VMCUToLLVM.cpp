//===- VMCUToLLVM.cpp - vmcu to LLVM patterns and dialect interface -------===//
//
// The public populate functions, the Cortex-M target table and the
// ConvertToLLVMPatternInterface of the vmcu dialect.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "PopulatePatterns.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUTypes.h"

using namespace mlir;
using namespace mlir::vmcu;

std::optional<CortexMTarget> mlir::vmcu::lookupCortexMTarget(StringRef cpu) {
  // Every core has the DSP extension (SMLAD, SXTB16, SSAT): Armv7E-M
  // (M4, M7) or Armv8-M Mainline (M33). The CPU name brings the FPU, which
  // vmcu code does not use, so objects stay compatible with the soft-float
  // ABI of the runtime.
  static constexpr StringRef kDSP[] = {"+dsp"};
  std::optional<TargetCpu> known = parseName(kTargetCpus, cpu);
  if (!known)
    return std::nullopt;
  StringRef triple =
      *known == TargetCpu::CortexM33 ? kTargetTripleV8M : kTargetTriple;
  return CortexMTarget{nameOf(kTargetCpus, *known), kDSP, triple};
}

void mlir::vmcu::populateVMCUToLLVMTypeConversion(
    LLVMTypeConverter &converter) {
  converter.addConversion([](PoolType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}

void mlir::vmcu::populateVMCUToLLVMConversionPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  detail::populateRingToLLVMPatterns(converter, patterns);
  detail::populateMicroKernelToLLVMPatterns(converter, patterns);
  detail::populateSyncToLLVMPatterns(converter, patterns);
}

//===----------------------------------------------------------------------===//
// ConvertToLLVMPatternInterface
//===----------------------------------------------------------------------===//

namespace {
/// Lets `convert-to-llvm` lower vmcu ops. Unlike `convert-vmcu-to-llvm` it
/// does not check its input or move loop annotations.
struct VMCUToLLVMDialectInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &typeConverter,
      RewritePatternSet &patterns) const final {
    populateVMCUToLLVMTypeConversion(typeConverter);
    populateVMCUToLLVMConversionPatterns(typeConverter, patterns);
  }
};
} // namespace

void mlir::vmcu::registerConvertVMCUToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, VMCUDialect *dialect) {
    dialect->addInterfaces<VMCUToLLVMDialectInterface>();
  });
}
