/*===- startup.c - vmcu bare-metal startup for Cortex-M4/M7 ---------------===*
 *
 * Vector table, Reset_Handler and fault handlers for the QEMU mps2-an386
 * (Cortex-M4) and mps2-an500 (Cortex-M7) boards; see runtime/README.md.
 *
 * Reset sequence:
 *   1. (asm) set SP to __stack_top and paint all free RAM between the heap
 *      start and the stack top, [__heap_start, __stack_top), with
 *      VMCU_RT_STACK_PAINT, so vmcu_rt_stack_high_water() can measure the
 *      deepest stack use later, even past the reserved stack (overflow);
 *   2. point VTOR at the vector table, enable CP10/CP11 (the FPU);
 *   3. copy .data from its load image, zero .bss;
 *   4. run .preinit_array/.init_array constructors;
 *   5. call main() and exit QEMU through semihosting SYS_EXIT_EXTENDED with
 *      main's return value as the exit status.
 *
 * Float ABI: the runtime is built with -mfloat-abi=soft, matching LLVM's
 * default for thumbv7em-none-eabi. The FPU is still switched on at reset so
 * that objects built with -mfloat-abi=softfp (VFP instructions, soft calling
 * convention) also run; the soft-float ABI never touches FP registers.
 *
 * Every exception other than reset and SysTick (NMI, HardFault, MemManage,
 * BusFault, UsageFault, SVC, DebugMon, PendSV and any IRQ) lands in
 * vmcu_rt_fault(), which prints the exception name, the stacked registers and
 * the fault status registers over semihosting and exits with status
 * VMCU_RT_EXIT_FAULT. Nothing ever spins forever.
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

#include "vmcu_runtime.h"

int main(void);

/* Linker-script symbols (runtime/boards/mps2-an*.ld). */
extern uint32_t __stack_top[], __stack_bottom[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];
extern void (*__preinit_array_start[])(void);
extern void (*__preinit_array_end[])(void);
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

void Reset_Handler(void);
void vmcu_rt_fault_entry(void);
void vmcu_rt_systick_handler(void);
void vmcu_rt_fault(uint32_t *frame, uint32_t exc_return, uint32_t sp_at_fault);
void vmcu_rt_start(void) __attribute__((noreturn, used));

#define SCB_VTOR (*(volatile uint32_t *)0xE000ED08u)
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)
#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define SCB_BFAR (*(volatile uint32_t *)0xE000ED38u)

/* 16 system exception slots + 48 external IRQs (QEMU's mps2 NVIC num-irq). */
#define VMCU_RT_NUM_IRQ 48

typedef void (*vmcu_rt_vector_t)(void);

__attribute__((section(".vectors"), used))
const vmcu_rt_vector_t vmcu_rt_vectors[16 + VMCU_RT_NUM_IRQ] = {
    [0] = (vmcu_rt_vector_t)__stack_top, /* initial main SP */
    [1] = Reset_Handler,
    /* [2] NMI .. [14] PendSV and all IRQs: the reporting fault handler.
     * Slots 7-10 and 13 are reserved by the architecture. */
    [2] = vmcu_rt_fault_entry,  [3] = vmcu_rt_fault_entry,
    [4] = vmcu_rt_fault_entry,  [5] = vmcu_rt_fault_entry,
    [6] = vmcu_rt_fault_entry,  [11] = vmcu_rt_fault_entry,
    [12] = vmcu_rt_fault_entry, [14] = vmcu_rt_fault_entry,
    [15] = vmcu_rt_systick_handler, /* only enabled by vmcu_rt_vtime_start */
    [16 ... 16 + VMCU_RT_NUM_IRQ - 1] = vmcu_rt_fault_entry,
};

/* Reset entry. Naked: no C code may run before the stack is painted, or its
 * frame would be overwritten. Paints [__heap_start, __stack_top) with the
 * pattern (nothing is on the stack yet), then tail-calls vmcu_rt_start.
 * Painting the 4 MiB of RAM costs about 1M stores, a few ms in QEMU. */
__attribute__((naked, section(".text.Reset_Handler"))) void Reset_Handler(void) {
  __asm volatile(
      "  ldr   r0, =__stack_top          \n"
      "  mov   sp, r0                    \n"
      "  ldr   r1, =__heap_start         \n"
      "  ldr   r2, =%c0                  \n"
      "1:                                \n"
      "  cmp   r1, r0                    \n"
      "  bhs   2f                        \n"
      "  str   r2, [r1], #4              \n"
      "  b     1b                        \n"
      "2:                                \n"
      "  b     vmcu_rt_start             \n"
      ".ltorg                            \n"
      :
      : "i"(VMCU_RT_STACK_PAINT));
}

void vmcu_rt_start(void) {
  SCB_VTOR = (uint32_t)(uintptr_t)vmcu_rt_vectors;
  /* CP10 and CP11 full access (CPACR bits 20-23): enables the FPU. Write
   * ignored on a core without one. */
  SCB_CPACR |= 0xFu << 20;
  __asm volatile("dsb\n isb" ::: "memory");

  /* Word loops; .data and .bss are 8-aligned and 8-padded by the script.
   * volatile stops GCC turning these loops into memcpy/memset calls. */
  volatile uint32_t *dst = __data_start;
  const uint32_t *src = __data_load;
  if (src != __data_start)
    while (dst < __data_end)
      *dst++ = *src++;
  for (dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;

  for (void (**f)(void) = __preinit_array_start; f < __preinit_array_end; ++f)
    (*f)();
  for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f)
    (*f)();

  vmcu_rt_exit(main());
}

/* Common entry of all non-reset exceptions. Passes the exception stack
 * frame (from MSP or PSP according to EXC_RETURN bit 2), EXC_RETURN and the
 * SP value at the fault to C. Naked so it adds no frame of its own. */
__attribute__((naked)) void vmcu_rt_fault_entry(void) {
  __asm volatile(
      "  tst   lr, #4                    \n"
      "  ite   eq                        \n"
      "  mrseq r0, msp                   \n"
      "  mrsne r0, psp                   \n"
      "  mov   r1, lr                    \n"
      "  mov   r2, r0                    \n"
      "  b     vmcu_rt_fault             \n");
}

static const char *exception_name(unsigned n) {
  switch (n) {
  case 2: return "NMI";
  case 3: return "HardFault";
  case 4: return "MemManage";
  case 5: return "BusFault";
  case 6: return "UsageFault";
  case 11: return "SVCall";
  case 12: return "DebugMonitor";
  case 14: return "PendSV";
  case 15: return "SysTick";
  default: return n >= 16 ? "IRQ" : "reserved exception";
  }
}

static void put_field(const char *name, uint32_t v) {
  vmcu_rt_print(" ");
  vmcu_rt_print(name);
  vmcu_rt_print("=");
  vmcu_rt_print_hex(v);
}

void vmcu_rt_fault(uint32_t *frame, uint32_t exc_return, uint32_t sp) {
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  unsigned n = ipsr & 0x1FFu;

  vmcu_rt_print("vmcu: fatal exception: ");
  vmcu_rt_print(exception_name(n));
  if (n >= 16) {
    vmcu_rt_print(" ");
    vmcu_rt_print_uint(n - 16);
  }
  vmcu_rt_print("\n");

  /* Only trust the stacked frame if it lies inside RAM's stack region;
   * otherwise (e.g. a stacking fault on overflow) skip it. */
  if ((uintptr_t)frame >= (uintptr_t)__stack_bottom &&
      (uintptr_t)frame + 32 <= (uintptr_t)__stack_top) {
    vmcu_rt_print("vmcu:");
    put_field("pc", frame[6]);
    put_field("lr", frame[5]);
    put_field("xpsr", frame[7]);
    put_field("sp", sp);
    vmcu_rt_print("\nvmcu:");
    put_field("r0", frame[0]);
    put_field("r1", frame[1]);
    put_field("r2", frame[2]);
    put_field("r3", frame[3]);
    put_field("r12", frame[4]);
    vmcu_rt_print("\n");
  } else {
    vmcu_rt_print("vmcu: exception frame outside the stack");
    put_field("sp", sp);
    vmcu_rt_print("\n");
  }
  uint32_t cfsr = SCB_CFSR;
  vmcu_rt_print("vmcu:");
  put_field("cfsr", cfsr);
  put_field("hfsr", SCB_HFSR);
  if (cfsr & (1u << 7)) /* MMARVALID */
    put_field("mmfar", SCB_MMFAR);
  if (cfsr & (1u << 15)) /* BFARVALID */
    put_field("bfar", SCB_BFAR);
  put_field("exc_return", exc_return);
  vmcu_rt_print("\n");
  vmcu_rt_exit(VMCU_RT_EXIT_FAULT);
}
