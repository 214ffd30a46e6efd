/* Stands in for runtime/harness.c in vmcu-run's error tests: reports that
 * vmcu_invoke() failed, as the real harness does, without running it. */
#include "vmcu_model_api.h"
#include "vmcu_runtime.h"

int main(void) {
  vmcu_rt_print("vmcu: arena=");
  vmcu_rt_print_uint(vmcu_arena_bytes);
  vmcu_rt_print(" stack=0 status=-3\n");
  vmcu_rt_exit(VMCU_RT_EXIT_INVOKE_FAILED);
}
