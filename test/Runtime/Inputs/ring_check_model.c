/* A stand-in model that drives runtime/vmcu_ring_check.c directly, as a
 * model compiled with --ring-check would, so test/Runtime/ring-check.test
 * covers every rule of the checker without the compiler. SCENARIO picks the
 * call sequence: 0 is legal throughout (the model then copies its input to
 * its output), every other one ends in one violation.
 *
 * The pool has 8 segments of 16 bytes; the input is 2 segments at base 6,
 * the output 2 segments at base 0. Kernels: 0 "alpha", 1 "beta". */
#include <stdint.h>

#include "vmcu_model_api.h"
#include "vmcu_ring_check.h"

#ifndef SCENARIO
#define SCENARIO 0
#endif

#define SEGMENTS 8u
#define SEGMENT_BYTES 16u
#define IO_BYTES (2u * SEGMENT_BYTES)

const unsigned vmcu_input_bytes = IO_BYTES;
const unsigned vmcu_output_bytes = IO_BYTES;
const unsigned vmcu_arena_bytes = SEGMENTS * SEGMENT_BYTES;

int8_t vmcu_arena[SEGMENTS * SEGMENT_BYTES]
    __attribute__((section(".vmcu_arena"), aligned(8)));
static const char names[] = "alpha\0beta";

/* One input at segment 6, one output at segment 0. */
const unsigned vmcu_input_count = 1;
const unsigned vmcu_output_count = 1;
const unsigned vmcu_input_offsets[] = {6 * SEGMENT_BYTES};
const unsigned vmcu_input_sizes[] = {IO_BYTES};
const unsigned vmcu_output_offsets[] = {0};
const unsigned vmcu_output_sizes[] = {IO_BYTES};

int8_t *vmcu_input(void) { return vmcu_arena + 6 * SEGMENT_BYTES; }
const int8_t *vmcu_output(void) { return vmcu_arena; }

int vmcu_invoke(void) {
#if SCENARIO == 5
  vmcu_ring_check_load(0, 0, 16, 0); /* before init */
#endif
  vmcu_ring_check_init(SEGMENTS, SEGMENT_BYTES, 6, 2, names, 2);
#if SCENARIO == 0
  /* alpha: input 6, 7 -> segments 2, 3 (4 bytes at a time), frees input;
   * segment 7 as a kernel both cores run: the other core, behind, may
   * still load it within alpha. */
  for (uint32_t i = 0; i < 2; ++i) {
    vmcu_ring_check_load(6 + i, 0, 16, 0);
    for (uint32_t off = 0; off < 16; off += 4)
      vmcu_ring_check_store(2 + i, off, 4, 0); /* own segment again: fine */
  }
  vmcu_ring_check_free(6, 1, 0);
  vmcu_ring_check_free_shared(7, 1, 0);
  vmcu_ring_check_load(7, 0, 16, 0);
  /* alpha's workspace 4, 5 (only 4 written) dies at its end. */
  vmcu_ring_check_store(4, 0, 16, 0);
  vmcu_ring_check_release(4, 2, 0);
  /* beta: 2, 3 -> 8, 9, i.e. 0, 1 unwrapped, and a 32-byte store over the
   * dead workspace; then frees 2, 3 as one wrapping free from 10. */
  vmcu_ring_check_load(2, 0, 32, 1);
  vmcu_ring_check_store(8, 0, 32, 1);
  vmcu_ring_check_store(4, 0, 32, 1);
  vmcu_ring_check_free(10, 2, 1);
  for (uint32_t i = 0; i < IO_BYTES; ++i)
    vmcu_arena[i] = vmcu_arena[6 * SEGMENT_BYTES + i];
#elif SCENARIO == 1
  vmcu_ring_check_store(2, 0, 16, 0);
  vmcu_ring_check_store(2, 8, 8, 1); /* alpha's segment, beta stores */
#elif SCENARIO == 2
  vmcu_ring_check_load(16, 0, 16, 1); /* address >= 2 * SEGMENTS */
#elif SCENARIO == 3
  vmcu_ring_check_load(7, 0, 32, 0); /* segments 7 and 8: past the end */
#elif SCENARIO == 4
  vmcu_ring_check_free(1, 1, VMCU_RING_CHECK_NO_KERNEL); /* never written */
#elif SCENARIO == 6
  vmcu_ring_check_free_shared(6, 1, 0);
  vmcu_ring_check_load(6, 0, 16, 1); /* freed by alpha, loaded by beta */
#elif SCENARIO == 7
  vmcu_ring_check_free_shared(6, 1, 0);
  vmcu_ring_check_free_shared(6, 1, 0); /* freed twice */
#endif
  return 0;
}
