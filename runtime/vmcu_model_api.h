/*===- vmcu_model_api.h - C API of a compiled vmcu model -------------------===*
 *
 * Mirror of the header the vmcu compiler generates next to a model object.
 * A model object (built for thumbv7em-none-eabi, soft-float ABI) defines:
 *
 *   vmcu_input()   pointer to the model's int8 input buffer (inside its
 *                  arena), vmcu_input_bytes bytes long; the caller fills it.
 *   vmcu_output()  pointer to the int8 output buffer, vmcu_output_bytes long;
 *                  valid after vmcu_invoke() returned 0.
 *   vmcu_invoke()  runs one inference; 0 on success.
 *   vmcu_worker()  only in a model compiled with --cores=2: the second
 *                  core's part of one inference. The second core calls it
 *                  in a loop; each call waits for the next vmcu_invoke()
 *                  on the first core, and that returns once both finished.
 *   vmcu_arena_bytes  size of the model's tensor arena (its .vmcu_arena
 *                  global), reported by the harness.
 *
 * vmcu_input() and vmcu_output() are the model's first input and output. A
 * model with several gives each its place in the arena (every one
 * contiguous, like the first): vmcu_input_count inputs, input i at
 * vmcu_input_at(i), vmcu_input_sizes[i] bytes long (outputs alike).
 *===----------------------------------------------------------------------===*/
#ifndef VMCU_MODEL_API_H
#define VMCU_MODEL_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int8_t *vmcu_input(void);
const int8_t *vmcu_output(void);
int vmcu_invoke(void);
void vmcu_worker(void);

extern const unsigned vmcu_input_bytes;
extern const unsigned vmcu_output_bytes;
extern const unsigned vmcu_arena_bytes;

extern int8_t vmcu_arena[];
extern const unsigned vmcu_input_count;
extern const unsigned vmcu_output_count;
/* Byte offsets in vmcu_arena and byte counts, one per input (output). */
extern const unsigned vmcu_input_offsets[];
extern const unsigned vmcu_input_sizes[];
extern const unsigned vmcu_output_offsets[];
extern const unsigned vmcu_output_sizes[];

#ifndef VMCU_IO_ACCESSORS
#define VMCU_IO_ACCESSORS
static inline int8_t *vmcu_input_at(unsigned i) {
  return vmcu_arena + vmcu_input_offsets[i];
}
static inline const int8_t *vmcu_output_at(unsigned i) {
  return vmcu_arena + vmcu_output_offsets[i];
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* VMCU_MODEL_API_H */
