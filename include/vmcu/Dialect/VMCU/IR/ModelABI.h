//===- ModelABI.h - names the model object and the runtime share --*- C++
//-*-===//
//
// The C symbols of a compiled model (runtime/vmcu_model_api.h) and of the
// ring-safety checker (runtime/vmcu_ring_check.h): one declaration for the
// passes that emit them, the lowering and the header writer.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_MODELABI_H
#define VMCU_DIALECT_VMCU_IR_MODELABI_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <cstdint>
#include <string>

namespace mlir::vmcu {

/// Symbols of a lowered model. They are the C API of the object file
/// (runtime/vmcu_model_api.h mirrors them).
namespace model_abi {
/// The prefix of every symbol below; `--symbol-prefix` replaces it
/// (vmcu-prefix-symbols) so that several models link into one firmware.
inline constexpr llvm::StringLiteral kSymbolPrefix = "vmcu";
/// The arena: one byte array holding the whole segment pool.
inline constexpr llvm::StringLiteral kArena = "vmcu_arena";
/// Linker section of the arena (NOLOAD in the runtime's linker scripts).
inline constexpr llvm::StringLiteral kArenaSection = ".vmcu_arena";
/// `int8_t *vmcu_input(void)` and `const int8_t *vmcu_output(void)`.
inline constexpr llvm::StringLiteral kInputFn = "vmcu_input";
inline constexpr llvm::StringLiteral kOutputFn = "vmcu_output";
/// `int vmcu_invoke(void)`: the model's entry function (a `func.func`).
inline constexpr llvm::StringLiteral kInvokeFn = "vmcu_invoke";
/// Exported `const unsigned` byte counts.
inline constexpr llvm::StringLiteral kArenaBytes = "vmcu_arena_bytes";
inline constexpr llvm::StringLiteral kInputBytes = "vmcu_input_bytes";
inline constexpr llvm::StringLiteral kOutputBytes = "vmcu_output_bytes";
/// Every input and output: `const unsigned` counts, and arrays of one
/// `const unsigned` per input (output): its byte offset in the arena and
/// its byte count. vmcu_input()/vmcu_output() are input and output 0.
inline constexpr llvm::StringLiteral kInputCount = "vmcu_input_count";
inline constexpr llvm::StringLiteral kOutputCount = "vmcu_output_count";
inline constexpr llvm::StringLiteral kInputOffsets = "vmcu_input_offsets";
inline constexpr llvm::StringLiteral kInputSizes = "vmcu_input_sizes";
inline constexpr llvm::StringLiteral kOutputOffsets = "vmcu_output_offsets";
inline constexpr llvm::StringLiteral kOutputSizes = "vmcu_output_sizes";
/// Discardable attribute on `vmcu.tensor_base` marking the model's input
/// or output tensor; its value is "input" or "output".
inline constexpr llvm::StringLiteral kIOAttrName = "vmcu.io";
inline constexpr llvm::StringLiteral kIOInput = "input";
/// Its companion on a model with several inputs or outputs: the position,
/// absent for 0.
inline constexpr llvm::StringLiteral kIOIndexAttrName = "vmcu.io_index";
inline constexpr llvm::StringLiteral kIOOutput = "output";
/// `void vmcu_worker(void)`, only with cores = 2: the second core's part
/// of one inference; vmcu_invoke() on the first core returns once both
/// have finished.
inline constexpr llvm::StringLiteral kWorkerFn = "vmcu_worker";

/// Every symbol of the C API a model object defines (the worker only with
/// cores = 2): the names --symbol-prefix renames.
inline constexpr llvm::StringLiteral kExportedSymbols[] = {
    kArena,      kInputFn,       kOutputFn,    kInvokeFn,    kArenaBytes,
    kInputBytes, kOutputBytes,   kInputCount,  kOutputCount, kInputOffsets,
    kInputSizes, kOutputOffsets, kOutputSizes, kWorkerFn};

/// The name `symbol` (one of the above) takes in a model compiled with
/// `--symbol-prefix=prefix`.
inline std::string prefixed(llvm::StringRef symbol, llvm::StringRef prefix) {
  assert(symbol.starts_with(kSymbolPrefix) && "not a model ABI symbol");
  return prefix.str() + symbol.drop_front(kSymbolPrefix.size()).str();
}

/// Whether `prefix` can start the model's C symbols: a C identifier.
inline bool isValidSymbolPrefix(llvm::StringRef prefix) {
  auto identifierChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
  };
  return !prefix.empty() && !(prefix.front() >= '0' && prefix.front() <= '9') &&
         llvm::all_of(prefix, identifierChar);
}

/// What an exit status of the runtime's harness and fault handler means
/// (VMCU_RT_EXIT_* in runtime/vmcu_runtime.h, by value), or a reference
/// to the console for a status it does not use.
inline llvm::StringRef runtimeStatusMeaning(int status) {
  static constexpr const char *kMeanings[] = {
      "ok",
      "vmcu_invoke() returned non-zero",
      "input or output file error",
      "HardFault or another unexpected exception",
      "stack overflow",
      "ring-safety violation",
  };
  if (status < 0 || static_cast<size_t>(status) >= std::size(kMeanings))
    return "see the console above";
  return kMeanings[status];
}
} // namespace model_abi

/// How two cores share a kernel the split marks (`cores` = kSplitCores on
/// vmcu.kernel): core c runs the iterations i = c, c + 2, ... of its
/// top-level loop, and before iteration i waits until the other core has
/// finished iteration i - kSplitFreeDelay - 1. A store in iteration i is
/// then ordered after every load of iterations <= i - kSplitFreeDelay, so
/// the offset solver and the verifier apply each free kSplitFreeDelay
/// iterations late (KernelPattern::freeDelay).
namespace core_split {
inline constexpr int64_t kSplitCores = 2;
inline constexpr int64_t kSplitFreeDelay = 2;
/// split_depth 2: the iterations are those of the loop inside the
/// top-level loop (its rows' pixels), counted across rows.
inline constexpr int64_t kMaxSplitDepth = 2;
/// The words the cores synchronize through: `i32 vmcu_sync[kSyncSlots]`
/// (zero at reset), each written by one core. kEpochSlot: the inference
/// core 0 started; kWorkerEpochSlot: the last one core 1 joined; kDoneSlot
/// + c: core c's progress in the current split kernel; kArriveSlot + c:
/// the barriers core c reached.
inline constexpr llvm::StringLiteral kSyncWords = "vmcu_sync";
/// The private function both cores run: `vmcu_run(core: index,
/// epoch_base: i32)`; vmcu_invoke calls it on core 0, vmcu_worker on 1.
inline constexpr llvm::StringLiteral kRunFn = "vmcu_run";
inline constexpr int64_t kEpochSlot = 0;
inline constexpr int64_t kWorkerEpochSlot = 1;
inline constexpr int64_t kDoneSlot = 2;
inline constexpr int64_t kArriveSlot = 4;
inline constexpr int64_t kSyncSlots = 6;
/// `vmcu_wait_sync(i32 *word, i32 target)`: the spin of vmcu.sync_wait,
/// a function of its own so that profilers count the waiting.
inline constexpr llvm::StringLiteral kWaitFn = "vmcu_wait_sync";
} // namespace core_split

/// The runtime's ring-safety checker (runtime/vmcu_ring_check.h mirrors
/// these), called by models lowered with `ring-check`. Every argument is an
/// `i32`; segment addresses are unwrapped, as the ring ops take them.
namespace ring_check_abi {
/// `init(segments, segment_bytes, input_base, input_segments, names,
/// kernel_count)`: resets the checker, the model input is live.
inline constexpr llvm::StringLiteral kInitFn = "vmcu_ring_check_init";
/// `input(base, segments)`: a further model input is live too.
inline constexpr llvm::StringLiteral kInputFn = "vmcu_ring_check_input";
/// `load(segment, offset, bytes, kernel)`: the bytes read must be live.
inline constexpr llvm::StringLiteral kLoadFn = "vmcu_ring_check_load";
/// `store(segment, offset, bytes, kernel)`: the bytes written must be dead
/// or already owned by `kernel`; they become `kernel`'s.
inline constexpr llvm::StringLiteral kStoreFn = "vmcu_ring_check_store";
/// `view(segment, count, alignment, kernel)` (vmcu.ring_view): the `count`
/// segments from `segment`, wrapping, must be live, and the run must start
/// at a multiple of `alignment` bytes of a pool whose size is one too.
inline constexpr llvm::StringLiteral kViewFn = "vmcu_ring_check_view";
/// `free(segment, count, kernel)`: the segments must be live; they die.
inline constexpr llvm::StringLiteral kFreeFn = "vmcu_ring_check_free";
/// `free_shared(segment, count, kernel)`: a free in a kernel two cores
/// share; the segments die, but `kernel` may still load them (the other
/// core may be behind).
inline constexpr llvm::StringLiteral kFreeSharedFn =
    "vmcu_ring_check_free_shared";
/// `release(segment, count, kernel)`: `kernel`'s workspace dies at its end.
inline constexpr llvm::StringLiteral kReleaseFn = "vmcu_ring_check_release";
/// Every entry point of the checker a model may call.
inline constexpr llvm::StringLiteral kEntryPoints[] = {
    kInitFn, kInputFn, kLoadFn,       kStoreFn,
    kViewFn, kFreeFn,  kFreeSharedFn, kReleaseFn};
/// The kernels' names, each NUL-terminated, in kernel id order.
inline constexpr llvm::StringLiteral kKernelNames =
    "vmcu_ring_check_kernel_names";
/// Kernel id of a ring op outside any `vmcu.kernel`.
inline constexpr uint32_t kNoKernel = 0xffffffffu;
} // namespace ring_check_abi

} // namespace mlir::vmcu

#endif // VMCU_DIALECT_VMCU_IR_MODELABI_H
