//===- FlashTiming.h - flash wait states behind an ART accelerator -*- C++
//-*-===//
//
// The stalls a Cortex-M core takes when it runs code and reads constants
// from on-chip flash that needs wait states at its clock, behind the flash
// interface of an STM32F4 (RM0090, section 3.5.2, "Adaptive real-time
// memory accelerator"): the flash is read 128 bits (one line) at a time;
// a prefetch buffer reads the next sequential instruction line while the
// current one executes; an instruction cache keeps 64 lines and a data
// cache 8, each filled with the lines read on a miss.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCU_PROF_FLASHTIMING_H
#define VMCU_TOOLS_VMCU_PROF_FLASHTIMING_H

#include <cstdint>
#include <vector>

namespace vmcu::prof {

/// Bytes the flash returns per read (RM0090 3.5.2: 128 bits).
constexpr uint32_t kFlashLineBytes = 16;
/// Lines of the instruction and data caches (RM0090 3.5.2: 64 and 8 lines
/// of 128 bits).
constexpr unsigned kArtInstructionLines = 64;
constexpr unsigned kArtDataLines = 8;

/// What sits between the core and the flash.
enum class FlashAccelerator : uint8_t {
  /// Every new line read waits for the flash.
  None,
  /// The prefetch buffer only: a sequential next line is read while the
  /// current one executes.
  Prefetch,
  /// Prefetch and the instruction and data caches (STM32F4's ART).
  Art,
};

/// A fully associative cache of flash lines, least recently used out.
/// (RM0090 does not give the caches' organisation; this is an assumption.)
class LineCache {
public:
  explicit LineCache(unsigned lines) : tags(lines, kEmpty), used(lines, 0) {}
  /// Whether `line` is held; a hit refreshes it.
  bool lookup(uint32_t line);
  /// Keeps `line`, dropping the least recently used one.
  void insert(uint32_t line);

private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  std::vector<uint32_t> tags;
  std::vector<uint64_t> used;
  uint64_t tick = 0;
};

/// The stall cycles of instruction fetches and data reads from flash with
/// `waitStates` wait states. Zero wait states cost nothing: the timing
/// table's cycles already assume them.
class FlashTiming {
public:
  FlashTiming(unsigned waitStates, FlashAccelerator accelerator);

  /// Stall cycles before the instruction at [address, address + size)
  /// issues at core cycle `now`.
  unsigned fetch(uint32_t address, unsigned size, uint64_t now);
  /// Stall cycles of a data read (a literal, a weight) of
  /// [address, address + size).
  unsigned read(uint32_t address, unsigned size);

  /// Lines the core waited for, and the cycles it waited.
  uint64_t fetchMisses = 0, readMisses = 0;
  uint64_t fetchStallCycles = 0, readStallCycles = 0;

private:
  unsigned fetchLine(uint32_t line, uint64_t now);

  unsigned waitStates;
  bool prefetches, caches;
  LineCache instructionCache{kArtInstructionLines};
  LineCache dataCache{kArtDataLines};
  /// The instruction line the core executes from, and the line the
  /// prefetch buffer holds or is reading, with the cycle it is ready at.
  uint32_t currentLine = UINT32_MAX;
  uint32_t prefetchedLine = UINT32_MAX;
  uint64_t prefetchReady = 0;
};

} // namespace vmcu::prof

#endif // VMCU_TOOLS_VMCU_PROF_FLASHTIMING_H
