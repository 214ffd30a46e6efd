/* Two vmcu models in one firmware: model_a.h and model_b.h are the headers
 * of two models compiled with --symbol-prefix=net_a and --symbol-prefix=
 * net_b (test/Runtime/two-models.test). Both inputs are filled before
 * either model runs, then each runs, then both outputs are written: each
 * model keeps its own arena. Command line (semihosting): IN_A IN_B OUT_A
 * OUT_B. */
#include "model_a.h"
#include "model_b.h"
#include "vmcu_runtime.h"

enum { kPaths = 4 };

static int split(char *s, char **argv, int max) {
  int argc = 0;
  while (*s) {
    while (*s == ' ')
      *s++ = '\0';
    if (!*s)
      break;
    if (argc < max)
      argv[argc] = s;
    ++argc;
    while (*s && *s != ' ')
      ++s;
  }
  return argc;
}

static void check(int ok, const char *what) {
  if (ok)
    return;
  vmcu_rt_print("two-models: error: ");
  vmcu_rt_print(what);
  vmcu_rt_print("\n");
  vmcu_rt_exit(1);
}

int main(void) {
  static char cmdline[1024];
  char *argv[kPaths + 1] = {0};
  check(vmcu_rt_get_cmdline(cmdline, sizeof(cmdline)) == 0 &&
            split(cmdline, argv, kPaths + 1) == kPaths + 1,
        "usage: IN_A IN_B OUT_A OUT_B");
  check(vmcu_rt_read_file(argv[1], net_a_input(), NET_A_INPUT_BYTES, 0) == 0,
        "cannot read IN_A");
  check(vmcu_rt_read_file(argv[2], net_b_input(), NET_B_INPUT_BYTES, 0) == 0,
        "cannot read IN_B");
  check(net_a_invoke() == 0, "net_a_invoke failed");
  check(net_b_invoke() == 0, "net_b_invoke failed");
  check(vmcu_rt_write_file(argv[3], net_a_output(), NET_A_OUTPUT_BYTES) == 0,
        "cannot write OUT_A");
  check(vmcu_rt_write_file(argv[4], net_b_output(), NET_B_OUTPUT_BYTES) == 0,
        "cannot write OUT_B");
  vmcu_rt_print("two-models: net_a arena=");
  vmcu_rt_print_uint(net_a_arena_bytes);
  vmcu_rt_print(" net_b arena=");
  vmcu_rt_print_uint(net_b_arena_bytes);
  vmcu_rt_print("\n");
  return 0;
}
