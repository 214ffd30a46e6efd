// vmcuc --report adds the object's flash bytes (and the loop levels of its
// compact kernels: 1 without a flash budget) to the solver's report;
// --memory-svg reaches vmcu-solve-offsets through the pipeline options.
// RUN: rm -rf %t && mkdir -p %t
// RUN: vmcuc %s -o %t/model.o --report %t/r.json --memory-svg %t/r.svg
// flash_bytes must equal the object's .text + .ARM.exidx + .rodata + .data,
// summed here by section name (the arena and non-allocated sections aside).
// RUN: llvm-size -A %t/model.o | awk '$1 ~ /^\.(text|rodata|data|ARM\.ex)/ { s += $2 } END { print "FLASH", s }' > %t/flash.txt
// RUN: cat %t/flash.txt %t/r.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=SVG < %t/r.svg
// Without an object there is nothing to measure.
// RUN: vmcuc %s --emit=llvm -o %t/model.ll --report %t/r2.json
// RUN: FileCheck %s --check-prefix=NOOBJ < %t/r2.json
// The post-solve stage skips the solver, so it cannot draw the arena.
// RUN: not vmcuc %S/../Tools/vmcuc/Inputs/two-kernels.mlir -o %t/two.o --memory-svg %t/two.svg 2>&1 | FileCheck %s --check-prefix=TILED

// CHECK: FLASH [[#FLASH:]]
// CHECK: {
// CHECK-NEXT: "compact_levels": 1,
// CHECK-NEXT: "flash_bytes": [[#FLASH]],
// CHECK-NEXT: "layers": [
// SVG: <text class="title"{{.*}}>peak_ram_bytes = {{[0-9]+}} vs tensor_level_bytes = {{[0-9]+}}
// SVG-COUNT-2: <rect class="tensor"
// SVG-NOT: <rect class="tensor"
// NOOBJ-NOT: compact_levels
// NOOBJ-NOT: flash_bytes
// NOOBJ: "peak_ram_bytes"
// TILED: error: --memory-svg needs vmcu-solve-offsets, which the vmcu-tiled input stage skips

#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x2x2x8xi8>) -> tensor<1x2x2x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x8xi8>
  %b = arith.constant dense<2> : tensor<16xi32>
  %y = vmcu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, input_zp = 0 : i32, requant = #rq} : (tensor<1x2x2x8xi8>, tensor<16x1x1x8xi8>, tensor<16xi32>) -> tensor<1x2x2x16xi8>
  return %y : tensor<1x2x2x16xi8>
}
