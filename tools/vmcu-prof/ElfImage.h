//===- ElfImage.h - what vmcu-prof reads from the ELF -----------*- C++ -*-===//
//
// The ARM ELF executable vmcu-prof runs, as it reads it: load segments,
// function symbols and symbol values, the names the linker script and the
// model's C API give, and the model's constants (input and output sizes)
// read back from the load segments.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_ELFIMAGE_H
#define VMCU_TOOLS_VMCU_PROF_ELFIMAGE_H

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace vmcu::prof {

namespace model_abi = mlir::vmcu::model_abi;

/// Linker-script symbols that give the regions: FLASH starts at the vector
/// table and is VMCU_FLASH_SIZE long; RAM is VMCU_RAM_SIZE long and ends at
/// __stack_top.
constexpr llvm::StringRef kFlashStartSymbol = "__vectors_start";
constexpr llvm::StringRef kFlashSizeSymbol = "VMCU_FLASH_SIZE";
constexpr llvm::StringRef kRamEndSymbol = "__stack_top";
constexpr llvm::StringRef kRamSizeSymbol = "VMCU_RAM_SIZE";
/// The model's C API symbols the profiler reads (ModelABI.h), under the
/// model's --symbol-prefix: the entry point (core 0's region), the second
/// core's (core 1's region), and every input's (output's) count and array
/// of sizes, which the harness reads (writes) one after another.
struct ModelSymbols {
  explicit ModelSymbols(llvm::StringRef prefix)
      : invoke(model_abi::prefixed(model_abi::kInvokeFn, prefix)),
        worker(model_abi::prefixed(model_abi::kWorkerFn, prefix)),
        inputCount(model_abi::prefixed(model_abi::kInputCount, prefix)),
        inputSizes(model_abi::prefixed(model_abi::kInputSizes, prefix)),
        outputCount(model_abi::prefixed(model_abi::kOutputCount, prefix)),
        outputSizes(model_abi::prefixed(model_abi::kOutputSizes, prefix)) {}
  std::string invoke, worker, inputCount, inputSizes, outputCount, outputSizes;
};

/// The Thumb bit of a branch target / of the PC written to unicorn.
constexpr uint32_t kThumbBit = 1;

struct FunctionSymbol {
  uint32_t address, size;
  std::string name;
};

/// What the profiler read from the ELF.
struct Image {
  struct Segment {
    uint32_t address, fileSize, memorySize;
    llvm::StringRef bytes;
  };
  std::vector<Segment> segments;
  std::vector<FunctionSymbol> functions; // sorted by address
  std::unordered_map<std::string, uint32_t> symbols;
  /// Lowest and highest address of executable segments.
  uint32_t codeLow = 0, codeHigh = 0;
  /// The model's C API names.
  ModelSymbols api{model_abi::kSymbolPrefix};

  std::optional<uint32_t> lookup(llvm::StringRef name) const {
    auto it = symbols.find(name.str());
    if (it == symbols.end())
      return std::nullopt;
    return it->second;
  }
};

/// Reads an ARM ELF executable's load segments and symbols. On failure
/// returns the message.
std::optional<std::string> readImage(llvm::StringRef path,
                                     llvm::StringRef contents, Image &image);

/// Word `index` of the model's constant `name`, read from the ELF's load
/// segments (what the loaded flash holds).
std::optional<uint32_t> readConstant(const Image &image, llvm::StringRef name,
                                     uint32_t index = 0);

/// Every input's (output's) bytes together: the sum of the `count`
/// entries of the array `sizes`.
std::optional<uint32_t> totalBytes(const Image &image, llvm::StringRef count,
                                   llvm::StringRef sizes);

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_ELFIMAGE_H
