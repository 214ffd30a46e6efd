// RUN: vmcu-opt %s --vmcu-erase-frees | FileCheck %s

// Frees go, then every op left dead: the loops and index arithmetic that
// only served them, and indices nothing used (those of accesses that
// vmcu-coalesce-ring-accesses merged). A loop that also loads or stores
// stays with its arithmetic, and the model's I/O markers stay even unused.

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

// CHECK-LABEL: func.func @vmcu_invoke
// CHECK:       vmcu.tensor_base {{.*}}vmcu.io = "input"
// CHECK-NEXT:  return
func.func @vmcu_invoke() {
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
  return
}

// CHECK-NOT:   vmcu.free
// CHECK-LABEL: func.func @kernel
// CHECK-SAME:  (%[[N:.*]]: index)
// CHECK-NEXT:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[POOL:.*]] = vmcu.segment_pool
// CHECK-NEXT:  %[[X:.*]] = vmcu.tensor_base %[[POOL]] {base = 0 : i64, name = "x", segments = 4 : i64}
// CHECK-NEXT:  %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {base = 4 : i64, name = "y", segments = 4 : i64}
// CHECK-NEXT:  scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[X]], %[[I]] : index
// CHECK-NEXT:    %[[V:.*]] = vmcu.ring_load %[[POOL]][%[[A]]]
// CHECK-NEXT:    %[[B:.*]] = arith.addi %[[Y]], %[[I]] : index
// CHECK-NEXT:    vmcu.ring_store %[[V]], %[[POOL]][%[[B]]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @kernel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pool = vmcu.segment_pool {alignment = 8} : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4} : !pool
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.addi %x, %i : index
    %merged = arith.addi %a, %c1 : index
    %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
    vmcu.free %pool[%a] : !pool
    %b = arith.addi %y, %i : index
    vmcu.ring_store %v, %pool[%b] : vector<16xi8>, !pool
  }
  // The input's last segments, freed after the loop: nothing of this nest
  // is left.
  %last = arith.subi %n, %c2 : index
  scf.for %i = %last to %n step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %s = arith.addi %i, %j : index
      %t = arith.addi %x, %s : index
      vmcu.free %pool[%t] {count = 1} : !pool
    }
  }
  return
}
