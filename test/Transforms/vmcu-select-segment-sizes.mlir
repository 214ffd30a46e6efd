// The MCUNet-5fps-VWW chain's default segments (16 ... 96 bytes) make the
// pool capacity a multiple of lcm = 480 bytes: 7200 B for a largest
// footprint of 6736 B, plus the largest kernel's stack buffers. Under
// ram-kb=7 (7168 B of SRAM, arena and stack buffers) the pass drops the
// alignment until the SRAM fits: 8-byte segments almost everywhere, an
// arena of 6760 B. Under ram-kb=8 nothing changes, and nothing fits 6 KiB:
// the error gives the least SRAM found (1-byte segments) and names the
// bottleneck that needs 6736 B of arena.
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
// NOFIT: error: model needs 7130 bytes of SRAM at best (arena 6736 + kernel stack buffers 394), more than ram-kb=6 (6144 bytes); layer 'bottleneck_0' alone needs 6736 bytes of arena

// Without ram-kb, a kernel whose stack buffers stand above every other
// kernel's takes smaller segments until they no longer do. Here a 3x3
// depthwise over 3x3x256 keeps its window of 9 segments and one more:
// 2560 B with the default 256-byte segment, beside the 1536 B estimated for
// a 256-byte lookup (kernelScratchBytes' default, 6 bytes per lane). At
// 128 bytes (1280 B) the depthwise no longer stands above and stops; the
// table keeps its segments, the arena stays 3328 B.
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=WIDE
// RUN: vmcu-opt %s --vmcu-select-segment-sizes --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=LEAST
// WIDE: vmcu.kernel "depthwise_conv2d_0" {{.*}}segment_bytes = 256 : i64
// WIDE: vmcu.kernel "table_1" {{.*}}segment_bytes = 256 : i64
// LEAST: vmcu.kernel "depthwise_conv2d_0" {{.*}}segment_bytes = 128 : i64
// LEAST: vmcu.kernel "table_1" {{.*}}segment_bytes = 256 : i64
#rq = #vmcu.requant<input_zp = 0, output_zp = 0, multiplier = [1073741824], shift = [36], double_round = true, min = -128, max = 127>
func.func @main(%x: tensor<1x3x3x256xi8>) -> tensor<1x3x3x256xi8> {
  %w = arith.constant dense<1> : tensor<3x3x256x1xi8>
  %b = arith.constant dense<0> : tensor<256xi32>
  %t = arith.constant dense<2> : tensor<256xi8>
  %y = vmcu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, input_zp = 0 : i32, requant = #rq} : (tensor<1x3x3x256xi8>, tensor<3x3x256x1xi8>, tensor<256xi32>) -> tensor<1x3x3x256xi8>
  %z = vmcu.table %y, %t : (tensor<1x3x3x256xi8>, tensor<256xi8>) -> tensor<1x3x3x256xi8>
  return %z : tensor<1x3x3x256xi8>
}

// Without ram-kb, a pool whose rounding to the segments' lcm dwarfs every
// layer takes smaller segments: convs over 27, 47 and 80 channels have
// default segments 27, 47 and 80 (lcm 101,520 B; the pool 203,040 B for
// a largest footprint under 3 KB); leveled to the alignment within 1/8 of
// that footprint whose segments the cost model finds fastest (188 = 4 x 47:
// the 27-channel convs take 1-byte segments, the 47-channel one keeps 47,
// the 80-channel one 4; the largest, 540, would leave the 47-channel conv
// 1-byte segments and the pool 3,240 B), the pool is 3,008 B.
// RUN: vmcu-opt %S/Inputs/odd-channels.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=ODD
// ODD: vmcu.segment_pool : !vmcu.pool<segments = 203040, segment_bytes = 1>
// RUN: vmcu-opt %S/Inputs/odd-channels.mlir --vmcu-select-segment-sizes --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=LEVELED
// LEVELED: vmcu.segment_pool : !vmcu.pool<segments = 3008, segment_bytes = 1>
// LEVELED: vmcu.kernel "conv2d_0" {{.*}}segment_bytes = 1 : i64
// LEVELED: vmcu.kernel "conv2d_2" {{.*}}segment_bytes = 47 : i64
// LEVELED: vmcu.kernel "conv2d_4" {{.*}}segment_bytes = 4 : i64

// Under a budget the default plan is leveled first, then smaller segments
// are searched among every divisor of a layer's size, not only the SIMD
// multiples (27 and 47 have none but themselves, which would hold the pool
// to a multiple of 1,269 B): ram-kb=4 gets the leveled 3,008 B pool (the
// 80-channel conv keeps 8-byte segments: its 8 more bytes of stack fit the
// budget), and 3 KiB is an error whose least SRAM is every layer's
// smallest segments.
// RUN: vmcu-opt %S/Inputs/odd-channels.mlir --vmcu-select-segment-sizes=ram-kb=4 --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=ODD-BUDGET
// ODD-BUDGET: vmcu.segment_pool : !vmcu.pool<segments = 3008, segment_bytes = 1>
// ODD-BUDGET: vmcu.kernel "conv2d_0" {{.*}}segment_bytes = 1 : i64
// ODD-BUDGET: vmcu.kernel "conv2d_2" {{.*}}segment_bytes = 47 : i64
// ODD-BUDGET: vmcu.kernel "conv2d_4" {{.*}}segment_bytes = 8 : i64
// RUN: not vmcu-opt %S/Inputs/odd-channels.mlir --vmcu-select-segment-sizes=ram-kb=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ODD-NOFIT
// ODD-NOFIT: error: model needs 3442 bytes of SRAM at best (arena 2880 + kernel stack buffers 562), more than ram-kb=3 (3072 bytes); layer 'conv2d_3' alone needs 2880 bytes of arena

// A layer whose channels are a prime (13) has no SIMD-multiple segment
// size but its own: leveling gives it a divisor that is not a multiple of
// 4 (here 1), so the others keep theirs where they divide the alignment.
// Default segments 13, 1, 17, 1, 80 (lcm 17,680 B) make the pool 35,360 B;
// leveled to the alignment 340 (17 x 20): 3,060 B.
// RUN: vmcu-opt %S/Inputs/prime-channels.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=PRIME
// PRIME: vmcu.segment_pool : !vmcu.pool<segments = 35360, segment_bytes = 1>
// RUN: vmcu-opt %S/Inputs/prime-channels.mlir --vmcu-select-segment-sizes --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=PRIME-LEVELED
// PRIME-LEVELED: vmcu.segment_pool : !vmcu.pool<segments = 3060, segment_bytes = 1>
// PRIME-LEVELED: vmcu.kernel "conv2d_0" {{.*}}segment_bytes = 1 : i64
// PRIME-LEVELED: vmcu.kernel "conv2d_2" {{.*}}segment_bytes = 17 : i64
// PRIME-LEVELED: vmcu.kernel "conv2d_4" {{.*}}segment_bytes = 20 : i64

// A rounding within the 1/8 is still leveled when it would put the arena
// above what a tensor-level planner needs: segments 3, 1 and 563 round the
// largest footprint (56,300 B) to 57,426 B, over the 56,900 B of that
// conv's input and output; leveled, the pool is the footprint: both convs
// take 1-byte segments and the pool keeps its 563-byte ones, which the
// cost model prices fastest. Measured (vmcu-prof, M4, the pool alone over
// 10x10x563): 206,200 cycles and 2,380 B of stack with 563-byte segments,
// 209,461 and 112 B with 1-byte ones; the leveling weighs cycles, not the
// stack.
// RUN: vmcu-opt %S/Inputs/wide-pool.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=WIDEPOOL
// WIDEPOOL: vmcu.segment_pool : !vmcu.pool<segments = 57426, segment_bytes = 1>
// WIDEPOOL: vmcu.kernel "conv2d_0" {{.*}}segment_bytes = 3 : i64
// RUN: vmcu-opt %S/Inputs/wide-pool.mlir --vmcu-select-segment-sizes --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=WIDEPOOL-LEVELED
// WIDEPOOL-LEVELED: vmcu.segment_pool : !vmcu.pool<segments = 56300, segment_bytes = 1>
// WIDEPOOL-LEVELED: vmcu.kernel "conv2d_0" {{.*}}segment_bytes = 1 : i64
// WIDEPOOL-LEVELED: vmcu.kernel "conv2d_1" {{.*}}segment_bytes = 1 : i64
// WIDEPOOL-LEVELED: vmcu.kernel "avg_pool2d_2" {{.*}}segment_bytes = 563 : i64
