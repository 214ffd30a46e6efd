// RUN: vmcu-opt %s --split-input-file --vmcu-coalesce-ring-accesses | FileCheck %s
// RUN: vmcu-opt %s --split-input-file --vmcu-coalesce-ring-accesses=max-bytes=2 | FileCheck %s --check-prefix=TWO

!pool = !vmcu.pool<segments = 10, segment_bytes = 1>

// Three adjacent one-byte segments into three adjacent buffer bytes: one
// test whether the run stays below the pool's end (wrapped start + 3 <= 10),
// one 3-byte load there, else one load per unit from the wrapped start,
// unrolled (up to 4 units).
// CHECK-LABEL: func.func @row
// CHECK: vmcu.kernel "row"
// CHECK: %[[SEG:.*]] = affine.apply #{{.*}}(%[[Q:.*]])[%{{.*}}]
// CHECK: %[[AT:.*]] = affine.apply #{{.*}}(%[[Q]])
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[SEG]], %[[N:.*]] : index
// CHECK: %[[LOW:.*]] = arith.subi %[[SEG]], %[[N]]
// CHECK: %[[WRAP:.*]] = arith.select %[[PAST]], %[[LOW]], %[[SEG]]
// CHECK: %[[END:.*]] = arith.addi %[[WRAP]], %c3
// CHECK: %[[IN:.*]] = arith.cmpi ule, %[[END]], %[[N]]
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: %[[V:.*]] = vmcu.ring_load %{{.*}}[%[[SEG]]] : !vmcu.pool<segments = 10, segment_bytes = 1> -> vector<3xi8>
// CHECK-NEXT: vector.store %[[V]], %{{.*}}[%[[AT]]] : memref<8xi8>, vector<3xi8>
// CHECK-NEXT: } else {
// CHECK-COUNT-3: vmcu.ring_load %{{.*}} -> vector<1xi8>
// CHECK: }
// CHECK-NOT: vmcu.ring_load
// CHECK: vmcu.free

// With at most 2 bytes per load, the run splits: 2 bytes, then 1 alone.
// TWO-LABEL: func.func @row
// TWO: scf.if
// TWO: vmcu.ring_load {{.*}} -> vector<2xi8>
// TWO: } else {
// TWO-COUNT-2: vmcu.ring_load {{.*}} -> vector<1xi8>
// TWO: }
// TWO-NEXT: affine.apply
// TWO-NEXT: affine.apply
// TWO-NEXT: vmcu.ring_load {{.*}} -> vector<1xi8>
// TWO-NEXT: vector.store
func.func @row() {
  %buf = memref.alloca() : memref<8xi8>
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 9, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 9} : !pool
  vmcu.kernel "row" ins(%in) outs(%out) {
    affine.for %q = 0 to 3 {
      %s0 = affine.apply affine_map<(d0)[s0] -> (s0 + d0 * 3)>(%q)[%in]
      %i0 = affine.apply affine_map<(d0) -> (d0)>(%q)
      %a = vmcu.ring_load %pool[%s0] : !pool -> vector<1xi8>
      vector.store %a, %buf[%i0] : memref<8xi8>, vector<1xi8>
      %s1 = affine.apply affine_map<(d0)[s0] -> (s0 + d0 * 3 + 1)>(%q)[%in]
      %i1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%q)
      %b = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
      vector.store %b, %buf[%i1] : memref<8xi8>, vector<1xi8>
      %s2 = affine.apply affine_map<(d0)[s0] -> (s0 + d0 * 3 + 2)>(%q)[%in]
      %i2 = affine.apply affine_map<(d0) -> (d0 + 2)>(%q)
      %c = vmcu.ring_load %pool[%s2] : !pool -> vector<1xi8>
      vector.store %c, %buf[%i2] : memref<8xi8>, vector<1xi8>
      vmcu.free %pool[%s0] : !pool
    }
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 10, segment_bytes = 1>

// A run of six one-byte segments: where it straddles the pool's end, one
// load per unit in a loop that LLVM must not unroll (more than 4 units).
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[NOUNROLL:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @long
// CHECK: %[[SEG:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// CHECK: %[[WRAP:.*]] = arith.select
// CHECK: scf.if
// CHECK-NEXT: vmcu.ring_load %{{.*}}[%[[SEG]]] : !vmcu.pool<segments = 10, segment_bytes = 1> -> vector<6xi8>
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%c0{{.*}}] : memref<8xi8>, vector<6xi8>
// CHECK-NEXT: } else {
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %c6{{.*}} step %c1
// CHECK-NEXT: %[[UNIT:.*]] = arith.addi %[[WRAP]], %[[U]] : index
// CHECK-NEXT: %[[B:.*]] = vmcu.ring_load %{{.*}}[%[[UNIT]]] : !vmcu.pool<segments = 10, segment_bytes = 1> -> vector<1xi8>
// CHECK-NEXT: vector.store %[[B]], %{{.*}}[%[[U]]] : memref<8xi8>, vector<1xi8>
// CHECK-NEXT: } {llvm.loop_annotation = #[[NOUNROLL]]}
// CHECK-NEXT: }
// CHECK-NOT: vmcu.ring_load
func.func @long() {
  %buf = memref.alloca() : memref<8xi8>
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 6, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 6} : !pool
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  vmcu.kernel "long" ins(%in) outs(%out) {
    %s0 = affine.apply affine_map<()[s0] -> (s0)>()[%in]
    %s1 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%in]
    %s2 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%in]
    %s3 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%in]
    %s4 = affine.apply affine_map<()[s0] -> (s0 + 4)>()[%in]
    %s5 = affine.apply affine_map<()[s0] -> (s0 + 5)>()[%in]
    %a = vmcu.ring_load %pool[%s0] : !pool -> vector<1xi8>
    vector.store %a, %buf[%c0] : memref<8xi8>, vector<1xi8>
    %b = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %b, %buf[%c1] : memref<8xi8>, vector<1xi8>
    %c = vmcu.ring_load %pool[%s2] : !pool -> vector<1xi8>
    vector.store %c, %buf[%c2] : memref<8xi8>, vector<1xi8>
    %d = vmcu.ring_load %pool[%s3] : !pool -> vector<1xi8>
    vector.store %d, %buf[%c3] : memref<8xi8>, vector<1xi8>
    %e = vmcu.ring_load %pool[%s4] : !pool -> vector<1xi8>
    vector.store %e, %buf[%c4] : memref<8xi8>, vector<1xi8>
    %f = vmcu.ring_load %pool[%s5] : !pool -> vector<1xi8>
    vector.store %f, %buf[%c5] : memref<8xi8>, vector<1xi8>
    vmcu.free %pool[%s0] : !pool
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 10, segment_bytes = 1>

// Not runs: segments out of order, a gap in the buffer, a ring access in
// between, a load used twice. Nothing changes.
// CHECK-LABEL: func.func @apart
// CHECK-NOT: scf.if
// CHECK-COUNT-8: vmcu.ring_load {{.*}} -> vector<1xi8>
// CHECK-NOT: scf.if
func.func @apart(%i: index) {
  %buf = memref.alloca() : memref<8xi8>
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 9, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 9} : !pool
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  vmcu.kernel "apart" ins(%in) outs(%out) {
    %s0 = affine.apply affine_map<()[s0] -> (s0)>()[%in]
    %s1 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%in]
    // Segment s1 then s0.
    %a = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %a, %buf[%c0] : memref<8xi8>, vector<1xi8>
    %b = vmcu.ring_load %pool[%s0] : !pool -> vector<1xi8>
    vector.store %b, %buf[%c1] : memref<8xi8>, vector<1xi8>
    // Buffer bytes 0 and 3.
    %c = vmcu.ring_load %pool[%s0] : !pool -> vector<1xi8>
    vector.store %c, %buf[%c0] : memref<8xi8>, vector<1xi8>
    %d = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %d, %buf[%c3] : memref<8xi8>, vector<1xi8>
    // A free between the two loads.
    %e = vmcu.ring_load %pool[%s0] : !pool -> vector<1xi8>
    vector.store %e, %buf[%c0] : memref<8xi8>, vector<1xi8>
    vmcu.free %pool[%s0] : !pool
    %f = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %f, %buf[%c1] : memref<8xi8>, vector<1xi8>
    // The first value is stored twice.
    %g = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %g, %buf[%c0] : memref<8xi8>, vector<1xi8>
    vector.store %g, %buf[%c3] : memref<8xi8>, vector<1xi8>
    %h = vmcu.ring_load %pool[%s1] : !pool -> vector<1xi8>
    vector.store %h, %buf[%c1] : memref<8xi8>, vector<1xi8>
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 10, segment_bytes = 2>

// Stores: two 2-byte segments from adjacent buffer bytes (4 bytes, 2 pool
// units), then one from elsewhere in the buffer, which ends the run.
// CHECK-LABEL: func.func @scatter
// CHECK: arith.addi %{{.*}}, %c2{{.*}} : index
// CHECK: scf.if
// CHECK-NEXT: %[[V:.*]] = vector.load %{{.*}}[%c0] : memref<8xi8>, vector<4xi8>
// CHECK-NEXT: vmcu.ring_store %[[V]], %{{.*}}[%{{.*}}] : vector<4xi8>
// CHECK-NEXT: } else {
// CHECK-COUNT-2: vmcu.ring_store %{{.*}} : vector<2xi8>
// CHECK: }
// CHECK-NEXT: affine.apply
// CHECK-NEXT: vector.load %{{.*}}[%c6] : memref<8xi8>, vector<2xi8>
// CHECK-NEXT: vmcu.ring_store
func.func @scatter() {
  %buf = memref.alloca() : memref<8xi8>
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 3, base = 1} : !pool
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  vmcu.kernel "scatter" ins(%in) outs(%out) {
    %s0 = affine.apply affine_map<()[s0] -> (s0)>()[%out]
    %a = vector.load %buf[%c0] : memref<8xi8>, vector<2xi8>
    vmcu.ring_store %a, %pool[%s0] : vector<2xi8>, !pool
    %s1 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%out]
    %b = vector.load %buf[%c2] : memref<8xi8>, vector<2xi8>
    vmcu.ring_store %b, %pool[%s1] : vector<2xi8>, !pool
    %s2 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%out]
    %c = vector.load %buf[%c6] : memref<8xi8>, vector<2xi8>
    vmcu.ring_store %c, %pool[%s2] : vector<2xi8>, !pool
  }
  return
}
