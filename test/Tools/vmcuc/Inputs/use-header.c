/* Uses every macro and function of a generated model header, so that a
 * header that does not compile (or warns) fails the build: compiled as C
 * and as C++ with -Wall -Werror (header-compiles.test). */
#include MODEL_HEADER

float edge_scales(void);
float edge_scales(void) {
  float x = 1.0f, y = 0.0f;
  int8_t q = 0;
  vmcu_quantize_input(&x, &q, 1);
  vmcu_dequantize_output(&q, &y, 1);
  return VMCU_INPUT_SCALE + VMCU_OUTPUT_SCALE + y +
         (float)(VMCU_INPUT_ZERO_POINT + VMCU_OUTPUT_ZERO_POINT +
                 VMCU_INPUT_IS_FLOAT + VMCU_OUTPUT_IS_FLOAT) +
         (float)(VMCU_ARENA_BYTES + VMCU_INPUT_BYTES + VMCU_OUTPUT_BYTES +
                 VMCU_INPUT_COUNT + VMCU_OUTPUT_COUNT);
}
