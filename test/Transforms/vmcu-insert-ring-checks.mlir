// RUN: vmcu-opt %s --vmcu-insert-ring-checks | FileCheck %s

// Before outlining: init after the pool, a check before every ring access
// and at every free (with the kernel's id), the workspace released at the
// end of its kernel. The kernels stay (vmcu-outline-kernels runs next).

!pool = !vmcu.pool<segments = 6, segment_bytes = 16>

// CHECK-DAG: llvm.mlir.global private constant @vmcu_ring_check_kernel_names("first\00second\00")
// CHECK-DAG: llvm.func @vmcu_ring_check_init(i32, i32, i32, i32, !llvm.ptr, i32)
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK:       vmcu.segment_pool
// CHECK:       llvm.call @vmcu_ring_check_init
// CHECK:       vmcu.kernel "first"
// CHECK:       llvm.call @vmcu_ring_check_load
// CHECK-NEXT:  vmcu.ring_load
// CHECK:       llvm.call @vmcu_ring_check_store
// CHECK-NEXT:  vmcu.ring_store
// CHECK:       llvm.call @vmcu_ring_check_free
// CHECK-NEXT:  vmcu.free
// CHECK:       vmcu.kernel "second"
// CHECK:       llvm.call @vmcu_ring_check_release
// CHECK-NEXT:  }
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
  %t = vmcu.tensor_base %pool {name = "copy", segments = 4, base = 4} : !pool
  %w = vmcu.tensor_base %pool {name = "scratch", segments = 1, base = 3} : !pool
  %c1 = arith.constant 1 : index
  vmcu.kernel "first" ins(%x) outs(%t) {
    %a = arith.addi %x, %c1 : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
    vmcu.ring_store %v, %pool[%t] : vector<16xi8>, !pool
    vmcu.free %pool[%a] {count = 2} : !pool
  }
  vmcu.kernel "second" ins(%t) outs(%x) workspace(%w) {
    %s = vmcu.ring_load %pool[%t] : !pool -> vector<16xi8>
    vmcu.ring_store %s, %pool[%w] : vector<16xi8>, !pool
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
