/*===- vmcu_ring_check.c - runtime ring-safety checker ---------------------===*
 *
 * See vmcu_ring_check.h. One owner per pool segment: dead, the model input,
 * or the kernel that stored to it.
 *===----------------------------------------------------------------------===*/

#include "vmcu_ring_check.h"

#include "vmcu_runtime.h"

#include <stddef.h>

/* Owners of a segment; kernel k is OWNER_KERNEL0 + k. OWNER_FREED | owner
 * marks a segment a kernel both cores run has freed: only that kernel may
 * still load it (vmcu_ring_check_free_shared). */
enum {
  OWNER_DEAD = 0,
  OWNER_INPUT = 1,
  OWNER_KERNEL0 = 2,
  OWNER_NO_KERNEL = 0x7fff, /* a store outside any kernel */
  OWNER_FREED = 0x8000,
};
#define MAX_KERNELS (OWNER_NO_KERNEL - OWNER_KERNEL0)

static uint16_t owners[VMCU_RING_CHECK_MAX_SEGMENTS];
/* Held by the core in a check: with --cores=2 both cores call the checker
 * (LDREX/STREX with acquire and release barriers on Armv7-M and Armv8-M). */
static uint32_t checker_lock;
static uint32_t pool_segments; /* 0 until vmcu_ring_check_init */
static uint32_t pool_segment_bytes;
static const char *names;
static uint32_t name_count;

static void lock_checker(void) {
  while (__atomic_exchange_n(&checker_lock, 1u, __ATOMIC_ACQUIRE) != 0u)
    ;
}

static void unlock_checker(void) {
  __atomic_store_n(&checker_lock, 0u, __ATOMIC_RELEASE);
}

static uint16_t owner_of(uint32_t kernel) {
  return kernel < MAX_KERNELS ? (uint16_t)(OWNER_KERNEL0 + kernel)
                              : (uint16_t)OWNER_NO_KERNEL;
}

/* Whether `kernel` may load a segment `owner` holds. */
static int readable(uint16_t owner, uint32_t kernel) {
  if (owner & OWNER_FREED)
    return owner == (OWNER_FREED | owner_of(kernel));
  return owner != OWNER_DEAD;
}

/* Whether `kernel` may store over a segment `owner` holds. */
static int writable(uint16_t owner, uint32_t kernel) {
  return owner == OWNER_DEAD || (owner & OWNER_FREED) ||
         owner == owner_of(kernel);
}

static void print_kernel(uint32_t kernel) {
  if (kernel == VMCU_RING_CHECK_NO_KERNEL) {
    vmcu_rt_print("(none)");
    return;
  }
  if (!names || kernel >= name_count) {
    vmcu_rt_print("#");
    vmcu_rt_print_uint(kernel);
    return;
  }
  const char *name = names;
  for (uint32_t k = 0; k < kernel; ++k)
    while (*name++)
      ;
  vmcu_rt_print(name);
}

static void print_owner(uint16_t owner) {
  if (owner == OWNER_INPUT) {
    vmcu_rt_print("the model input");
    return;
  }
  vmcu_rt_print("data of kernel ");
  print_kernel(owner == OWNER_NO_KERNEL ? VMCU_RING_CHECK_NO_KERNEL
                                        : (uint32_t)owner - OWNER_KERNEL0);
}

/* Prints "vmcu: ring-safety violation: <what> <segment> in kernel <k>" and
 * exits; `owner` (if not dead) says what the segment holds. */
static void violation(const char *what, uint32_t segment, uint32_t kernel,
                      uint16_t owner) __attribute__((noreturn));
static void violation(const char *what, uint32_t segment, uint32_t kernel,
                      uint16_t owner) {
  vmcu_rt_print("vmcu: ring-safety violation: ");
  vmcu_rt_print(what);
  vmcu_rt_print(" ");
  vmcu_rt_print_uint(segment);
  vmcu_rt_print(" in kernel ");
  print_kernel(kernel);
  if (owner != OWNER_DEAD) {
    vmcu_rt_print(" (it holds ");
    print_owner(owner);
    vmcu_rt_print(")");
  }
  vmcu_rt_print("\n");
  vmcu_rt_exit(VMCU_RT_EXIT_RING);
}

static void setup_error(const char *what, uint32_t value) {
  vmcu_rt_print("vmcu: ring-check: ");
  vmcu_rt_print(what);
  vmcu_rt_print_uint(value);
  vmcu_rt_print("\n");
  vmcu_rt_exit(VMCU_RT_EXIT_RING);
}

void vmcu_ring_check_init(uint32_t segments, uint32_t segment_bytes,
                          uint32_t input_base, uint32_t input_segments,
                          const char *kernel_names, uint32_t kernel_count) {
  if (segments == 0 || segment_bytes == 0)
    setup_error("empty pool of segments: ", segments);
  if (segments > VMCU_RING_CHECK_MAX_SEGMENTS)
    setup_error("the pool has more segments than "
                "VMCU_RING_CHECK_MAX_SEGMENTS; rebuild vmcu_ring_check.c "
                "with -DVMCU_RING_CHECK_MAX_SEGMENTS=",
                segments);
  if (kernel_count > MAX_KERNELS)
    setup_error("too many kernels: ", kernel_count);
  if (input_base >= segments || input_segments > segments)
    setup_error("model input outside the pool at segment ", input_base);
  pool_segments = segments;
  pool_segment_bytes = segment_bytes;
  names = kernel_names;
  name_count = kernel_count;
  for (uint32_t s = 0; s < segments; ++s)
    owners[s] = OWNER_DEAD;
  for (uint32_t i = 0; i < input_segments; ++i)
    owners[(input_base + i) % segments] = OWNER_INPUT;
}

void vmcu_ring_check_input(uint32_t base, uint32_t segments) {
  if (pool_segments == 0)
    setup_error("model input before vmcu_ring_check_init at segment ", base);
  if (base >= pool_segments || segments > pool_segments)
    setup_error("model input outside the pool at segment ", base);
  for (uint32_t i = 0; i < segments; ++i)
    owners[(base + i) % pool_segments] = OWNER_INPUT;
}

/* The wrapped first segment of an access at unwrapped `segment`, checking
 * the ring ops' contract (segment in [0, 2N)). */
static uint32_t wrap(uint32_t segment, uint32_t kernel) {
  if (pool_segments == 0)
    setup_error("access before vmcu_ring_check_init at segment ", segment);
  if (segment >= 2 * pool_segments)
    violation("address outside [0, 2 * segments) at segment", segment,
              kernel, OWNER_DEAD);
  return segment >= pool_segments ? segment - pool_segments : segment;
}

/* [*first, *end) are the segments `bytes` bytes at byte `offset` of
 * `segment` touch; they must not run past the end of the pool. */
static void access_range(uint32_t segment, uint32_t offset, uint32_t bytes,
                         uint32_t kernel, uint32_t *first, uint32_t *end) {
  uint32_t base = wrap(segment, kernel);
  *first = base + offset / pool_segment_bytes;
  *end = base + (offset + (bytes ? bytes : 1) - 1) / pool_segment_bytes + 1;
  if (*end > pool_segments)
    violation("access past the end of the pool from segment", base, kernel,
              OWNER_DEAD);
}

void vmcu_ring_check_load(uint32_t segment, uint32_t offset, uint32_t bytes,
                          uint32_t kernel) {
  lock_checker();
  uint32_t first, end;
  access_range(segment, offset, bytes, kernel, &first, &end);
  for (uint32_t s = first; s < end; ++s)
    if (!readable(owners[s], kernel))
      violation("load from dead segment", s, kernel, OWNER_DEAD);
  unlock_checker();
}

void vmcu_ring_check_store(uint32_t segment, uint32_t offset, uint32_t bytes,
                           uint32_t kernel) {
  lock_checker();
  uint32_t first, end;
  access_range(segment, offset, bytes, kernel, &first, &end);
  uint16_t self = owner_of(kernel);
  for (uint32_t s = first; s < end; ++s) {
    if (!writable(owners[s], kernel))
      violation("store to live segment", s, kernel, owners[s]);
    owners[s] = self;
  }
  unlock_checker();
}

void vmcu_ring_check_view(uint32_t segment, uint32_t count, uint32_t alignment,
                          uint32_t kernel) {
  lock_checker();
  uint32_t first = wrap(segment, kernel);
  if ((first * pool_segment_bytes) % alignment != 0 ||
      (pool_segments * pool_segment_bytes) % alignment != 0)
    violation("in-place read not word-aligned at segment", first, kernel,
              OWNER_DEAD);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t s = (first + i) % pool_segments;
    if (!readable(owners[s], kernel))
      violation("in-place read of dead segment", s, kernel, OWNER_DEAD);
  }
  unlock_checker();
}

/* Frees `count` live segments from `segment`, each becoming `dead`. */
static void free_segments(uint32_t segment, uint32_t count, uint32_t kernel,
                          uint16_t dead) {
  lock_checker();
  uint32_t first = wrap(segment, kernel);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t s = (first + i) % pool_segments;
    if (owners[s] == OWNER_DEAD || (owners[s] & OWNER_FREED))
      violation("free of dead segment", s, kernel, OWNER_DEAD);
    owners[s] = dead;
  }
  unlock_checker();
}

void vmcu_ring_check_free(uint32_t segment, uint32_t count, uint32_t kernel) {
  free_segments(segment, count, kernel, OWNER_DEAD);
}

void vmcu_ring_check_free_shared(uint32_t segment, uint32_t count,
                                 uint32_t kernel) {
  free_segments(segment, count, kernel,
                (uint16_t)(OWNER_FREED | owner_of(kernel)));
}

void vmcu_ring_check_release(uint32_t segment, uint32_t count,
                             uint32_t kernel) {
  lock_checker();
  uint32_t first = wrap(segment, kernel);
  uint16_t self = owner_of(kernel);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t s = (first + i) % pool_segments;
    if ((owners[s] & ~OWNER_FREED) == self)
      owners[s] = OWNER_DEAD;
  }
  unlock_checker();
}
