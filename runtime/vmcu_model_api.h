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
 *   vmcu_arena_bytes  size of the model's tensor arena (its .vmcu_arena
 *                  global), reported by the harness.
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

extern const unsigned vmcu_input_bytes;
extern const unsigned vmcu_output_bytes;
extern const unsigned vmcu_arena_bytes;

#ifdef __cplusplus
}
#endif

#endif /* VMCU_MODEL_API_H */
