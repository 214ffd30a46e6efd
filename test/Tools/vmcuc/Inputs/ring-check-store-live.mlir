// two-kernels.mlir with the copy output placed at segment 2 instead of 4:
// its first store lands on input segment 2, which copy has not read yet.
// Runs without error unchecked (with a wrong result); --ring-check must stop
// it (test/Tools/vmcuc/ring-check-qemu.test).
// A hand-written post-solve model: two kernels in a 6-segment pool (not a
// power of two, so ring addresses wrap with compare and select).
//   copy:   input (segments 0-3) -> t (segments 4, 5, 0, 1: wraps), freeing
//           each input segment after reading it;
//   reduce: out[4i+j] = requant(sum_k (t[16i+4j+k] - 48) * w[k]), one int8
//           per 4 bytes, w = [1, 2, 3, 4], written at byte 4i of the output
//           (segment 2, freed by copy).
!pool = !vmcu.pool<segments = 6, segment_bytes = 16>
module {
  memref.global "private" constant @reduce_weights : memref<4xi8> = dense<[1, 2, 3, 4]>
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool {alignment = 8} : !pool
    %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
    %t = vmcu.tensor_base %pool {name = "copy", segments = 4, base = 2} : !pool
    %y = vmcu.tensor_base %pool {name = "reduce", segments = 1, base = 2, vmcu.io = "output"} : !pool
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    vmcu.kernel "copy" ins(%x) outs(%t) {
      scf.for %i = %c0 to %c4 step %c1 {
        %a = arith.addi %x, %i : index
        %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
        %b = arith.addi %t, %i : index
        vmcu.ring_store %v, %pool[%b] : vector<16xi8>, !pool
        vmcu.free %pool[%a] : !pool
      }
    }
    vmcu.kernel "reduce" ins(%t) outs(%y) {
      %zero = arith.constant 0 : i32
      %m = arith.constant 1073741824 : i32
      %sh = arith.constant 32 : i32
      %wg = memref.get_global @reduce_weights : memref<4xi8>
      %w = vector.load %wg[%c0] : memref<4xi8>, vector<4xi8>
      scf.for %i = %c0 to %c4 step %c1 {
        %a = arith.addi %t, %i : index
        %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
        %s0 = vector.extract_strided_slice %v {offsets = [0], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
        %s1 = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
        %s2 = vector.extract_strided_slice %v {offsets = [8], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
        %s3 = vector.extract_strided_slice %v {offsets = [12], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
        %d0 = vmcu.dot %zero, %s0, %w {x_offset = -48 : i32} : vector<4xi8>
        %d1 = vmcu.dot %zero, %s1, %w {x_offset = -48 : i32} : vector<4xi8>
        %d2 = vmcu.dot %zero, %s2, %w {x_offset = -48 : i32} : vector<4xi8>
        %d3 = vmcu.dot %zero, %s3, %w {x_offset = -48 : i32} : vector<4xi8>
        %q0 = vmcu.requantize %d0, %m, %sh {output_zp = -10 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
        %q1 = vmcu.requantize %d1, %m, %sh {output_zp = -10 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
        %q2 = vmcu.requantize %d2, %m, %sh {output_zp = -10 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
        %q3 = vmcu.requantize %d3, %m, %sh {output_zp = -10 : i32, min = -128 : i32, max = 127 : i32, double_round = true} : i8
        %o = vector.from_elements %q0, %q1, %q2, %q3 : vector<4xi8>
        %off = arith.muli %i, %c4 : index
        vmcu.ring_store %o, %pool[%y, %off] : vector<4xi8>, !pool
        vmcu.free %pool[%a] : !pool
      }
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
