//===- Report.h - what vmcu-prof prints -------------------------*- C++ -*-===//
//
// The reports of a finished run: the guest's console, the --cores=2
// summary line, the --per-function tables and the --hot instructions.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_REPORT_H
#define VMCU_TOOLS_VMCU_PROF_REPORT_H

#include "ElfImage.h"
#include "Profiler.h"

#include "llvm/ADT/StringRef.h"

namespace vmcu::prof {

/// The tool's name, which starts its summary lines and its diagnostics.
constexpr llvm::StringLiteral kToolName = "vmcu-prof";

/// Prints the console except the harness's summary and vtime lines.
void printConsole(llvm::StringRef console, bool all);

/// The --per-function tables: the region's cycles by function symbol and
/// by instruction class, and the timing model's events.
void printPerFunction(const Image &image, const Profiler &profiler,
                      bool wholeProgram);

/// The `count` instructions that took the most cycles in the region, with
/// their function and disassembly.
void printHot(const Image &image, Profiler &profiler, unsigned count);

/// The --cores=2 summary line (kOverview in vmcu-prof.cpp explains its
/// fields).
void printTwoCoreSummary(const Board &board, const Profiler &core0,
                         const Profiler &core1, int status);

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_REPORT_H
