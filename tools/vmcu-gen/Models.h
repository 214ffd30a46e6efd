//===- Models.h - The model kinds vmcu-gen generates ------------*- C++ -*-===//
//
// A ModelSpec names a kind and its shape options; buildModel checks them and
// builds `func.func @main` with one int8 input and one int8 result.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUGEN_MODELS_H
#define VMCU_TOOLS_VMCUGEN_MODELS_H

#include "LayerBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir::vmcu::gen {

enum class Kind {
  Conv,
  Depthwise,
  FullyConnected,
  Add,
  AvgPool,
  Bottleneck,
  McunetVwwChain,
  Concat,
  Resize,
  ConvPool,
};

/// The --kind spelling of `kind`, and back.
llvm::StringRef kindName(Kind kind);
std::optional<Kind> parseKind(llvm::StringRef name);

/// Every shape option; each kind reads only its own (see vmcu-gen --help).
struct ModelSpec {
  Kind kind = Kind::Conv;
  int64_t h = 8, w = 8;
  int64_t c = 8, cin = 8, cmid = 48, cout = 16;
  int64_t kernel = 3, stride = 1;
  /// conv-pool's PxP pool window (stride P); 0: a global pool.
  int64_t pool = 0;
  Padding padding = Padding::Same;
  int64_t m = 4, k = 64, n = 32;
  std::array<int64_t, 3> strides = {1, 1, 1};
  bool residual = false;
};

/// Shape of @main's argument: [1, H, W, C], or [1, M, K] for `fc`.
SmallVector<int64_t> inputShape(const ModelSpec &spec);

/// Builds `func.func @main` into `module`, drawing every weight, bias, zero
/// point and scale from `rng`. Fails with a user-facing message when the
/// options are out of range or a layer's shapes do not divide.
llvm::Expected<func::FuncOp> buildModel(ModuleOp module, const ModelSpec &spec,
                                        Rng &rng);

} // namespace mlir::vmcu::gen

#endif // VMCU_TOOLS_VMCUGEN_MODELS_H
