// RUN: vmcu-opt %s -split-input-file --vmcu-insert-ring-checks --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target | FileCheck %s
// RUN: vmcu-opt %s -split-input-file --pass-pipeline='builtin.module(vmcu-tosa-to-llvm{from=vmcu-tiled ring-check})' | FileCheck %s
// RUN: vmcu-opt %s -split-input-file --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm \
// RUN:   --reconcile-unrealized-casts --vmcu-set-target | FileCheck %s --check-prefix=OFF
// RUN: vmcu-opt %s -split-input-file --pass-pipeline='builtin.module(vmcu-tosa-to-llvm{from=vmcu-tiled})' | FileCheck %s --check-prefix=OFF

// ring-check: init right after the pool (6 segments of 16 bytes, input at
// segment 0, 4 segments, 2 kernels), then a call before every ring access
// (unwrapped segment, byte offset, bytes, kernel id), at every free
// (segment, count, kernel) and at the end of a kernel with a workspace.

// OFF-NOT: vmcu_ring_check

!pool = !vmcu.pool<segments = 6, segment_bytes = 16>

// CHECK-DAG: llvm.mlir.global private constant @vmcu_ring_check_kernel_names("first\00second\00")
// CHECK-DAG: llvm.func @vmcu_ring_check_init(i32, i32, i32, i32, !llvm.ptr, i32)
// CHECK-DAG: llvm.func @vmcu_ring_check_load(i32, i32, i32, i32)
// CHECK-DAG: llvm.func @vmcu_ring_check_store(i32, i32, i32, i32)
// CHECK-DAG: llvm.func @vmcu_ring_check_free(i32, i32, i32)
// CHECK-DAG: llvm.func @vmcu_ring_check_release(i32, i32, i32)
// CHECK-LABEL: llvm.func @vmcu_invoke
// CHECK:       %[[NAMES:.*]] = llvm.mlir.addressof @vmcu_ring_check_kernel_names : !llvm.ptr
// CHECK-DAG:   %[[N:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-DAG:   %[[S:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:   %[[IB:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:   %[[IS:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG:   %[[K:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_init(%[[N]], %[[S]], %[[IB]], %[[IS]], %[[NAMES]], %[[K]])
// Each kernel is outlined into an internal function, called in order (the
// pipeline's vmcu-tail-call-kernels makes the last return the status).
// CHECK:       llvm.call @vmcu_kernel_0_first() : () -> ()
// CHECK-NEXT:  llvm.call {{(musttail )?}}@vmcu_kernel_1_second() : () -> {{\(\)|i32}}
// CHECK-NOT:   llvm.call
// CHECK:       llvm.return
// Kernel "first" (id 0): load of input segment 1, store to segment 4,
// free of 2 segments from 1.
// CHECK-LABEL: llvm.func internal @vmcu_kernel_0_first()
// CHECK:       %[[A:.*]] = llvm.add
// CHECK-DAG:   %[[OFF0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:   %[[B16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:   %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_load(%[[A]], %[[OFF0]], %[[B16]], %[[K0]])
// CHECK:       %[[V:.*]] = llvm.load {{.*}} -> vector<16xi8>
// CHECK:       llvm.call @vmcu_ring_check_store(
// CHECK-SAME:    : (i32, i32, i32, i32) -> ()
// CHECK:       llvm.store %[[V]]
// CHECK-DAG:   %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG:   %[[K0B:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_free(%[[A]], %[[C2]], %[[K0B]])
// Kernel "second" (id 1): 4 bytes at byte 8, then its workspace (segment
// 3, its tensor base rematerialised in the kernel) dies.
// CHECK-LABEL: llvm.func internal @vmcu_kernel_1_second()
// CHECK:       %[[W:.*]] = llvm.mlir.constant(3 : index) : i32
// CHECK-DAG:   %[[O8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG:   %[[B4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG:   %[[K1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_load(%{{.*}}, %[[O8]], %[[B4]], %[[K1]])
// CHECK:       llvm.load {{.*}} -> vector<4xi8>
// CHECK:       llvm.call @vmcu_ring_check_store(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:       llvm.store {{.*}} : vector<4xi8>, !llvm.ptr
// CHECK:       %[[WS:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:       %[[K1B:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_release(%[[W]], %[[WS]], %[[K1B]])
// CHECK-NOT:   llvm.call
// CHECK:       llvm.return
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
  %t = vmcu.tensor_base %pool {name = "copy", segments = 4, base = 4} : !pool
  %w = vmcu.tensor_base %pool {name = "scratch", segments = 1, base = 3} : !pool
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  vmcu.kernel "first" ins(%x) outs(%t) {
    %a = arith.addi %x, %c1 : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
    vmcu.ring_store %v, %pool[%t] : vector<16xi8>, !pool
    vmcu.free %pool[%a] {count = 2} : !pool
  }
  vmcu.kernel "second" ins(%t) outs(%x) workspace(%w) {
    %s = vmcu.ring_load %pool[%t, %c8] : !pool -> vector<4xi8>
    vmcu.ring_store %s, %pool[%x, %c8] : vector<4xi8>, !pool
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// No kernels and no model input: a null name table, input 0 segments at 0,
// and kernel id -1 (0xffffffff) on accesses outside kernels. No release is
// declared without a workspace.

// OFF-NOT: vmcu_ring_check

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>

// CHECK-NOT:   @vmcu_ring_check_kernel_names
// CHECK-NOT:   @vmcu_ring_check_release
// CHECK-LABEL: llvm.func @bare
// CHECK-SAME:  (%[[SEG:.*]]: i32)
// CHECK:       %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG:   %[[N:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-DAG:   %[[S:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:   %[[Z0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:   %[[Z1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:   %[[Z2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_init(%[[N]], %[[S]], %[[Z0]], %[[Z1]], %[[NULL]], %[[Z2]])
// CHECK-DAG:   %[[NONE:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-DAG:   %[[B8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       llvm.call @vmcu_ring_check_load(%[[SEG]], %{{.*}}, %[[B8]], %[[NONE]])
// CHECK:       llvm.load
// CHECK:       llvm.call @vmcu_ring_check_store(%[[SEG]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:       llvm.store
func.func @bare(%seg: index) {
  %pool = vmcu.segment_pool : !pool
  %v = vmcu.ring_load %pool[%seg] : !pool -> vector<8xi8>
  vmcu.ring_store %v, %pool[%seg] : vector<8xi8>, !pool
  return
}
