// RUN: vmcu-opt %s --vmcu-tail-call-kernels | FileCheck %s

// A call that a return of its results ends, to a function of the caller's
// type, becomes a guaranteed tail call; the others stay as they are.

// CHECK-LABEL: llvm.func @vmcu_invoke
// CHECK:       llvm.call @first() : () -> ()
// CHECK-NEXT:  %[[S:.*]] = llvm.call musttail @last() : () -> i32
// CHECK-NEXT:  llvm.return %[[S]] : i32
llvm.func internal @first() {
  llvm.return
}
llvm.func internal @last() -> i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @vmcu_invoke() -> i32 {
  llvm.call @first() : () -> ()
  %0 = llvm.call @last() : () -> i32
  llvm.return %0 : i32
}

// A callee of another type (a shared kernel's arguments) keeps the frame.
// CHECK-LABEL: llvm.func @with_arguments
// CHECK:       llvm.call @shared(%{{.*}}) : (i32) -> i32
llvm.func internal @shared(%a: i32) -> i32 {
  llvm.return %a : i32
}
llvm.func @with_arguments() -> i32 {
  %0 = llvm.mlir.constant(3 : i32) : i32
  %1 = llvm.call @shared(%0) : (i32) -> i32
  llvm.return %1 : i32
}

// A return of something else than the call's results is no tail call.
// CHECK-LABEL: llvm.func @other_status
// CHECK:       llvm.call @last() : () -> i32
// CHECK-NEXT:  llvm.return %{{.*}} : i32
llvm.func @other_status() -> i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.call @last() : () -> i32
  llvm.return %0 : i32
}
