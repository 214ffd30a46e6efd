// The memory report and picture of an unfused residual: while the add runs,
// the model input it reads as a skip tensor is live besides its chain input
// and output; the conv before it lists nothing else live.
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets="memory-report=%t.json memory-svg=%t.svg" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=SVG < %t.svg

// JSON:      "also_live": [],
// JSON:      "name": "conv2d_0",
// JSON:      "also_live": [
// JSON-NEXT:   "input"
// JSON-NEXT: ],
// JSON:      "name": "add_1",

// SVG-NOT: class="tensor live"
// SVG:     <rect class="tensor live" {{.*}}><title>add_1 live: input [0, 64)</title></rect>
// SVG-NOT: class="tensor live"

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
#in = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [30], double_round = true, min = -2147483648, max = 2147483647>

func.func @main(%x: tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  %z = vmcu.add %y, %x {lhs_rescale = #in, rhs_rescale = #in, requant = #rq} : (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) -> tensor<1x2x2x16xi8>
  return %z : tensor<1x2x2x16xi8>
}
