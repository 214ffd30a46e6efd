/* The model API (runtime/vmcu_model_api.h) of a hand-written stand-in
 * "model" for the runtime's harness: one 4-byte input at the start of the
 * arena and one 4-byte output after it. The including file defines
 * vmcu_invoke(); exactly one file of each program includes this one. */
#ifndef STAND_IN_IO_H
#define STAND_IN_IO_H

#include <stdint.h>

#include "vmcu_model_api.h"

#ifndef STAND_IN_ARENA_BYTES
#define STAND_IN_ARENA_BYTES 16
#endif

const unsigned vmcu_input_bytes = 4;
const unsigned vmcu_output_bytes = 4;
const unsigned vmcu_arena_bytes = STAND_IN_ARENA_BYTES;

int8_t vmcu_arena[STAND_IN_ARENA_BYTES]
    __attribute__((section(".vmcu_arena"), aligned(8)));

const unsigned vmcu_input_count = 1;
const unsigned vmcu_output_count = 1;
const unsigned vmcu_input_offsets[] = {0};
const unsigned vmcu_input_sizes[] = {4};
const unsigned vmcu_output_offsets[] = {4};
const unsigned vmcu_output_sizes[] = {4};

int8_t *vmcu_input(void) { return vmcu_arena; }
const int8_t *vmcu_output(void) { return vmcu_arena + 4; }

#endif /* STAND_IN_IO_H */
