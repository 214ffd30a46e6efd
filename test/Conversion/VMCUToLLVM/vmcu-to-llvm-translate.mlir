// RUN: vmcu-opt %s --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: vmcu-opt %s --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -mtriple=thumbv7em-none-eabi -mcpu=cortex-m4 -filetype=asm \
// RUN:   | FileCheck %s --check-prefix=ASM

// The lowered module translates to LLVM IR as is, and the ARM backend
// selects the DSP instructions (a test oracle: vmcuc emits objects itself).

!pool = !vmcu.pool<segments = 64, segment_bytes = 4>

// LLVM: target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
// LLVM: target triple = "thumbv7em-none-eabi"
// LLVM-DAG: @vmcu_arena_bytes = constant i32 256, align 4
// LLVM-DAG: @vmcu_arena = global [256 x i8] zeroinitializer, section ".vmcu_arena", align 8
// LLVM: define i32 @vmcu_invoke() #[[ATTRS:[0-9]+]]
// LLVM: call i32 @llvm.arm.sxtb16(i32
// LLVM: call i32 @llvm.fshr.i32(
// LLVM: call i32 @llvm.arm.sxtab16(
// LLVM: call i32 @llvm.arm.smlad(
// LLVM: call i32 @llvm.arm.ssat(i32 %{{.*}}, i32 8)
// LLVM: define ptr @vmcu_input() #[[ATTRS]]
// LLVM: attributes #[[ATTRS]] = { "target-cpu"="cortex-m4" "target-features"="+dsp" }

// ASM-LABEL: vmcu_invoke:
// ASM-DAG: sxtb16 {{r[0-9]+|lr|r12}}, {{r[0-9]+|lr|r12}}, ror #8
// ASM-DAG: sxtab16
// ASM-DAG: smlad
// ASM-DAG: ssat {{.*}}, #8,
// ASM: .section .vmcu_arena,"aw",%progbits
// ASM: vmcu_arena:
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 32, base = 0, vmcu.io = "input"} : !pool
  %y = vmcu.tensor_base %pool {name = "output", segments = 32, base = 32, vmcu.io = "output"} : !pool
  vmcu.kernel "dot" ins(%x) outs(%y) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = arith.constant 1073741824 : i32
    %sh = arith.constant 33 : i32
    scf.for %i = %c0 to %c32 step %c1 {
      %a = arith.addi %x, %i : index
      %v = vmcu.ring_load %pool[%a] : !pool -> vector<4xi8>
      %b = arith.addi %y, %i : index
      %w = vmcu.ring_load %pool[%b] : !pool -> vector<4xi8>
      %acc = arith.index_cast %i : index to i32
      %d = vmcu.dot %acc, %v, %w {x_offset = 3 : i32} : vector<4xi8>
      %q = vmcu.requantize %d, %m, %sh {output_zp = 1 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
      %o = vector.broadcast %q : i8 to vector<4xi8>
      vmcu.ring_store %o, %pool[%b] : vector<4xi8>, !pool
      vmcu.free %pool[%a] : !pool
    }
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
