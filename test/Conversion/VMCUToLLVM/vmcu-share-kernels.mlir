// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s
// RUN: vmcu-opt %s --vmcu-share-kernels --vmcu-share-kernels | FileCheck %s
// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s --check-prefix=MORE
// RUN: vmcu-opt %s --vmcu-share-kernels=max-arguments=1 | FileCheck %s --check-prefix=FEW
// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s --check-prefix=ERASED
// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s --check-prefix=ASM
// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s --check-prefix=GEP
// RUN: vmcu-opt %s --vmcu-share-kernels | FileCheck %s --check-prefix=TIED

// @k0, @k1 and @k3 differ only in their table and their base constant
// (read twice, by two constant ops): @k0 is kept with both as arguments
// (the base one), and each call passes its own. @k2
// differs in a stack buffer's size, @k4 in an op, @k5 is also called
// through its address, @k6 is external to the module's callers and @k7
// has a section of its own: each stays its own function.
// CHECK-LABEL: llvm.func internal @k0(%arg0: !llvm.ptr, %arg1: i32) attributes {vmcu.shared_kernels = ["k1", "k3"]} {
// CHECK-NOT: llvm.mlir.addressof @w0
// CHECK: llvm.load %arg0
// CHECK: llvm.add %{{.*}}, %arg1
// CHECK: llvm.add %{{.*}}, %arg1
// CHECK-NOT: llvm.func internal @k1
// CHECK: llvm.func internal @k2()
// CHECK-NOT: llvm.func internal @k3
// CHECK: llvm.func internal @k4()
// CHECK: llvm.func internal @k5()
// CHECK: llvm.func @k6()
// CHECK: llvm.func internal @k7() attributes {section = ".other"}
// CHECK-LABEL: llvm.func @vmcu_invoke()
// CHECK: %[[W0:.*]] = llvm.mlir.addressof @w0
// CHECK: %[[B0:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: llvm.call @k0(%[[W0]], %[[B0]]) : (!llvm.ptr, i32) -> ()
// CHECK: %[[W1:.*]] = llvm.mlir.addressof @w1
// CHECK: %[[B1:.*]] = llvm.mlir.constant(448 : i32)
// CHECK: llvm.call @k0(%[[W1]], %[[B1]]) : (!llvm.ptr, i32) -> ()
// CHECK: llvm.call @k2()
// CHECK: %[[W3:.*]] = llvm.mlir.addressof @w3
// CHECK: %[[B3:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: llvm.call @k0(%[[W3]], %[[B3]]) : (!llvm.ptr, i32) -> ()
// CHECK: llvm.call @k4()
// CHECK: llvm.call @k5()
// CHECK: llvm.call @k6()
// CHECK: llvm.call @k7()

// @k8 and @k9 merge with their argument attributes kept (and an empty
// one for the table). @k10 is named by a call of another function and
// @k11 by an attribute of its own call besides the callee: both stay. @k12
// and @k13 differ in ssat's width, which must stay an immediate, @k14 and
// @k15 in a constant that sizes a stack buffer through a mul: they stay.
// MORE-LABEL: llvm.func internal @k8(%arg0: !llvm.ptr {llvm.noalias}, %arg1: !llvm.ptr) attributes {vmcu.shared_kernels = ["k9"]} {
// MORE-NOT: llvm.func internal @k9
// MORE: llvm.func internal @k10(
// MORE: llvm.func internal @k11(
// MORE: llvm.func internal @k12(
// MORE: llvm.func internal @k13(
// MORE: llvm.func internal @k14(
// MORE: llvm.func internal @k15(
// MORE-LABEL: llvm.func @vmcu_invoke()
// MORE: llvm.call @k8(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
// MORE: llvm.call @k8(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
// MORE: llvm.call @k10(
// MORE: llvm.call @k11(%{{.*}}) {also = @k11}
// MORE: llvm.call @k6() {also = @k10}

// With one argument at most, @k1 (two values differ) stays; @k3 differs
// from @k0 in its table only.
// FEW-LABEL: llvm.func internal @k0(%arg0: !llvm.ptr) attributes {vmcu.shared_kernels = ["k3"]} {
// FEW: llvm.func internal @k1()
// FEW-NOT: llvm.func internal @k3
// FEW: llvm.call @k0(%{{.*}}) : (!llvm.ptr) -> ()
// FEW: llvm.call @k1()
// FEW: llvm.call @k0(%{{.*}}) : (!llvm.ptr) -> ()

// @k16 and @k17 merge first (module order); @k17, erased, held a call of
// @k18, which must not be redirected when @k18 and @k19 merge next (the
// sanitizer build reports that use after free): only @k16's call of it is.
// ERASED-LABEL: llvm.func internal @k16(%arg0: !llvm.ptr) attributes {vmcu.shared_kernels = ["k17"]} {
// ERASED: llvm.load %arg0
// ERASED: %[[W:.*]] = llvm.mlir.addressof @w0
// ERASED: llvm.call @k18(%[[W]]) : (!llvm.ptr) -> ()
// ERASED-NOT: llvm.func internal @k17
// ERASED: llvm.func internal @k18(%arg0: !llvm.ptr) attributes {vmcu.shared_kernels = ["k19"]} {
// ERASED-NOT: llvm.func internal @k19
// ERASED-LABEL: llvm.func @vmcu_invoke()
// ERASED: llvm.call @k16(%{{.*}}) : (!llvm.ptr) -> ()
// ERASED: llvm.call @k16(%{{.*}}) : (!llvm.ptr) -> ()
// ERASED: llvm.call @k18(%{{.*}}) : (!llvm.ptr) -> ()

// @k20 and @k21 differ in a constant inline assembly takes in a register
// ("r"): it becomes an argument. @k22 and @k23 differ in one it takes as
// an immediate ("i"): they stay.
// ASM-LABEL: llvm.func internal @k20(%arg0: !llvm.ptr, %arg1: i32) attributes {vmcu.shared_kernels = ["k21"]} {
// ASM: llvm.inline_asm "add $0, $1, $2", "=r,r,r" %{{.*}}, %arg1
// ASM-NOT: llvm.func internal @k21
// ASM: llvm.func internal @k22(%arg0: !llvm.ptr) {
// ASM: llvm.func internal @k23(%arg0: !llvm.ptr) {
// ASM-LABEL: llvm.func @vmcu_invoke()
// ASM: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// ASM: llvm.call @k20(%{{.*}}, %[[C5]]) : (!llvm.ptr, i32) -> ()
// ASM: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// ASM: llvm.call @k20(%{{.*}}, %[[C7]]) : (!llvm.ptr, i32) -> ()
// ASM: llvm.call @k22(
// ASM: llvm.call @k23(

// @k24 and @k25 differ in a constant that inline assembly takes tied to a
// register output ("0" for "=&r"): it becomes an argument.
// TIED-LABEL: llvm.func internal @k24(%arg0: !llvm.ptr, %arg1: i32) attributes {vmcu.shared_kernels = ["k25"]} {
// TIED: llvm.inline_asm "add $0, $1", "=&r,r,0" %{{.*}}, %arg1
// TIED-NOT: llvm.func internal @k25
// TIED-LABEL: llvm.func @vmcu_invoke()
// TIED: llvm.call @k24(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> ()
// TIED: llvm.call @k24(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> ()

// @k26 and @k27 index tables of different sizes at [0, 0] (the tables'
// addresses themselves): they merge. @k28 and @k29 index them at [0, 1],
// a step over each table's own element type: they stay apart.
// GEP-LABEL: llvm.func internal @k26(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {vmcu.shared_kernels = ["k27"]} {
// GEP: llvm.getelementptr %arg1[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
// GEP-NOT: llvm.func internal @k27
// GEP: llvm.func internal @k28(%arg0: !llvm.ptr) {
// GEP: llvm.func internal @k29(%arg0: !llvm.ptr) {
// GEP-LABEL: llvm.func @vmcu_invoke()
// GEP: llvm.call @k23(
// GEP: %[[T0:.*]] = llvm.mlir.addressof @w0 : !llvm.ptr
// GEP: llvm.call @k26(%{{.*}}, %[[T0]]) : (!llvm.ptr, !llvm.ptr) -> ()
// GEP: %[[T1:.*]] = llvm.mlir.addressof @w8 : !llvm.ptr
// GEP: llvm.call @k26(%{{.*}}, %[[T1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// GEP: llvm.call @k28(
// GEP: llvm.call @k29(

module {
  llvm.mlir.global private constant @w0(dense<1> : tensor<4xi8>) : !llvm.array<4 x i8>
  llvm.mlir.global private constant @w1(dense<2> : tensor<4xi8>) : !llvm.array<4 x i8>
  llvm.mlir.global private constant @w3(dense<3> : tensor<4xi8>) : !llvm.array<4 x i8>
  llvm.mlir.global private constant @w8(dense<4> : tensor<8xi8>) : !llvm.array<8 x i8>
  llvm.mlir.global external @vmcu_arena() : !llvm.array<512 x i8>
  llvm.mlir.global external @fn_table() : !llvm.ptr

  llvm.func internal @k0() {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %b = llvm.mlir.constant(64 : i32) : i32
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    %o = llvm.add %x, %b : i32
    %p = llvm.getelementptr %a[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %x, %p : i32, !llvm.ptr
    %c = llvm.mlir.constant(64 : i32) : i32
    %q = llvm.add %x, %c : i32
    llvm.store %q, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k1() {
    %w = llvm.mlir.addressof @w1 : !llvm.ptr
    %b = llvm.mlir.constant(448 : i32) : i32
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    %o = llvm.add %x, %b : i32
    %p = llvm.getelementptr %a[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %x, %p : i32, !llvm.ptr
    %c = llvm.mlir.constant(448 : i32) : i32
    %q = llvm.add %x, %c : i32
    llvm.store %q, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k2() {
    %n = llvm.mlir.constant(8 : i32) : i32
    %s = llvm.alloca %n x i8 : (i32) -> !llvm.ptr
    %x = llvm.load %s : !llvm.ptr -> i32
    llvm.store %x, %s : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k3() {
    %w = llvm.mlir.addressof @w3 : !llvm.ptr
    %b = llvm.mlir.constant(64 : i32) : i32
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    %o = llvm.add %x, %b : i32
    %p = llvm.getelementptr %a[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %x, %p : i32, !llvm.ptr
    %c = llvm.mlir.constant(64 : i32) : i32
    %q = llvm.add %x, %c : i32
    llvm.store %q, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k4() {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %b = llvm.mlir.constant(64 : i32) : i32
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    %o = llvm.sub %x, %b : i32
    %p = llvm.getelementptr %a[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k5() {
    %n = llvm.mlir.constant(4 : i32) : i32
    %s = llvm.alloca %n x i8 : (i32) -> !llvm.ptr
    %x = llvm.load %s : !llvm.ptr -> i32
    llvm.store %x, %s : i32, !llvm.ptr
    llvm.return
  }
  llvm.func @k6() {
    %n = llvm.mlir.constant(4 : i32) : i32
    %s = llvm.alloca %n x i8 : (i32) -> !llvm.ptr
    %x = llvm.load %s : !llvm.ptr -> i32
    llvm.store %x, %s : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k7() attributes {section = ".other"} {
    %w = llvm.mlir.addressof @w3 : !llvm.ptr
    %b = llvm.mlir.constant(64 : i32) : i32
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    %o = llvm.add %x, %b : i32
    %p = llvm.getelementptr %a[%o] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.store %x, %p : i32, !llvm.ptr
    %c = llvm.mlir.constant(64 : i32) : i32
    %q = llvm.add %x, %c : i32
    llvm.store %q, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k8(%p: !llvm.ptr {llvm.noalias}) {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k9(%p: !llvm.ptr {llvm.noalias}) {
    %w = llvm.mlir.addressof @w1 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k10(%p: !llvm.ptr) {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k11(%p: !llvm.ptr) {
    %w = llvm.mlir.addressof @w1 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k12(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(8 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.call_intrinsic "llvm.arm.ssat"(%x, %c) : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k13(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(16 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.call_intrinsic "llvm.arm.ssat"(%x, %c) : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k14(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(8 : i32) : i32
    %two = llvm.mlir.constant(2 : i32) : i32
    %n = llvm.mul %c, %two : i32
    %s = llvm.alloca %n x i8 : (i32) -> !llvm.ptr
    %x = llvm.load %s : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k15(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(4 : i32) : i32
    %two = llvm.mlir.constant(2 : i32) : i32
    %n = llvm.mul %c, %two : i32
    %s = llvm.alloca %n x i8 : (i32) -> !llvm.ptr
    %x = llvm.load %s : !llvm.ptr -> i32
    llvm.store %x, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k16() {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.call @k18() : () -> ()
    llvm.return
  }
  llvm.func internal @k17() {
    %w = llvm.mlir.addressof @w1 : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.call @k18() : () -> ()
    llvm.return
  }
  llvm.func internal @k18() {
    %w = llvm.mlir.addressof @w0 : !llvm.ptr
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %a : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k19() {
    %w = llvm.mlir.addressof @w3 : !llvm.ptr
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    %x = llvm.load %w : !llvm.ptr -> i32
    llvm.store %x, %a : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k20(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(5 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1, $2", "=r,r,r" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k21(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(7 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1, $2", "=r,r,r" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k22(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(5 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1, $2", "=r,r,i" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k23(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(7 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1, $2", "=r,r,i" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k24(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(5 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1", "=&r,r,0" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k25(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(7 : i32) : i32
    %x = llvm.load %p : !llvm.ptr -> i32
    %y = llvm.inline_asm "add $0, $1", "=&r,r,0" %x, %c : (i32, i32) -> i32
    llvm.store %y, %p : i32, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k26(%p: !llvm.ptr) {
    %t = llvm.mlir.addressof @w0 : !llvm.ptr
    %e = llvm.getelementptr %t[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
    %x = llvm.load %e : !llvm.ptr -> i8
    llvm.store %x, %p : i8, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k27(%p: !llvm.ptr) {
    %t = llvm.mlir.addressof @w8 : !llvm.ptr
    %e = llvm.getelementptr %t[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i8>
    %x = llvm.load %e : !llvm.ptr -> i8
    llvm.store %x, %p : i8, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k28(%p: !llvm.ptr) {
    %t = llvm.mlir.addressof @w0 : !llvm.ptr
    %e = llvm.getelementptr %t[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
    %x = llvm.load %e : !llvm.ptr -> i8
    llvm.store %x, %p : i8, !llvm.ptr
    llvm.return
  }
  llvm.func internal @k29(%p: !llvm.ptr) {
    %t = llvm.mlir.addressof @w8 : !llvm.ptr
    %e = llvm.getelementptr %t[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i8>
    %x = llvm.load %e : !llvm.ptr -> i8
    llvm.store %x, %p : i8, !llvm.ptr
    llvm.return
  }
  llvm.func @vmcu_invoke() -> i32 {
    llvm.call @k0() : () -> ()
    llvm.call @k1() : () -> ()
    llvm.call @k2() : () -> ()
    llvm.call @k3() : () -> ()
    llvm.call @k4() : () -> ()
    llvm.call @k5() : () -> ()
    llvm.call @k6() : () -> ()
    llvm.call @k7() : () -> ()
    %a = llvm.mlir.addressof @vmcu_arena : !llvm.ptr
    llvm.call @k8(%a) : (!llvm.ptr) -> ()
    llvm.call @k9(%a) : (!llvm.ptr) -> ()
    llvm.call @k10(%a) : (!llvm.ptr) -> ()
    llvm.call @k11(%a) {also = @k11} : (!llvm.ptr) -> ()
    llvm.call @k6() {also = @k10} : () -> ()
    llvm.call @k12(%a) : (!llvm.ptr) -> ()
    llvm.call @k13(%a) : (!llvm.ptr) -> ()
    llvm.call @k14(%a) : (!llvm.ptr) -> ()
    llvm.call @k15(%a) : (!llvm.ptr) -> ()
    llvm.call @k16() : () -> ()
    llvm.call @k17() : () -> ()
    llvm.call @k19() : () -> ()
    llvm.call @k20(%a) : (!llvm.ptr) -> ()
    llvm.call @k21(%a) : (!llvm.ptr) -> ()
    llvm.call @k22(%a) : (!llvm.ptr) -> ()
    llvm.call @k23(%a) : (!llvm.ptr) -> ()
    llvm.call @k24(%a) : (!llvm.ptr) -> ()
    llvm.call @k25(%a) : (!llvm.ptr) -> ()
    llvm.call @k26(%a) : (!llvm.ptr) -> ()
    llvm.call @k27(%a) : (!llvm.ptr) -> ()
    llvm.call @k28(%a) : (!llvm.ptr) -> ()
    llvm.call @k29(%a) : (!llvm.ptr) -> ()
    %f = llvm.mlir.addressof @k5 : !llvm.ptr
    %t = llvm.mlir.addressof @fn_table : !llvm.ptr
    llvm.store %f, %t : !llvm.ptr, !llvm.ptr
    %z = llvm.mlir.constant(0 : i32) : i32
    llvm.return %z : i32
  }
}
