//===- vmcu-fuzz-tflite.cpp - libFuzzer target for the .tflite importer ---===//
//
// Imports each input as a .tflite model and verifies the result. Errors
// are expected and swallowed; a crash, a sanitizer report or a module that
// does not verify is a finding. Built with VMCU_BUILD_FUZZERS=ON (clang,
// ASan + UBSan); scripts/fuzz.sh runs it on seeds from utils/make-tflite.py.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  mlir::vmcu::registerTFLiteImportDialects(registry);
  mlir::vmcu::FuzzContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::vmcu::importTFLite(
      llvm::ArrayRef<uint8_t>(data, size), "fuzz.tflite", context.get());
  if (module && mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "vmcu-fuzz-tflite: imported module fails to verify\n");
    std::abort();
  }
  return 0;
}
