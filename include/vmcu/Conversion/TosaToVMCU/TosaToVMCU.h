//===- TosaToVMCU.h - TOSA int8 networks to vmcu layer ops ------*- C++ -*-===//
//
// Patterns and pass that turn an int8 TOSA 1.0 network into vmcu layer ops,
// folding each layer's rescale, clamp and padding into the layer.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_CONVERSION_TOSATOVMCU_TOSATOVMCU_H
#define VMCU_CONVERSION_TOSATOVMCU_TOSATOVMCU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
class TypeConverter;

namespace vmcu {

#define GEN_PASS_DECL_CONVERTTOSATOVMCUPASS
#include "vmcu/Conversion/Passes.h.inc"

/// Checks that every TOSA op under `root` can be converted, emitting one
/// error per unsupported op (at that op, naming it and the reason). The
/// patterns assume this succeeded: on unsupported input they only fail to
/// match.
LogicalResult checkTosaToVMCUConvertible(Operation *root);

/// Marks the TOSA ops the patterns handle illegal (pads, slices and the
/// input rescales of an int8 add stay legal while a layer still folds them)
/// and the vmcu, arith and tensor dialects legal.
void configureTosaToVMCUConversionTarget(ConversionTarget &target);

/// Patterns converting TOSA layers (with their rescale and clamp) to vmcu
/// layer ops, `tosa.reshape` to tensor reshapes and `tosa.const` to
/// `arith.constant`. Folded producers (pads, slices, zero-point constants)
/// are left dead for the caller to erase.
void populateTosaToVMCUConversionPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

} // namespace vmcu
} // namespace mlir

#endif // VMCU_CONVERSION_TOSATOVMCU_TOSATOVMCU_H
