//===- vmcuc.cpp - vmcu compiler driver -----------------------------------===//
//
// vmcuc: int8 TOSA (or a later vmcu stage) to a Cortex-M object file. The
// driver lives in lib/Tools/vmcuc.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/VMCUCMain.h"

int main(int argc, char **argv) { return mlir::vmcu::runVMCUCMain(argc, argv); }
