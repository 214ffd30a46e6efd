// RUN: vmcu-opt %s -split-input-file -verify-diagnostics --convert-vmcu-to-llvm

// convert-vmcu-to-llvm takes outlined kernels lowered to cf: anything an
// earlier pass of the pipeline lowers is an error naming that pass.

!pool = !vmcu.pool<segments = 8, segment_bytes = 16>

func.func @kernel_left() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4, base = 4} : !pool
  // expected-error @below {{'vmcu.kernel' op must be outlined before lowering; run vmcu-outline-kernels}}
  vmcu.kernel "k" ins(%x) outs(%y) {
  }
  return
}

// -----

func.func @scf_left(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op must be lowered to cf before lowering to LLVM; run --convert-scf-to-cf first}}
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}

// -----

func.func @affine_left(%n: index) -> index {
  // expected-error @below {{'affine.apply' op must be lowered to arith and scf before lowering to LLVM; run --lower-affine first}}
  %a = affine.apply affine_map<(d0) -> (d0 * 4)>(%n)
  return %a : index
}

// -----

func.func @slice_left(%v: vector<16xi8>) -> vector<4xi8> {
  // expected-error @below {{'vector.extract_strided_slice' op must be lowered to shuffles before lowering to LLVM; run --vmcu-lower-vector-slices first}}
  %s = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
  return %s : vector<4xi8>
}
