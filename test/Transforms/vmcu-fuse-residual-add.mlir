// RUN: vmcu-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(vmcu-fuse-residual-add))" | FileCheck %s

// An identity residual block: the add folds into the second conv, the
// block input its residual, the add's rescales and requantization its
// residual_add (the conv's operand's rescale as `conv`).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#ra = #vmcu.requant<input_zp = 3, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
#rb = #vmcu.requant<input_zp = -5, output_zp = 0, multiplier = [1073741824], shift = [31], double_round = true, min = -2147483648, max = 2147483647>
// CHECK-LABEL: func.func @identity(
// CHECK-SAME:      %[[X:.*]]: tensor<1x8x8x16xi8>
// CHECK:         %[[Y:.*]] = vmcu.conv2d %[[X]], %{{.*}}, %{{.*}} {
// CHECK-NOT:     residual
// CHECK:         %[[Z:.*]] = vmcu.conv2d %[[Y]], %{{.*}}, %{{.*}} residual %[[X]] {{{.*}}residual_add = #vmcu.residual_add<conv = <input_zp = -5, {{.*}}>, skip = <input_zp = 3, {{.*}}>, requant = <input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36]{{.*}}>>
// CHECK-NOT:     vmcu.add
// CHECK:         return %[[Z]]
func.func @identity(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %z = vmcu.conv2d %y, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %s = vmcu.add %x, %z {lhs_rescale = #ra, rhs_rescale = #rb, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %s : tensor<1x8x8x16xi8>
}

// -----

// A projection shortcut (1x1 stride 2) computed before the main branch:
// both operands are convs; the add folds into the later one (the main
// branch's), the projection its residual.
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
// CHECK-LABEL: func.func @projection(
// CHECK:         %[[P:.*]] = vmcu.conv2d %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}stride = array<i64: 2, 2>}
// CHECK:         %[[M1:.*]] = vmcu.conv2d
// CHECK:         %[[M2:.*]] = vmcu.conv2d %[[M1]], %{{.*}}, %{{.*}} residual %[[P]]
// CHECK-NOT:     vmcu.add
// CHECK:         return %[[M2]]
func.func @projection(%x: tensor<1x8x8x8xi8>) -> tensor<1x4x4x16xi8> {
  %wp = arith.constant dense<1> : tensor<16x1x1x8xi8>
  %w1 = arith.constant dense<1> : tensor<16x3x3x8xi8>
  %w2 = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %p = vmcu.conv2d %x, %wp, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  %m1 = vmcu.conv2d %x, %w1, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x8xi8>, tensor<16x3x3x8xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  %m2 = vmcu.conv2d %m1, %w2, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  %s = vmcu.add %p, %m2 {lhs_rescale = #rs, rhs_rescale = #rs, requant = #rq} : (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
  return %s : tensor<1x4x4x16xi8>
}

// -----

// Not folded: a subtract; a conv whose result has another use; a conv that
// reads the other operand itself (its windows free what the add reads).
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
// CHECK-LABEL: func.func @kept(
// CHECK-NOT:     residual
// CHECK-COUNT-3: vmcu.add
func.func @kept(%x: tensor<1x8x8x16xi8>) -> (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) {
  %w = arith.constant dense<1> : tensor<16x3x3x16xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %d = vmcu.add %y, %x {lhs_rescale = #rs, rhs_rescale = #rs, requant = #rq, subtract} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %z = vmcu.conv2d %d, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %s = vmcu.add %z, %d {lhs_rescale = #rs, rhs_rescale = #rs, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %t = vmcu.add %z, %x {lhs_rescale = #rs, rhs_rescale = #rs, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %d, %s, %t : tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>
}
