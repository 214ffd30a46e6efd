/*===- harness.c - vmcu model runner for QEMU mps2 boards ------------------===*
 *
 * main() linked with a compiled model object (see vmcu_model_api.h):
 *
 *   1. input/output paths come from the semihosting command line: QEMU
 *      passes "<kernel> <-append string>", so
 *        qemu-system-arm ... -kernel model.elf -append "in.bin out.bin"
 *      gives input "in.bin" and output "out.bin" (host paths relative to
 *      QEMU's cwd; no spaces in paths). Missing arguments default to
 *      vmcu_in.bin and vmcu_out.bin.
 *   2. the input file must hold exactly the model's input bytes: every
 *      input's, one after another in input order (vmcu_input_at(i),
 *      vmcu_input_sizes[i]); they are copied to the inputs;
 *   3. vmcu_invoke() runs; on success every output's bytes, one after
 *      another in output order, are written to the output file;
 *   4. one summary line is printed to the semihosting console:
 *        vmcu: arena=<vmcu_arena_bytes> stack=<high-water bytes> status=<rc>
 *      (built with -DVMCU_HARNESS_VTIME, a second line
 *        vmcu: vtime_ns=<N>
 *      gives QEMU virtual time spent in vmcu_invoke(); run QEMU with
 *      -icount shift=0 to make it a deterministic instruction count);
 *      and QEMU exits with VMCU_RT_EXIT_OK (0) if rc == 0, otherwise
 *      VMCU_RT_EXIT_INVOKE_FAILED (1); VMCU_RT_EXIT_IO (2) for file errors,
 *      VMCU_RT_EXIT_STACK (4) if the stack was exhausted, and
 *      VMCU_RT_EXIT_FAULT (3) from the fault handler.
 *
 * Built with -DVMCU_HARNESS_CORES=2 for a model compiled with --cores=2
 * on the mps2-an521 layout (Arm SSE-200, two Cortex-M33), main() first
 * releases the second core, which calls vmcu_worker() in a loop.
 *===----------------------------------------------------------------------===*/

#include "vmcu_model_api.h"
#include "vmcu_runtime.h"

#define DEFAULT_INPUT "vmcu_in.bin"
#define DEFAULT_OUTPUT "vmcu_out.bin"

static char cmdline[2048];

/* Splits `s` in place at spaces/tabs; returns the number of tokens. */
static int split(char *s, char **argv, int max) {
  int argc = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
      *s++ = '\0';
    if (!*s)
      break;
    if (argc < max)
      argv[argc] = s;
    ++argc;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n')
      ++s;
  }
  return argc;
}

static void io_error(const char *what, const char *path) {
  vmcu_rt_print("vmcu: error: ");
  vmcu_rt_print(what);
  vmcu_rt_print(" '");
  vmcu_rt_print(path);
  vmcu_rt_print("'\n");
  vmcu_rt_exit(VMCU_RT_EXIT_IO);
}

static unsigned total_bytes(const unsigned *sizes, unsigned count) {
  unsigned total = 0;
  for (unsigned i = 0; i < count; ++i)
    total += sizes[i];
  return total;
}

/* Fills every model input, in order, from the file at `path` (not inlined:
 * its frame must not stay live in main() across vmcu_invoke()). */
__attribute__((noinline)) static void read_inputs(const char *path) {
  int fd = vmcu_rt_open(path, VMCU_RT_OPEN_READ);
  if (fd < 0)
    io_error("cannot open input file", path);
  long len = vmcu_rt_flen(fd);
  unsigned expected = total_bytes(vmcu_input_sizes, vmcu_input_count);
  if (len < 0 || (unsigned long)len != expected) {
    vmcu_rt_print("vmcu: error: input file '");
    vmcu_rt_print(path);
    vmcu_rt_print("' has ");
    vmcu_rt_print_int(len);
    vmcu_rt_print(" bytes, the model expects ");
    vmcu_rt_print_uint(expected);
    vmcu_rt_print("\n");
    vmcu_rt_exit(VMCU_RT_EXIT_IO);
  }
  for (unsigned i = 0; i < vmcu_input_count; ++i)
    if (vmcu_rt_read(fd, vmcu_input_at(i), vmcu_input_sizes[i]) !=
        (long)vmcu_input_sizes[i])
      io_error("cannot read input file", path);
  vmcu_rt_close(fd);
}

/* Writes every model output, in order, to the file at `path`. */
__attribute__((noinline)) static void write_outputs(const char *path) {
  int fd = vmcu_rt_open(path, VMCU_RT_OPEN_WRITE);
  if (fd < 0)
    io_error("cannot write output file", path);
  for (unsigned i = 0; i < vmcu_output_count; ++i)
    if (vmcu_rt_write(fd, vmcu_output_at(i), vmcu_output_sizes[i]) !=
        (long)vmcu_output_sizes[i])
      io_error("cannot write output file", path);
  if (vmcu_rt_close(fd) != 0)
    io_error("cannot write output file", path);
}

#if defined(VMCU_HARNESS_CORES) && VMCU_HARNESS_CORES == 2
/* SSE-200 system control (secure alias; Arm CoreLink SSE-200 TRM, system
 * control registers): core 1 starts from the vector table at INITSVTOR1
 * once bit 1 of CPUWAIT is cleared (test/Runtime/second-core.test). */
#define SSE200_INITSVTOR1 0x50021114u
#define SSE200_CPUWAIT 0x50021118u
#define SSE200_CPUWAIT_CPU1 2u
#define SSE200_REG(addr) (*(volatile uint32_t *)(addr))
/* Core 1's stack: vmcu-run passes the model's stack bound (its header's
 * VMCU_STACK_BYTES, which covers the kernels both cores call) plus a
 * margin; 4 KiB otherwise. Its vector table: 16 system and 140 external
 * vectors (QEMU's SSE-200 NVIC), aligned to a power of two at least its
 * size, as VTOR needs. */
#ifndef VMCU_HARNESS_CORE1_STACK_BYTES
#define VMCU_HARNESS_CORE1_STACK_BYTES 4096u
#endif
#define CORE1_STACK_WORDS64 ((VMCU_HARNESS_CORE1_STACK_BYTES + 7u) / 8u)
#define CORE1_VECTORS (16 + 140)
#define CORE1_VECTOR_ALIGN 1024

static uint64_t core1_stack[CORE1_STACK_WORDS64];

__attribute__((noreturn)) static void core1_reset(void) {
  for (;;)
    vmcu_worker();
}

static void core1_fault(void) {
  vmcu_rt_print("vmcu: error: fault on core 1\n");
  vmcu_rt_exit(VMCU_RT_EXIT_FAULT);
}

typedef void (*core1_vector_t)(void);
__attribute__((aligned(CORE1_VECTOR_ALIGN), used)) static const core1_vector_t
    core1_vectors[CORE1_VECTORS] = {
        [0] = (core1_vector_t)(core1_stack + CORE1_STACK_WORDS64),
        [1] = (core1_vector_t)core1_reset,
        [2 ... CORE1_VECTORS - 1] = core1_fault,
};

static void start_core1(void) {
  SSE200_REG(SSE200_INITSVTOR1) = (uint32_t)(uintptr_t)core1_vectors;
  __asm volatile("dsb" ::: "memory");
  SSE200_REG(SSE200_CPUWAIT) &= ~SSE200_CPUWAIT_CPU1;
}
#endif

int main(void) {
  char *argv[3] = {0, DEFAULT_INPUT, DEFAULT_OUTPUT};
#if defined(VMCU_HARNESS_CORES) && VMCU_HARNESS_CORES == 2
  start_core1();
#endif
  if (vmcu_rt_get_cmdline(cmdline, sizeof(cmdline)) == 0)
    split(cmdline, argv, 3); /* argv[0] = program (kernel) name */
  const char *in_path = argv[1];
  const char *out_path = argv[2];

  read_inputs(in_path);

#ifdef VMCU_HARNESS_VTIME
  vmcu_rt_vtime_start();
#endif
  int status = vmcu_invoke();
#ifdef VMCU_HARNESS_VTIME
  uint64_t vtime = vmcu_rt_vtime_ns();
#endif
  size_t stack = vmcu_rt_stack_high_water();

  if (status == 0)
    write_outputs(out_path);

  vmcu_rt_print("vmcu: arena=");
  vmcu_rt_print_uint(vmcu_arena_bytes);
  vmcu_rt_print(" stack=");
  vmcu_rt_print_uint(stack);
  vmcu_rt_print(" status=");
  vmcu_rt_print_int(status);
  vmcu_rt_print("\n");
#ifdef VMCU_HARNESS_VTIME
  vmcu_rt_print("vmcu: vtime_ns=");
  vmcu_rt_print_uint(vtime);
  vmcu_rt_print("\n");
#endif

  if (vmcu_rt_stack_overflowed()) {
    vmcu_rt_print("vmcu: error: stack overflow: used ");
    vmcu_rt_print_uint(stack);
    vmcu_rt_print(" of ");
    vmcu_rt_print_uint(vmcu_rt_stack_size());
    vmcu_rt_print(" bytes; relink with -Wl,--defsym=__vmcu_stack_size=N\n");
    return VMCU_RT_EXIT_STACK;
  }
  return status == 0 ? VMCU_RT_EXIT_OK : VMCU_RT_EXIT_INVOKE_FAILED;
}
