//===- ModelIOFlags.h - --input and --output of the runners -----*- C++ -*-===//
//
// vmcu-run and vmcu-prof both run a model on given input bytes and may write
// its output bytes; they declare those two flags here.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_MODELIOFLAGS_H
#define VMCU_TOOLS_MODELIOFLAGS_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::vmcu {

/// The model's input file (required) and output file (optional).
struct ModelIOFlags {
  explicit ModelIOFlags(llvm::cl::OptionCategory &category)
      : input("input", llvm::cl::Required,
              llvm::cl::desc("Input bytes of the model (exactly its input "
                             "size)"),
              llvm::cl::value_desc("file"), llvm::cl::cat(category)),
        output("output",
               llvm::cl::desc("Where to write the output bytes (default: "
                              "nowhere)"),
               llvm::cl::value_desc("file"), llvm::cl::cat(category)) {}

  llvm::cl::opt<std::string> input;
  llvm::cl::opt<std::string> output;
};

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_MODELIOFLAGS_H
