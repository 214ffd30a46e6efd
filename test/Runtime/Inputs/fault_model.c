/* A broken "model" whose vmcu_invoke faults, to check that the runtime's
 * fault handler reports the fault and makes QEMU exit non-zero instead of
 * hanging. FAULT_KIND selects the fault:
 *   1 (default) undefined instruction  -> UsageFault escalated to HardFault
 *   2 load from an unmapped address     -> BusFault escalated to HardFault */
#include <stdint.h>

#include "vmcu_model_api.h"

#ifndef FAULT_KIND
#define FAULT_KIND 1
#endif

const unsigned vmcu_input_bytes = 4;
const unsigned vmcu_output_bytes = 4;
const unsigned vmcu_arena_bytes = 8;

int8_t vmcu_arena[8] __attribute__((section(".vmcu_arena"), aligned(8)));

const unsigned vmcu_input_count = 1;
const unsigned vmcu_output_count = 1;
const unsigned vmcu_input_offsets[] = {0};
const unsigned vmcu_input_sizes[] = {4};
const unsigned vmcu_output_offsets[] = {4};
const unsigned vmcu_output_sizes[] = {4};

int8_t *vmcu_input(void) { return vmcu_arena; }
const int8_t *vmcu_output(void) { return vmcu_arena + 4; }

int vmcu_invoke(void) {
#if FAULT_KIND == 1
  __asm volatile("udf #0");
#else
  return *(volatile int *)0xF0000000u;
#endif
  return 0;
}
