//===- VMCUInterfaces.td - vmcu op interfaces --------------*- tablegen -*-===//
//
// The interface every layer op implements, queried by segment-size
// selection, the tiler and the memory report.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_TD
#define VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_TD

include "mlir/IR/OpBase.td"

def VMCU_LayerOpInterface : OpInterface<"LayerOpInterface"> {
  let cppNamespace = "::mlir::vmcu";
  let description = [{
    A layer whose activation input and output live in the segment pool.
    A segment covers a slice of the innermost (channel or row) dimension,
    so its size must divide every extent `getSegmentedExtents` returns.
  }];
  let methods = [
    InterfaceMethod<"The activation tensor read from the pool.",
      "::mlir::Value", "getActivationInput">,
    InterfaceMethod<"Innermost extents (in bytes) a segment must divide.",
      "::llvm::SmallVector<int64_t>", "getSegmentedExtents">,
    InterfaceMethod<"The chosen segment size in bytes, if any.",
      "std::optional<uint64_t>", "getSegmentSizeBytes", (ins), [{}],
      [{ return $_op.getSegmentBytes(); }]>,
  ];
  let verify = [{ return ::mlir::vmcu::detail::verifyLayerOp($_op); }];
}

#endif // VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_TD
