/*===- vmcu_runtime.h - vmcu bare-metal runtime API ------------------------===*
 *
 * Small services for harnesses that run a compiled vmcu model on the QEMU
 * mps2-an386 (Cortex-M4) / mps2-an500 (Cortex-M7) boards: console output,
 * host file I/O and exit through ARM semihosting, and stack measurement.
 *
 * All I/O uses raw semihosting calls (BKPT 0xAB), not newlib's rdimon, so
 * the same object works on both boards and needs no libc syscalls. QEMU
 * must run with `-semihosting-config enable=on,target=native`; host paths
 * are relative to QEMU's working directory.
 *
 * Cycle counting: not provided. QEMU 7.2 has no DWT on these boards (DWT
 * registers read as zero, CYCCNT never counts) and does not model cycles at
 * all. What exists is a virtual-time counter (vmcu_rt_vtime_*, SysTick
 * based) which, under `qemu-system-arm -icount shift=0`, advances 1 ns per
 * executed guest instruction: a deterministic instruction count with a
 * resolution of 40 instructions. Without -icount it follows host time.
 *===----------------------------------------------------------------------===*/
#ifndef VMCU_RUNTIME_H
#define VMCU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Word written over the whole stack at reset; see vmcu_rt_stack_high_water. */
#define VMCU_RT_STACK_PAINT 0xC5AC5AC5u

/* Exit statuses used by the runtime and harness (QEMU's exit status). */
#define VMCU_RT_EXIT_OK 0
#define VMCU_RT_EXIT_INVOKE_FAILED 1 /* vmcu_invoke() returned non-zero */
#define VMCU_RT_EXIT_IO 2            /* host file missing / wrong size */
#define VMCU_RT_EXIT_FAULT 3         /* HardFault or other exception */
#define VMCU_RT_EXIT_STACK 4         /* whole stack region was used */
#define VMCU_RT_EXIT_RING 5          /* ring-safety violation (vmcu_ring_check.h) */

/* Host file open modes (ISO C fopen modes, as numbered by semihosting). */
#define VMCU_RT_OPEN_READ 1  /* "rb" */
#define VMCU_RT_OPEN_WRITE 5 /* "wb": create or truncate */
#define VMCU_RT_OPEN_APPEND 9 /* "ab" */

/* Ends the program: QEMU exits with status `code` (SYS_EXIT_EXTENDED). */
void vmcu_rt_exit(int code) __attribute__((noreturn));

/* Bytes of stack ever used since reset: distance from __stack_top to the
 * lowest word that no longer holds VMCU_RT_STACK_PAINT. Includes the frames
 * of the startup code and the harness (~100 bytes), i.e. what a deployment
 * must reserve. Like any painting method it cannot see stack space that was
 * reserved but never written (e.g. an unused tail of a local array at the
 * deepest point). May exceed vmcu_rt_stack_size(): see below. */
size_t vmcu_rt_stack_high_water(void);
/* Size of the stack region reserved by the linker script. */
size_t vmcu_rt_stack_size(void);
/* Non-zero if the stack grew below __stack_bottom (into the free RAM below
 * it, which is painted too, so vmcu_rt_stack_high_water() still reports the
 * true depth as long as the stack did not reach the heap or the arena). */
int vmcu_rt_stack_overflowed(void);

/* Core clock that QEMU 7.2 gives SysTick on mps2-an386 and mps2-an500
 * (mps2-an505: 20 MHz; vmcu-run defines it per board). */
#ifndef VMCU_RT_CORE_CLOCK_HZ
#define VMCU_RT_CORE_CLOCK_HZ 25000000u
#endif
/* Starts SysTick as a free-running 24-bit counter on the core clock with a
 * wrap interrupt (so the stack high-water mark may include one exception
 * frame); vmcu_rt_vtime_ns() then returns QEMU virtual nanoseconds since
 * the start, in steps of 40 ns (one tick at 25 MHz). With QEMU's
 * `-icount shift=0` one guest instruction = 1 ns, so the value is the
 * number of instructions executed (+-40) and is deterministic; it is not a
 * cycle count. Without -icount it follows host time. */
void vmcu_rt_vtime_start(void);
uint64_t vmcu_rt_vtime_ns(void);

/* Console output to the semihosting console (SYS_WRITE0). */
void vmcu_rt_print(const char *s);
void vmcu_rt_print_uint(unsigned long long v); /* decimal */
void vmcu_rt_print_int(long long v);      /* decimal, signed */
void vmcu_rt_print_hex(uint32_t v);       /* 0x%08x */

/* Host files (SYS_OPEN/SYS_READ/SYS_WRITE/SYS_CLOSE/SYS_FLEN).
 * vmcu_rt_open returns a handle >= 0 or -1. vmcu_rt_read/vmcu_rt_write loop
 * until `n` bytes are transferred or no more can be, and return the number
 * of bytes transferred (short only at EOF or on error) or -1 on a bad
 * handle. vmcu_rt_flen returns the file length or -1. */
int vmcu_rt_open(const char *path, int mode);
long vmcu_rt_read(int fd, void *buf, size_t n);
long vmcu_rt_write(int fd, const void *buf, size_t n);
long vmcu_rt_flen(int fd);
int vmcu_rt_close(int fd);

/* Whole-file helpers. vmcu_rt_read_file reads exactly `n` bytes from a file
 * whose length must be exactly `n`; returns 0 on success, -1 if the file
 * cannot be opened, -2 on a length mismatch (*actual set to the file's
 * length if `actual` is non-NULL), -3 on a read error.
 * vmcu_rt_write_file creates/truncates `path` and writes `n` bytes; returns 0
 * or -1. */
int vmcu_rt_read_file(const char *path, void *buf, size_t n, long *actual);
int vmcu_rt_write_file(const char *path, const void *buf, size_t n);

/* The semihosting command line (SYS_GET_CMDLINE), NUL-terminated, into
 * buf[0..len). In QEMU this is the -kernel file name followed by the -append
 * string (or the `arg=` values of -semihosting-config if given). Returns 0
 * or -1 (buffer too small / unsupported). */
int vmcu_rt_get_cmdline(char *buf, size_t len);

/* Raw semihosting call: operation `op`, parameter block / value `arg`. */
long vmcu_rt_semihost(unsigned op, const void *arg);

#ifdef __cplusplus
}
#endif

#endif /* VMCU_RUNTIME_H */
