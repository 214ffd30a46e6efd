// RUN: vmcu-opt %s --vmcu-outline-kernels | FileCheck %s

// Each kernel becomes an internal (LLVM linkage), noinline function named after its
// position and name, called in order. Constants, the pool and tensor bases
// are cloned into it (the model I/O marker stays on the original); other
// captured values become arguments.

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

// CHECK-LABEL: func.func @vmcu_invoke
// CHECK-SAME:  (%[[I:.*]]: index)
// CHECK:       vmcu.tensor_base {{.*}}vmcu.io = "input"
// CHECK:       call @vmcu_kernel_0_conv_1(%[[I]]) : (index) -> ()
// CHECK-NEXT:  call @vmcu_kernel_1_second() : () -> ()
// CHECK-NOT:   vmcu.kernel
// CHECK:       func.func @vmcu_kernel_0_conv_1(%[[ARG:.*]]: index) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK:       %[[POOL:.*]] = vmcu.segment_pool
// CHECK:       %[[X:.*]] = vmcu.tensor_base %[[POOL]] {base = 0 : i64, name = "input", segments = 4 : i64}
// CHECK-NOT:   vmcu.io
// CHECK:       arith.addi %[[X]], %[[ARG]] : index
// CHECK:       vmcu.ring_load %[[POOL]]
// CHECK:       return
// A compact kernel (a flash budget's choice) is optimized for size too.
// CHECK:       func.func @vmcu_kernel_1_second() attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline", "optsize"]}
func.func @vmcu_invoke(%i: index) -> i32 {
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
  %t = vmcu.tensor_base %pool {name = "copy", segments = 4, base = 4} : !pool
  vmcu.kernel "conv.1" ins(%x) outs(%t) {
    %a = arith.addi %x, %i : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
    vmcu.ring_store %v, %pool[%t] : vector<16xi8>, !pool
  }
  vmcu.kernel "second" ins(%t) outs(%x) attributes {compact} {
    %s = vmcu.ring_load %pool[%t] : !pool -> vector<16xi8>
    vmcu.ring_store %s, %pool[%x] : vector<16xi8>, !pool
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
