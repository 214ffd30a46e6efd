// RUN: vmcu-opt %s --vmcu-tile '--vmcu-solve-offsets=memory-report=%t.json memory-svg=%t.svg' > /dev/null
// RUN: cat %t.json %t.svg | FileCheck %s
// RUN: grep -c 'class="tensor"' %t.svg | FileCheck %s --check-prefix=COUNT
// RUN: not vmcu-opt %s --vmcu-tile --vmcu-solve-offsets=memory-svg=%t.missing/dir/r.svg 2>&1 | FileCheck %s --check-prefix=IO

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>

// A 1x1 conv and a 3x3 conv, 8x8x16 -> 8x8x48 -> 8x8x32. The SVG is drawn
// from the placement in the JSON report (read first, same run): conv2d_0's
// 3072-byte output starts past the middle of the arena and wraps, so it is
// two rectangles in both columns (written, then read); the second layer has
// the larger footprint and is the peak. Each tensor keeps its legend colour.
// CHECK: "layers": [
// CHECK:     "footprint_bytes": [[#FP0:]],
// CHECK:     "name": "conv2d_0",
// CHECK:     "footprint_bytes": [[#FP1:]],
// CHECK:     "name": "conv2d_1",
// CHECK: "peak_ram_bytes": [[#ARENA:]],
// CHECK: "tensor_level_bytes": [[#TL:]],
// CHECK: "tensors": [
// CHECK:     "base_bytes": [[#IN:]],
// CHECK-NEXT: "bytes": [[#IN_SIZE:]],
// CHECK-NEXT: "name": "input"
// CHECK:     "base_bytes": [[#MID:]],
// CHECK-NEXT: "bytes": [[#MID_SIZE:]],
// CHECK-NEXT: "name": "conv2d_0"
// CHECK:     "base_bytes": [[#OUT:]],
// CHECK-NEXT: "bytes": [[#OUT_SIZE:]],
// CHECK-NEXT: "name": "conv2d_1"

// CHECK: <svg xmlns="http://www.w3.org/2000/svg"
// CHECK: <text class="title"{{.*}}>peak_ram_bytes = [[#ARENA]] vs tensor_level_bytes = [[#TL]] ({{[0-9.]+}}%)</text>
// CHECK: <text class="address"{{.*}}>0</text>
// CHECK: <text class="address"{{.*}}>pool [[#ARENA]] B</text>
// CHECK: <rect class="peak"{{.*}}><title>peak: conv2d_1, [[#FP1]] B</title></rect>
// CHECK-NEXT: <text class="peak-label"{{.*}}>peak [[#FP1]] B</text>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[IN_COLOR:#[0-9a-f]+]]"{{.*}}><title>conv2d_0 in: input [[[#IN]], [[#IN+IN_SIZE]])</title></rect>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[MID_COLOR:#[0-9a-f]+]]"{{.*}}><title>conv2d_0 out: conv2d_0 [[[#MID]], [[#ARENA]])</title></rect>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[MID_COLOR]]"{{.*}}><title>conv2d_0 out: conv2d_0 [0, [[#MID+MID_SIZE-ARENA]])</title></rect>
// CHECK-NEXT: <text class="layer"{{.*}}>conv2d_0 ([[#FP0]] B + {{[0-9]+}} B stack)</text>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[MID_COLOR]]"{{.*}}><title>conv2d_1 in: conv2d_0 [[[#MID]], [[#ARENA]])</title></rect>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[MID_COLOR]]"{{.*}}><title>conv2d_1 in: conv2d_0 [0, [[#MID+MID_SIZE-ARENA]])</title></rect>
// CHECK-NEXT: <rect class="tensor"{{.*}} fill="[[OUT_COLOR:#[0-9a-f]+]]"{{.*}}><title>conv2d_1 out: conv2d_1 [[[#OUT]], [[#OUT+OUT_SIZE]])</title></rect>
// CHECK-NEXT: <text class="layer"{{.*}}>conv2d_1 ([[#FP1]] B + {{[0-9]+}} B stack)</text>
// CHECK: <rect class="swatch"{{.*}} fill="[[IN_COLOR]]"/>
// CHECK-NEXT: <text class="legend"{{.*}}>input ([[#IN_SIZE]] B)</text>
// CHECK-NEXT: <rect class="swatch"{{.*}} fill="[[MID_COLOR]]"/>
// CHECK-NEXT: <text class="legend"{{.*}}>conv2d_0 ([[#MID_SIZE]] B)</text>
// CHECK-NEXT: <rect class="swatch"{{.*}} fill="[[OUT_COLOR]]"/>
// CHECK-NEXT: <text class="legend"{{.*}}>conv2d_1 ([[#OUT_SIZE]] B)</text>
// CHECK-NEXT: </svg>

// COUNT: 6
// IO: error: cannot write memory picture
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> {
  %w0 = arith.constant dense<1> : tensor<48x1x1x16xi8>
  %b0 = arith.constant dense<2> : tensor<48xi32>
  %y = vmcu.conv2d %x, %w0, %b0 {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x16xi8>, tensor<48x1x1x16xi8>, tensor<48xi32>) -> tensor<1x8x8x48xi8>
  %w1 = arith.constant dense<1> : tensor<32x3x3x48xi8>
  %b1 = arith.constant dense<2> : tensor<32xi32>
  %z = vmcu.conv2d %y, %w1, %b1 {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x8x8x48xi8>, tensor<32x3x3x48xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
  return %z : tensor<1x8x8x32xi8>
}
