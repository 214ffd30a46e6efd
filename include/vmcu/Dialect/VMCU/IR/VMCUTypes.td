//===- VMCUTypes.td - vmcu types ---------------------------*- tablegen -*-===//
//
// The circular segment pool type.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUTYPES_TD
#define VMCU_DIALECT_VMCU_IR_VMCUTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "vmcu/Dialect/VMCU/IR/VMCUDialect.td"

class VMCU_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<VMCU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def VMCU_PoolType : VMCU_Type<"Pool", "pool"> {
  let summary = "A circular buffer of equally sized segments";
  let description = [{
    The MCU arena seen as `Pool[segments]`, each entry `segment_bytes`
    bytes (paper, Section 4). Every segment address used with the pool is
    taken modulo `segments`. The pool unit is the greatest common divisor
    of the segment sizes of the kernels that share it, so each kernel's
    segment is a whole number of pool segments.

    Example: `!vmcu.pool<segments = 640, segment_bytes = 16>`
  }];
  let parameters = (ins "int64_t":$segments, "int64_t":$segment_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Total size of the pool in bytes.
    int64_t getCapacityBytes() const { return getSegments() * getSegmentBytes(); }
  }];
}

#endif // VMCU_DIALECT_VMCU_IR_VMCUTYPES_TD
