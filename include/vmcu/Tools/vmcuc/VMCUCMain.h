//===- VMCUCMain.h - the vmcuc compiler driver ------------------*- C++ -*-===//
//
// Entry point of vmcuc, kept in a library so that tools/vmcuc is a one-line
// main and other drivers can embed the same compiler.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_VMCUCMAIN_H
#define VMCU_TOOLS_VMCUC_VMCUCMAIN_H

namespace mlir::vmcu {

/// Parses the vmcuc command line, compiles the model and writes the
/// requested outputs. Returns the process exit code (0 on success); never
/// calls exit() on an error.
int runVMCUCMain(int argc, char **argv);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_VMCUCMAIN_H
