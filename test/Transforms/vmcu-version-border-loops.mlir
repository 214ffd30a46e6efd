// RUN: vmcu-opt %s --split-input-file --vmcu-version-border-loops | FileCheck %s
// RUN: vmcu-opt %s --split-input-file "--vmcu-version-border-loops=max-ops=8" | FileCheck %s --check-prefix=SMALL

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>

// A depthwise kernel's column of taps: rows clamped at the top and bottom
// border (by %oh), the new column clamped at the right border (by %ow).
// The nest becomes an affine.if over the four conditions: its then-branch
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
