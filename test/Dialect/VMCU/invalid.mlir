// RUN: vmcu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pool must have at least one segment, got 0}}
func.func @f(%p: !vmcu.pool<segments = 0, segment_bytes = 8>) { return }

// -----

// expected-error @+1 {{segment_bytes must be positive, got 0}}
func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 0>) { return }

// -----

// expected-error @+1 {{requant has 2 multipliers but 1 shifts}}
func.func @f() attributes {q = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1, 2], shift = [35], double_round = true, min = -128, max = 127>} { return }

// -----

// expected-error @+1 {{requant multiplier must be non-negative, got -5}}
func.func @f() attributes {q = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [-5], shift = [35], double_round = true, min = -128, max = 127>} { return }

// -----

// expected-error @+1 {{requant shift must be in [1, 62], got 0}}
func.func @f() attributes {q = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [0], double_round = true, min = -128, max = 127>} { return }

// -----

// expected-error @+1 {{requant shift must be in [1, 62], got 63}}
func.func @f() attributes {q = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [63], double_round = true, min = -128, max = 127>} { return }

// -----

// expected-error @+1 {{requant clamp min (10) is greater than max (5)}}
func.func @f() attributes {q = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = 10, max = 5>} { return }

// -----

func.func @f() {
  // expected-error @+1 {{alignment must be a power of two, got 12}}
  %p = vmcu.segment_pool {alignment = 12} : !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %c = arith.constant 0 : index
  // expected-error @+1 {{accesses 64 bytes but the pool holds only 32}}
  %v = vmcu.ring_load %p[%c] : !vmcu.pool<segments = 4, segment_bytes = 8> -> vector<64xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %c = arith.constant -1 : index
  // expected-error @+1 {{segment address must be non-negative, got -1}}
  %v = vmcu.ring_load %p[%c] : !vmcu.pool<segments = 4, segment_bytes = 8> -> vector<8xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %c = arith.constant 0 : index
    %o = arith.constant 28 : index
  // expected-error @+1 {{byte offset 28 plus 8 bytes runs past the end of the pool (32 bytes)}}
  %v = vmcu.ring_load %p[%c, %o] : !vmcu.pool<segments = 4, segment_bytes = 8> -> vector<8xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %v: vector<8xi8>, %s: index) {
  %o = arith.constant -4 : index
  // expected-error @+1 {{byte offset must be non-negative, got -4}}
  vmcu.ring_store %v, %p[%s, %o] : vector<8xi8>, !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %v: vector<40xi8>, %s: index) {
  // expected-error @+1 {{accesses 40 bytes but the pool holds only 32}}
  vmcu.ring_store %v, %p[%s] : vector<40xi8>, !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{result #0 must be vector of 8-bit signless integer values of ranks 1}}
  %v = vmcu.ring_load %p[%s] : !vmcu.pool<segments = 4, segment_bytes = 8> -> vector<2xi32>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{views 5 segments but the pool holds only 4}}
  %v, %o, %c = vmcu.ring_view %p[%s] {count = 5, alignment = 4} : !vmcu.pool<segments = 4, segment_bytes = 8> -> memref<?xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{alignment must be a power of two, got 3}}
  %v, %o, %c = vmcu.ring_view %p[%s] {count = 1, alignment = 3} : !vmcu.pool<segments = 4, segment_bytes = 8> -> memref<?xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{view must be a memref<?xi8>}}
  %v, %o, %c = vmcu.ring_view %p[%s] {count = 1, alignment = 4} : !vmcu.pool<segments = 4, segment_bytes = 8> -> memref<32xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %s = arith.constant -1 : index
  // expected-error @+1 {{segment address must be non-negative, got -1}}
  %v, %o, %c = vmcu.ring_view %p[%s] {count = 1, alignment = 4} : !vmcu.pool<segments = 4, segment_bytes = 8> -> memref<?xi8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{frees 5 segments but the pool holds only 4}}
  vmcu.free %p[%s] {count = 5} : !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %s: index) {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  vmcu.free %p[%s] {count = 0} : !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x3xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{weight input channels (3) must match the input channels (4)}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{stride must have 2 entries, got 1}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{pad must have 4 entries [top, bottom, left, right], got 2}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{stride must be positive}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 0, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{pad must be non-negative}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: -1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<2x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{batch must be 1, got 2}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<2x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x1x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{kernel is larger than the padded input in height}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x1x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x1x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{padded height minus kernel (7) leaves 1 trailing position(s) no window reads, but pad bottom is 1; unread positions must be input, not padding}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  return
}

// -----

// Unread trailing columns are fine, but not when they are right padding.
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{padded width minus kernel (6) leaves 2 trailing position(s) no window reads, but pad right is 1}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 4>, pad = array<i64: 0, 0, 0, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x6x2x8xi8>
  return
}

// -----

// The output size is floored: 8 rows, 1x1 stride 2 give 4 rows, not 5.
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{output shape must be [1, 4, 4, 8], got 'tensor<1x5x5x8xi8>'}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x4x1xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{padded height minus kernel (7) leaves 3 trailing position(s) no window reads, but pad bottom is 1}}
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 4, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<3x3x4x1xi8>, tensor<4xi32>) -> tensor<1x2x8x4xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>) {
  // expected-error @+1 {{output shape must be [1, 3, 3, 4], got 'tensor<1x4x4x4xi8>'}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{output shape must be [1, 8, 8, 8], got 'tensor<1x7x8x8xi8>'}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x7x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{bias must have 8 elements, got 4}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<4xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{input_zp must be in the int8 range, got 200}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 200 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{requant has 2 channels, expected 1 or 8}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1, 1], shift = [2, 2], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{requant rescales an int32 accumulator, its input_zp must be 0}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 3, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x?x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{requires static shapes, got 'tensor<1x?x8x4xi8>'}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x?x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{operand #0 must be 4D tensor of 8-bit signless integer values}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{segment_bytes (3) must divide the segmented extent 4}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>, segment_bytes = 3} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{attribute 'segment_bytes' failed to satisfy constraint}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>, segment_bytes = 0} : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x4x2xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{weight must be [R, S, 4, 1] (output channel c * M + m at c * M + m), got 'tensor<3x3x4x2xi8>'}}
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<3x3x4x2xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x6x1xi8>, %b: tensor<6xi32>) {
  // expected-error @+1 {{output channels 6 must be a multiple of the input's 4 (a depth multiplier)}}
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<3x3x6x1xi8>, tensor<6xi32>) -> tensor<1x8x8x6xi8>
  return
}

// -----

func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x8x1xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{output shape must be [1, 8, 8, 8], got 'tensor<1x4x8x8xi8>'}}
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x8x8x4xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x4x8x8xi8>
  return
}

// -----

func.func @f(%x: tensor<2x16xi8>, %w: tensor<8x12xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{weight must be [N, 16] to match the input rows, got 'tensor<8x12xi8>'}}
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x16xi8>, tensor<8x12xi8>, tensor<8xi32>) -> tensor<2x8xi8>
  return
}

// -----

func.func @f(%x: tensor<2x16xi8>, %w: tensor<8x16xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{output shape must be [2, 8], got 'tensor<2x4xi8>'}}
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x16xi8>, tensor<8x16xi8>, tensor<8xi32>) -> tensor<2x4xi8>
  return
}

// -----

func.func @f(%x: tensor<2x16xi8>, %w: tensor<8x16xi8>, %b: tensor<8xi32>) {
  // expected-error @+1 {{segment_bytes (16) must divide the segmented extent 8}}
  %y = vmcu.fully_connected %x, %w, %b {input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>, segment_bytes = 16} : (tensor<2x16xi8>, tensor<8x16xi8>, tensor<8xi32>) -> tensor<2x8xi8>
  return
}

// -----

func.func @f(%a: tensor<1x4x4x4xi8>, %b: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{operands must broadcast to the result (same rank, each dimension the result's or 1, the result's the larger), got 'tensor<1x4x4x4xi8>', 'tensor<1x4x4x8xi8>' -> 'tensor<1x4x4x8xi8>'}}
  %y = vmcu.add %a, %b {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x4x4xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----

func.func @f(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{lhs_rescale must be per-tensor}}
  %y = vmcu.add %a, %b {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1, 1], shift = [2, 2], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----

func.func @f(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{rhs_rescale input_zp must be in the int8 range, got -300}}
  %y = vmcu.add %a, %b {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = -300, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x3x3x8xi8>) {
  // expected-error @+1 {{kernel must have 2 entries, got 3}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x8xi8>) -> tensor<1x1x1x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x3x3x8xi8>) {
  // expected-error @+1 {{min (10) is greater than max (-10)}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = 10 : i32, max = -10 : i32} : (tensor<1x3x3x8xi8>) -> tensor<1x1x1x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x3x3x8xi8>) {
  // expected-error @+1 {{output_zp must be in the int8 range, got 128}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 128 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x8xi8>) -> tensor<1x1x1x8xi8>
  return
}

// -----

func.func @f(%x: tensor<1x3x3x8xi8>) {
  // expected-error @+1 {{output shape must be [1, 1, 1, 8], got 'tensor<1x2x2x8xi8>'}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : (tensor<1x3x3x8xi8>) -> tensor<1x2x2x8xi8>
  return
}

// -----

func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{body must hold pw conv, depthwise conv, pw conv and an optional add, got 2 ops}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    vmcu.yield %z : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{second body op must be a vmcu.depthwise_conv2d of the expansion}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %b, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %q = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{fourth body op must be a vmcu.add of the projection and the block argument}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %s = vmcu.add %d, %z {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
    vmcu.yield %s : tensor<1x6x6x8xi8>
  }
  return
}

// -----

// A fused residual is an add: the kernel adds it (a subtract stays a
// separate layer).
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{fourth body op must be a vmcu.add of the projection and the block argument}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %s = vmcu.add %d, %in {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>, subtract} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
    vmcu.yield %s : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{body must yield the result of its last layer}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %in : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>, %z: tensor<1x6x6x8xi8>) {
  // expected-error @+1 {{segment_bytes (16) must divide the segmented extent 8}}
  %e = vmcu.bottleneck %a {segment_bytes = 16} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  // expected-error @+1 {{tensor of 5 segments does not fit the pool of 4}}
  %x = vmcu.tensor_base %p {name = "x", segments = 5} : !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  // expected-error @+1 {{base 4 is outside the pool of 4 segments}}
  %x = vmcu.tensor_base %p {name = "x", segments = 2, base = 4} : !vmcu.pool<segments = 4, segment_bytes = 8>
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %i: index) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{inputs must be vmcu.tensor_base values}}
  vmcu.kernel "k" ins(%i) outs(%x) {
  }
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %i: index) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{output must be a vmcu.tensor_base value}}
  vmcu.kernel "k" ins(%x) outs(%i) {
  }
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %i: index) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  %y = vmcu.tensor_base %p {name = "y", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{workspace must be a vmcu.tensor_base value}}
  vmcu.kernel "k" ins(%x) outs(%y) workspace(%i) {
  }
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{output must be a different tensor from its inputs}}
  vmcu.kernel "k" ins(%x) outs(%x) {
  }
  return
}

// -----

func.func @f(%acc: i32, %x: vector<4xi8>) -> i32 {
  // expected-error @+1 {{x_offset must be in [-128, 128], got 200}}
  %d = vmcu.dot %acc, %x, %x {x_offset = 200 : i32} : vector<4xi8>
  return %d : i32
}

// -----

func.func @f(%acc: i32, %x: vector<8xi8>) -> i32 {
  // expected-error @+1 {{operand #1 must be vector of 8-bit signless integer values of length 4}}
  %d = vmcu.dot %acc, %x, %x : vector<8xi8>
  return %d : i32
}

// -----

func.func @f(%v: i32) -> i8 {
  // expected-error @+1 {{clamp [-128, 300] exceeds the int8 result range}}
  %q = vmcu.requantize %v, %v, %v {output_zp = 0 : i32, min = -128 : i32, max = 300 : i32, double_round = true} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32) -> i32 {
  // expected-error @+1 {{min (5) is greater than max (4)}}
  %q = vmcu.requantize %v, %v, %v {output_zp = 0 : i32, min = 5 : i32, max = 4 : i32, double_round = true} : i32
  return %q : i32
}

// -----

func.func @f(%v: i32) -> i16 {
  // expected-error @+1 {{result #0 must be 8-bit signless integer or 32-bit signless integer}}
  %q = vmcu.requantize %v, %v, %v {output_zp = 0 : i32, min = 5 : i32, max = 4 : i32, double_round = true} : i16
  return %q : i16
}

// -----

func.func @f(%v: i32) -> i8 {
  %s = arith.constant 0 : i32
  // expected-error @+1 {{shift must be in [1, 62], got 0}}
  %q = vmcu.requantize %v, %v, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32) -> i8 {
  %s = arith.constant 63 : i32
  // expected-error @+1 {{shift must be in [1, 62], got 63}}
  %q = vmcu.requantize %v, %v, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32) -> i8 {
  %m = arith.constant -5 : i32
  // expected-error @+1 {{multiplier must be non-negative, got -5}}
  %q = vmcu.requantize %v, %m, %v {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32) -> i8 {
  %s = arith.constant 31 : i32
  // expected-error @+1 {{shift must be in [32, 62], got 31}}
  %q = vmcu.requantize %v, %v, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32) -> i32 {
  %s = arith.constant 32 : i32
  // expected-error @+1 {{shift must be in [9, 31], got 32}}
  %q = vmcu.requantize %v, %v, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false, narrow_value} : i32
  return %q : i32
}

// -----

func.func @f(%v: i32) -> i32 {
  %s = arith.constant 8 : i32
  // expected-error @+1 {{shift must be in [9, 31], got 8}}
  %q = vmcu.requantize %v, %v, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false, narrow_value} : i32
  return %q : i32
}

// -----

func.func @f(%o: memref<8xi8>, %t: memref<4xi32>, %i: index, %a: i32) {
  // expected-error @+1 {{takes exponents and half_odd exactly with compact_table}}
  vmcu.requant_block %a into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 4 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, compact_table} : memref<8xi8>, memref<4xi32>
  return
}

// -----

func.func @f(%o: memref<8xi8>, %t: memref<4xi32>, %e: memref<4xi8>, %i: index, %a: i32) {
  %odd = arith.constant 4 : i32
  // expected-error @+1 {{half_odd must be 1 + 2z for an int8 z, got 4}}
  vmcu.requant_block %a into %o[%i] table %t[%i] exponents %e half %odd {pixels = 1 : i64, out_stride = 4 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, compact_table} : memref<8xi8>, memref<4xi32>, memref<4xi8>
  return
}

// -----

func.func @f(%o: memref<8xi8>, %t: memref<4xi32>, %e: memref<4xi8>, %i: index, %a: i32) {
  %odd = arith.constant 1 : i32
  // expected-error @+1 {{takes exponents and half_odd exactly with compact_table}}
  vmcu.requant_block %a into %o[%i] table %t[%i] exponents %e half %odd {pixels = 1 : i64, out_stride = 4 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi8>, memref<4xi32>, memref<4xi8>
  return
}

// -----

func.func @f(%v: i32, %m: i32, %s: i32) -> i32 {
  // expected-error @+1 {{narrow_value takes no wide_shift, round or half operand}}
  %q = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false, wide_shift, narrow_value} : i32
  return %q : i32
}

// -----

// A line buffer needs a unit-stride 1x1 expansion.
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{line_buffer needs a unit-stride project convolution, a unit-stride 1x1 expansion or a KxK one of stride no larger than its kernel, and a depthwise stride no larger than its kernel}}
  %e = vmcu.bottleneck %a {line_buffer} : tensor<1x6x6x8xi8> -> tensor<1x3x3x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x3x3x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x3x3x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x3x3x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x3x3x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
    vmcu.yield %d : tensor<1x3x3x8xi8>
  }
  return
}

// -----

// Paired projections are a schedule of the line-buffer kernel only.
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{paired_projection needs line_buffer}}
  %e = vmcu.bottleneck %a {paired_projection} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return
}

// -----

// Reverse order is a traversal of the recomputing kernel only.
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<24x1x1x8xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{reverse_order is for the recomputing kernel, not with line_buffer}}
  %e = vmcu.bottleneck %a {line_buffer, reverse_order} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<24x1x1x8xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return
}

// -----

// With a line buffer the segment must also divide the expanded channels.
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<12x1x1x8xi8>, %b1: tensor<12xi32>, %w2: tensor<3x3x12x1xi8>, %b2: tensor<12xi32>, %w3: tensor<8x1x1x12xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{segment_bytes (8) must divide the segmented extent 12}}
  %e = vmcu.bottleneck %a {line_buffer, segment_bytes = 8} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<12x1x1x8xi8>, tensor<12xi32>) -> tensor<1x6x6x12xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x12xi8>, tensor<3x3x12x1xi8>, tensor<12xi32>) -> tensor<1x6x6x12xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x12xi8>, tensor<8x1x1x12xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    vmcu.yield %d : tensor<1x6x6x8xi8>
  }
  return
}

// -----

func.func @f(%v: i32, %m: i32, %s: i32, %h: i32) -> i8 {
  // expected-error @+1 {{a half operand needs bounded_value}}
  %q = vmcu.requantize %v, %m, %s half %h {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32, %m: i32, %s: i32) -> i8 {
  // expected-error @+1 {{bounded_value needs wide_shift and no round operand}}
  %q = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, bounded_value} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32, %m: i32, %s: i32, %r: i64) -> i8 {
  // expected-error @+1 {{a round operand needs wide_shift}}
  %q = vmcu.requantize %v, %m, %s round %r {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
  return %q : i8
}

// -----

func.func @f(%v: i32, %m: i32) -> i8 {
  %s = arith.constant 36 : i32
  // 2^35 + 2^30 = 34359738368 + 1073741824.
  %r = arith.constant 34359738368 : i64
  // expected-error @+1 {{round 34359738368 is not the rounding term of shift 36}}
  %q = vmcu.requantize %v, %m, %s round %r {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, wide_shift} : i8
  return %q : i8
}

// -----

// The facts passes hand on through a kernel are declared attributes.
!pool = !vmcu.pool<segments = 8, segment_bytes = 8>
func.func @f() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4} : !pool
  // expected-error @+1 {{attribute 'segment_bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {segment_bytes = 0 : i64} {
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 8>
func.func @f() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4} : !pool
  // expected-error @+1 {{attribute 'footprint' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {footprint = -1 : i64} {
  }
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 8>
func.func @f() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4} : !pool
  // expected-error @+1 {{attribute 'layer' failed to satisfy constraint: string attribute}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {layer = 3 : i64} {
  }
  return
}

// -----

// The dialect's discardable attributes are checked wherever they appear.
!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @bad_io_kind() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.tensor_base' op 'vmcu.io' must be "input" or "output", got "weights"}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "weights"} : !pool
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @io_index_alone() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.tensor_base' op 'vmcu.io_index' needs 'vmcu.io'}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io_index = 1 : i64} : !pool
  return
}

// -----

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @io_index_negative() {
  %pool = vmcu.segment_pool : !pool
  // expected-error @below {{'vmcu.tensor_base' op 'vmcu.io_index' must be a non-negative i64, got -1 : i64}}
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0, vmcu.io = "input", vmcu.io_index = -1 : i64} : !pool
  return
}

// -----

func.func @io_on_a_layer(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{'vmcu.softmax' op 'vmcu.io' only marks a vmcu.tensor_base}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32, vmcu.io = "input"} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @round_half_away_elsewhere(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{'vmcu.round_half_away' only applies to tosa.avg_pool2d}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32, vmcu.round_half_away} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @unknown_attribute(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{has an unknown vmcu attribute 'vmcu.colour'}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32, vmcu.colour = 3} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @softmax_depth(%x: tensor<1x512xi8>) -> tensor<1x512xi8> {
  // expected-error @below {{innermost dimension must hold 1 to 511 elements, got 512}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<1x512xi8>
  return %y : tensor<1x512xi8>
}

// -----

func.func @softmax_multiplier(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{input_multiplier must be in [2^30, 2^31), got -5}}
  %y = vmcu.softmax %x {input_multiplier = -5 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @softmax_shift(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{input_left_shift must be in [0, 31], got 40}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 40 : i32, diff_min = -248 : i32} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @softmax_diff_min(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{diff_min must not be positive, got 3}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = 3 : i32} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @softmax_types(%x: tensor<1x4xi8>) -> tensor<1x5xi8> {
  // expected-error @below {{all of {input, output} have same type}}
  %y = "vmcu.softmax"(%x) {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32} : (tensor<1x4xi8>) -> tensor<1x5xi8>
  return %y : tensor<1x5xi8>
}

// -----

func.func @tflite_average_zero_points(%x: tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8> {
  // expected-error @below {{round_half_away (TFLite's average) needs equal input and output zero points, got 3 and 4}}
  %y = vmcu.avg_pool2d %x {kernel = array<i64: 4, 4>, stride = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, input_zp = 3 : i32, output_zp = 4 : i32, min = -128 : i32, max = 127 : i32, round_half_away} : (tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8>
  return %y : tensor<1x1x1x8xi8>
}

// -----

func.func @max_pool_clamp(%x: tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8> {
  // expected-error @below {{min (10) is greater than max (5)}}
  %y = vmcu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, min = 10 : i32, max = 5 : i32} : (tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}

// -----

func.func @max_pool_shape(%x: tensor<1x4x4x8xi8>) -> tensor<1x3x3x8xi8> {
  // expected-error @below {{'vmcu.max_pool2d' op output shape must be [1, 2, 2, 8], got 'tensor<1x3x3x8xi8>'}}
  %y = vmcu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, min = -128 : i32, max = 127 : i32} : (tensor<1x4x4x8xi8>) -> tensor<1x3x3x8xi8>
  return %y : tensor<1x3x3x8xi8>
}

// -----

func.func @table_entries(%x: tensor<1x4xi8>, %t: tensor<128xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{table must have 256 entries (one per int8 value), got 128}}
  %y = vmcu.table %x, %t : (tensor<1x4xi8>, tensor<128xi8>) -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @dot_block_shape(%x: memref<32xi8>, %w: memref<64xi8>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{expects 1 or 2 pixels with a whole number of channels each, got 3 accumulators for 2 pixels}}
  %r:3 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 16 : i64} : memref<32xi8>, memref<64xi8>
  return %r#0 : i32
}

// -----

func.func @dot_block_overlap(%x: memref<32xi8>, %w: memref<64xi8>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{x_stride (4) overlaps the pixels' 8 bytes}}
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a {pixels = 2 : i64, words = 2 : i64, x_stride = 4 : i64} : memref<32xi8>, memref<64xi8>
  return %r#0 : i32
}

// -----

func.func @dot_block_reach(%x: memref<8192xi8>, %w: memref<64xi8>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{addresses bytes beyond offset 4095 of its operands (4096 of x, 0 of w); split it into shorter blocks}}
  %r:2 = vmcu.dot_block %x[%i], %w[%i], %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 4096 : i64} : memref<8192xi8>, memref<64xi8>
  return %r#0 : i32
}

// -----

func.func @dot_block_wide_weights_type(%x: memref<32xi32>, %w: memref<64xi32>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{w must be i32 exactly when widened_weights}}
  %r:2 = vmcu.dot_block %x[%i], %w[%i], %a, %a {pixels = 1 : i64, words = 1 : i64, x_stride = 8 : i64, widened} : memref<32xi32>, memref<64xi32>
  return %r#0 : i32
}

// -----

func.func @dot_block_wide_weights_raw_x(%x: memref<32xi8>, %w: memref<64xi32>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{widened_weights over raw inputs takes 1 pixel, got 2}}
  %r:4 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 8 : i64, widened_weights} : memref<32xi8>, memref<64xi32>
  return %r#0 : i32
}

// -----

func.func @dot_block_paired_wide_weights(%x: memref<32xi32>, %w: memref<64xi32>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{paired_weights packs int8 weights, not widened ones}}
  %r:2 = vmcu.dot_block %x[%i], %w[%i], %a, %a {pixels = 1 : i64, words = 1 : i64, x_stride = 8 : i64, widened, widened_weights, paired_weights} : memref<32xi32>, memref<64xi32>
  return %r#0 : i32
}

// -----

func.func @dot_block_paired_registers(%x: memref<32xi32>, %w: memref<64xi8>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{needs 15 registers for 2 x 5, more than the 13 available}}
  %r:10 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a, %a, %a, %a, %a, %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 8 : i64, widened, paired_weights} : memref<32xi32>, memref<64xi8>
  return %r#0 : i32
}

// -----

func.func @dot_block_wide_weights_registers(%x: memref<32xi32>, %w: memref<64xi32>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{needs 16 registers for 2 x 4, more than the 13 available}}
  %r:8 = vmcu.dot_block %x[%i], %w[%i], %a, %a, %a, %a, %a, %a, %a, %a {pixels = 2 : i64, words = 1 : i64, x_stride = 8 : i64, widened, widened_weights} : memref<32xi32>, memref<64xi32>
  return %r#0 : i32
}

// -----

func.func @dot_block_widened_type(%x: memref<32xi8>, %w: memref<64xi8>, %i: index, %a: i32) -> i32 {
  // expected-error @below {{x must be i32 exactly when widened}}
  %r:2 = vmcu.dot_block %x[%i], %w[%i], %a, %a {pixels = 1 : i64, words = 1 : i64, x_stride = 8 : i64, widened} : memref<32xi8>, memref<64xi8>
  return %r#0 : i32
}

// -----

// expected-error @below {{edge scale must be a positive, finite f32, got 0.000000e+00 : f32}}
module attributes {vmcu.input_edge = #vmcu.edge<scale = 0.0 : f32, zero_point = 0, is_float = false>} {}

// -----

// expected-error @below {{edge zero point must be in the int8 range, got 200}}
module attributes {vmcu.output_edge = #vmcu.edge<scale = 0.5 : f32, zero_point = 200, is_float = true>} {}

// -----

func.func @edge_elsewhere(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{'vmcu.input_edge' only applies to a module}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32, vmcu.input_edge = #vmcu.edge<scale = 0.5 : f32, zero_point = 0, is_float = false>} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

// Operands broadcast to the result: a result dimension no operand has.
func.func @mul_bad_broadcast(%x: tensor<1x4x1x8xi8>, %s: tensor<1x4x1x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{operands must broadcast to the result (same rank, each dimension the result's or 1, the result's the larger), got 'tensor<1x4x1x8xi8>', 'tensor<1x4x1x8xi8>' -> 'tensor<1x4x4x8xi8>'}}
  %y = vmcu.mul %x, %s {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x1x8xi8>, tensor<1x4x1x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// Operands of another rank than the result.
func.func @mul_bad_rank(%x: tensor<1x4x4x8xi8>, %s: tensor<8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{operands must broadcast to the result}}
  %y = vmcu.mul %x, %s {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x4x8xi8>, tensor<8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

func.func @mul_two_constants() -> tensor<1x2x8xi8> {
  %a = arith.constant dense<3> : tensor<1x2x8xi8>
  %b = arith.constant dense<5> : tensor<1x1x8xi8>
  // expected-error @+1 {{has two constant operands; fold them first}}
  %y = vmcu.mul %a, %b {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x2x8xi8>, tensor<1x1x8xi8>) -> tensor<1x2x8xi8>
  return %y : tensor<1x2x8xi8>
}

// -----

func.func @mul_zero_point(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{lhs_zp}}
  %y = vmcu.mul %x, %x {lhs_zp = 300 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

func.func @requant_block_shape(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{expects a whole number of channels per pixel, got 3 sums for 2 pixels}}
  vmcu.requant_block %a, %a, %a into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 8 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// -----

func.func @requant_block_registers(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{needs 14 registers for 8 sums, more than the 13 available}}
  vmcu.requant_block %a, %a, %a, %a, %a, %a, %a, %a into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 8 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// -----

func.func @requant_block_bounds(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{expects int8 bounds min <= max, got [-128, 200]}}
  vmcu.requant_block %a, %a into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 0 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 200 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// -----

func.func @requant_block_zp(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{expects an int8 output_zp, got 300}}
  vmcu.requant_block %a, %a into %o[%i] table %t[%i] {pixels = 1 : i64, out_stride = 0 : i64, double_round = true, output_zp = 300 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// -----

func.func @requant_block_overlap(%o: memref<16xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{out_stride (2) overlaps the pixels' 3 bytes}}
  vmcu.requant_block %a, %a, %a, %a, %a, %a into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 2 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<16xi8>, memref<24xi32>
  return
}

// -----

func.func @requant_block_reach(%o: memref<8192xi8>, %t: memref<24xi32>, %i: index, %a: i32) {
  // expected-error @below {{stores up to byte 5000 past out_index, beyond the 4095 a store's immediate offset reaches}}
  vmcu.requant_block %a, %a into %o[%i] table %t[%i] {pixels = 2 : i64, out_stride = 5000 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8192xi8>, memref<24xi32>
  return
}

// -----

func.func @depthwise_block_no_taps(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  // expected-error @below {{expects at least one tap}}
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64>, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// -----

func.func @depthwise_block_offset(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  // expected-error @below {{tap offset 4094 is outside [0, 4092]: the block reads every tap at an immediate offset}}
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64: 0, 4094>, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// -----

func.func @depthwise_block_record(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  // 510 taps: 16 + 255 * 4 words of record, its last word at byte 4140.
  // expected-error @below {{reads its record up to byte 4140, beyond the immediate offset 4095}}
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// -----

func.func @depthwise_block_bounds(%x: memref<48xi8>, %r: memref<22xi32>, %o: memref<16xi8>, %i: index) {
  // expected-error @below {{expects int8 bounds min <= max, got [10, 5]}}
  vmcu.depthwise_block %x[%i], %r[%i] into %o[%i] {tap_offsets = array<i64: 0, 16, 32>, double_round = true, output_zp = 0 : i32, min = 10 : i32, max = 5 : i32} : memref<48xi8>, memref<22xi32>, memref<16xi8>
  return
}

// -----

func.func @gemm_tile_registers(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  // expected-error @below {{needs 15 registers for 2 x 4, more than the 13 available}}
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 4 : i64, words = 2 : i64, x_stride = 16 : i64, out_stride = 48 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// -----

func.func @gemm_tile_stride(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  // expected-error @below {{x_stride (8) overlaps the pixels' 16 bytes}}
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 2 : i64, x_stride = 8 : i64, out_stride = 48 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// -----

func.func @gemm_tile_reach(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  // 3 channels x (2 x 200 + 4) words of record: its last word at byte 4844.
  // expected-error @below {{addresses bytes beyond offset 4095 of its operands (3196 of x, 4844 of the record, 50 of out)}}
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 200 : i64, x_stride = 1600 : i64, out_stride = 48 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// -----

func.func @gemm_tile_out_stride(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  // expected-error @below {{out_stride (2) overlaps the pixels' 3 bytes}}
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 2 : i64, x_stride = 16 : i64, out_stride = 2 : i64, double_round = true, output_zp = 0 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// -----

func.func @gemm_tile_zp(%x: memref<8xi32>, %r: memref<96xi32>, %o: memref<96xi8>, %i: index) {
  // expected-error @below {{expects an int8 output_zp, got 200}}
  vmcu.gemm_tile %x[%i], %r[%i] into %o[%i] {pixels = 2 : i64, channels = 3 : i64, words = 2 : i64, x_stride = 16 : i64, out_stride = 48 : i64, double_round = true, output_zp = 200 : i32, min = -128 : i32, max = 127 : i32} : memref<8xi32>, memref<96xi32>, memref<96xi8>
  return
}

// -----

func.func @concat_axis(%a: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  // expected-error @below {{axis 4 is outside the output's rank 4}}
  %y = vmcu.concat %a, %a {axis = 4 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

func.func @concat_extent(%a: tensor<1x4x4x8xi8>) -> tensor<1x4x4x12xi8> {
  // expected-error @below {{the inputs' extents along axis 3 add up to 16, the output has 12}}
  %y = vmcu.concat %a, %a {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x12xi8>
  return %y : tensor<1x4x4x12xi8>
}

// -----

func.func @concat_other_dim(%a: tensor<1x4x4x8xi8>, %b: tensor<1x4x2x8xi8>) -> tensor<1x4x4x16xi8> {
  // expected-error @below {{input #1 differs from the output in dimension 2, which is not the axis}}
  %y = vmcu.concat %a, %b {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<1x4x2x8xi8>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

func.func @concat_rank(%a: tensor<1x4x4x8xi8>, %b: tensor<4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  // expected-error @below {{input #1 has rank 3, the output 4}}
  %y = vmcu.concat %a, %b {axis = 3 : i32} : (tensor<1x4x4x8xi8>, tensor<4x4x8xi8>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

func.func @concat_empty() -> tensor<1x4xi8> {
  // expected-error @below {{needs at least one input}}
  %y = vmcu.concat {axis = 1 : i32} : () -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @concat_segment(%a: tensor<1x4x4x6xi8>, %b: tensor<1x4x4x8xi8>) -> tensor<1x4x4x14xi8> {
  // expected-error @below {{segment_bytes (4) must divide the segmented extent 6}}
  %y = vmcu.concat %a, %b {axis = 3 : i32, segment_bytes = 4} : (tensor<1x4x4x6xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x14xi8>
  return %y : tensor<1x4x4x14xi8>
}

// -----

func.func @slice_past_end(%x: tensor<1x8x8x16xi8>) -> tensor<1x4x8x8xi8> {
  // expected-error @below {{dimension 1 reads element 9 of 8}}
  %y = vmcu.slice %x {start = array<i64: 0, 3, 0, 4>, stride = array<i64: 1, 2, 1, 1>} : (tensor<1x8x8x16xi8>) -> tensor<1x4x8x8xi8>
  return %y : tensor<1x4x8x8xi8>
}

// -----

func.func @slice_stride(%x: tensor<1x8xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{dimension 1: start 0 and stride 0 must be non-negative and positive}}
  %y = vmcu.slice %x {start = array<i64: 0, 0>, stride = array<i64: 1, 0>} : (tensor<1x8xi8>) -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @slice_starts(%x: tensor<1x8xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{needs 2 starts and strides}}
  %y = vmcu.slice %x {start = array<i64: 0>, stride = array<i64: 1, 1>} : (tensor<1x8xi8>) -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

func.func @slice_rank(%x: tensor<1x8xi8>) -> tensor<4xi8> {
  // expected-error @below {{needs input and output of one rank (at least 1), got 'tensor<1x8xi8>' and 'tensor<4xi8>'}}
  %y = vmcu.slice %x {start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

func.func @transpose_not_permutation(%x: tensor<1x3x8x8xi8>) -> tensor<1x8x8x8xi8> {
  // expected-error @below {{perms must be a permutation of 0..3}}
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 2, 1>} : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x8xi8>
  return %y : tensor<1x8x8x8xi8>
}

// -----

func.func @transpose_shape(%x: tensor<1x3x8x8xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error @below {{output dimension 3 is 4, input dimension 1 is 3}}
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x4xi8>
  return %y : tensor<1x8x8x4xi8>
}

// -----

func.func @transpose_rank(%x: tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8> {
  // expected-error @below {{needs input, output and perms of one rank (at least 1), got 'tensor<1x3x8x8xi8>', 'tensor<1x8x8x3xi8>' and 3 perms}}
  %y = vmcu.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<1x3x8x8xi8>) -> tensor<1x8x8x3xi8>
  return %y : tensor<1x8x8x3xi8>
}

// -----

func.func @concat_empty_dim(%a: tensor<2x0xi8>) -> tensor<2x0xi8> {
  // expected-error @below {{needs tensors without empty dimensions, got 'tensor<2x0xi8>'}}
  %y = vmcu.concat %a, %a {axis = 1 : i32} : (tensor<2x0xi8>, tensor<2x0xi8>) -> tensor<2x0xi8>
  return %y : tensor<2x0xi8>
}

// -----

func.func @resize_bad_0(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x4xi8> {
  // expected-error @+1 {{keeps the batch and the channels, got 'tensor<1x2x2x8xi8>' -> 'tensor<1x4x4x4xi8>'}}
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1>, cols = array<i64: 0, 0, 1, 1>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

func.func @resize_bad_1(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{rows has 3 entries, the output has 4}}
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1>, cols = array<i64: 0, 0, 1, 1>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

func.func @resize_bad_2(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{cols[3] = 2 is outside the input's 2}}
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 0, 1, 1>, cols = array<i64: 0, 0, 1, 2>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

func.func @resize_bad_3(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{rows must be non-decreasing, got 0 after 1}}
  %y = vmcu.resize_nearest %x {rows = array<i64: 0, 1, 0, 1>, cols = array<i64: 0, 0, 1, 1>} : (tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// A fused residual reads the block input at the output's segments: it must
// not broadcast (a one-channel block input here).
func.func @f(%a: tensor<1x6x6x1xi8>, %w1: tensor<24x1x1x1xi8>, %b1: tensor<24xi32>, %w2: tensor<3x3x24x1xi8>, %b2: tensor<24xi32>, %w3: tensor<8x1x1x24xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{residual add must not broadcast: its operands 'tensor<1x6x6x1xi8>' and 'tensor<1x6x6x8xi8>' and its result 'tensor<1x6x6x8xi8>' must have one type}}
  %e = vmcu.bottleneck %a : tensor<1x6x6x1xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x1xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x1xi8>, tensor<24x1x1x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>) -> tensor<1x6x6x24xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x24xi8>, tensor<8x1x1x24xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %s = vmcu.add %d, %in {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<1x6x6x1xi8>) -> tensor<1x6x6x8xi8>
    vmcu.yield %s : tensor<1x6x6x8xi8>
  }
  return
}

// -----

// A rank-0 operand with segment_bytes set: the interface verifier asks for
// the segmented extents before the op checks ranks; no crash, the op's error.
func.func @add_rank0(%a: tensor<1x4x4x8xi8>, %b: tensor<i8>) -> tensor<1x4x4x8xi8> {
  // expected-error @+1 {{operands must broadcast to the result}}
  %y = vmcu.add %a, %b {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>, segment_bytes = 8 : i64} : (tensor<1x4x4x8xi8>, tensor<i8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// A stem bottleneck (a KxK expansion) has no recomputing kernel.
func.func @f(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x3x3x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<4x1x1x8xi8>, %b3: tensor<4xi32>) {
  // expected-error @+1 {{a stem bottleneck (a KxK expansion) runs only with line_buffer and without a residual}}
  %e = vmcu.bottleneck %a : tensor<1x9x9x3xi8> -> tensor<1x5x5x4xi8> {
  ^bb0(%in: tensor<1x9x9x3xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x9x9x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x5x5x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x5x5x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x5x5x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi8>
    vmcu.yield %d : tensor<1x5x5x4xi8>
  }
  return
}

// -----

// Nor a residual.
func.func @f(%a: tensor<1x6x6x8xi8>, %w1: tensor<16x3x3x8xi8>, %b1: tensor<16xi32>, %w2: tensor<3x3x16x1xi8>, %b2: tensor<16xi32>, %w3: tensor<8x1x1x16xi8>, %b3: tensor<8xi32>) {
  // expected-error @+1 {{a stem bottleneck (a KxK expansion) runs only with line_buffer and without a residual}}
  %e = vmcu.bottleneck %a {line_buffer} : tensor<1x6x6x8xi8> -> tensor<1x6x6x8xi8> {
  ^bb0(%in: tensor<1x6x6x8xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<16x3x3x8xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x16xi8>, tensor<3x3x16x1xi8>, tensor<16xi32>) -> tensor<1x6x6x16xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x16xi8>, tensor<8x1x1x16xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
    %s = vmcu.add %d, %in {lhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>, rhs_rescale = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x6x6x8xi8>, tensor<1x6x6x8xi8>) -> tensor<1x6x6x8xi8>
    vmcu.yield %s : tensor<1x6x6x8xi8>
  }
  return
}

// -----

// A stem's stride must not exceed its kernel: the rows it skips would never
// be freed.
func.func @f(%a: tensor<1x9x9x3xi8>, %w1: tensor<8x2x2x3xi8>, %b1: tensor<8xi32>, %w2: tensor<3x3x8x1xi8>, %b2: tensor<8xi32>, %w3: tensor<4x1x1x8xi8>, %b3: tensor<4xi32>) {
  // expected-error @+1 {{line_buffer needs a unit-stride project convolution, a unit-stride 1x1 expansion or a KxK one of stride no larger than its kernel, and a depthwise stride no larger than its kernel}}
  %e = vmcu.bottleneck %a {line_buffer} : tensor<1x9x9x3xi8> -> tensor<1x3x3x4xi8> {
  ^bb0(%in: tensor<1x9x9x3xi8>):
    %b = vmcu.conv2d %in, %w1, %b1 {stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x9x9x3xi8>, tensor<8x2x2x3xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
    %c = vmcu.depthwise_conv2d %b, %w2, %b2 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x3x3x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
    %d = vmcu.conv2d %c, %w3, %b3 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<1x3x3x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
    vmcu.yield %d : tensor<1x3x3x4xi8>
  }
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{a residual operand and residual_add go together}}
  %y = vmcu.conv2d %x, %w, %b residual %x {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
func.func @f(%x: tensor<1x8x8x4xi8>, %r: tensor<1x8x8x8xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{residual must have the output's type 'tensor<1x8x8x4xi8>', got 'tensor<1x8x8x8xi8>'}}
  %y = vmcu.conv2d %x, %w, %b residual %r {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #rs, skip = #rs, requant = #rq>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1x8x8x8xi8>) -> tensor<1x8x8x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
#rc = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824, 1073741824], shift = [30, 30], double_round = true, min = -2147483648, max = 2147483647>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{residual_add skip rescale must be per-tensor}}
  %y = vmcu.conv2d %x, %w, %b residual %x {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #rs, skip = #rc, requant = #rq>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{with global_avg_pool the output must be [1, 1, 1, 4], got 'tensor<1x8x8x4xi8>'}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
func.func @f(%x: tensor<1x8x8x4xi8>, %r: tensor<1x1x1x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool takes no residual}}
  %y = vmcu.conv2d %x, %w, %b residual %r {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #rs, skip = #rs, requant = #rq>, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1x1x1x4xi8>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool output_zp must be in the int8 range, got 300}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 300, min = -128, max = 127, round_half_away = false>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool min (10) is greater than max (5)}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = 10, max = 5, round_half_away = false>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool round_half_away (TFLite's average) needs equal input and output zero points, got 1 and 2}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 1, output_zp = 2, min = -128, max = 127, round_half_away = true>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x2x8x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{kernel is larger than the padded input in height}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x2x8x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool takes round_half_away or a requant, not both}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = true, requant = #rq>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<4x1x1x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{global_avg_pool output_zp, min and max must be its requant's}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 5, min = -128, max = 127, round_half_away = false, requant = #rq>} : (tensor<1x8x8x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return
}

// -----

func.func @batch_matmul_shapes(%a: tensor<2x4x8xi8>, %b: tensor<2x6x3xi8>) -> tensor<2x4x3xi8> {
  // expected-error @+1 {{expects lhs [B, M, K], rhs [B, K, N] and output [B, M, N], got 'tensor<2x4x8xi8>', 'tensor<2x6x3xi8>' -> 'tensor<2x4x3xi8>'}}
  %y = vmcu.batch_matmul %a, %b {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x4x8xi8>, tensor<2x6x3xi8>) -> tensor<2x4x3xi8>
  return %y : tensor<2x4x3xi8>
}

// -----

func.func @batch_matmul_batches(%a: tensor<2x4x8xi8>, %b: tensor<3x8x3xi8>) -> tensor<2x4x3xi8> {
  // expected-error @+1 {{expects lhs [B, M, K], rhs [B, K, N] and output [B, M, N]}}
  %y = vmcu.batch_matmul %a, %b {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x4x8xi8>, tensor<3x8x3xi8>) -> tensor<2x4x3xi8>
  return %y : tensor<2x4x3xi8>
}

// -----

func.func @batch_matmul_per_channel(%a: tensor<2x4x8xi8>, %b: tensor<2x8x2xi8>) -> tensor<2x4x2xi8> {
  // expected-error @+1 {{requant must be per tensor (1 channel), got 2}}
  %y = vmcu.batch_matmul %a, %b {lhs_zp = 0 : i32, rhs_zp = 0 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824, 1073741824], shift = [35, 35], double_round = true, min = -128, max = 127>} : (tensor<2x4x8xi8>, tensor<2x8x2xi8>) -> tensor<2x4x2xi8>
  return %y : tensor<2x4x2xi8>
}

// -----

func.func @batch_matmul_zero_point(%a: tensor<2x4x8xi8>, %b: tensor<2x8x2xi8>) -> tensor<2x4x2xi8> {
  // expected-error @+1 {{rhs_zp must be in the int8 range, got 200}}
  %y = vmcu.batch_matmul %a, %b {lhs_zp = 0 : i32, rhs_zp = 200 : i32, requant = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>} : (tensor<2x4x8xi8>, tensor<2x8x2xi8>) -> tensor<2x4x2xi8>
  return %y : tensor<2x4x2xi8>
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  %y = vmcu.tensor_base %p {name = "y", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{cores must be 2, got 3}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {cores = 3 : i64} {
  }
  return
}

// -----

// The cores take the iterations of the first top-level loop that accesses
// the ring in turn: a store before it has no core to run on.
func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %v: vector<8xi8>) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  %y = vmcu.tensor_base %p {name = "y", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{split between cores needs a top-level loop before any other ring load or store}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {cores = 2 : i64} {
    vmcu.ring_store %v, %p[%y] : vector<8xi8>, !vmcu.pool<segments = 4, segment_bytes = 8>
    affine.for %i = 0 to 1 {
      %s = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%y]
      vmcu.ring_store %v, %p[%s] : vector<8xi8>, !vmcu.pool<segments = 4, segment_bytes = 8>
    }
  }
  return
}

// -----

// split_depth 2 takes the pixels of each row in turn: one loop in the row
// holds them.
func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>, %v: vector<8xi8>) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  %y = vmcu.tensor_base %p {name = "y", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{split_depth 2 needs one loop inside the split loop holding its ring loads and stores}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {cores = 2 : i64, split_depth = 2 : i64} {
    affine.for %i = 0 to 2 {
      %s = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%y]
      vmcu.ring_store %v, %p[%s] : vector<8xi8>, !vmcu.pool<segments = 4, segment_bytes = 8>
    }
  }
  return
}

// -----

func.func @f(%p: !vmcu.pool<segments = 4, segment_bytes = 8>) {
  %x = vmcu.tensor_base %p {name = "x", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  %y = vmcu.tensor_base %p {name = "y", segments = 2} : !vmcu.pool<segments = 4, segment_bytes = 8>
  // expected-error @+1 {{split_depth and split_phases need cores}}
  vmcu.kernel "k" ins(%x) outs(%y) attributes {split_depth = 2 : i64} {
  }
  return
}

// -----

func.func @f(%v: i32) {
  %slot = arith.constant 6 : index
  // expected-error @+1 {{slot must be in [0, 6), got 6}}
  vmcu.sync_set %slot, %v
  return
}

// -----

func.func @f(%v: i32) {
  %slot = arith.constant -1 : index
  // expected-error @+1 {{slot must be in [0, 6), got -1}}
  vmcu.sync_wait %slot, %v
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{with window_avg_pool 2x2 over 'tensor<1x7x7x4xi8>' the output must be 'tensor<1x3x3x4xi8>', got 'tensor<1x7x7x4xi8>'}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x7x7x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool kernel 0x2 must be positive and within the conv's 7x7 plane}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 0, kernel_w = 2, input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool output_zp must be in the int8 range, got 300}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 0, output_zp = 300, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool min (10) is greater than max (5)}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 0, output_zp = 0, min = 10, max = 5, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool round_half_away (TFLite's average) needs equal input and output zero points, got 1 and 2}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 1, output_zp = 2, min = -128, max = 127, round_half_away = true>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{takes global_avg_pool or window_avg_pool, not both}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>, global_avg_pool = #vmcu.global_avg_pool<input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
func.func @f(%x: tensor<1x9x9x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool kernel 8x2 must be positive and within the conv's 7x7 plane}}
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 8, kernel_w = 2, input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x0x3x4xi8>
  return
}

// -----

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [35], double_round = true, min = -128, max = 127>
#rs = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>
func.func @f(%x: tensor<1x9x9x4xi8>, %r: tensor<1x3x3x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{window_avg_pool takes no residual}}
  %y = vmcu.conv2d %x, %w, %b residual %r {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq, residual_add = #vmcu.residual_add<conv = #rs, skip = #rs, requant = #rq>, window_avg_pool = #vmcu.window_avg_pool<kernel_h = 2, kernel_w = 2, input_zp = 0, output_zp = 0, min = -128, max = 127, round_half_away = false>} : (tensor<1x9x9x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1x3x3x4xi8>) -> tensor<1x3x3x4xi8>
  return
}

// -----

// expected-error @below {{'vmcu.reference_flash_bytes' must be a non-negative i64, got -1 : i64}}
module attributes {vmcu.reference_flash_bytes = -1 : i64} {}

// -----

func.func @main(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  // expected-error @below {{'vmcu.reference_flash_bytes' only applies to a module}}
  %y = vmcu.softmax %x {input_multiplier = 1717986944 : i32, input_left_shift = 23 : i32, diff_min = -248 : i32, vmcu.reference_flash_bytes = 10 : i64} : tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

// expected-error @below {{'vmcu.shared_kernels' must be a non-empty array of strings}}
llvm.func internal @k0() attributes {vmcu.shared_kernels = [1 : i32]} {
  llvm.return
}

// -----

// expected-error @below {{'vmcu.shared_kernels' only applies to llvm.func}}
module attributes {vmcu.shared_kernels = ["k1"]} {}

// -----

// expected-error @below {{'vmcu.shared_kernels' must be a non-empty array of strings}}
llvm.func internal @k1() attributes {vmcu.shared_kernels = []} {
  llvm.return
}
