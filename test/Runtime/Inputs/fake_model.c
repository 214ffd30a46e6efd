/* A stand-in for a compiled vmcu model, used by test/Runtime to check the
 * runtime without the compiler: output[i] = input[i] ^ 0x5a for 64 bytes.
 * Input and output live in vmcu_arena, placed in .vmcu_arena like the
 * arena global of a real model object. */
#include <stdint.h>

#include "vmcu_model_api.h"

#define N 64

const unsigned vmcu_input_bytes = N;
const unsigned vmcu_output_bytes = N;
const unsigned vmcu_arena_bytes = 2 * N;

int8_t vmcu_arena[2 * N] __attribute__((section(".vmcu_arena"), aligned(8)));

/* One input at byte 0, one output at byte N. */
const unsigned vmcu_input_count = 1;
const unsigned vmcu_output_count = 1;
const unsigned vmcu_input_offsets[] = {0};
const unsigned vmcu_input_sizes[] = {N};
const unsigned vmcu_output_offsets[] = {N};
const unsigned vmcu_output_sizes[] = {N};

/* Initialised data, to check that the startup code copies .data. */
static volatile int8_t key = 0x5a;
/* Zero-initialised data, to check that the startup code clears .bss. */
static volatile int calls;

int8_t *vmcu_input(void) { return vmcu_arena; }
const int8_t *vmcu_output(void) { return vmcu_arena + N; }

/* Uses some stack on purpose, so the harness reports a visible high water. */
__attribute__((noinline)) static void transform(const int8_t *in, int8_t *out) {
  volatile int8_t tmp[256];
  for (int i = 0; i < N; ++i)
    tmp[i] = in[i];
  for (int i = 0; i < N; ++i)
    out[i] = (int8_t)(tmp[i] ^ key);
}

int vmcu_invoke(void) {
  if (calls++ != 0)
    return 7; /* .bss was not zeroed */
  if ((uintptr_t)vmcu_arena & 7u)
    return 8; /* arena not 8-aligned */
  transform(vmcu_arena, vmcu_arena + N);
  return 0;
}
