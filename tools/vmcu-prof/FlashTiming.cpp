//===- FlashTiming.cpp - flash wait states behind an ART accelerator ------===//
//
// The rules, from RM0090 section 3.5.2 (STM32F405/415/407/417/427/437/429/
// 439 reference manual), as vmcu-prof applies them:
//   - a line read takes the wait states on top of the one cycle the timing
//     table already counts for every access;
//   - the core executes from its current line without further reads;
//   - with prefetch, moving to line L starts the read of L + 1, ready
//     `waitStates` cycles after L arrived; the core stalls only for what is
//     left of it when it reaches L + 1;
//   - with the caches, a line read on a miss is kept (a prefetched line is
//     not: the manual copies "the line read" on a miss only); a cached line
//     costs nothing;
//   - data reads go through the data cache; without it every read waits.
// Not modelled: the I-Code and D-Code buses' competition for the flash
// (D-Code has priority), prefetches abandoned by a branch, and anything
// that is not a Cortex-M read of the flash region.
//
//===----------------------------------------------------------------------===//

#include "FlashTiming.h"

#include <algorithm>

using namespace vmcu::prof;

bool LineCache::lookup(uint32_t line) {
  for (size_t i = 0; i < tags.size(); ++i)
    if (tags[i] == line) {
      used[i] = ++tick;
      return true;
    }
  return false;
}

void LineCache::insert(uint32_t line) {
  size_t victim = std::min_element(used.begin(), used.end()) - used.begin();
  tags[victim] = line;
  used[victim] = ++tick;
}

FlashTiming::FlashTiming(unsigned waitStates, FlashAccelerator accelerator)
    : waitStates(waitStates), prefetches(accelerator != FlashAccelerator::None),
      caches(accelerator == FlashAccelerator::Art) {}

unsigned FlashTiming::fetchLine(uint32_t line, uint64_t now) {
  if (line == currentLine)
    return 0;
  unsigned stall = 0;
  if (caches && instructionCache.lookup(line)) {
    stall = 0;
  } else if (prefetches && line == prefetchedLine) {
    stall =
        prefetchReady > now ? static_cast<unsigned>(prefetchReady - now) : 0;
  } else {
    stall = waitStates;
    ++fetchMisses;
    if (caches)
      instructionCache.insert(line);
  }
  fetchStallCycles += stall;
  currentLine = line;
  if (prefetches) {
    prefetchedLine = line + 1;
    prefetchReady = now + stall + waitStates;
  }
  return stall;
}

unsigned FlashTiming::fetch(uint32_t address, unsigned size, uint64_t now) {
  if (!waitStates)
    return 0;
  uint32_t first = address / kFlashLineBytes;
  uint32_t last = (address + std::max(size, 1u) - 1) / kFlashLineBytes;
  unsigned stall = fetchLine(first, now);
  if (last != first)
    stall += fetchLine(last, now + stall);
  return stall;
}

unsigned FlashTiming::read(uint32_t address, unsigned size) {
  if (!waitStates)
    return 0;
  uint32_t first = address / kFlashLineBytes;
  uint32_t last = (address + std::max(size, 1u) - 1) / kFlashLineBytes;
  unsigned stall = 0;
  for (uint32_t line = first; line <= last; ++line) {
    if (caches && dataCache.lookup(line))
      continue;
    ++readMisses;
    stall += waitStates;
    if (caches)
      dataCache.insert(line);
  }
  readStallCycles += stall;
  return stall;
}
