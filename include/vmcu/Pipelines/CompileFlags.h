//===- CompileFlags.h - every compile option, declared once -----*- C++ -*-===//
//
// The options of a compilation, whoever sets them: the vmcu-tosa-to-llvm
// pipeline (as pass options), vmcuc and vmcu-run (as command-line flags).
// Each is declared once, in CompileFlags::bind, with its name, description
// and allowed values; a binder turns those declarations into its host's
// options, stored in the flags (IREE's OptionsBinder, CIRCT's
// FirtoolOptions).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_PIPELINES_COMPILEFLAGS_H
#define VMCU_PIPELINES_COMPILEFLAGS_H

#include "mlir/Pass/PassOptions.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"
#include "vmcu/Pipelines/FlagNames.h"
#include "vmcu/Support/EnumNames.h"
#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/ScheduleNames.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::vmcu {

/// The default price of widened weights, in cycles saved per flash byte.
/// Measured on the shared models (docs/flash.md, "The default"): at 5,
/// MCUNet-5fps-VWW 15% and VWW 7% less flash for 1.3% and 0.5% more
/// cycles; at 10, VWW 5.8% more cycles.
constexpr unsigned kDefaultWidenCyclesPerByte = 5;

/// The default share of the model's estimated cycles that more int8 layers
/// may add beyond that price (docs/flash.md, "The default").
constexpr unsigned kDefaultFlashSlowdownPercent = 4;

/// The default flash budget, in percent of the flash CMSIS-NN would take
/// for the model: issue 31's target, at most 1.1x CMSIS-NN's flash.
constexpr unsigned kDefaultCmsisFlashPercent = 110;

/// Every option of a compilation that the pipeline and the tools share.
struct CompileFlags {
  TargetCpu cpu = TargetCpu::CortexM4;
  unsigned ramKb = 0;
  unsigned flashKb = 0;
  unsigned cmsisFlashPercent = kDefaultCmsisFlashPercent;
  Schedule schedule = Schedule::Auto;
  TraversalOrder order = TraversalOrder::Auto;
  unsigned windowCache = 0;
  bool widenWeights = true;
  unsigned widenCyclesPerByte = kDefaultWidenCyclesPerByte;
  unsigned flashSlowdownPercent = kDefaultFlashSlowdownPercent;
  unsigned flashWaitStates = 0;
  bool verifyRing = true;
  bool ringCheck = false;
  unsigned cores = 1;
  std::string arenaSection = model_abi::kArenaSection.str();
  std::string weightsSection;
  std::string symbolPrefix = model_abi::kSymbolPrefix.str();

  /// Declares every flag to `binder`: binder.option(name, field, help[,
  /// values]).
  template <typename Binder> void bind(Binder &binder) {
    binder.option(flag_names::kCpu, cpu, "Target core", kTargetCpus);
    binder.option(
        "ram-kb", ramKb,
        "SRAM budget in KiB: the arena and the largest kernel's stack "
        "buffers. The schedule chooser spends it on speed (runs fused "
        "bottlenecks as separate layers or with a line buffer where they "
        "fit, and convs' GEMM rows of 257 to 1024 bytes in pairs) and "
        "segments shrink to fit it; a budget no plan fits is an error. 0 "
        "(default): the SRAM of the smallest plan, except that a block "
        "whose schedule there would take at least twice the cycles of a "
        "faster one and a quarter of the model's may take it within a "
        "quarter more SRAM, and long rows pair within an eighth more where "
        "that saves 2% of the model's cycles");
    binder.option("schedule", schedule, "How fused inverted bottlenecks run",
                  kSchedules);
    binder.option("order", order,
                  "The order recomputing bottlenecks visit their output "
                  "pixels in",
                  kTraversalOrders);
    binder.option(
        "window-cache", windowCache,
        "Stack bytes each fused inverted bottleneck may spend keeping its "
        "R x R window of expanded pixels (R*R*Cmid bytes) and sliding it "
        "along the row, so each input pixel is expanded once per output row "
        "instead of once per tap: faster, more stack, the same arena. 0 "
        "(default): recompute, least RAM");
    binder.option(
        "widen-weights", widenWeights,
        "Store the weights of pointwise convs and expansions with at most "
        "128 input channels (any conv whose weights each serve many output "
        "pixels), and of fully connected layers on one vector, "
        "as int16 pairs, so their register tiles unpack no weight, and "
        "depthwise layers' weights as int16 in 4-lane records (with every "
        "layer widened, 10-16% fewer cycles on the shared models than int8 "
        "weights everywhere, for up to 1.5x the flash). Default on; "
        "--widen-weights=false keeps int8 weights everywhere");
    bindFlash(binder);
    binder.option(
        "verify-ring", verifyRing,
        "Prove the placement at compile time: replay every ring access with "
        "the placed bases and fail with an error naming the kernel, tensor "
        "and loop iteration if a store could land on live data or a load or "
        "free on a dead segment (vmcu-verify-ring; default on). With "
        "--cores=2, also replay both cores' emitted code and fail if two "
        "accesses of one byte by different cores are not ordered by the "
        "sync ops, or the cores can deadlock (vmcu-verify-two-cores)");
    binder.option("arena-section", arenaSection,
                  "Linker section of the arena (default .vmcu_arena, which "
                  "the runtime's linker scripts place NOLOAD in RAM); a "
                  "linker script maps another to, e.g., a tightly coupled "
                  "RAM (runtime/boards/examples/named-sections.ld)");
    binder.option("weights-section", weightsSection,
                  "Linker section of the model's weights and other constant "
                  "tables, e.g. for external flash (default: .rodata)");
    binder.option(
        flag_names::kSymbolPrefix, symbolPrefix,
        "Prefix of the model's C API in the object and the header "
        "(NAME_invoke(), NAME_input(), NAME_arena, ..., and NAME_ARENA_BYTES "
        "and the header's other macros in capitals), so that several models "
        "link into one firmware; a C identifier (default vmcu)");
    binder.option(
        flag_names::kCores, cores,
        "Cores one inference runs on: 1 (default) or 2. With 2, the object "
        "also defines `void vmcu_worker(void)`, which the second core calls "
        "for each inference while the first calls vmcu_invoke(); the layers "
        "whose iterations are independent are split between the cores, "
        "where that does not grow the arena, and the others run on the "
        "first core");
    binder.option(
        "ring-check", ringCheck,
        "Instrument every ring access with a call into the runtime's "
        "ring-safety checker (runtime/vmcu_ring_check.c), which stops the "
        "program on a store to a live segment or a load or free of a dead "
        "one");
  }
  /// Declares the flags of the flash budget and the flash price.
  template <typename Binder> void bindFlash(Binder &binder) {
    binder.option(
        "flash-kb", flashKb,
        "Flash budget in KiB: code, weights and tables of the object. Where "
        "the plan with every layer widened exceeds it, layers keep int8 "
        "instead of widened int16 weights or are emitted compact (rolled "
        "loops: less code; the cost model charges 8% more cycles, "
        "measured -3% to +43% per kernel), the choices that cost the "
        "fewest cycles (cost model) per flash byte saved first; a budget "
        "that even int8 weights and compact kernels everywhere exceed is "
        "an error. Applied by vmcuc and "
        "vmcu-run, which emit the object (the vmcu-tosa-to-llvm pipeline "
        "stops before it). 0 (default): --widen-cycles-per-byte prices the "
        "widening, and the default budget (--cmsis-flash-percent) applies "
        "where that plan exceeds it");
    binder.option(
        "cmsis-flash-percent", cmsisFlashPercent,
        "Without --flash-kb: where the object takes more than this percent "
        "of the flash CMSIS-NN would take for the model (estimated: its "
        "int8 weights, biases and requantization words, a call per layer "
        "and the code of the kernels it uses; vmcu.reference_flash_bytes), "
        "rounded down to KiB, compile it again within that as --flash-kb "
        "does, if the smallest plan fits (else keep the default plan); a "
        "note says which. Flash wins over cycles: VWW takes 1.09x "
        "CMSIS-NN's flash for 6% more cycles (docs/flash.md). Applied by "
        "vmcuc and vmcu-run where they emit an object from a model file. "
        "0: no default budget");
    binder.option(
        "widen-cycles-per-byte", widenCyclesPerByte,
        "Without --flash-kb (the plan the default budget then checks): "
        "widen a layer's weights only where the cost "
        "model expects each flash byte that adds to save at least this "
        "many cycles (default 5: MCUNet-5fps-VWW 15% less flash for 1.3% "
        "more cycles); at the same price, take a single row's 1 x 6 tiles "
        "over paired int8 weights only where they save that much per byte "
        "of code they add, and emit a fully connected layer on one vector "
        "compact where its tiles' straight-line code costs more flash than "
        "even doubling its cycles would pay (the 5 and its figures were "
        "measured for widening). 0: widen every layer --widen-weights "
        "covers, take 1 x 6 tiles wherever they fit, keep every fully "
        "connected layer at full speed");
    binder.option(
        "flash-slowdown-percent", flashSlowdownPercent,
        "Without --flash-kb (the plan the default budget then checks): "
        "beyond --widen-cycles-per-byte, keep int8 "
        "weights in more layers, those that save the most flash per cycle "
        "first, while the cycles they add (cost model) stay within this "
        "percent of the model's. 0: only the price decides");
    binder.option(
        flag_names::kFlashWaitStates, flashWaitStates,
        "Wait states the target's flash needs at its clock (e.g. 5 for an "
        "STM32F4 at 168 MHz). Widened weights read twice the flash bytes, "
        "so the price of widening (--widen-cycles-per-byte, "
        "--flash-slowdown-percent, --flash-kb) counts the stalls behind an "
        "STM32F4-style prefetch buffer and cache that their extra reads "
        "add (cost model; docs/flash.md). 0 (default): zero-wait-state "
        "flash, as the Cortex-M4 cycle figures assume");
  }
};

/// Binds CompileFlags to a tool's command-line flags in `category`, each
/// stored in its field of the flags.
class CommandLineBinder {
public:
  explicit CommandLineBinder(llvm::cl::OptionCategory &category)
      : category(category) {}

  template <typename T>
  void option(llvm::StringRef name, T &field, llvm::StringRef help) {
    options.push_back(std::make_unique<llvm::cl::opt<T, true>>(
        name, llvm::cl::desc(help), llvm::cl::location(field),
        llvm::cl::cat(category)));
  }

  template <typename E, size_t N>
  void option(llvm::StringRef name, E &field, llvm::StringRef help,
              const EnumName<E> (&values)[N]) {
    auto opt = std::make_unique<llvm::cl::opt<E, true>>(
        name, llvm::cl::desc(help), llvm::cl::location(field),
        llvm::cl::cat(category));
    for (const EnumName<E> &value : values)
      opt->getParser().addLiteralOption(value.name, value.value, value.help);
    options.push_back(std::move(opt));
  }

private:
  llvm::cl::OptionCategory &category;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
};

/// Binds CompileFlags to the options of a pass pipeline (`parent`), by
/// name; read() gives the flags the parsed options hold.
class PassOptionsBinder {
public:
  explicit PassOptionsBinder(::mlir::detail::PassOptions &parent)
      : parent(parent) {}

  template <typename T>
  void option(llvm::StringRef name, T &field, llvm::StringRef help) {
    own(name, std::make_shared<::mlir::detail::PassOptions::Option<T>>(
                  parent, name, llvm::cl::desc(help), llvm::cl::init(field)));
  }

  template <typename E, size_t N>
  void option(llvm::StringRef name, E &field, llvm::StringRef help,
              const EnumName<E> (&values)[N]) {
    auto opt = std::make_shared<::mlir::detail::PassOptions::Option<E>>(
        parent, name, llvm::cl::desc(help), llvm::cl::init(field));
    for (const EnumName<E> &value : values)
      opt->getParser().addLiteralOption(value.name, value.value, value.help);
    own(name, std::move(opt));
  }

  /// The flags the options hold (their defaults where not given).
  CompileFlags read() const {
    CompileFlags flags;
    Reader reader{*this};
    flags.bind(reader);
    return flags;
  }

private:
  /// Stores each option's value in the field bound to its name.
  struct Reader {
    const PassOptionsBinder &binder;
    template <typename T>
    void option(llvm::StringRef name, T &field, llvm::StringRef) {
      field = binder.get<T>(name);
    }
    template <typename E, size_t N>
    void option(llvm::StringRef name, E &field, llvm::StringRef,
                const EnumName<E> (&)[N]) {
      field = binder.get<E>(name);
    }
  };

  template <typename T> T get(llvm::StringRef name) const {
    // Bound by the same CompileFlags::bind, so the option has type T.
    for (const auto &[optionName, option] : options)
      if (optionName == name)
        return static_cast<const ::mlir::detail::PassOptions::Option<T> *>(
                   option.get())
            ->getValue();
    llvm_unreachable("option not bound");
  }

  /// Keeps `option` (a ::mlir::detail::PassOptions::Option<T>, type-erased).
  void own(llvm::StringRef name, std::shared_ptr<void> option) {
    options.emplace_back(name.str(), std::move(option));
  }

  ::mlir::detail::PassOptions &parent;
  std::vector<std::pair<std::string, std::shared_ptr<void>>> options;
};

} // namespace mlir::vmcu

#endif // VMCU_PIPELINES_COMPILEFLAGS_H
