// RUN: vmcu-opt %s --vmcu-unroll-microkernels | FileCheck %s
// RUN: vmcu-opt %s --vmcu-unroll-microkernels=levels=1 | FileCheck %s --check-prefix=ONE
// RUN: vmcu-opt %s --vmcu-unroll-microkernels=max-ops=8 | FileCheck %s --check-prefix=SMALL

!pool = !vmcu.pool<segments = 4, segment_bytes = 8>

// Two levels: the lane loop (2) and the channel loop (4) around it unroll
// into 8 dots; the segment loop outside them stays.
// CHECK-LABEL: func.func @fc
// CHECK: vmcu.kernel "fc"
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK-NOT: affine.for
// CHECK-COUNT-8: vmcu.dot
// CHECK-NOT: vmcu.dot
// CHECK: }

// One level: only the lane loop unrolls.
// ONE-LABEL: func.func @fc
// ONE: affine.for %{{.*}} = 0 to 3 {
// ONE-NEXT: affine.for %{{.*}} = 0 to 4 {
// ONE-NOT: affine.for
// ONE-COUNT-2: vmcu.dot

// A budget of 8 ops is below the lane loop's 2 x 7 ops: nothing unrolls.
// SMALL-LABEL: func.func @fc
// SMALL: affine.for %{{.*}} = 0 to 3 {
// SMALL-NEXT: affine.for %{{.*}} = 0 to 4 {
// SMALL-NEXT: affine.for %{{.*}} = 0 to 2 {
// SMALL-COUNT-1: vmcu.dot
func.func @fc(%acc: memref<4xi32>, %x: memref<8xi8>, %w: memref<32xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "fc" ins(%in) outs(%out) {
    affine.for %s = 0 to 3 {
      affine.for %n = 0 to 4 {
        affine.for %l = 0 to 2 {
          %xo = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
          %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%n, %l)
          %xv = vector.load %x[%xo] : memref<8xi8>, vector<4xi8>
          %wv = vector.load %w[%wo] : memref<32xi8>, vector<4xi8>
          %a = memref.load %acc[%n] : memref<4xi32>
          %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
          memref.store %d, %acc[%n] : memref<4xi32>
        }
      }
    }
  }
  return
}

// Loops outside kernels and loops with non-constant bounds are left alone.
// CHECK-LABEL: func.func @outside
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: affine.for %{{.*}} = max
func.func @outside(%m: memref<4xi32>, %k: index) {
  %c = arith.constant 1 : i32
  affine.for %i = 0 to 2 {
    memref.store %c, %m[%i] : memref<4xi32>
  }
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "clipped" ins(%in) outs(%out) {
    affine.for %i = max affine_map<(d0) -> (0, d0)>(%k) to 2 {
      memref.store %c, %m[%i] : memref<4xi32>
    }
  }
  return
}

// A channel loop of 8 around the lane loop is too big to unroll fully
// (max-ops=64): it is unroll-and-jammed by 4 (step 4), then the lane loop,
// now holding 4 dots per lane, unrolls fully.
// RUN: vmcu-opt %s --vmcu-unroll-microkernels=max-ops=64 | FileCheck %s --check-prefix=JAM
// RUN: vmcu-opt %s --vmcu-unroll-microkernels="max-ops=64 jam=1" | FileCheck %s --check-prefix=NOJAM
// JAM-LABEL: func.func @jam
// JAM: affine.for %{{.*}} = 0 to 8 step 4 {
// JAM-NOT: affine.for
// JAM-COUNT-8: vmcu.dot
// JAM-NOT: vmcu.dot
// JAM: return
// NOJAM-LABEL: func.func @jam
// NOJAM: affine.for %{{.*}} = 0 to 8 {
// NOJAM-NOT: affine.for
// NOJAM-COUNT-2: vmcu.dot
// NOJAM-NOT: vmcu.dot
// NOJAM: return
func.func @jam(%acc: memref<8xi32>, %x: memref<8xi8>, %w: memref<64xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "jam" ins(%in) outs(%out) {
    affine.for %n = 0 to 8 {
      %a0 = memref.load %acc[%n] : memref<8xi32>
      %sum = affine.for %l = 0 to 2 iter_args(%a = %a0) -> (i32) {
        %xo = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
        %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%n, %l)
        %xv = vector.load %x[%xo] : memref<8xi8>, vector<4xi8>
        %wv = vector.load %w[%wo] : memref<64xi8>, vector<4xi8>
        %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
        affine.yield %d : i32
      }
      memref.store %sum, %acc[%n] : memref<8xi32>
    }
  }
  return
}

// A loop whose body rewrites one scratch location that its inner loop reads
// is not jammed: the copies would all store before any inner loop reads.
// The inner loop still unrolls fully.
// JAM-LABEL: func.func @scratch
// JAM: affine.for %{{.*}} = 0 to 8 {
// JAM: vector.store %{{.*}}, %alloca[%{{.*}}]
// JAM-COUNT-2: vmcu.dot
// JAM-NOT: vmcu.dot
// JAM: return
func.func @scratch(%acc: memref<2xi32>, %w: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  %scratch = memref.alloca() : memref<4xi8>
  vmcu.kernel "scratch" ins(%in) outs(%out) {
    affine.for %k = 0 to 8 {
      %seg = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k)[%in]
      %v = vmcu.ring_load %pool[%seg] : !pool -> vector<4xi8>
      vector.store %v, %scratch[%c0] : memref<4xi8>, vector<4xi8>
      affine.for %n = 0 to 2 {
        %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%k, %n)
        %xv = vector.load %scratch[%c0] : memref<4xi8>, vector<4xi8>
        %wv = vector.load %w[%wo] : memref<64xi8>, vector<4xi8>
        %a = memref.load %acc[%n] : memref<2xi32>
        %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
        memref.store %d, %acc[%n] : memref<2xi32>
      }
    }
  }
  return
}

// Nor is a loop whose inner loop writes a location every iteration shares
// that its body reads after the inner loop: a folded global pool stages
// each segment of averages in its lane loop, then stores it to the ring.
// Jammed, the four copies' lane loops would run before any store, and
// every segment would get the last copy's averages.
// JAM-LABEL: func.func @staged
// JAM: affine.for %{{.*}} = 0 to 8 {
// JAM-COUNT-2: memref.store %{{.*}}, %alloca[%{{.*}}] : memref<2xi8>
// JAM: vmcu.ring_store
// JAM-NOT: vmcu.ring_store
// JAM: return
func.func @staged(%sums: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  %staged = memref.alloca() : memref<2xi8>
  vmcu.kernel "staged" ins(%in) outs(%out) {
    affine.for %cc = 0 to 8 {
      affine.for %lane = 0 to 2 {
        %ch = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%cc, %lane)
        %s = memref.load %sums[%ch] : memref<16xi32>
        %v = arith.trunci %s : i32 to i8
        memref.store %v, %staged[%lane] : memref<2xi8>
      }
      %seg = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%cc)[%out]
      %avg = vector.load %staged[%c0] : memref<2xi8>, vector<2xi8>
      vmcu.ring_store %avg, %pool[%seg] : vector<2xi8>, !pool
    }
  }
  return
}

// Kernels split between two cores keep the loops the cores take in turn
// rolled. Rows (split_depth 1): the top-level loop; the segment loop
// inside a row unrolls as on one core.
// CHECK-LABEL: func.func @split_rows
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-NOT: affine.for
// CHECK-COUNT-2: vmcu.ring_load
// CHECK-NOT: vmcu.ring_load
// CHECK: return
func.func @split_rows(%buf: memref<16xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "rows" ins(%in) outs(%out) attributes {cores = 2 : i64} {
    affine.for %r = 0 to 4 {
      affine.for %c = 0 to 2 {
        %seg = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 + s0)>(%r, %c)[%in]
        %at = affine.apply affine_map<(d0) -> (d0 * 8)>(%c)
        %v = vmcu.ring_load %pool[%seg] : !pool -> vector<8xi8>
        vector.store %v, %buf[%at] : memref<16xi8>, vector<8xi8>
      }
    }
  }
  return
}

// Pixels (split_depth 2): the loop inside each row is shared out too.
// CHECK-LABEL: func.func @split_pixels
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-COUNT-1: vmcu.ring_load
// CHECK-NOT: vmcu.ring_load
// CHECK: return
func.func @split_pixels(%buf: memref<16xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "pixels" ins(%in) outs(%out) attributes {cores = 2 : i64, split_depth = 2 : i64} {
    affine.for %r = 0 to 4 {
      affine.for %c = 0 to 2 {
        %seg = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 + s0)>(%r, %c)[%in]
        %at = affine.apply affine_map<(d0) -> (d0 * 8)>(%c)
        %v = vmcu.ring_load %pool[%seg] : !pool -> vector<8xi8>
        vector.store %v, %buf[%at] : memref<16xi8>, vector<8xi8>
      }
    }
  }
  return
}

// Phases: a phase's loop inside a row, and the loop inside that, are
// shared out.
// CHECK-LABEL: func.func @split_phases
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-COUNT-1: vmcu.ring_load
// CHECK-NOT: vmcu.ring_load
// CHECK: return
func.func @split_phases(%buf: memref<16xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "phases" ins(%in) outs(%out) attributes {cores = 2 : i64, split_depth = 2 : i64, split_phases} {
    affine.for %r = 0 to 4 {
      affine.for %p = 0 to 2 {
        affine.for %c = 0 to 2 {
          %seg = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 + s0)>(%r, %c)[%in]
          %at = affine.apply affine_map<(d0) -> (d0 * 8)>(%c)
          %v = vmcu.ring_load %pool[%seg] : !pool -> vector<8xi8>
          vector.store %v, %buf[%at] : memref<16xi8>, vector<8xi8>
        }
      }
    }
  }
  return
}
