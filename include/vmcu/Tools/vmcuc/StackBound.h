//===- StackBound.h - the model's worst-case stack, from its object -*- C++
//-*-===//
//
// The object carries LLVM's .stack_sizes sections (each function's frame)
// and its calls as relocations; the bound is the deepest call chain from
// vmcu_invoke, with the C library's memset/memcpy priced by a constant.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_STACKBOUND_H
#define VMCU_TOOLS_VMCUC_STACKBOUND_H

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::vmcu {

/// Frames of the C library functions LLVM calls for memory intrinsics
/// (memset, memcpy, memmove). newlib's Thumb-2 memset (arm-none-eabi,
/// libc/machine/arm) pushes {r4, r5, lr}; this allows two more registers
/// for other C libraries.
constexpr uint64_t kLibcFrameBytes = 20;

/// Stack below a call into the runtime's ring checker (--ring-check):
/// runtime/vmcu_ring_check.c's deepest path is 104 B under arm-none-eabi-gcc
/// -O2 -fstack-usage (a load or store check, 32 B, its violation, 8 B,
/// vmcu_rt_print_uint, 56 B, vmcu_rt_exit, 8 B); the rest is room for
/// another compiler.
constexpr uint64_t kRingCheckFrameBytes = 128;

/// What vmcu_invoke() may use of the caller's stack.
struct StackBound {
  /// The bound in bytes, if every function on every path is known.
  std::optional<uint64_t> bytes;
  /// Otherwise the first function without a known frame (a runtime
  /// function, such as the ring checker's, or one missing from the
  /// object).
  std::string unknown;
};

/// The worst-case stack of vmcu_invoke() (renamed by `symbolPrefix`, the
/// model's --symbol-prefix) in `object` (emitted by emitObject(), whose
/// target machine emits .stack_sizes).
StackBound getObjectStackBound(ArrayRef<char> object, StringRef symbolPrefix);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_STACKBOUND_H
