//===- VMCUDialect.td - vmcu dialect definition ------------*- tablegen -*-===//
//
// The vmcu dialect: int8 layers placed in a circular pool of segments.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUDIALECT_TD
#define VMCU_DIALECT_VMCU_IR_VMCUDIALECT_TD

include "mlir/IR/OpBase.td"

def VMCU_Dialect : Dialect {
  let name = "vmcu";
  let cppNamespace = "::mlir::vmcu";
  let summary = "Segment-level memory management for int8 networks on MCUs";
  let description = [{
    The vmcu dialect models the virtualised RAM of vMCU (MLSys 2024): the
    arena is one circular pool of fixed-size segments, and each kernel
    writes its output segments over input segments it has already freed.

    It has two levels:
    - layer ops (`vmcu.conv2d`, `vmcu.depthwise_conv2d`,
      `vmcu.fully_connected`, `vmcu.add`, `vmcu.avg_pool2d`,
      `vmcu.max_pool2d`, `vmcu.table`, `vmcu.softmax`, `vmcu.bottleneck`) on int8
      tensors, carrying their quantisation in a `#vmcu.requant` attribute
      (or their own parameters);
    - ring ops (`vmcu.segment_pool`, `vmcu.ring_load`, `vmcu.ring_store`,
      `vmcu.free`) that tiled kernels use to touch the pool one segment at
      a time, with the modulo addressing as part of their semantics.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // Facts vmcu records on ops it does not own, checked by
  // verifyOperationAttribute:
  // - `vmcu.io` ("input" or "output") on the `vmcu.tensor_base` of the
  //   model's input and output tensors, and `vmcu.io_index` (a
  //   non-negative i64, absent for 0) on those of a model with several:
  //   the position among the model's inputs or outputs;
  // - `vmcu.round_half_away` on a `tosa.avg_pool2d` imported from TFLite,
  //   whose int8 average rounds ties away from zero (TOSA's rounds them up).
  // - `vmcu.input_edge` / `vmcu.output_edge` (`#vmcu.edge`) on the module:
  //   the quantisation of the model's input and output, and whether the
  //   source model's edge is float (set by the .tflite importer).
  // - `vmcu.reference_flash_bytes` (a non-negative i64) on the module: the
  //   flash CMSIS-NN would take for the model's layers
  //   (vmcu-estimate-reference-flash), the default flash budget's base.
  // - `vmcu.shared_kernels` (an array of strings) on an `llvm.func`: the
  //   kernel functions vmcu-share-kernels replaced by calls of it, by their
  //   names before the merge (the flash budget prices those layers as one).
  let discardableAttrs = (ins
    "::mlir::StringAttr":$io,
    "::mlir::IntegerAttr":$io_index,
    "::mlir::UnitAttr":$round_half_away,
    "::mlir::vmcu::EdgeAttr":$input_edge,
    "::mlir::vmcu::EdgeAttr":$output_edge,
    "::mlir::IntegerAttr":$reference_flash_bytes,
    "::mlir::ArrayAttr":$shared_kernels
  );
  let hasOperationAttrVerify = 1;
}

#endif // VMCU_DIALECT_VMCU_IR_VMCUDIALECT_TD
