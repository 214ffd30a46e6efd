// The MCUNet-5fps-VWW chain's default segments (16 ... 96 bytes) make the
// pool capacity a multiple of lcm = 480 bytes: 7200 B for a largest
// footprint of 6736 B. Under ram-kb=7 (7168 B) the pass halves the two
// 96-byte layers to 48 (lcm 240): 6960 B. Under ram-kb=8 nothing changes,
// and nothing fits 6 KiB: the error names the bottleneck that needs 6736 B.
// RUN: vmcu-gen --kind=mcunet-vww-chain --seed=1 -o %t.mlir
// RUN: vmcu-opt %t.mlir --convert-tosa-to-vmcu --vmcu-fuse-bottleneck -o %t.layers.mlir

// RUN: vmcu-opt %t.layers.mlir --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=DEFAULT
// RUN: vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=8 --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: vmcu.segment_pool : !vmcu.pool<segments = 900, segment_bytes = 8>
// DEFAULT-COUNT-2: segment_bytes = 96 : i64

// RUN: vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=7 --vmcu-tile --vmcu-solve-offsets | FileCheck %s --check-prefix=FIT
// FIT: vmcu.segment_pool : !vmcu.pool<segments = 870, segment_bytes = 8>
// FIT-NOT: segment_bytes = 96
// FIT-COUNT-5: segment_bytes = 48 : i64
// FIT-NOT: segment_bytes = 96

// RUN: not vmcu-opt %t.layers.mlir --vmcu-select-segment-sizes=ram-kb=6 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFIT
// NOFIT: error: model needs 6736 bytes of arena at best, more than ram-kb=6 (6144 bytes); layer 'bottleneck_0' alone needs 6736 bytes
