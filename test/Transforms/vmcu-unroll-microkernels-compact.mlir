// RUN: vmcu-opt %s --vmcu-unroll-microkernels | FileCheck %s
// RUN: vmcu-opt %s --vmcu-unroll-microkernels=compact-levels=2 | FileCheck %s --check-prefix=LEVELS

!pool = !vmcu.pool<segments = 4, segment_bytes = 8>

// Two kernels with the same loops: a lane loop of 20 dots (20 x 6 = 120
// operations), then a channel loop of 8 around a lane loop of 2. With the
// pass's limits (384 operations, 2 levels, jam 4), "fast" unrolls the
// first loop, and jams the channel loop by 4, whose 2 steps then unroll
// too: 20 + 16 dots, no loop. "small" is marked compact (a flash budget's
// choice): 96 operations, one level and no jam, so the 20 dots stay in
// their loop, and only the lane loop of 2 unrolls inside the channel loop.
// CHECK-LABEL: func.func @compact
// CHECK: vmcu.kernel "fast"
// CHECK-NOT: affine.for
// CHECK-COUNT-36: vmcu.dot
// CHECK-NOT: vmcu.dot
// CHECK: vmcu.kernel "small"
// CHECK-SAME: compact
// CHECK: affine.for %{{.*}} = 0 to 20 iter_args
// CHECK-COUNT-1: vmcu.dot
// CHECK: affine.for %{{.*}} = 0 to 8 {
// CHECK-NOT: affine.for
// CHECK-COUNT-2: vmcu.dot
// CHECK-NOT: vmcu.dot
// CHECK: return
func.func @compact(%acc: memref<8xi32>, %x: memref<80xi8>, %w: memref<80xi8>) {
  %c0 = arith.constant 0 : index
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "fast" ins(%in) outs(%out) {
    %a0 = memref.load %acc[%c0] : memref<8xi32>
    %row = affine.for %l = 0 to 20 iter_args(%a = %a0) -> (i32) {
      %o = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
      %xv = vector.load %x[%o] : memref<80xi8>, vector<4xi8>
      %wv = vector.load %w[%o] : memref<80xi8>, vector<4xi8>
      %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
      affine.yield %d : i32
    }
    memref.store %row, %acc[%c0] : memref<8xi32>
    affine.for %n = 0 to 8 {
      %b0 = memref.load %acc[%n] : memref<8xi32>
      %sum = affine.for %l = 0 to 2 iter_args(%a = %b0) -> (i32) {
        %xo = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
        %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%n, %l)
        %xv = vector.load %x[%xo] : memref<80xi8>, vector<4xi8>
        %wv = vector.load %w[%wo] : memref<80xi8>, vector<4xi8>
        %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
        affine.yield %d : i32
      }
      memref.store %sum, %acc[%n] : memref<8xi32>
    }
  }
  vmcu.kernel "small" ins(%in) outs(%out) attributes {compact} {
    %a0 = memref.load %acc[%c0] : memref<8xi32>
    %row = affine.for %l = 0 to 20 iter_args(%a = %a0) -> (i32) {
      %o = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
      %xv = vector.load %x[%o] : memref<80xi8>, vector<4xi8>
      %wv = vector.load %w[%o] : memref<80xi8>, vector<4xi8>
      %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
      affine.yield %d : i32
    }
    memref.store %row, %acc[%c0] : memref<8xi32>
    affine.for %n = 0 to 8 {
      %b0 = memref.load %acc[%n] : memref<8xi32>
      %sum = affine.for %l = 0 to 2 iter_args(%a = %b0) -> (i32) {
        %xo = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
        %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%n, %l)
        %xv = vector.load %x[%xo] : memref<80xi8>, vector<4xi8>
        %wv = vector.load %w[%wo] : memref<80xi8>, vector<4xi8>
        %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
        affine.yield %d : i32
      }
      memref.store %sum, %acc[%n] : memref<8xi32>
    }
  }
  return
}

// A compact kernel whose channel loop of 4 wraps a lane loop of 2: one
// level (the default) unrolls the lanes only; with compact-levels=2 (a
// flash budget's faster compact form) the 4 channels of 2 dots (about 60
// operations, within 96) unroll too.
// CHECK-LABEL: func.func @compact_levels
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-COUNT-2: vmcu.dot
// CHECK-NOT: vmcu.dot
// LEVELS-LABEL: func.func @compact_levels
// LEVELS-NOT: affine.for
// LEVELS-COUNT-8: vmcu.dot
// LEVELS-NOT: vmcu.dot
// LEVELS: return
func.func @compact_levels(%acc: memref<4xi32>, %x: memref<8xi8>, %w: memref<32xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "small" ins(%in) outs(%out) attributes {compact} {
    affine.for %n = 0 to 4 {
      %b0 = memref.load %acc[%n] : memref<4xi32>
      %sum = affine.for %l = 0 to 2 iter_args(%a = %b0) -> (i32) {
        %xo = affine.apply affine_map<(d0) -> (d0 * 4)>(%l)
        %wo = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%n, %l)
        %xv = vector.load %x[%xo] : memref<8xi8>, vector<4xi8>
        %wv = vector.load %w[%wo] : memref<32xi8>, vector<4xi8>
        %d = vmcu.dot %a, %xv, %wv {x_offset = 3 : i32} : vector<4xi8>
        affine.yield %d : i32
      }
      memref.store %sum, %acc[%n] : memref<4xi32>
    }
  }
  return
}
