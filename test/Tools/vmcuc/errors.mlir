// Bad options and bad input: `error:` diagnostics (with the source location
// when there is one), a non-zero exit and no crash.

// RUN: not vmcuc %S/Inputs/two-kernels.mlir --cpu=cortex-m0 -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: vmcuc: for the --cpu option: Cannot find option named 'cortex-m0'!

// RUN: not vmcuc %S/Inputs/two-kernels.mlir --emit=exe 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: for the --emit option: Cannot find option named 'exe'!

// RUN: not vmcuc %S/Inputs/does-not-exist.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: vmcuc: error: cannot open input file '{{.*}}does-not-exist.mlir'

// An output that cannot be opened, or written (a full device), is an error.
// RUN: not vmcuc %S/Inputs/no-io.mlir -o %t.missing/x.o 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: vmcuc: error: cannot open output file '{{.*}}missing/x.o'
// RUN: not vmcuc %S/Inputs/no-io.mlir -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: vmcuc: error: cannot write '/dev/full'

// RUN: not vmcuc %S/Inputs/syntax-error.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: syntax-error.mlir:3:10: error: use of value '%ok' expects different type than prior uses: 'i64' vs 'i32'

// --from=auto sees a tiled model and only lowers it, which needs bases.
// RUN: not vmcuc %S/Inputs/no-base.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=NOBASE
// NOBASE: no-base.mlir:5:8: error: 'vmcu.tensor_base' op tensor 'x' has no base segment; run --vmcu-solve-offsets first

// RUN: not vmcuc %S/Inputs/no-io.mlir --ram-kb=1 -o %t.o 2>&1 | FileCheck %s --check-prefix=RAM
// RAM: no-io.mlir:4:11: error: the tensor arena needs 2048 bytes but --ram-kb=1 allows 1024
// RUN: vmcuc %S/Inputs/no-io.mlir --ram-kb=2 -o %t.o | FileCheck %s --check-prefix=RAMOK
// RAMOK: vmcuc: wrote {{.*}} arena 2048 bytes)

// RUN: not vmcuc %S/Inputs/no-io.mlir --header %t.h -o %t.o 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: no-io.mlir:{{.*}}: error: --header needs the model's input and output: mark their vmcu.tensor_base ops with vmcu.io = "input" / "output"

// RUN: not vmcuc %S/Inputs/no-invoke.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=INVOKE
// INVOKE: error: the model defines no function @vmcu_invoke (the C entry point `int vmcu_invoke(void)`)

// RUN: not vmcuc %S/Inputs/two-kernels.mlir --report=%t.json -o %t.o 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: vmcuc: error: --report is not available yet: the memory report is written by vmcu-solve-offsets, which the vmcu-tiled input stage skips
