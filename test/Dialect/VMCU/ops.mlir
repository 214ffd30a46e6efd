// RUN: vmcu-opt %s | vmcu-opt | FileCheck %s
// RUN: vmcu-opt %s --mlir-print-op-generic | vmcu-opt | FileCheck %s
// RUN: vmcu-opt %s --verify-roundtrip

!pool = !vmcu.pool<segments = 64, segment_bytes = 16>
#rq = #vmcu.requant<input_zp = 0, output_zp = -128, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#rq2 = #vmcu.requant<input_zp = 0, output_zp = 3, multiplier = [1073741824, 1342177280], shift = [35, 36], double_round = false, min = -128, max = 127>
#in = #vmcu.requant<input_zp = -1, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// CHECK-LABEL: func.func @ring_ops
// CHECK: %[[POOL:.*]] = vmcu.segment_pool {alignment = 16 : i64} : !vmcu.pool<segments = 64, segment_bytes = 16>
// CHECK: %[[V:.*]] = vmcu.ring_load %[[POOL]][%{{.*}}] : !vmcu.pool<segments = 64, segment_bytes = 16> -> vector<16xi8>
// CHECK: %[[L:.*]] = vmcu.ring_load %[[POOL]][%{{.*}}, %{{.*}}] : !vmcu.pool<segments = 64, segment_bytes = 16> -> vector<4xi8>
// CHECK: vmcu.ring_store %[[V]], %[[POOL]][%{{.*}}] : vector<16xi8>, !vmcu.pool<segments = 64, segment_bytes = 16>
// CHECK: vmcu.ring_store %[[L]], %[[POOL]][%{{.*}}, %{{.*}}] : vector<4xi8>, !vmcu.pool<segments = 64, segment_bytes = 16>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = vmcu.ring_view %[[POOL]][%{{.*}}] {alignment = 4 : i64, count = 3 : i64} : !vmcu.pool<segments = 64, segment_bytes = 16> -> memref<?xi8>
// CHECK: vmcu.free %[[POOL]][%{{.*}}] {count = 2 : i64} : !vmcu.pool<segments = 64, segment_bytes = 16>
func.func @ring_ops(%seg: index, %lane: index) {
  %pool = vmcu.segment_pool {alignment = 16} : !pool
  %v = vmcu.ring_load %pool[%seg] : !pool -> vector<16xi8>
  %l = vmcu.ring_load %pool[%seg, %lane] : !pool -> vector<4xi8>
  vmcu.ring_store %v, %pool[%seg] : vector<16xi8>, !pool
  vmcu.ring_store %l, %pool[%seg, %lane] : vector<4xi8>, !pool
  %view, %offset, %contiguous = vmcu.ring_view %pool[%seg] {count = 3, alignment = 4} : !pool -> memref<?xi8>
  vmcu.free %pool[%seg] {count = 2} : !pool
  return
}

// CHECK-LABEL: func.func @conv2d_i8_per_channel
// CHECK: vmcu.conv2d %{{.*}}, %{{.*}}, %{{.*}} {input_zp = -128 : i32, pad = array<i64: 1, 1, 1, 1>
// CHECK-SAME: multiplier = [1073741824, 1342177280], shift = [35, 36]
// CHECK-SAME: segment_bytes = 2 : i64, stride = array<i64: 2, 2>
func.func @conv2d_i8_per_channel(%x: tensor<1x9x9x4xi8>, %w: tensor<2x3x3x4xi8>, %b: tensor<2xi32>) -> tensor<1x5x5x2xi8> {
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = -128 : i32, requant = #rq2, segment_bytes = 2} : (tensor<1x9x9x4xi8>, tensor<2x3x3x4xi8>, tensor<2xi32>) -> tensor<1x5x5x2xi8>
  return %y : tensor<1x5x5x2xi8>
}

// CHECK-LABEL: func.func @depthwise_conv2d
// CHECK: vmcu.depthwise_conv2d
func.func @depthwise_conv2d(%x: tensor<1x8x8x16xi8>, %w: tensor<3x3x16x1xi8>, %b: tensor<16xi32>) -> tensor<1x8x8x16xi8> {
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 5 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}

// A folded residual add: the residual operand and its arithmetic.
// CHECK-LABEL: func.func @conv2d_residual
// CHECK: vmcu.conv2d %{{.*}}, %{{.*}}, %{{.*}} residual %{{.*}} {{{.*}}residual_add = #vmcu.residual_add<conv = <{{.*}}>, skip = <{{.*}}>, requant = <{{.*}}>>
func.func @conv2d_residual(%x: tensor<1x8x8x16xi8>, %w: tensor<16x1x1x16xi8>, %b: tensor<16xi32>, %r: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %y = vmcu.conv2d %x, %w, %b residual %r {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #vmcu.requant<input_zp = -128, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>, skip = #vmcu.requant<input_zp = 5, output_zp = 0, multiplier = [1073741824], shift = [31], double_round = true, min = -2147483648, max = 2147483647>, requant = #rq>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}

// A folded global average pool: the [1,1,1,K] average of the 8x8 plane.
// CHECK-LABEL: func.func @conv2d_global_avg_pool
// CHECK: vmcu.conv2d {{.*}}global_avg_pool = #vmcu.global_avg_pool<input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>{{.*}} -> tensor<1x1x1x16xi8>
func.func @conv2d_global_avg_pool(%x: tensor<1x8x8x16xi8>, %w: tensor<16x1x1x16xi8>, %b: tensor<16xi32>) -> tensor<1x1x1x16xi8> {
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
  return %y : tensor<1x1x1x16xi8>
}

// A folded 2x2 window pool over a 7x7 plane: the last row and column are
// not averaged.
// CHECK-LABEL: func.func @conv2d_window_avg_pool
// CHECK: vmcu.conv2d {{.*}}window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>{{.*}} -> tensor<1x3x3x16xi8>
func.func @conv2d_window_avg_pool(%x: tensor<1x9x9x16xi8>, %w: tensor<16x3x3x16xi8>, %b: tensor<16xi32>) -> tensor<1x3x3x16xi8> {
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = -128, output_zp = -128, min = -128, max = 127, round_half_away = true>} : (tensor<1x9x9x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x3x3x16xi8>
  return %y : tensor<1x3x3x16xi8>
}

// A depth multiplier of 4: 4 input channels, 16 output channels.
// CHECK-LABEL: func.func @depthwise_conv2d_multiplier
// CHECK: vmcu.depthwise_conv2d {{.*}} : (tensor<1x8x8x4xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
func.func @depthwise_conv2d_multiplier(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x16x1xi8>, %b: tensor<16xi32>) -> tensor<1x8x8x16xi8> {
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 5 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}

// CHECK-LABEL: func.func @fully_connected
// CHECK: vmcu.fully_connected %{{.*}}, %{{.*}}, %{{.*}} {input_zp = 0 : i32
func.func @fully_connected(%x: tensor<4x64xi8>, %w: tensor<32x64xi8>, %b: tensor<32xi32>) -> tensor<4x32xi8> {
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #rq, segment_bytes = 32} : (tensor<4x64xi8>, tensor<32x64xi8>, tensor<32xi32>) -> tensor<4x32xi8>
  return %y : tensor<4x32xi8>
}

// CHECK-LABEL: func.func @batch_matmul
// CHECK: vmcu.batch_matmul %{{.*}}, %{{.*}} {lhs_zp = -128 : i32, requant = {{.*}}, rhs_zp = 3 : i32}
func.func @batch_matmul(%a: tensor<9x32x16xi8>, %b: tensor<9x16x24xi8>) -> tensor<9x32x24xi8> {
  %y = vmcu.batch_matmul %a, %b {lhs_zp = -128 : i32, rhs_zp = 3 : i32, requant = #rq} : (tensor<9x32x16xi8>, tensor<9x16x24xi8>) -> tensor<9x32x24xi8>
  return %y : tensor<9x32x24xi8>
}

// CHECK-LABEL: func.func @add
// CHECK: vmcu.add %{{.*}}, %{{.*}} {lhs_rescale = #vmcu.requant<input_zp = -1
func.func @add(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = vmcu.add %a, %b {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// Broadcasting operands: a column and a row, and a constant.
// CHECK-LABEL: func.func @add_broadcast
// CHECK: vmcu.add %{{.*}}, %{{.*}} {{.*}} : (tensor<1x4x1x8xi8>, tensor<1x1x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK: vmcu.add %{{.*}}, %{{.*}} {{.*}} : (tensor<1x4x4x8xi8>, tensor<1x4x1x1xi8>) -> tensor<1x4x4x8xi8>
func.func @add_broadcast(%a: tensor<1x4x1x8xi8>, %b: tensor<1x1x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = vmcu.add %a, %b {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x4x1x8xi8>, tensor<1x1x4x8xi8>) -> tensor<1x4x4x8xi8>
  %c = arith.constant dense<[[[[1]], [[2]], [[3]], [[4]]]]> : tensor<1x4x1x1xi8>
  %z = vmcu.add %y, %c {lhs_rescale = #in, rhs_rescale = #in, requant = #rq, subtract} : (tensor<1x4x4x8xi8>, tensor<1x4x1x1xi8>) -> tensor<1x4x4x8xi8>
  return %z : tensor<1x4x4x8xi8>
}

// CHECK-LABEL: func.func @resize_nearest
// CHECK: vmcu.resize_nearest %{{.*}} {cols = array<i64: 0, 0, 1, 1>, rows = array<i64: 0, 0, 1, 1>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
func.func @resize_nearest(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1>, cols = array<i64: 0, 0, 1, 1>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// CHECK-LABEL: func.func @avg_pool2d
// CHECK: vmcu.avg_pool2d %{{.*}} {input_zp = 0 : i32, kernel = array<i64: 3, 3>
func.func @avg_pool2d(%x: tensor<1x3x3x96xi8>) -> tensor<1x1x1x96xi8> {
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x96xi8>) -> tensor<1x1x1x96xi8>
  return %y : tensor<1x1x1x96xi8>
}

// CHECK-LABEL: func.func @bottleneck
// CHECK: %[[E:.*]] = vmcu.bottleneck %{{.*}} {segment_bytes = 8 : i64} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
// CHECK: ^bb0(%[[IN:.*]]: tensor<1x6x6x8xi8>):
// CHECK:   %[[B:.*]] = vmcu.conv2d %[[IN]]
// CHECK:   %[[C:.*]] = vmcu.depthwise_conv2d %[[B]]
// CHECK:   %[[D:.*]] = vmcu.conv2d %[[C]]
// CHECK:   %[[S:.*]] = vmcu.add %[[D]], %[[IN]]
// CHECK:   vmcu.yield %[[S]] : tensor<1x6x6x8xi8>
func.func @bottleneck(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) -> tensor<1x6x6x8xi8> {
  %e = vmcu.bottleneck %a {segment_bytes = 8} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %s = vmcu.add %d, %in {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
    vmcu.yield %s : tensor<1x6x6x8xi8>
  }
  return %e : tensor<1x6x6x8xi8>
}

// Strided windows may leave trailing input rows/columns unread; the output
// size is floored (TFLite's stride-2 layers on even sizes).
// CHECK-LABEL: func.func @unread_tail
// CHECK: vmcu.conv2d {{.*}} : (tensor<1x16x16x3xi8>, tensor<16x1x1x3xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
// CHECK: vmcu.depthwise_conv2d {{.*}} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x3x4x16xi8>
// CHECK: vmcu.avg_pool2d {{.*}} : (tensor<1x3x4x16xi8>) -> tensor<1x1x1x16xi8>
// CHECK: vmcu.bottleneck %{{.*}} : tensor<1x16x16x3xi8> -> tensor<1x8x8x8xi8>
func.func @unread_tail(%a: tensor<1x16x16x3xi8>, %w1: tensor<16x1x1x3xi8>, %b1: tensor<16xi32>, %w2: tensor<3x3x16x1xi8>, %b2: tensor<16xi32>, %w3: tensor<8x1x1x16xi8>, %b3: tensor<8xi32>) -> tensor<1x8x8x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x16x16x3xi8>, tensor<16x1x1x3xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 1, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x3x4x16xi8>
  %p = vmcu.avg_pool2d %c {kernel = array<i64: 2, 2>, stride = array<i64: 2, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x4x16xi8>) -> tensor<1x1x1x16xi8>
  %e = vmcu.bottleneck %a : tensor<1x16x16x3xi8> -> tensor<1x8x8x8xi8> {
  ^bb0(%in: tensor<1x16x16x3xi8>):
    %x = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x16x16x3xi8>, tensor<16x1x1x3xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %y = vmcu.depthwise_conv2d %x, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %z = vmcu.conv2d %y, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
    vmcu.yield %z : tensor<1x8x8x8xi8>
  }
  return %e : tensor<1x8x8x8xi8>
}

// CHECK-LABEL: func.func @kernel
// CHECK: %[[X:.*]] = vmcu.tensor_base %{{.*}} {base = 3 : i64, name = "x", segments = 8 : i64} : !vmcu.pool<segments = 64, segment_bytes = 16>
// CHECK: %[[Y:.*]] = vmcu.tensor_base %{{.*}} {name = "y", segments = 8 : i64}
// CHECK: vmcu.kernel "fc" ins(%[[X]]) outs(%[[Y]]) workspace(%{{.*}}) attributes {note = "tiled"} {
// CHECK:   scf.for
// CHECK:     vmcu.ring_load
func.func @kernel() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 8, base = 3} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 8} : !pool
  %w = vmcu.tensor_base %pool {name = "ws", segments = 2} : !pool
  vmcu.kernel "fc" ins(%x) outs(%y) workspace(%w) attributes {note = "tiled"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %a = arith.addi %x, %i : index
      %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
      %b = arith.addi %y, %i : index
      vmcu.ring_store %v, %pool[%b] : vector<16xi8>, !pool
      vmcu.free %pool[%a] : !pool
    }
  }
  return
}

// CHECK-LABEL: func.func @micro
// CHECK: %[[D:.*]] = vmcu.dot %{{.*}}, %{{.*}}, %{{.*}} {x_offset = 128 : i32} : vector<4xi8>
// CHECK: vmcu.requantize %[[D]], %{{.*}}, %{{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, output_zp = -128 : i32} : i8
// CHECK: vmcu.requantize %[[D]], %{{.*}}, %{{.*}} {double_round = false, input_zp = 3 : i32, max = 2147483647 : i32, min = -2147483648 : i32, output_zp = 0 : i32} : i32
func.func @micro(%acc: i32, %x: vector<4xi8>, %w: vector<4xi8>, %m: i32, %s: i32) -> (i8, i32) {
  %d = vmcu.dot %acc, %x, %w {x_offset = 128 : i32} : vector<4xi8>
  %q = vmcu.requantize %d, %m, %s {output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  %r = vmcu.requantize %d, %m, %s {input_zp = 3 : i32, output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false} : i32
  return %q, %r : i8, i32
}

// CHECK-LABEL: func.func @dot_block
// CHECK: %{{.*}}:4 = vmcu.dot_block %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 2 : i64, words = 8 : i64, x_stride = 48 : i64} : memref<96xi8>, memref<384xi8>
func.func @dot_block(%x: memref<96xi8>, %w: memref<384xi8>, %i: index, %a: i32) -> i32 {
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a {pixels = 2 : i64, words = 8 : i64, x_stride = 48 : i64} : memref<96xi8>, memref<384xi8>
  return %r#3 : i32
}

// CHECK-LABEL: func.func @widened_dot_block
// CHECK: vmcu.widen_pairs %{{.*}} : vector<4xi8> -> vector<2xi32>
// CHECK: vmcu.dot_block %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pixels = 2 : i64, widened, words = 8 : i64, x_stride = 64 : i64} : memref<32xi32>, memref<384xi8>
func.func @widened_dot_block(%v: vector<4xi8>, %x: memref<32xi32>, %w: memref<384xi8>, %i: index, %a: i32) -> (vector<2xi32>, i32) {
  %p = vmcu.widen_pairs %v : vector<4xi8> -> vector<2xi32>
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a {pixels = 2 : i64, words = 8 : i64, x_stride = 64 : i64, widened} : memref<32xi32>, memref<384xi8>
  return %p, %r#3 : vector<2xi32>, i32
}

// CHECK-LABEL: func.func @add_pairs
// CHECK: %{{.*}}, %{{.*}} = vmcu.add_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi8>
func.func @add_pairs(%even: i32, %odd: i32, %x: vector<4xi8>) -> (i32, i32) {
  %e, %o = vmcu.add_pairs %even, %odd, %x : vector<4xi8>
  return %e, %o : i32, i32
}

// CHECK-LABEL: func.func @micro_lanes_and_round
// CHECK: vmcu.mac_lanes %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>, vector<4xi8>
// CHECK: vmcu.requantize %{{.*}}, %{{.*}}, %{{.*}} round %{{.*}} {double_round = true, max = 127 : i32, min = -128 : i32, output_zp = 0 : i32, wide_shift} : i8
func.func @micro_lanes_and_round(%acc: vector<4xi32>, %x: vector<4xi8>, %w: vector<4xi8>, %v: i32, %m: i32, %s: i32, %r: i64) -> (vector<4xi32>, i8) {
  %a = vmcu.mac_lanes %acc, %x, %w : vector<4xi32>, vector<4xi8>
  %q = vmcu.requantize %v, %m, %s round %r {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift} : i8
  return %a, %q : vector<4xi32>, i8
}

// CHECK-LABEL: func.func @softmax_and_tflite_average
// CHECK: vmcu.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, max = 127 : i32, min = 0 : i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8>
// CHECK: vmcu.avg_pool2d %{{.*}} {{{.*}}round_half_away{{.*}}} : (tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8>
// CHECK: vmcu.softmax %{{.*}} {diff_min = -248 : i32, input_left_shift = 23 : i32, input_multiplier = 1717986944 : i32} : tensor<1x8xi8>
// CHECK: tosa.avg_pool2d {{.*}}vmcu.round_half_away
// CHECK: vmcu.table %{{.*}}, %{{.*}} : (tensor<1x8xi8>, tensor<256xi8>) -> tensor<1x8xi8>
func.func @softmax_and_tflite_average(%x: tensor<1x4x4x8xi8>, %zp: tensor<1xi8>, %lut: tensor<256xi8>) -> tensor<1x8xi8> {
  %m = vmcu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, min = 0 : i32, max = 127 : i32} : (tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8>
  %p = vmcu.avg_pool2d %x {kernel = array<i64: 4, 4>, stride = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, input_zp = 3 : i32, output_zp = 3 : i32, min = -128 : i32, max = 127 : i32, round_half_away} : (tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8>
  %r = tensor.collapse_shape %p [[0, 1, 2], [3]] : tensor<1x1x1x8xi8> into tensor<1x8xi8>
  %y = vmcu.softmax %r {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<1x8xi8>
  %t = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>, vmcu.round_half_away} : (tensor<1x4x4x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  %l = vmcu.table %y, %lut : (tensor<1x8xi8>, tensor<256xi8>) -> tensor<1x8xi8>
  return %l : tensor<1x8xi8>
}

// CHECK-LABEL: func.func @concat
// CHECK: vmcu.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x4xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x20xi8>
// CHECK: vmcu.concat %{{.*}} {axis = 0 : i32, segment_bytes = 4 : i64} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
func.func @concat(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x4xi8>) -> tensor<1x4x4x20xi8> {
  %y = vmcu.concat %a, %b, %a {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x4xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x20xi8>
  %c = vmcu.concat %a {axis = 0 : i32, segment_bytes = 4} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x20xi8>
}

// CHECK-LABEL: func.func @slice
// CHECK: vmcu.slice %{{.*}} {start = array<i64: 0, 1, 0, 4>, stride = array<i64: 1, 2, 1, 1>} : (tensor<1x8x8x16xi8>) -> tensor<1x3x8x8xi8>
func.func @slice(%x: tensor<1x8x8x16xi8>) -> tensor<1x3x8x8xi8> {
  %y = vmcu.slice %x {start = array<i64: 0, 1, 0, 4>, stride = array<i64: 1, 2, 1, 1>} : (tensor<1x8x8x16xi8>) -> tensor<1x3x8x8xi8>
  return %y : tensor<1x3x8x8xi8>
}

// CHECK-LABEL: func.func @transpose
// CHECK: vmcu.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8>
func.func @transpose(%x: tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8> {
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8>
  return %y : tensor<1x8x8x3xi8>
}

// The .tflite importer's edge facts round-trip (on a nested module here).
// CHECK: module attributes {vmcu.input_edge = #vmcu.edge<scale = 3.906250e-03 : f32, zero_point = -128, is_float = true>, vmcu.output_edge = #vmcu.edge<scale = 5.000000e-01 : f32, zero_point = 3, is_float = false>}
module attributes {vmcu.input_edge = #vmcu.edge<scale = 0.00390625 : f32, zero_point = -128, is_float = true>, vmcu.output_edge = #vmcu.edge<scale = 0.5 : f32, zero_point = 3, is_float = false>} {}

// CHECK-LABEL: func.func @depthwise_block
// CHECK: vmcu.depthwise_block %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}] {double_round = true, max = 127 : i32, min = 0 : i32, output_zp = -5 : i32, tap_offsets = array<i64: 0, 16, 32>} : memref<48xi8>, memref<22xi32>, memref<16xi8>
func.func @depthwise_block(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64: 0, 16, 32>, double_round = true, output_zp = -5 : i32, min = 0 : i32, max = 127 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// CHECK-LABEL: func.func @gemm_tile
// CHECK: vmcu.gemm_tile %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}] {channels = 3 : i64, double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 48 : i64, output_zp = 0 : i32, pixels = 2 : i64, words = 2 : i64, x_stride = 16 : i64} : memref<8xi32>, memref<96xi32>, memref<96xi8>
func.func @gemm_tile(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 2 : i64, x_stride = 16 : i64, out_stride = 48 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// CHECK-LABEL: func.func @requant_block
// CHECK: vmcu.requant_block %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}}[%{{.*}}] table %{{.*}}[%{{.*}}] {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 8 : i64, output_zp = 0 : i32, pixels = 2 : i64} : memref<16xi8>, memref<24xi32>
func.func @requant_block(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  vmcu.requant_block %a, %a, %a, %a into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 8 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// A compact kernel's table: multiplier words, exponent bytes and the half
// terms' odd factor.
// CHECK-LABEL: func.func @requant_block_compact_table
// CHECK: vmcu.requant_block %{{.*}}, %{{.*}} into %{{.*}}[%{{.*}}] table %{{.*}}[%{{.*}}] exponents %{{.*}} half %{{.*}} {compact_table, double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 4 : i64, output_zp = 0 : i32, pixels = 1 : i64} : memref<8xi8>, memref<4xi32>, memref<4xi8>
func.func @requant_block_compact_table(%o: memref<8xi8>, %t: memref<4xi32>, %e: memref<4xi8>, %i: index, %a: i32) {
  %odd = arith.constant -5 : i32
  vmcu.requant_block %a, %a into %o[%i] table %t[%i] exponents %e half %odd {pixels = 1 : i64, out_stride = 4 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, compact_table} : memref<8xi8>, memref<4xi32>, memref<4xi8>
  return
}

// CHECK-LABEL: func.func @requant_block_uniform_table
// CHECK: vmcu.requant_block %{{.*}}, %{{.*}} into %{{.*}}[%{{.*}}] table %{{.*}}[%{{.*}}] {double_round = true, max = 127 : i32, min = -128 : i32, out_stride = 4 : i64, output_zp = 0 : i32, pixels = 1 : i64, uniform_table} : memref<8xi8>, memref<3xi32>
func.func @requant_block_uniform_table(%o: memref<8xi8>, %t: memref<3xi32>, %i: index, %a: i32) {
  vmcu.requant_block %a, %a into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 4 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, uniform_table} : memref<8xi8>, memref<3xi32>
  return
}

// CHECK-LABEL: func.func @sync_ops
// CHECK: %[[E:.*]] = vmcu.sync_read %{{.*}}
// CHECK: vmcu.sync_set %{{.*}}, %[[E]]
// CHECK: vmcu.sync_wait %{{.*}}, %[[E]]
func.func @sync_ops(%slot: index) {
  %e = vmcu.sync_read %slot
  vmcu.sync_set %slot, %e
  vmcu.sync_wait %slot, %e
  return
}
