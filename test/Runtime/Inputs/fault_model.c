/* A broken "model" whose vmcu_invoke faults, to check that the runtime's
 * fault handler reports the fault and makes QEMU exit non-zero instead of
 * hanging. FAULT_KIND selects the fault:
 *   1 (default) undefined instruction  -> UsageFault escalated to HardFault
 *   2 load from an unmapped address     -> BusFault escalated to HardFault */
#ifndef FAULT_KIND
#define FAULT_KIND 1
#endif

#define STAND_IN_ARENA_BYTES 8
#include "stand_in_io.h"

int vmcu_invoke(void) {
#if FAULT_KIND == 1
  __asm volatile("udf #0");
#else
  return *(volatile int *)0xF0000000u;
#endif
  return 0;
}
