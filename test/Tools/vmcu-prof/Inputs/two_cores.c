/* Two Cortex-M33 of the SSE-200 (mps2-an521) split a sum of squares for
 * `vmcu-prof --cores=2`: core 0 releases core 1 (INITSVTOR1, CPUWAIT, as
 * test/Runtime/Inputs/second-core.c), then vmcu_invoke() hands core 1 the
 * upper half (flag `go`), sums the lower half, waits in vmcu_wait_done()
 * for core 1's vmcu_worker() and adds the two sums. Built with -DSINGLE,
 * core 1 is never released and vmcu_invoke() sums all of it: the same
 * result, the one-core time. test/Tools/vmcu-prof/two-cores.test runs
 * both. */
#include "vmcu_runtime.h"

#include <stdint.h>

/* SSE-200 system control (secure alias) and its registers (Arm CoreLink
 * SSE-200 TRM, system control register block). */
#define SSE200_SYSCTL 0x50021000u
#define SSE200_INITSVTOR1 (SSE200_SYSCTL + 0x114u)
#define SSE200_CPUWAIT (SSE200_SYSCTL + 0x118u)
#define SSE200_CPUWAIT_CPU1 2u
#define REG(addr) (*(volatile uint32_t *)(addr))

#define N 4096
#define HALF (N / 2)
/* Values in [-500, 499]: the sum of 4096 squares fits in 32 bits. */
#define VALUE_RANGE 1000
#define VALUE_OFFSET 500

static int32_t data[N];
static volatile uint32_t go, done, core1_sum;
static uint32_t result;

static void dmb(void) { __asm volatile("dmb" ::: "memory"); }

static uint32_t sum_squares(const int32_t *x, int n) {
  uint32_t sum = 0;
  for (int i = 0; i < n; ++i)
    sum += (uint32_t)(x[i] * x[i]);
  return sum;
}

__attribute__((noinline)) void vmcu_worker(void) {
  core1_sum = sum_squares(data + HALF, N - HALF);
  dmb();
  done = 1;
}

__attribute__((noinline)) void vmcu_wait_done(void) {
  while (!done) {
  }
  dmb();
}

__attribute__((noinline)) int vmcu_invoke(void) {
#ifdef SINGLE
  result = sum_squares(data, N);
#else
  dmb();
  go = 1;
  uint32_t sum = sum_squares(data, HALF);
  vmcu_wait_done();
  result = sum + core1_sum;
#endif
  return 0;
}

typedef void (*vector_t)(void);
static void core1_reset(void);
static uint64_t core1_stack[256];

/* Core 1's SP and reset vector (the rest of its table is never used
 * here); VTOR needs 128-byte alignment. */
__attribute__((aligned(128), used)) static const vector_t core1_vectors[16] = {
    [0] = (vector_t)(core1_stack + 256),
    [1] = core1_reset,
};

static void core1_reset(void) {
  while (!go) {
  }
  dmb();
  vmcu_worker();
  for (;;) {
  }
}

int main(void) {
  for (int i = 0; i < N; ++i)
    data[i] = (int32_t)((i * 37 + 11) % VALUE_RANGE) - VALUE_OFFSET;
#ifdef SINGLE
  /* Keeps core 1's code (and vmcu_worker) linked, without touching the
   * SSE-200: the ELF also runs under plain `vmcu-prof` (one core). */
  __asm volatile("" ::"r"(core1_vectors));
#else
  REG(SSE200_INITSVTOR1) = (uint32_t)(uintptr_t)core1_vectors;
  __asm volatile("dsb" ::: "memory");
  REG(SSE200_CPUWAIT) = REG(SSE200_CPUWAIT) & ~SSE200_CPUWAIT_CPU1;
#endif
#ifdef BAD_REGISTER
  REG(SSE200_SYSCTL) = 1; /* SECDBGSTAT: not emulated */
#endif
  if (vmcu_invoke() != 0)
    return 1;
  vmcu_rt_print("sum_squares=");
  vmcu_rt_print_uint(result);
  vmcu_rt_print("\n");
  return 0;
}
