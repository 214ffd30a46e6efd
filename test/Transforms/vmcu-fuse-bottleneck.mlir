// RUN: vmcu-opt %s --vmcu-fuse-bottleneck --split-input-file | FileCheck %s
// RUN: vmcu-opt %s --vmcu-fuse-bottleneck="fuse-residual=false" --split-input-file | FileCheck %s --check-prefix=NORES
// RUN: vmcu-opt %s --vmcu-fuse-bottleneck="fuse-stem=false" --split-input-file | FileCheck %s --check-prefix=NOSTEM

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// CHECK-LABEL: func.func @residual
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<1x6x6x8xi8>
// CHECK: %[[E:.*]] = vmcu.bottleneck %[[A]] : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<1x6x6x8xi8>):
// CHECK-NEXT: %[[B:.*]] = vmcu.conv2d %[[IN]]
// CHECK-NEXT: %[[C:.*]] = vmcu.depthwise_conv2d %[[B]]
// CHECK-NEXT: %[[D:.*]] = vmcu.conv2d %[[C]]
// CHECK-NEXT: %[[S:.*]] = vmcu.add %[[D]], %[[IN]]
// CHECK-NEXT: vmcu.yield %[[S]]
// CHECK: return %[[E]]
// NORES-LABEL: func.func @residual
// NORES: %[[E:.*]] = vmcu.bottleneck
// NORES-NOT: vmcu.add
// NORES: vmcu.yield
// NORES: vmcu.add
func.func @residual(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) -> tensor<1x6x6x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  %e = vmcu.add %d, %a {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
  return %e : tensor<1x6x6x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

// A subtract of the block input is no residual: the chain fuses without
// it and the subtract stays a layer.
// CHECK-LABEL: func.func @subtract_not_residual
// CHECK: %[[E:.*]] = vmcu.bottleneck
// CHECK-NOT: vmcu.add
// CHECK: vmcu.yield
// CHECK: vmcu.add %[[E]], %{{.*}} {{{.*}}subtract}
// NORES-LABEL: func.func @subtract_not_residual
func.func @subtract_not_residual(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) -> tensor<1x6x6x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  %e = vmcu.add %d, %a {lhs_rescale = #in, rhs_rescale = #in, requant = #rq, subtract} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
  return %e : tensor<1x6x6x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// A strided depthwise and no residual: the chain still fuses.
// CHECK-LABEL: func.func @strided_no_residual
// CHECK: vmcu.bottleneck %{{.*}} : tensor<1x6x6x8xi8> -> tensor<1x3x3x8xi8>
// CHECK: vmcu.depthwise_conv2d {{.*}}stride = array<i64: 2, 2>
// CHECK-NOT: vmcu.add
func.func @strided_no_residual(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) -> tensor<1x3x3x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x3x3x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  return %d : tensor<1x3x3x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// The expansion has a second use: no fusion.
// CHECK-LABEL: func.func @shared_intermediate
// CHECK-NOT: vmcu.bottleneck
func.func @shared_intermediate(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) -> (tensor<1x6x6x8xi8>, tensor<1x6x6x24xi8>) {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  return %d, %b : tensor<1x6x6x8xi8>, tensor<1x6x6x24xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// Two blocks back to back: pw, dw, pw, dw, pw. Only the first chain is taken;
// the second would reuse its projection as an expansion.
// CHECK-LABEL: func.func @overlapping_chains
// CHECK: vmcu.bottleneck
// CHECK-NOT: vmcu.bottleneck
// CHECK: vmcu.depthwise_conv2d
// CHECK: vmcu.conv2d
// CHECK: return
func.func @overlapping_chains(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %w4: tensor<3x3x8x1xi8>, %b4: tensor<8xi32>, %w5: tensor<8x1x1x8xi8>, %b5: tensor<8xi32>) -> tensor<1x6x6x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  %f = vmcu.depthwise_conv2d %d, %w4, %b4 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  %g = vmcu.conv2d %f, %w5, %b5 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x6x6x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
  return %g : tensor<1x6x6x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// A stem: a KxK conv, a depthwise conv and a projection fuse into a
// bottleneck that runs only with a line buffer.
// CHECK-LABEL: func.func @stem
// CHECK: %[[E:.*]] = vmcu.bottleneck %{{.*}} {line_buffer} : tensor<1x9x9x3xi8> -> tensor<1x5x5x4xi8> {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<1x9x9x3xi8>):
// CHECK-NEXT: %[[B:.*]] = vmcu.conv2d %[[IN]], {{.*}}stride = array<i64: 2, 2>
// CHECK-NEXT: %[[C:.*]] = vmcu.depthwise_conv2d %[[B]]
// CHECK-NEXT: %[[D:.*]] = vmcu.conv2d %[[C]]
// CHECK-NEXT: vmcu.yield %[[D]]
// CHECK: return %[[E]]
// NOSTEM-LABEL: func.func @stem
// NOSTEM-NOT: vmcu.bottleneck
// NOSTEM: return
func.func @stem(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x3x3x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<4x1x1x8xi8>, %b3: tensor<4xi32>) -> tensor<1x5x5x4xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi8>
  return %d : tensor<1x5x5x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// The stem's projection is also the next block's expansion: the pointwise
// block is taken first, and the stem stays separate layers.
// CHECK-LABEL: func.func @stem_projection_expands_next
// CHECK: vmcu.conv2d %{{.*}}stride = array<i64: 2, 2>
// CHECK-NEXT: vmcu.depthwise_conv2d
// CHECK-NEXT: vmcu.bottleneck
// CHECK-NOT: line_buffer
// CHECK: return
func.func @stem_projection_expands_next(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x3x3x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<16x1x1x8xi8>, %b3: tensor<16xi32>, %w4: tensor<3x3x16x1xi8>, %b4: tensor<16xi32>, %w5: tensor<8x1x1x16xi8>, %b5: tensor<8xi32>) -> tensor<1x5x5x8xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>) -> tensor<1x5x5x16xi8>
  %e = vmcu.depthwise_conv2d %d, %w4, %b4 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x5x5x16xi8>
  %f = vmcu.conv2d %e, %w5, %b5 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  return %f : tensor<1x5x5x8xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// A stem conv whose stride exceeds its kernel would skip input rows the
// kernel never frees: no fusion.
// CHECK-LABEL: func.func @stem_stride_over_kernel
// CHECK-NOT: vmcu.bottleneck
// CHECK: return
func.func @stem_stride_over_kernel(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x2x2x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<4x1x1x8xi8>, %b3: tensor<4xi32>) -> tensor<1x3x3x4xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x2x2x3xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return %d : tensor<1x3x3x4xi8>
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>

// A strided projection: the line-buffer kernel, a stem's only one, does not
// take it, so the stem stays separate layers.
// CHECK-LABEL: func.func @stem_strided_projection
// CHECK-NOT: vmcu.bottleneck
// CHECK: return
func.func @stem_strided_projection(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x3x3x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<4x1x1x8xi8>, %b3: tensor<4xi32>) -> tensor<1x3x3x4xi8> {
  %b = vmcu.conv2d %a, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x5x5x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return %d : tensor<1x3x3x4xi8>
}
