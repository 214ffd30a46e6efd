// RUN: vmcu-opt %s -split-input-file --vmcu-insert-ring-checks --vmcu-outline-kernels \
// RUN:   --vmcu-lower-vector-slices --convert-scf-to-cf --vmcu-create-io-tables --convert-vmcu-to-llvm -verify-diagnostics

// The checker's entry points are reserved: a declaration of another type is
// an error.

!pool = !vmcu.pool<segments = 6, segment_bytes = 16>
// expected-error @+1 {{redefinition of reserved function 'vmcu_ring_check_store' of different type}}
llvm.func @vmcu_ring_check_store(i32)
func.func @f(%s: index) {
  %pool = vmcu.segment_pool : !pool
  %v = vmcu.ring_load %pool[%s] : !pool -> vector<16xi8>
  return
}

// -----

!pool = !vmcu.pool<segments = 6, segment_bytes = 16>
// expected-error @+1 {{defines 'vmcu_ring_check_kernel_names', which the vmcu ring-check mode reserves}}
llvm.mlir.global private constant @vmcu_ring_check_kernel_names("x\00")
func.func @f(%s: index) {
  %pool = vmcu.segment_pool : !pool
  %v = vmcu.ring_load %pool[%s] : !pool -> vector<16xi8>
  return
}
