//===- FuzzContext.h - the context of one libFuzzer input -------*- C++ -*-===//
//
// What the libFuzzer targets (vmcu-fuzz-tflite, vmcu-fuzz-compile) run each
// input in.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_FUZZCONTEXT_H
#define VMCU_TOOLS_FUZZCONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

namespace mlir::vmcu {

/// A fresh single-threaded context for one input, which swallows its
/// diagnostics: errors are expected. Fresh because constants are uniqued in
/// the context, so a long-lived one would grow with every input.
class FuzzContext {
public:
  explicit FuzzContext(const DialectRegistry &registry)
      : context(registry, MLIRContext::Threading::DISABLED),
        quiet(&context, [](Diagnostic &) { return success(); }) {}

  MLIRContext *get() { return &context; }

private:
  MLIRContext context;
  ScopedDiagnosticHandler quiet;
};

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_FUZZCONTEXT_H
