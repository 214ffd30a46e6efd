// RUN: vmcu-opt %s --vmcu-tile | FileCheck %s
// RUN: vmcu-opt %s --vmcu-tile --vmcu-solve-offsets --vmcu-verify-ring | FileCheck %s --check-prefix=PLACE

// A lookup over 2x3 pixels of 16 channels: each segment is loaded, mapped
// through the flash table (index x + 128), freed and stored back, so the
// output overwrites the input in place.
// CHECK: memref.global "private" constant @table_0_table : memref<256xi8>
// CHECK-LABEL: func.func @vmcu_invoke
// CHECK: vmcu.kernel "table_0" {{.*}}layer = "table"
// CHECK: affine.for %{{.*}} = 0 to 6 {
// CHECK:   vmcu.ring_load
// CHECK:   affine.for %{{.*}} = 0 to 16 {
// CHECK:     arith.addi %{{.*}}, %c128_i32
// CHECK:     memref.load %{{.*}}[%{{.*}}] : memref<256xi8>
// CHECK:   vmcu.free
// CHECK:   vmcu.ring_store
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "input", segments = 6 : i64
// PLACE: vmcu.tensor_base {{.*}} {base = 0 : i64, name = "table_0", segments = 6 : i64
func.func @main(%x: tensor<1x2x3x16xi8>) -> tensor<1x2x3x16xi8> {
  %t = arith.constant dense<[-128, -91, -54, -17, 20, 57, 94, -125, -88, -51, -14, 23, 60, 97, -122, -85, -48, -11, 26, 63, 100, -119, -82, -45, -8, 29, 66, 103, -116, -79, -42, -5, 32, 69, 106, -113, -76, -39, -2, 35, 72, 109, -110, -73, -36, 1, 38, 75, 112, -107, -70, -33, 4, 41, 78, 115, -104, -67, -30, 7, 44, 81, 118, -101, -64, -27, 10, 47, 84, 121, -98, -61, -24, 13, 50, 87, 124, -95, -58, -21, 16, 53, 90, 127, -92, -55, -18, 19, 56, 93, -126, -89, -52, -15, 22, 59, 96, -123, -86, -49, -12, 25, 62, 99, -120, -83, -46, -9, 28, 65, 102, -117, -80, -43, -6, 31, 68, 105, -114, -77, -40, -3, 34, 71, 108, -111, -74, -37, 0, 37, 74, 111, -108, -71, -34, 3, 40, 77, 114, -105, -68, -31, 6, 43, 80, 117, -102, -65, -28, 9, 46, 83, 120, -99, -62, -25, 12, 49, 86, 123, -96, -59, -22, 15, 52, 89, 126, -93, -56, -19, 18, 55, 92, -127, -90, -53, -16, 21, 58, 95, -124, -87, -50, -13, 24, 61, 98, -121, -84, -47, -10, 27, 64, 101, -118, -81, -44, -7, 30, 67, 104, -115, -78, -41, -4, 33, 70, 107, -112, -75, -38, -1, 36, 73, 110, -109, -72, -35, 2, 39, 76, 113, -106, -69, -32, 5, 42, 79, 116, -103, -66, -29, 8, 45, 82, 119, -100, -63, -26, 11, 48, 85, 122, -97, -60, -23, 14, 51, 88, 125, -94, -57, -20, 17, 54, 91]> : tensor<256xi8>
  %y = vmcu.table %x, %t : (tensor<1x2x3x16xi8>, tensor<256xi8>) -> tensor<1x2x3x16xi8>
  return %y : tensor<1x2x3x16xi8>
}
