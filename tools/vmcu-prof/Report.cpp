//===- Report.cpp - what vmcu-prof prints ---------------------------------===//
//
// Formats the counts a Profiler kept: the console lines the harness
// printed (minus the ones vmcu-prof replaces), the tables of
// --per-function, the --hot list with its disassembly, and the --cores=2
// summary line.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using llvm::StringRef;

namespace vmcu::prof {
namespace {

/// The harness's console lines (runtime/harness.c).
constexpr StringRef kSummaryPrefix = "vmcu: arena=";
constexpr StringRef kVtimePrefix = "vmcu: vtime_ns=";

} // namespace

void printConsole(StringRef console, bool all) {
  llvm::SmallVector<StringRef> lines;
  console.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    StringRef text = line.trim();
    if (text.starts_with(kVtimePrefix))
      continue;
    if (!all && text.starts_with(kSummaryPrefix))
      continue;
    llvm::errs() << line << "\n";
  }
}

void printPerFunction(const Image &image, const Profiler &profiler,
                      bool wholeProgram) {
  std::string regionName =
      wholeProgram ? "the whole program" : image.api.invoke + "()";
  llvm::raw_ostream &os = llvm::outs();
  const Counts &region = profiler.region;
  auto percent = [&](uint64_t cycles) {
    return region.cycles ? 100.0 * cycles / region.cycles : 0.0;
  };
  std::vector<size_t> order;
  for (size_t i = 0; i < profiler.functionCounts.size(); ++i)
    if (profiler.functionCounts[i].instructions)
      order.push_back(i);
  // Most cycles first; equals in symbol order.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    uint64_t x = profiler.functionCounts[a].cycles;
    uint64_t y = profiler.functionCounts[b].cycles;
    return x != y ? x > y : a < b;
  });
  os << "\ncycles by function in " << regionName
     << " (self; ELF function symbols)\n";
  os << llvm::format("%14s %14s %8s %7s  %s\n", "cycles", "instructions",
                     "cyc/ins", "%cyc", "function");
  for (size_t i : order) {
    const Counts &c = profiler.functionCounts[i];
    std::string name =
        i < image.functions.size() ? image.functions[i].name : "<no symbol>";
    os << llvm::format(
        "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)c.cycles,
        (unsigned long long)c.instructions, (double)c.cycles / c.instructions,
        percent(c.cycles), name.c_str());
  }
  os << llvm::format(
      "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)region.cycles,
      (unsigned long long)region.instructions,
      region.instructions ? (double)region.cycles / region.instructions : 0.0,
      100.0, "total");

  os << "\ncycles by instruction class in " << regionName
     << " (taken-branch refills charged to the branch)\n";
  os << llvm::format("%14s %14s %8s %7s  %s\n", "cycles", "instructions",
                     "cyc/ins", "%cyc", "class");
  for (unsigned i = 0; i < kNumInsnClasses; ++i) {
    const Counts &c = profiler.classCounts[i];
    if (!c.instructions)
      continue;
    os << llvm::format(
        "%14llu %14llu %8.3f %6.1f%%  %s\n", (unsigned long long)c.cycles,
        (unsigned long long)c.instructions, (double)c.cycles / c.instructions,
        percent(c.cycles), getInsnClassName(static_cast<InsnClass>(i)));
  }
  os << "\nmodel events in " << regionName << ": branch refills "
     << profiler.branchPenaltyCycles << " cycles, pipelined loads "
     << profiler.pipelinedLoads << ", address-dependency stalls "
     << profiler.addressStalls << ", failed IT conditions "
     << profiler.failedConditions << "\n";
  if (!wholeProgram)
    os << "whole program: cycles=" << profiler.program.cycles
       << " instructions=" << profiler.program.instructions << "\n";
}

void printHot(const Image &image, Profiler &profiler, unsigned count) {
  std::vector<std::pair<uint32_t, Counts>> hot(profiler.pcCounts.begin(),
                                               profiler.pcCounts.end());
  std::sort(hot.begin(), hot.end(), [](const auto &a, const auto &b) {
    return a.second.cycles > b.second.cycles ||
           (a.second.cycles == b.second.cycles && a.first < b.first);
  });
  hot.resize(std::min<size_t>(hot.size(), count));
  llvm::raw_ostream &os = llvm::outs();
  os << "\nhottest instructions (cycles include taken-branch refills)\n";
  os << llvm::format("%12s %12s %10s  %-36s %s\n", "cycles", "executed",
                     "address", "instruction", "function");
  for (auto &[pc, c] : hot) {
    int32_t function = profiler.decodedFunction(pc);
    std::string name = function >= 0 ? image.functions[function].name : "?";
    os << llvm::format("%12llu %12llu %10s  %-36s %s\n",
                       (unsigned long long)c.cycles,
                       (unsigned long long)c.instructions, hex(pc).c_str(),
                       profiler.disassemble(pc).c_str(), name.c_str());
  }
}

void printTwoCoreSummary(const Board &board, const Profiler &core0,
                         const Profiler &core1, int status) {
  auto busy = [](const Profiler &core) {
    return core.region.cycles - core.waitCycles;
  };
  llvm::outs() << kToolName << ": " << board.cpu
               << " cores=2 makespan=" << core0.region.cycles
               << " core0_cycles=" << busy(core0)
               << " core1_cycles=" << busy(core1)
               << " core0_wait=" << core0.waitCycles
               << " core1_wait=" << core1.waitCycles << " contention="
               << core0.contentionCycles + core1.contentionCycles
               << " instructions="
               << core0.region.instructions + core1.region.instructions
               << " status=" << status << "\n";
}

} // namespace vmcu::prof
