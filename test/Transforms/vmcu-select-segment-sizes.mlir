// The MCUNet-5fps-VWW chain's default segments (16 ... 96 bytes) make the
// pool capacity a multiple of lcm = 480 bytes: 7200 B for a largest
// footprint of 6736 B, plus the largest kernel's stack buffers. Under
// ram-kb=7 (7168 B of SRAM, arena and stack buffers) the pass drops the
// alignment until the SRAM fits: 8-byte segments almost everywhere, an
// arena of 6760 B. Under ram-kb=8 nothing changes, and nothing fits 6 KiB:
// the error gives the least SRAM found and names the bottleneck that needs
// 6736 B of arena.
// RUN: vmcu-gen --kind=mcunet-vww-chain --seed=1 -o %t.mlir
// RUN: vmcu-opt %t.mlir --convert-tosa-to-vmcu --vmcu-fuse-bottleneck -o %t.layers.mlir

// RUN: vmcu-opt %t.layers.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=DEFAULT
// RUN: vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=8 --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: vmcu.segment_pool : !vmcu.pool<segments = 900, segment_bytes = 8>
// DEFAULT-COUNT-2: segment_bytes = 96 : i64

// RUN: vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=7 --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=FIT
// FIT: vmcu.segment_pool : !vmcu.pool<segments = 845, segment_bytes = 8>
// FIT-NOT: segment_bytes = 96
// FIT-NOT: segment_bytes = 48

// RUN: not vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=6 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFIT
// NOFIT: error: model needs 7136 bytes of SRAM at best (arena 6736 + kernel stack buffers 400), more than ram-kb=6 (6144 bytes); layer 'bottleneck_0' alone needs 6736 bytes of arena

// Without ram-kb the plan is the least SRAM. A 3x3 depthwise over 3x3x256
// keeps a window of 9 segments and one more on the stack: 2560 B with the
// default 256-byte segment, beside an arena of 3328 B. Smaller segments
// lower the SRAM at each step, down to the 4 SIMD lanes (40 B of stack
// buffers); the arena stays 3328 B.
// RUN: vmcu-gen --kind=depthwise --h=3 --w=3 --c=256 --kernel=3 --stride=1 --padding=same --seed=1 -o %t.dw.mlir
// RUN: vmcu-opt %t.dw.mlir --convert-tosa-to-vmcu -o %t.dw.layers.mlir
// RUN: vmcu-opt %t.dw.layers.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=WIDE
// RUN: vmcu-opt %t.dw.layers.mlir --vmcu-select-segment-sizes --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=LEAST
// WIDE: vmcu.segment_pool : !vmcu.pool<segments = 13, segment_bytes = 256>
// LEAST: vmcu.segment_pool : !vmcu.pool<segments = 832, segment_bytes = 4>
// LEAST: segment_bytes = 4 : i64
