/*===- vmcu_runtime.c - vmcu bare-metal runtime services -------------------===*
 *
 * Raw ARM semihosting (BKPT 0xAB, Thumb) plus stack measurement; see
 * vmcu_runtime.h. Semihosting operation numbers and parameter blocks follow
 * the "Semihosting for AArch32 and AArch64" specification (ARM DUI 0058 /
 * IHI 0045), as implemented by QEMU's semihosting/arm-compat-semi.c.
 *===----------------------------------------------------------------------===*/

#include "vmcu_runtime.h"

#include <stdint.h>

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_READ = 0x06,
  SYS_FLEN = 0x0C,
  SYS_EXIT = 0x18,
  SYS_EXIT_EXTENDED = 0x20,
  SYS_GET_CMDLINE = 0x15,
};
#define ADP_Stopped_ApplicationExit 0x20026u

extern uint32_t __stack_top[], __stack_bottom[];
extern char __heap_start[], __heap_end[];

long vmcu_rt_semihost(unsigned op, const void *arg) {
  register unsigned r0 __asm("r0") = op;
  register const void *r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return (long)(int32_t)r0;
}

/*--- exit ------------------------------------------------------------------*/

void vmcu_rt_exit(int code) {
  uint32_t block[2] = {ADP_Stopped_ApplicationExit, (uint32_t)code};
  vmcu_rt_semihost(SYS_EXIT_EXTENDED, block);
  /* A host without SYS_EXIT_EXTENDED: plain SYS_EXIT (status 0 or 1). */
  vmcu_rt_semihost(SYS_EXIT,
                   (const void *)(uintptr_t)(code == 0 ? ADP_Stopped_ApplicationExit
                                                       : 0x20024u /* RunTimeErrorUnknown */));
  for (;;)
    __asm volatile("bkpt 0"); /* no semihosting host at all: stop a debugger */
}

/* newlib's exit()/abort() end up here; never spin in libnosys's _exit. */
void _exit(int code) __attribute__((noreturn));
void _exit(int code) { vmcu_rt_exit(code); }

/* Bounded sbrk for newlib malloc, heap = [__heap_start, __heap_end). */
static char *heap_brk = __heap_start;
void *_sbrk(intptr_t incr);
void *_sbrk(intptr_t incr) {
  if (incr > __heap_end - heap_brk || incr < __heap_start - heap_brk)
    return (void *)-1;
  char *old = heap_brk;
  heap_brk += incr;
  return old;
}

/*--- stack -----------------------------------------------------------------*/

size_t vmcu_rt_stack_size(void) {
  return (size_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom);
}

/* The startup code painted [__heap_start, __stack_top); the heap (if malloc
 * is used at all) grows up from __heap_start to heap_brk, the stack grows
 * down from __stack_top, possibly past __stack_bottom. */
size_t vmcu_rt_stack_high_water(void) {
  const volatile uint32_t *p =
      (const volatile uint32_t *)(((uintptr_t)heap_brk + 3u) & ~(uintptr_t)3u);
  while (p < __stack_top && *p == VMCU_RT_STACK_PAINT)
    ++p;
  return (size_t)((uintptr_t)__stack_top - (uintptr_t)p);
}

int vmcu_rt_stack_overflowed(void) {
  return vmcu_rt_stack_high_water() > vmcu_rt_stack_size();
}

/*--- virtual time ----------------------------------------------------------*/

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

static volatile uint32_t systick_wraps;

/* SysTick exception handler (vector 15, installed by startup.c). */
void vmcu_rt_systick_handler(void) { systick_wraps = systick_wraps + 1; }

void vmcu_rt_vtime_start(void) {
  SYST_CSR = 0;
  systick_wraps = 0;
  SYST_RVR = 0x00FFFFFFu; /* full 24-bit period */
  SYST_CVR = 0;           /* any write clears the counter (reloads) */
  SYST_CSR = 7u;          /* CLKSOURCE = core clock, TICKINT, ENABLE */
}

uint64_t vmcu_rt_vtime_ns(void) {
  uint32_t wraps, cvr;
  do {
    wraps = systick_wraps;
    cvr = SYST_CVR;
  } while (wraps != systick_wraps);
  uint64_t ticks = ((uint64_t)wraps << 24) + (0x00FFFFFFu - cvr);
  return ticks * (1000000000u / VMCU_RT_CORE_CLOCK_HZ);
}

/*--- console ---------------------------------------------------------------*/

void vmcu_rt_print(const char *s) { vmcu_rt_semihost(SYS_WRITE0, s); }

void vmcu_rt_print_uint(unsigned long long v) {
  char buf[24];
  char *p = buf + sizeof(buf);
  *--p = '\0';
  do {
    *--p = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  vmcu_rt_print(p);
}

void vmcu_rt_print_int(long long v) {
  if (v < 0) {
    vmcu_rt_print("-");
    vmcu_rt_print_uint(0ull - (unsigned long long)v);
  } else {
    vmcu_rt_print_uint((unsigned long long)v);
  }
}

void vmcu_rt_print_hex(uint32_t v) {
  static const char digits[] = "0123456789abcdef";
  char buf[11];
  buf[0] = '0';
  buf[1] = 'x';
  for (int i = 0; i < 8; ++i)
    buf[2 + i] = digits[(v >> (28 - 4 * i)) & 0xFu];
  buf[10] = '\0';
  vmcu_rt_print(buf);
}

/*--- host files ------------------------------------------------------------*/

static size_t cstrlen(const char *s) {
  size_t n = 0;
  while (s[n])
    ++n;
  return n;
}

int vmcu_rt_open(const char *path, int mode) {
  uint32_t block[3] = {(uint32_t)(uintptr_t)path, (uint32_t)mode,
                       (uint32_t)cstrlen(path)};
  long fd = vmcu_rt_semihost(SYS_OPEN, block);
  return fd < 0 ? -1 : (int)fd;
}

int vmcu_rt_close(int fd) {
  uint32_t block[1] = {(uint32_t)fd};
  return vmcu_rt_semihost(SYS_CLOSE, block) == 0 ? 0 : -1;
}

long vmcu_rt_flen(int fd) {
  uint32_t block[1] = {(uint32_t)fd};
  return vmcu_rt_semihost(SYS_FLEN, block);
}

/* SYS_READ/SYS_WRITE return the number of bytes NOT transferred. */
long vmcu_rt_read(int fd, void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    uint32_t block[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)((char *)buf + done),
                         (uint32_t)(n - done)};
    long left = vmcu_rt_semihost(SYS_READ, block);
    if (left < 0 || (size_t)left > n - done)
      return done ? (long)done : -1;
    if ((size_t)left == n - done)
      break; /* EOF */
    done = n - (size_t)left;
  }
  return (long)done;
}

long vmcu_rt_write(int fd, const void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    uint32_t block[3] = {(uint32_t)fd,
                         (uint32_t)(uintptr_t)((const char *)buf + done),
                         (uint32_t)(n - done)};
    long left = vmcu_rt_semihost(SYS_WRITE, block);
    if (left < 0 || (size_t)left > n - done)
      return done ? (long)done : -1;
    if ((size_t)left == n - done)
      break; /* no progress */
    done = n - (size_t)left;
  }
  return (long)done;
}

int vmcu_rt_read_file(const char *path, void *buf, size_t n, long *actual) {
  int fd = vmcu_rt_open(path, VMCU_RT_OPEN_READ);
  if (fd < 0)
    return -1;
  long len = vmcu_rt_flen(fd);
  if (actual)
    *actual = len;
  if (len < 0 || (size_t)len != n) {
    vmcu_rt_close(fd);
    return -2;
  }
  long got = vmcu_rt_read(fd, buf, n);
  vmcu_rt_close(fd);
  return got == (long)n ? 0 : -3;
}

int vmcu_rt_write_file(const char *path, const void *buf, size_t n) {
  int fd = vmcu_rt_open(path, VMCU_RT_OPEN_WRITE);
  if (fd < 0)
    return -1;
  long put = vmcu_rt_write(fd, buf, n);
  int rc = vmcu_rt_close(fd);
  return (put == (long)n && rc == 0) ? 0 : -1;
}

int vmcu_rt_get_cmdline(char *buf, size_t len) {
  if (len == 0)
    return -1;
  uint32_t block[2] = {(uint32_t)(uintptr_t)buf, (uint32_t)len};
  if (vmcu_rt_semihost(SYS_GET_CMDLINE, block) != 0) {
    buf[0] = '\0';
    return -1;
  }
  /* block[1] now holds the string length; make sure it is terminated. */
  buf[block[1] < len ? block[1] : len - 1] = '\0';
  return 0;
}
