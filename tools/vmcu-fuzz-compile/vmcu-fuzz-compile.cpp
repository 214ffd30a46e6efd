//===- vmcu-fuzz-compile.cpp - libFuzzer target for vmcuc's pipeline ------===//
//
// Parses each input as MLIR source (the seeds are small TOSA models from
// vmcu-gen) and, when it parses and verifies, runs vmcuc's whole pipeline
// down to the LLVM dialect with the static ring verifier on. Errors are
// expected and swallowed; a crash, a sanitizer report or a lowered module
// that does not verify is a finding. Built with VMCU_BUILD_FUZZERS=ON
// (clang, ASan + UBSan); scripts/fuzz.sh runs it.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "vmcu/Tools/vmcuc/Compiler.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // lowerToLLVMDialect applies the pass manager's command-line options.
  mlir::registerPassManagerCLOptions();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  mlir::vmcu::registerCompilerDialects(registry);
  mlir::vmcu::FuzzContext context(registry);
  // MLIR's lexer reads the terminator past the end of its buffer: parse a
  // null-terminated copy (libFuzzer's bytes are not).
  std::string source(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::vmcu::CompileOptions options;
  // Verify after every pass, as the tools do with --verify-each: a pass
  // that breaks the IR stops there instead of crashing a later one.
  options.verifyEachPass = true;
  if (mlir::failed(mlir::vmcu::lowerToLLVMDialect(*module, options)))
    return 0;
  if (mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "vmcu-fuzz-compile: lowered module fails to verify\n");
    std::abort();
  }
  return 0;
}
