/* A stand-in "model" whose vmcu_invoke() exercises vmcu-prof's flash model
 * (tools/vmcu-prof/FlashTiming.cpp): eight 16-bit instructions that fill
 * one 16-byte flash line (the function is aligned to a line), a literal
 * load from the pool in the next line, and two loads from one line of a
 * table in flash. flash.test checks the stalls: one instruction line, and
 * three data reads, of which the ART's data cache turns the last into a
 * hit. */
#include <stdint.h>

#include "stand_in_io.h"

/* One flash line of constants. */
const uint32_t flash_table[4] __attribute__((aligned(16), used)) = {1, 2, 3, 4};

__attribute__((naked, aligned(16))) int vmcu_invoke(void) {
  __asm volatile("  ldr    r0, =flash_table \n" /* literal: a data read   */
                 "  ldr    r1, [r0]         \n" /* the table's line       */
                 "  ldr    r2, [r0, #4]     \n" /* the same line again    */
                 "  movs   r3, #4           \n"
                 "1:                        \n"
                 "  subs   r3, r3, #1       \n"
                 "  bne    1b               \n" /* within the line        */
                 "  movs   r0, #0           \n"
                 "  bx     lr               \n" /* 16 bytes of code       */
                 "  .ltorg                  \n");
}
