// Fills of at most 128 bytes are written inline: O2 merges the kernel's
// four adjacent 32-byte stores of -128 into a 128-byte memset, which vmcuc
// turns into memset.inline (word stores); the 160-byte fill of zeros stays
// a call to the C library. A compact (optsize) kernel keeps the 64-byte
// bound: its 96-byte fill stays a call.

// RUN: vmcuc %s --emit=llvm -o - 2>/dev/null | FileCheck %s
// RUN: vmcuc %s -o %t.o 2>/dev/null
// RUN: llvm-objdump -d -r %t.o | FileCheck %s --check-prefix=OBJ

// CHECK: call void @llvm.memset.inline.p0.i64(ptr align 8 @vmcu_arena, i8 -128, i64 128, i1 false)
// CHECK: call void @llvm.memset.p0.i64({{.*}}, i8 0, i64 160, i1 false)
// CHECK: define internal {{.*}}@vmcu_kernel_1_small{{.*}} #[[SIZE:[0-9]+]]
// CHECK: call void @llvm.memset.p0.i64({{.*}}, i8 -128, i64 96, i1 false)
// CHECK-NOT: call void @llvm.memset
// CHECK: attributes #[[SIZE]] = {{{.*}}optsize

// In a compact (optsize) kernel fills past 64 bytes stay calls: the
// 96-byte one there is the second call.
// OBJ: R_ARM_THM_{{CALL|JUMP24}} memset
// OBJ: R_ARM_THM_{{CALL|JUMP24}} memset
// OBJ-NOT: memset

!pool = !vmcu.pool<segments = 10, segment_bytes = 32>
module {
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool {alignment = 8} : !pool
    %x = vmcu.tensor_base %pool {name = "input", segments = 1, base = 9, vmcu.io = "input"} : !pool
    %y = vmcu.tensor_base %pool {name = "fill", segments = 9, base = 0, vmcu.io = "output"} : !pool
    vmcu.kernel "fill" ins(%x) outs(%y) {
      %zp = arith.constant dense<-128> : vector<32xi8>
      %zero = arith.constant dense<0> : vector<32xi8>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      vmcu.ring_store %zp, %pool[%c0] : vector<32xi8>, !pool
      vmcu.ring_store %zp, %pool[%c1] : vector<32xi8>, !pool
      vmcu.ring_store %zp, %pool[%c2] : vector<32xi8>, !pool
      vmcu.ring_store %zp, %pool[%c3] : vector<32xi8>, !pool
      vmcu.ring_store %zero, %pool[%c4] : vector<32xi8>, !pool
      vmcu.ring_store %zero, %pool[%c5] : vector<32xi8>, !pool
      vmcu.ring_store %zero, %pool[%c6] : vector<32xi8>, !pool
      vmcu.ring_store %zero, %pool[%c7] : vector<32xi8>, !pool
      vmcu.ring_store %zero, %pool[%c8] : vector<32xi8>, !pool
      vmcu.free %pool[%x] : !pool
    }
    %z = vmcu.tensor_base %pool {name = "small", segments = 3, base = 0} : !pool
    vmcu.kernel "small" ins(%y) outs(%z) attributes {compact} {
      %zp = arith.constant dense<-128> : vector<32xi8>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      vmcu.ring_store %zp, %pool[%c0] : vector<32xi8>, !pool
      vmcu.ring_store %zp, %pool[%c1] : vector<32xi8>, !pool
      vmcu.ring_store %zp, %pool[%c2] : vector<32xi8>, !pool
      vmcu.free %pool[%y] : !pool
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
