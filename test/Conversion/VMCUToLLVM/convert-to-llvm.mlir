// RUN: vmcu-opt %s --convert-to-llvm | FileCheck %s

// The vmcu dialect implements ConvertToLLVMPatternInterface, so the generic
// convert-to-llvm pass lowers it with the same patterns (64-bit index, no
// target attributes: those are convert-vmcu-to-llvm's job).

!pool = !vmcu.pool<segments = 16, segment_bytes = 4>

// CHECK:       llvm.mlir.global external @vmcu_arena()
// CHECK-SAME:  section = ".vmcu_arena"
// CHECK-LABEL: llvm.func @straight_line
// CHECK:       llvm.mlir.addressof @vmcu_arena
// CHECK:       llvm.and %{{.*}}, %{{.*}} : i64
// CHECK:       llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xi8>
// CHECK:       llvm.call_intrinsic "llvm.arm.smlad"
// CHECK:       llvm.call_intrinsic "llvm.arm.ssat"
// CHECK-NOT:   vmcu.
// CHECK:       llvm.return
func.func @straight_line(%i: index, %acc: i32, %m: i32, %s: i32) -> i8 {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 8, base = 2} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 8, base = 10} : !pool
  vmcu.kernel "k" ins(%x) outs(%y) {
    %a = arith.addi %x, %i : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<4xi8>
    %d = vmcu.dot %acc, %v, %v : vector<4xi8>
    %q = vmcu.requantize %d, %m, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
    vmcu.free %pool[%a] : !pool
  }
  %c0 = arith.constant 0 : i8
  return %c0 : i8
}
