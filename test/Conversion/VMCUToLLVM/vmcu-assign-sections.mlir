// RUN: vmcu-opt %s --vmcu-assign-sections | FileCheck %s --check-prefix=DEFAULT
// RUN: vmcu-opt %s --vmcu-assign-sections="arena-section=.dtcm_arena weights-section=.qspi_weights" | FileCheck %s --check-prefix=NAMED
// RUN: not vmcu-opt %s --vmcu-assign-sections="arena-section=" 2>&1 | FileCheck %s --check-prefix=EMPTY

// By default the arena keeps .vmcu_arena and the tables get no section.
// DEFAULT: llvm.mlir.global external @vmcu_arena() {addr_space = 0 : i32, alignment = 8 : i64, section = ".vmcu_arena"}
// DEFAULT: llvm.mlir.global private constant @conv_weights(dense<1> : tensor<4xi8>) {addr_space = 0 : i32} : !llvm.array<4 x i8>
// DEFAULT: llvm.mlir.global internal constant @conv_bias(dense<0> : tensor<2xi32>) {addr_space = 0 : i32} : !llvm.array<2 x i32>
// DEFAULT: llvm.mlir.global external constant @vmcu_input_offsets(dense<0> : tensor<1xi32>) {addr_space = 0 : i32} : !llvm.array<1 x i32>

// Named: the arena and the model's own constants move; the exported C API
// table and a mutable global stay.
// NAMED: llvm.mlir.global external @vmcu_arena() {addr_space = 0 : i32, alignment = 8 : i64, section = ".dtcm_arena"}
// NAMED: llvm.mlir.global private constant @conv_weights(dense<1> : tensor<4xi8>) {addr_space = 0 : i32, section = ".qspi_weights"}
// NAMED: llvm.mlir.global internal constant @conv_bias(dense<0> : tensor<2xi32>) {addr_space = 0 : i32, section = ".qspi_weights"}
// NAMED: llvm.mlir.global external constant @vmcu_input_offsets(dense<0> : tensor<1xi32>) {addr_space = 0 : i32} : !llvm.array<1 x i32>
// NAMED: llvm.mlir.global internal @state(0 : i32) {addr_space = 0 : i32} : i32

// EMPTY: error: vmcu-assign-sections: arena-section must not be empty

module {
  llvm.mlir.global external @vmcu_arena() {alignment = 8 : i64, section = ".vmcu_arena"} : !llvm.array<96 x i8> {
    %0 = llvm.mlir.zero : !llvm.array<96 x i8>
    llvm.return %0 : !llvm.array<96 x i8>
  }
  llvm.mlir.global private constant @conv_weights(dense<1> : tensor<4xi8>) : !llvm.array<4 x i8>
  llvm.mlir.global internal constant @conv_bias(dense<0> : tensor<2xi32>) : !llvm.array<2 x i32>
  llvm.mlir.global external constant @vmcu_input_offsets(dense<0> : tensor<1xi32>) : !llvm.array<1 x i32>
  llvm.mlir.global internal @state(0 : i32) : i32
}
