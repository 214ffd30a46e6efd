// RUN: vmcu-opt %s --split-input-file --vmcu-version-border-loops | FileCheck %s
// RUN: vmcu-opt %s --split-input-file "--vmcu-version-border-loops=max-ops=8" | FileCheck %s --check-prefix=SMALL

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>

// A depthwise kernel's column of taps: rows clamped at the top and bottom
// border (by %oh), the new column clamped at the right border (by %ow).
// The nest becomes an affine.if over the three conditions (the column
// loop's lower bound is a constant already): its then-branch
// runs the constant bounds 0..3 and 2..3, the else-branch the nest as it
// was. With max-ops=8 that copy (3 x 4 operations) is too large: the rows
// loop stays clamped and only the column loop in it (4 operations) gets
// the affine.if.
// CHECK: #[[SET:set[0-9]*]] = affine_set<(d0, d1) : (d0 - 1 >= 0, -d0 + 6 >= 0, -d1 + 6 >= 0)>
// CHECK-LABEL: func.func @column
// CHECK: affine.for %[[OH:.*]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 8 {
// CHECK-NEXT: affine.if #[[SET]](%[[OH]], %[[OW]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 2 to 3 {
// CHECK: vmcu.ring_load
// CHECK: } else {
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[OH]]) to min #{{.*}}(%[[OH]]) {
// CHECK-NEXT: affine.for %{{.*}} = 2 to min #{{.*}}(%[[OW]]) {
// CHECK: vmcu.ring_load
// SMALL-LABEL: func.func @column
// SMALL: affine.for %{{.*}} = max
// SMALL-NEXT: affine.if #{{.*}}(%{{.*}}) {
// SMALL-NEXT: affine.for %{{.*}} = 2 to 3 {
func.func @column(%buf: memref<144xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "depthwise" ins(%in) outs(%out) {
    affine.for %oh = 0 to 8 {
      affine.for %ow = 0 to 8 {
        affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
            to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
          affine.for %kw = 2 to min affine_map<(d0) -> (3, -d0 + 9)>(%ow) {
            %s = affine.apply affine_map<(d0, d1, d2, d3) -> (d0 * 8 + d1 + d2 * 8 + d3 - 9)>(%oh, %ow, %kh, %kw)
            %v = vmcu.ring_load %pool[%s] : !pool -> vector<16xi8>
            %b = affine.apply affine_map<(d0, d1) -> (d0 * 48 + d1 * 16)>(%kh, %kw)
            vector.store %v, %buf[%b] : memref<144xi8>, vector<16xi8>
          }
        }
      }
    }
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 64, segment_bytes = 32>

// Left as it is: a nest that moves 32-byte vectors (above
// max-access-bytes, 16: its copy would cost more flash than the loop's
// overhead costs cycles).
// CHECK-LABEL: func.func @wide
// CHECK-NOT: affine.if
// CHECK: return
func.func @wide(%buf: memref<96xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "wide" ins(%in) outs(%out) {
    affine.for %oh = 0 to 8 {
      affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
        %s = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%oh, %kh)
        %v = vmcu.ring_load %pool[%s] : !pool -> vector<32xi8>
        %b = affine.apply affine_map<(d0) -> (d0 * 32)>(%kh)
        vector.store %v, %buf[%b] : memref<96xi8>, vector<32xi8>
      }
    }
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>

// Left as it is: the column nest in a kernel marked compact (a flash
// budget's choice).
// CHECK-LABEL: func.func @compact
// CHECK-NOT: affine.if
// CHECK: return
func.func @compact(%buf: memref<48xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "compact" ins(%in) outs(%out) attributes {compact} {
    affine.for %oh = 0 to 8 {
      affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
        %s = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%oh, %kh)
        %v = vmcu.ring_load %pool[%s] : !pool -> vector<16xi8>
        %b = affine.apply affine_map<(d0) -> (d0 * 16)>(%kh)
        vector.store %v, %buf[%b] : memref<48xi8>, vector<16xi8>
      }
    }
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 64, segment_bytes = 4>

// A loop whose bound depends on a loop of the same nest is versioned only
// below that loop: the rows loop stays as it is, the taps loop in it
// (bounded by the row %kh and clamped at 2) gets the affine.if.
// CHECK-LABEL: func.func @inner
// CHECK: affine.for %[[KH:.*]] = max
// CHECK-NEXT: affine.if #{{.*}}(%[[KH]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK: } else {
// CHECK-NEXT: affine.for %{{.*}} = 0 to min
func.func @inner(%buf: memref<64xi8>) {
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "taps" ins(%in) outs(%out) {
    affine.for %oh = 0 to 8 {
      affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
        affine.for %kw = 0 to min affine_map<(d0) -> (2, d0 + 1)>(%kh) {
          %s = affine.apply affine_map<(d0, d1, d2) -> (d0 + d1 + d2)>(%oh, %kh, %kw)
          %v = vmcu.ring_load %pool[%s] : !pool -> vector<4xi8>
          %b = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>(%kh, %kw)
          vector.store %v, %buf[%b] : memref<64xi8>, vector<4xi8>
        }
      }
    }
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 64, segment_bytes = 4>

// Left as they are: a rows loop clamped at the border whose iterations
// two cores share out (split_depth 2: the loops at depth 0 and 1), a
// clamped loop that carries a value (iter_args: an affine.if would have to
// yield it), and a clamped loop holding an op with a region.
// CHECK-LABEL: func.func @kept_nests
// CHECK: vmcu.kernel "pixels"
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = max
// CHECK: vmcu.kernel "carried"
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = max
// CHECK: vmcu.kernel "region"
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = max
func.func @kept_nests(%buf: memref<64xi8>, %acc: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %pool = vmcu.segment_pool : !pool
  %in = vmcu.tensor_base %pool {name = "x", segments = 1, base = 0} : !pool
  %out = vmcu.tensor_base %pool {name = "y", segments = 1, base = 2} : !pool
  vmcu.kernel "pixels" ins(%in) outs(%out) attributes {cores = 2 : i64, split_depth = 2 : i64} {
    affine.for %oh = 0 to 8 {
      affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
        %s = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%oh, %kh)
        %v = vmcu.ring_load %pool[%s] : !pool -> vector<4xi8>
        %b = affine.apply affine_map<(d0) -> (d0 * 4)>(%kh)
        vector.store %v, %buf[%b] : memref<64xi8>, vector<4xi8>
      }
    }
  }
  vmcu.kernel "carried" ins(%in) outs(%out) {
    affine.for %oh = 0 to 8 {
      %sum = affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) iter_args(%a = %zero) -> (i32) {
        %n = arith.index_cast %kh : index to i32
        %a1 = arith.addi %a, %n : i32
        affine.yield %a1 : i32
      }
      memref.store %sum, %acc[%c0] : memref<1xi32>
    }
  }
  vmcu.kernel "region" ins(%in) outs(%out) {
    affine.for %oh = 0 to 8 {
      affine.for %kh = max affine_map<(d0) -> (0, -d0 + 1)>(%oh)
          to min affine_map<(d0) -> (3, -d0 + 9)>(%oh) {
        affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%kh) {
          %s = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%oh, %kh)
          %v = vmcu.ring_load %pool[%s] : !pool -> vector<4xi8>
          %b = affine.apply affine_map<(d0) -> (d0 * 4)>(%kh)
          vector.store %v, %buf[%b] : memref<64xi8>, vector<4xi8>
        }
      }
    }
  }
  return
}
