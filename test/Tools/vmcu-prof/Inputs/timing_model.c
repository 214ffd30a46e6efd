/* A stand-in "model" whose vmcu_invoke() is a hand-written instruction
 * sequence with a known cost under vmcu-prof's Cortex-M4 timing model
 * (tools/vmcu-prof/CortexM4Timing.cpp): each line's comment gives the
 * cycles the model must charge and the rule behind them. timing.test checks
 * the total, 52 cycles for 24 instructions. */
#include <stdint.h>

#include "stand_in_io.h"

__attribute__((naked)) int vmcu_invoke(void) {
  __asm volatile(
      "  ldr    r0, =vmcu_arena \n" /* 2  LDR (literal)               */
      "  ldr    r1, [r0]               \n" /* 2  address uses the loaded r0  */
      "  ldr    r2, [r0, #4]           \n" /* 1  pipelined behind a load     */
      "  ldr    r3, [r0, #8]           \n" /* 1  pipelined again             */
      "  adds   r0, r0, #4             \n" /* 1                              */
      "  ldr    r1, [r0]               \n" /* 3  2 + stall: r0 just computed */
      "  str    r1, [r0, #4]           \n" /* 1  store                       */
      "  ldr    r2, [r0]               \n" /* 2  nothing pipelines after STR */
      "  str    r2, [r0, #8]           \n" /* 1  store                       */
      "  smlad  r1, r2, r3, r1         \n" /* 1  DSP MAC                     */
      "  sxtb16 r2, r3                 \n" /* 1                              */
      "  ldrd   r2, r3, [r0]           \n" /* 3  1 + N                       */
      "  push   {r4, r5, r6}           \n" /* 4  1 + N                       */
      "  pop    {r4, r5, r6}           \n" /* 4  1 + N                       */
      "  udiv   r1, r1, r3             \n" /* 12 worst case of 2-12          */
      "  cmp    r0, r0                 \n" /* 1  Z = 1                       */
      "  ite    ne                     \n" /* 1  IT                          */
      "  movne  r1, #1                 \n" /* 1  condition fails             */
      "  moveq  r1, #2                 \n" /* 1  condition passes            */
      "  cmp    r1, #2                 \n" /* 1                              */
      "  bne    1f                     \n" /* 1  not taken                   */
      "  b      2f                     \n" /* 3  taken: 1 + P                */
      "1:                              \n"
      "  nop                           \n" /* skipped                        */
      "2:                              \n"
      "  movs   r0, #0                 \n" /* 1                              */
      "  bx     lr                     \n" /* 3  1 + P                       */
      "  .ltorg                        \n");
}
