// --emit=llvm writes O2-optimised LLVM IR, --emit=mlir the LLVM-dialect
// module; with -o - the summary goes to stderr. --from=auto detects the
// post-solve input (vmcu-tiled); giving it explicitly is the same.

// RUN: vmcuc %S/Inputs/two-kernels.mlir --emit=llvm -o - 2>%t.err | FileCheck %s --check-prefix=LLVM
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: vmcuc %S/Inputs/two-kernels.mlir --from=vmcu-tiled --cpu=cortex-m7 --emit=llvm -o - | FileCheck %s --check-prefix=M7
// RUN: vmcuc %S/Inputs/two-kernels.mlir --emit=mlir -o - | FileCheck %s --check-prefix=MLIR

// LLVM: target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
// LLVM: target triple = "thumbv7em-none-eabi"
// LLVM-DAG: @vmcu_arena = {{.*}}global [96 x i8] zeroinitializer, section ".vmcu_arena", align 8
// LLVM-DAG: @vmcu_arena_bytes = {{.*}}constant i32 96
// LLVM-DAG: @vmcu_input_bytes = {{.*}}constant i32 64
// LLVM-DAG: @vmcu_output_bytes = {{.*}}constant i32 16
// LLVM: define {{.*}}i32 @vmcu_invoke()
// LLVM-NEXT: call fastcc void @vmcu_kernel_0_copy()
// The last kernel returns the status itself, in a guaranteed tail call.
// LLVM-NEXT: %[[STATUS:.*]] = musttail call i32 @vmcu_kernel_1_reduce()
// LLVM-NEXT: ret i32 %[[STATUS]]
// LLVM-DAG: define {{.*}}ptr @vmcu_input()
// LLVM-DAG: define {{.*}}ptr @vmcu_output()
// LLVM-DAG: define internal {{.*}}i32 @vmcu_kernel_1_reduce()
// LLVM: @llvm.arm.sxtb16(
// LLVM: @llvm.arm.smlad(
// LLVM: "target-cpu"="cortex-m4" "target-features"="+dsp"
// SUMMARY: vmcuc: wrote - (arena 96 bytes)

// M7: "target-cpu"="cortex-m7"

// MLIR: module attributes {{{.*}}llvm.target_triple = "thumbv7em-none-eabi"
// MLIR: llvm.func @vmcu_invoke() -> i32 attributes {target_cpu = "cortex-m4", target_features = #llvm.target_features<["+dsp"]>}
// MLIR-NOT: vmcu.
// MLIR: llvm.func @vmcu_output
