// RUN: vmcu-opt %s --split-input-file --vmcu-tail-call-kernels | FileCheck %s

// The last kernel returns vmcu_invoke's status itself (a clone before each
// of its returns), and its call, now passing the status on, is a guaranteed
// tail call; the constant left without uses in the caller is erased. The
// other calls stay as they are.

// CHECK-LABEL: llvm.func internal @first()
// CHECK-NEXT:  llvm.return{{$}}
// CHECK-LABEL: llvm.func internal @last() -> i32
// CHECK:       ^bb1:
// CHECK-NEXT:  %[[A:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.return %[[A]] : i32
// CHECK:       ^bb2:
// CHECK-NEXT:  %[[B:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.return %[[B]] : i32
// CHECK-LABEL: llvm.func @vmcu_invoke() -> i32
// CHECK-NEXT:  llvm.call @first() : () -> ()
// CHECK-NEXT:  %[[S:.*]] = llvm.call musttail @last() : () -> i32
// CHECK-NEXT:  llvm.return %[[S]] : i32
llvm.func internal @first() {
  llvm.return
}
llvm.func internal @last() {
  %c = llvm.mlir.constant(true) : i1
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  llvm.return
^bb2:
  llvm.return
}
llvm.func @vmcu_invoke() -> i32 {
  llvm.call @first() : () -> ()
  llvm.call @last() : () -> ()
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// A call whose results the return passes on, to a function of the caller's
// type, is marked as it is.
// CHECK-LABEL: llvm.func @passes_on
// CHECK:       %[[S:.*]] = llvm.call musttail @status() : () -> i32
// CHECK-NEXT:  llvm.return %[[S]] : i32
llvm.func internal @status() -> i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @passes_on() -> i32 {
  %0 = llvm.call @status() : () -> i32
  llvm.return %0 : i32
}

// -----

// Not where the callee takes arguments (a kernel shared by several layers),
// is called twice, or makes a guaranteed tail call before its return; nor
// where the caller returns something else than constants, or has a stack
// slot that a pointer could carry into the callee.
// CHECK-LABEL: llvm.func @with_arguments
// CHECK-NOT:   musttail
// CHECK:       llvm.call @shared(%{{.*}}) : (i32) -> ()
// CHECK-NEXT:  llvm.return %{{.*}} : i32
// CHECK-LABEL: llvm.func @called_twice
// CHECK-NOT:   musttail
// CHECK:       llvm.call @twice() : () -> ()
// CHECK-NEXT:  llvm.call @twice() : () -> ()
// CHECK-NEXT:  llvm.mlir.constant
// CHECK-NEXT:  llvm.return %{{.*}} : i32
// CHECK-LABEL: llvm.func @loaded_status
// CHECK-NOT:   musttail
// CHECK:       llvm.call @once() : () -> ()
// CHECK-NEXT:  llvm.return %{{.*}} : i32
// CHECK-LABEL: llvm.func @with_slot
// CHECK-NOT:   musttail
// CHECK:       llvm.call @after_slot() : () -> ()
// CHECK-LABEL: llvm.func internal @tail_calls_inner()
// CHECK:       llvm.call musttail @inner() : () -> ()
// CHECK-NEXT:  llvm.return{{$}}
// CHECK-LABEL: llvm.func @calls_tail_caller
// CHECK-NOT:   musttail
// CHECK:       llvm.call @tail_calls_inner() : () -> ()
// CHECK-NEXT:  llvm.mlir.constant
// CHECK-NEXT:  llvm.return
llvm.func internal @shared(%a: i32) {
  llvm.return
}
llvm.func @with_arguments() -> i32 {
  %0 = llvm.mlir.constant(3 : i32) : i32
  llvm.call @shared(%0) : (i32) -> ()
  llvm.return %0 : i32
}
llvm.func internal @twice() {
  llvm.return
}
llvm.func @called_twice() -> i32 {
  llvm.call @twice() : () -> ()
  llvm.call @twice() : () -> ()
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.mlir.global internal @flag(0 : i32) : i32
llvm.func internal @once() {
  llvm.return
}
llvm.func @loaded_status() -> i32 {
  %p = llvm.mlir.addressof @flag : !llvm.ptr
  %0 = llvm.load %p : !llvm.ptr -> i32
  llvm.call @once() : () -> ()
  llvm.return %0 : i32
}
llvm.func internal @after_slot() {
  llvm.return
}
llvm.func @with_slot() -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  llvm.call @after_slot() : () -> ()
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func internal @inner() {
  llvm.return
}
llvm.func internal @tail_calls_inner() {
  llvm.call @inner() : () -> ()
  llvm.return
}
llvm.func @calls_tail_caller() -> i32 {
  llvm.call @tail_calls_inner() : () -> ()
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
