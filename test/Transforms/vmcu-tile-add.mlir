// RUN: vmcu-opt %s --vmcu-tile --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --split-input-file | FileCheck %s --check-prefix=PLACE
// RUN: vmcu-opt %s --vmcu-tile --split-input-file --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=TABLE
// RUN: vmcu-opt %s --vmcu-tile=compact-kernels=add_1 --split-input-file | FileCheck %s --check-prefix=COMPACT

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// An unfused add y + x of the conv output and the model input: the conv
// keeps x live (no frees), the add reads both and frees both at last use.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input"
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "conv2d_0"
// CHECK: %[[Z:.*]] = vmcu.tensor_base %[[POOL]] {name = "add_1"
// CHECK: vmcu.kernel "conv2d_0" ins(%[[X]]) outs(%[[Y]]) attributes {{{.*}}tensor_level_bytes = 128 : i64
// CHECK-NOT: vmcu.free
// CHECK: vmcu.kernel "add_1" ins(%[[Y]], %[[X]]) outs(%[[Z]]) attributes {{{.*}}tensor_level_bytes = 192 : i64
// CHECK: affine.for %[[P:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 1 {
// CHECK:   %[[A0:.*]] = affine.apply #{{.*}}(%[[P]], %[[C]], %[[Y]])
// CHECK:   vmcu.ring_load %[[POOL]][%[[A0]]]
// CHECK:   %[[A1:.*]] = affine.apply #{{.*}}(%[[P]], %[[C]], %[[X]])
// CHECK:   vmcu.ring_load %[[POOL]][%[[A1]]]
// CHECK:   vmcu.requantize
// In a compact kernel the sum's bounded table is one global: the
// multiplier words, the exponent bytes and the half terms' odd factor
// (read once at the kernel's start); the half term is odd << (e - 1) and
// the shift e + 31. The add's scale is per tensor: one entry (12 bytes:
// word, byte, padding, odd factor) for every channel.
// COMPACT-DAG: memref.global "private" constant @add_1_add_requant : memref<12xi8> = dense<[0, 0, 0, 64, 5, 0, 0, 0, 1, 0, 0, 0]>
// COMPACT: vmcu.kernel "add_1"
// COMPACT:   %[[G:.*]] = memref.get_global @add_1_add_requant : memref<12xi8>
// COMPACT:   %[[MT:.*]] = memref.view %[[G]][%{{.*}}][] : memref<12xi8> to memref<1xi32>
// COMPACT:   %[[C4:.*]] = arith.constant 4 : index
// COMPACT:   %[[ET:.*]] = memref.view %[[G]][%[[C4]]][] : memref<12xi8> to memref<1xi8>
// COMPACT:   %[[C8:.*]] = arith.constant 8 : index
// COMPACT:   %[[OT:.*]] = memref.view %[[G]][%[[C8]]][] : memref<12xi8> to memref<1xi32>
// COMPACT:   %[[ODD:.*]] = memref.load %[[OT]]
// COMPACT:   affine.for
// COMPACT:   %[[M:.*]] = memref.load %[[MT]][%{{.*}}] : memref<1xi32>
// COMPACT:   %[[E8:.*]] = memref.load %[[ET]][%{{.*}}] : memref<1xi8>
// COMPACT:   %[[E:.*]] = arith.extui %[[E8]] : i8 to i32
// COMPACT:   %[[E1:.*]] = arith.subi %[[E]], %{{.*}} : i32
// COMPACT:   %[[H:.*]] = arith.shli %[[ODD]], %[[E1]] : i32
// COMPACT:   %[[C31:.*]] = arith.constant 31 : i32
// COMPACT:   %[[SH:.*]] = arith.addi %[[E]], %[[C31]] : i32
// COMPACT:   vmcu.requantize %{{.*}}, %[[M]], %[[SH]] half %[[H]] {bounded_value
// CHECK:   %[[F0:.*]] = affine.apply #{{.*}}(%[[P]], %[[C]], %[[Y]])
// CHECK:   vmcu.free %[[POOL]][%[[F0]]]
// CHECK:   %[[F1:.*]] = affine.apply #{{.*}}(%[[P]], %[[C]], %[[X]])
// CHECK:   vmcu.free %[[POOL]][%[[F1]]]
// CHECK:   vmcu.ring_store {{.*}}, %[[POOL]]
// Placement: x is never freed by the conv, so the conv output sits next to
// it (d = -4); the add output may overwrite y in place (d = 0) but must not
// overlap x, which it reads in the same order (d = -4 from x is safe).
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 8, segment_bytes = 16>
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 4 : i64, name = "conv2d_0", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 4 : i64, name = "add_1", segments = 4 : i64
// PLACE: vmcu.kernel "conv2d_0" {{.*}}distance = -4 : i64, {{.*}}footprint = 8 : i64
// PLACE: vmcu.kernel "add_1" {{.*}}distance = 0 : i64, {{.*}}footprint = 8 : i64
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %z = vmcu.add %y, %x {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// The skip tensor on the left: the kernel still lists the chain input first,
// but loads lhs (x) before rhs (y).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input"
// CHECK: %[[Y:.*]] = vmcu.tensor_base %[[POOL]] {name = "conv2d_0"
// CHECK: vmcu.kernel "add_1" ins(%[[Y]], %[[X]])
// CHECK:   %[[A0:.*]] = affine.apply #{{.*}}(%{{.*}}, %{{.*}}, %[[X]])
// CHECK:   vmcu.ring_load %[[POOL]][%[[A0]]]
// CHECK:   %[[A1:.*]] = affine.apply #{{.*}}(%{{.*}}, %{{.*}}, %[[Y]])
// CHECK:   vmcu.ring_load %[[POOL]][%[[A1]]]
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "add_1" {{.*}}distance = 0 : i64
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %z = vmcu.add %x, %y {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// Two convs between x and the add: the second conv frees its own input but
// its output must not overlap x, which stays live for the add.
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "conv2d_1" {{.*}}tensor_level_bytes = 192 : i64
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.segment_pool {{.*}}: !vmcu.pool<segments = 8, segment_bytes = 16>
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 4 : i64, name = "conv2d_0", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 4 : i64, name = "conv2d_1", segments = 4 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 4 : i64, name = "add_2", segments = 4 : i64
// PLACE: vmcu.kernel "conv2d_1" {{.*}}distance = 0 : i64, {{.*}}footprint = 8 : i64
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %y2 = vmcu.conv2d %y, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %z = vmcu.add %y2, %x {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#l = #vmcu.requant<input_zp = 3, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
#r = #vmcu.requant<input_zp = -5, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// With `subtract`, x - y: the skip x is the lhs (its rescale subtracts
// zero point 3), the conv output y the rhs (zero point -5), and the
// difference is lhs minus rhs.
// Each rescale is one load from a flash table of its 256 results (x + 128
// indexes x): here x - 3 and x + 5 (TABLE).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "add_1"
// CHECK: %[[LT:.*]] = memref.get_global @add_1_rescale{{.*}} : memref<256xi32>
// CHECK: %[[L:.*]] = memref.load %[[LT]][%{{.*}}] : memref<256xi32>
// CHECK: %[[RT:.*]] = memref.get_global @add_1_rescale{{.*}} : memref<256xi32>
// CHECK: %[[R:.*]] = memref.load %[[RT]][%{{.*}}] : memref<256xi32>
// CHECK: %[[D:.*]] = arith.subi %[[L]], %[[R]] : i32
// CHECK: vmcu.requantize %[[D]]
// TABLE-DAG: memref.global "private" constant @add_1_rescale{{.*}} : memref<256xi32> = dense<[-131, -130, -129,
// TABLE-DAG: memref.global "private" constant @add_1_rescale{{.*}} : memref<256xi32> = dense<[-123, -122, -121,
// Compact code computes each rescale, its multiplier, shift and zero point
// read from a 3-word table (12 B of flash instead of 1 KB) once at the
// kernel's start, so kernels that differ only in them can share a
// function. A shift of 30 rounds once (TOSA rounds twice above 31 only)
// and leaves an int8 operand less its zero point room for one SMMULR
// (narrow_value: shifts 9 to 31).
// COMPACT-DAG: memref.global "private" constant @add_1_rescale_params{{.*}} : memref<3xi32> = dense<[1073741824, 30, 3]>
// COMPACT-DAG: memref.global "private" constant @add_1_rescale_params{{.*}} : memref<3xi32> = dense<[1073741824, 30, -5]>
// COMPACT: vmcu.kernel "add_1"
// COMPACT-NEXT: %[[PL:.*]] = memref.get_global @add_1_rescale_params : memref<3xi32>
// COMPACT-NEXT: arith.constant 0 : index
// COMPACT-NEXT: %[[LM:.*]] = memref.load %[[PL]]
// COMPACT-NEXT: arith.constant 1 : index
// COMPACT-NEXT: %[[LS:.*]] = memref.load %[[PL]]
// COMPACT-NEXT: arith.constant 2 : index
// COMPACT-NEXT: %[[LZ:.*]] = memref.load %[[PL]]
// COMPACT-NEXT: %[[PR:.*]] = memref.get_global @add_1_rescale_params_0 : memref<3xi32>
// COMPACT-NEXT: arith.constant 0 : index
// COMPACT-NEXT: %[[RM:.*]] = memref.load %[[PR]]
// COMPACT-NEXT: arith.constant 1 : index
// COMPACT-NEXT: %[[RS:.*]] = memref.load %[[PR]]
// COMPACT-NEXT: arith.constant 2 : index
// COMPACT-NEXT: %[[RZ:.*]] = memref.load %[[PR]]
// COMPACT-NOT: memref<256xi32>
// COMPACT: affine.for
// COMPACT: %[[LX:.*]] = arith.subi %{{.*}}, %[[LZ]] : i32
// COMPACT-NEXT: %[[L:.*]] = vmcu.requantize %[[LX]], %[[LM]], %[[LS]] {double_round = false, max = 2147483647 : i32, min = -2147483648 : i32, narrow_value, output_zp = 0 : i32} : i32
// COMPACT: %[[RX:.*]] = arith.subi %{{.*}}, %[[RZ]] : i32
// COMPACT-NEXT: %[[R:.*]] = vmcu.requantize %[[RX]], %[[RM]], %[[RS]] {{{.*}}narrow_value
// COMPACT-NEXT: arith.subi %[[L]], %[[R]] : i32
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %z = vmcu.add %x, %y {lhs_rescale = #l, rhs_rescale = #r, requant = #rq, subtract} : (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 3, multiplier = [1518500250], shift = [40], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// A squeeze-and-excite gate: x * s with s = [1, 1, 1, 16] computed from x
// (a stand-in for MEAN and the 1x1 convs). The gate is the chain operand,
// x the skip: the gate's one segment is staged once and freed before the
// pixel loop (every pixel reads it); each pixel's x segment is read,
// multiplied lane by lane by the gate's channels ((x + 3) * (s - 5), the
// zero points subtracted) and freed, and the product requantized with the
// bounded table (|product| <= 255^2).
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: %[[POOL:.*]] = vmcu.segment_pool
// CHECK: %[[X:.*]] = vmcu.tensor_base %[[POOL]] {name = "input"
// CHECK: %[[S:.*]] = vmcu.tensor_base %[[POOL]] {name = "conv2d_0"
// CHECK: vmcu.kernel "mul_1" ins(%[[S]], %[[X]])
// CHECK: %[[GATE:.*]] = memref.alloca() : memref<16xi8>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   vmcu.ring_load %[[POOL]]
// CHECK:   vector.store %{{.*}}, %[[GATE]]
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK:   vmcu.free %[[POOL]]
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK:   vmcu.ring_load %[[POOL]]
// CHECK:   affine.for %{{.*}} = 0 to 16 {
// CHECK:     memref.load %[[GATE]]
// CHECK:     arith.muli {{.*}} : i32
// CHECK:     vmcu.requantize {{.*}}bounded_value
// CHECK:   vmcu.free %[[POOL]]
// CHECK:   vmcu.ring_store
// PLACE-LABEL: func.func @vmcu_invoke
// PLACE: vmcu.kernel "mul_1" {{.*}}distance = 0 : i64
func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x2x2x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %s = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x2x2x16xi8>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
  %z = vmcu.mul %x, %s {lhs_zp = -3 : i32, rhs_zp = 5 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<1x1x1x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}
