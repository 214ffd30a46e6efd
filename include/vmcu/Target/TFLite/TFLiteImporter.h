//===- TFLiteImporter.h - .tflite to int8 TOSA 1.0 --------------*- C++ -*-===//
//
// Imports an int8 TFLite flatbuffer as `func.func @main` of TOSA 1.0 ops in
// the form convert-tosa-to-vmcu accepts, so a .tflite model takes the same
// path as TOSA input. The operators it takes are listed by
// supportedTFLiteOperators(); anything else is a located error.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TARGET_TFLITE_TFLITEIMPORTER_H
#define VMCU_TARGET_TFLITE_TFLITEIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::vmcu {

/// Whether `bytes` start like a .tflite file (FlatBuffer identifier TFL3).
bool isTFLiteFile(llvm::ArrayRef<uint8_t> bytes);

/// The builtin operators the importer takes, sorted and comma-separated
/// (lib/Target/TFLite/Builtins.def).
std::string supportedTFLiteOperators();

struct TFLiteImportOptions {
  /// When set, the model's result is this tensor instead of the subgraph's
  /// output, e.g. the logits before a final SOFTMAX.
  std::string outputTensor;
};

/// Imports the model in `bytes`; `fileName` names it in locations. Only the
/// operators the result depends on are imported. Emits errors on `context`
/// and returns null on failure.
OwningOpRef<ModuleOp> importTFLite(llvm::ArrayRef<uint8_t> bytes,
                                   llvm::StringRef fileName,
                                   MLIRContext *context,
                                   const TFLiteImportOptions &options = {});

/// The dialects an imported model uses.
void registerTFLiteImportDialects(DialectRegistry &registry);

/// Registers the `import-tflite` translation (for vmcu-translate).
void registerTFLiteImportTranslation();

} // namespace mlir::vmcu

#endif // VMCU_TARGET_TFLITE_TFLITEIMPORTER_H
