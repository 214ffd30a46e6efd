//===- LoopAnnotations.h - loops LLVM must keep rolled ----------*- C++ -*-===//
//
// The tiler and the ring-access coalescer emit loops whose bodies are
// already as wide as they should be: unrolling them would only grow the
// code. The annotation survives scf-to-cf and becomes `!llvm.loop`.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_LOOPANNOTATIONS_H
#define VMCU_TRANSFORMS_LOOPANNOTATIONS_H

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::vmcu {

/// Marks `loop` so that LLVM does not unroll it.
inline void setNoUnroll(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto noUnroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                            {}, {}, {}, {}, {});
  loop->setAttr("llvm.loop_annotation",
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, noUnroll, {}, {},
                                              {}, {}, {}, {}, {}, {}, {}, {},
                                              {}));
}

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_LOOPANNOTATIONS_H
