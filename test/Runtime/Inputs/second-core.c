/* The second Cortex-M33 of QEMU's mps2-an521 (SSE-200), held at reset:
 * core 0 gives it a vector table (INITSVTOR1) and releases it (CPUWAIT bit
 * 1); core 1 reports its CPU_IDENTITY and sets a flag in shared SRAM that
 * core 0 waits for. Built with -DHOLD, core 0 never releases it and the
 * wait times out. test/Runtime/second-core.test runs both. */
#include "vmcu_runtime.h"

#include <stdint.h>

/* SSE-200 system control (secure alias) and its registers (Arm CoreLink
 * SSE-200 TRM, system control register block). */
#define SSE200_SYSCTL 0x50021000u
#define SSE200_INITSVTOR1 (SSE200_SYSCTL + 0x114u)
#define SSE200_CPUWAIT (SSE200_SYSCTL + 0x118u)
#define SSE200_CPUWAIT_CPU1 2u
/* CPU_IDENTITY: 0 on core 0, 1 on core 1. */
#define SSE200_CPU_IDENTITY 0x4001F000u
#define REG(addr) (*(volatile uint32_t *)(addr))

/* What core 1 writes once it runs. */
#define CORE1_READY 0xC0DE0001u
/* Polls of core 0 before it gives up (millions of instructions). */
#define MAX_POLLS 50000000u

static volatile uint32_t core1_flag;

typedef void (*vector_t)(void);
static void core1_reset(void);
static void core1_fault(void) {
  vmcu_rt_print("core1: fault\n");
  vmcu_rt_exit(3);
}
static uint64_t core1_stack[512];

/* 16 system + 140 external vectors (QEMU's SSE-200 NVIC); VTOR needs the
 * table aligned to a power of two at least its size. */
__attribute__((aligned(1024), used)) static const vector_t
    core1_vectors[16 + 140] = {
        [0] = (vector_t)(core1_stack + 512),
        [1] = core1_reset,
        [2 ... 155] = core1_fault,
};

static void core1_reset(void) {
  vmcu_rt_print("core1: running, CPU_IDENTITY=");
  vmcu_rt_print_hex(REG(SSE200_CPU_IDENTITY));
  vmcu_rt_print("\n");
  __asm volatile("dmb" ::: "memory");
  core1_flag = CORE1_READY;
  for (;;)
    __asm volatile("wfi");
}

int main(void) {
  vmcu_rt_print("core0: CPU_IDENTITY=");
  vmcu_rt_print_hex(REG(SSE200_CPU_IDENTITY));
  vmcu_rt_print(" CPUWAIT=");
  vmcu_rt_print_hex(REG(SSE200_CPUWAIT));
  vmcu_rt_print("\n");
#ifndef HOLD
  REG(SSE200_INITSVTOR1) = (uint32_t)(uintptr_t)core1_vectors;
  __asm volatile("dsb" ::: "memory");
  REG(SSE200_CPUWAIT) = REG(SSE200_CPUWAIT) & ~SSE200_CPUWAIT_CPU1;
#endif
  for (uint32_t polls = 0; polls < MAX_POLLS; ++polls)
    if (core1_flag == CORE1_READY) {
      vmcu_rt_print("core0: core 1 is running\n");
      return 0;
    }
  vmcu_rt_print("core0: core 1 never ran\n");
  return 1;
}
