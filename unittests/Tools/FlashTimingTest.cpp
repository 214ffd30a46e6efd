//===- FlashTimingTest.cpp - vmcu-prof's flash wait-state model -----------===//
//
// The rules of FlashTiming.cpp, one case each, with the stalls worked out
// by hand (16-byte lines: address 0x10 * n is line n).
//
//===----------------------------------------------------------------------===//

#include "FlashTiming.h"

#include <gtest/gtest.h>

namespace {

using vmcu::prof::FlashAccelerator;
using vmcu::prof::FlashTiming;

TEST(FlashTiming, ZeroWaitStatesCostNothing) {
  FlashTiming flash(0, FlashAccelerator::None);
  EXPECT_EQ(flash.fetch(0x00, 2, 0), 0u);
  EXPECT_EQ(flash.fetch(0x40, 4, 1), 0u);
  EXPECT_EQ(flash.read(0x100, 4), 0u);
  EXPECT_EQ(flash.fetchMisses + flash.readMisses, 0u);
}

// Without an accelerator every new line waits, and so does every read;
// instructions within the current line cost nothing more.
TEST(FlashTiming, WithoutAcceleratorEveryNewLineWaits) {
  FlashTiming flash(3, FlashAccelerator::None);
  EXPECT_EQ(flash.fetch(0x00, 2, 0), 3u);
  EXPECT_EQ(flash.fetch(0x02, 4, 4), 0u);
  EXPECT_EQ(flash.fetch(0x10, 2, 6), 3u);
  EXPECT_EQ(flash.fetch(0x00, 2, 20), 3u);
  EXPECT_EQ(flash.read(0x100, 4), 3u);
  EXPECT_EQ(flash.read(0x100, 4), 3u);
  EXPECT_EQ(flash.fetchStallCycles, 9u);
  EXPECT_EQ(flash.readStallCycles, 6u);
}

// A 32-bit instruction at the end of a line needs the next line too; so
// does an LDRD across a line boundary.
TEST(FlashTiming, AccessesAcrossLinesReadBoth) {
  FlashTiming flash(2, FlashAccelerator::None);
  EXPECT_EQ(flash.fetch(0x0E, 4, 0), 4u);
  EXPECT_EQ(flash.read(0x1C, 8), 4u);
  EXPECT_EQ(flash.readMisses, 2u);
}

// The prefetch buffer reads line n + 1 from the cycle line n arrived; the
// core waits for what is left of it.
TEST(FlashTiming, PrefetchHidesSequentialLines) {
  FlashTiming flash(5, FlashAccelerator::Prefetch);
  EXPECT_EQ(flash.fetch(0x00, 2, 0), 5u);  // miss: line 0 at 5
  EXPECT_EQ(flash.fetch(0x10, 2, 8), 2u);  // line 1 ready at 5 + 5
  EXPECT_EQ(flash.fetch(0x20, 2, 20), 0u); // line 2 ready at 10 + 5
  EXPECT_EQ(flash.fetch(0x00, 2, 21), 5u); // a branch back: no cache
  EXPECT_EQ(flash.fetchMisses, 2u);
}

// With the ART's caches, a line read on a miss stays; a prefetched line
// does not (RM0090 copies "the line read" on a miss).
TEST(FlashTiming, ArtCachesMissedLines) {
  FlashTiming flash(5, FlashAccelerator::Art);
  EXPECT_EQ(flash.fetch(0x00, 2, 0), 5u);  // miss, cached
  EXPECT_EQ(flash.fetch(0x10, 2, 8), 2u);  // prefetched, not cached
  EXPECT_EQ(flash.fetch(0x00, 2, 12), 0u); // cache hit; prefetch line 1
  EXPECT_EQ(flash.fetch(0x10, 2, 13), 4u); // ready at 12 + 5
  EXPECT_EQ(flash.read(0x104, 4), 5u);
  EXPECT_EQ(flash.read(0x108, 4), 0u); // the same line, cached
}

// The data cache keeps 8 lines, least recently used out.
TEST(FlashTiming, DataCacheKeepsEightLines) {
  FlashTiming flash(1, FlashAccelerator::Art);
  for (uint32_t line = 0; line < 8; ++line)
    EXPECT_EQ(flash.read(line * 16, 4), 1u);
  EXPECT_EQ(flash.read(0x00, 4), 0u);   // refreshes line 0
  EXPECT_EQ(flash.read(8 * 16, 4), 1u); // evicts line 1
  EXPECT_EQ(flash.read(1 * 16, 4), 1u); // evicts line 2
  EXPECT_EQ(flash.read(0x00, 4), 0u);
  EXPECT_EQ(flash.readMisses, 10u);
}

// The instruction cache keeps 64 lines: the 65th branch target evicts the
// first, which then evicts the second.
TEST(FlashTiming, InstructionCacheKeepsSixtyFourLines) {
  FlashTiming flash(1, FlashAccelerator::Art);
  uint64_t now = 0;
  // Even lines only, so that no target is the prefetched line.
  for (uint32_t line = 0; line <= 128; line += 2, now += 10)
    EXPECT_EQ(flash.fetch(line * 16, 2, now), 1u);
  EXPECT_EQ(flash.fetch(0x00, 2, now), 1u);
  EXPECT_EQ(flash.fetch(4 * 16, 2, now + 10), 0u);
  EXPECT_EQ(flash.fetch(2 * 16, 2, now + 20), 1u);
  EXPECT_EQ(flash.fetchMisses, 67u);
}

} // namespace
