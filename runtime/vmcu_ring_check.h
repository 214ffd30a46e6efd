/*===- vmcu_ring_check.h - runtime ring-safety checker ---------------------===*
 *
 * The functions a model compiled with `vmcuc --ring-check`
 * (the pass vmcu-insert-ring-checks) calls around its ring accesses. They
 * track, per pool segment, whether it is dead or live and which kernel
 * wrote it, and stop the program at the first access that breaks the ring
 * discipline the offset solver relies on:
 *
 *   - a store to a live segment, unless the storing kernel wrote it itself
 *     (kernels may fill one output segment with several stores);
 *   - a load of a dead segment (never written, or freed);
 *   - a free of a dead segment (a double free or a free of nothing);
 *   - a segment address outside [0, 2 * segments), or an access running
 *     past the end of the pool (the ring ops' addressing contract).
 *
 * With --cores=2 both cores call it, one at a time (a lock), and core 0
 * resets it before it releases the other core's part of the inference.
 *
 * On a violation one line is printed, e.g.
 *   vmcu: ring-safety violation: store to live segment 2 in kernel copy
 *         (it holds the model input)
 * (on one line) and the program exits with VMCU_RT_EXIT_RING.
 *
 * Segment addresses are unwrapped pool-unit addresses, as the ring ops take
 * them; kernel ids index the NUL-separated names given to init, and
 * VMCU_RING_CHECK_NO_KERNEL marks an access outside any kernel. The state
 * is a static table of VMCU_RING_CHECK_MAX_SEGMENTS 16-bit owners (32 KiB
 * by default, in .bss); build with -DVMCU_RING_CHECK_MAX_SEGMENTS=N for a
 * larger pool. Linked into a program whose model was compiled without
 * --ring-check, nothing references this file and --gc-sections drops it.
 *===----------------------------------------------------------------------===*/
#ifndef VMCU_RING_CHECK_H
#define VMCU_RING_CHECK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef VMCU_RING_CHECK_MAX_SEGMENTS
#define VMCU_RING_CHECK_MAX_SEGMENTS 16384u
#endif

/* Kernel id of a ring access outside any vmcu.kernel. */
#define VMCU_RING_CHECK_NO_KERNEL 0xffffffffu

/* Resets the checker for a pool of `segments` segments of `segment_bytes`
 * bytes: everything dead except the model input, `input_segments` segments
 * from `input_base` (which the host wrote). `kernel_names` holds
 * `kernel_count` NUL-terminated names back to back (may be NULL). Called at
 * the start of every vmcu_invoke(). */
void vmcu_ring_check_init(uint32_t segments, uint32_t segment_bytes,
                          uint32_t input_base, uint32_t input_segments,
                          const char *kernel_names, uint32_t kernel_count);

/* After vmcu_ring_check_init, for each model input but the first: its
 * `segments` segments from `base` are live too. */
void vmcu_ring_check_input(uint32_t base, uint32_t segments);

/* Before a ring_load / ring_store of `bytes` bytes at byte `offset` of
 * segment `segment`: every segment read must be live; every segment written
 * must be dead or already written by `kernel`, and becomes `kernel`'s. */
void vmcu_ring_check_load(uint32_t segment, uint32_t offset, uint32_t bytes,
                          uint32_t kernel);
void vmcu_ring_check_store(uint32_t segment, uint32_t offset, uint32_t bytes,
                           uint32_t kernel);

/* Before a kernel reads `count` segments from `segment` in place
 * (vmcu.ring_view; the run may wrap): they must be live, and the run must
 * start at a multiple of `alignment` bytes, which must divide the pool's
 * size, so that its word loads never straddle the pool's end. */
void vmcu_ring_check_view(uint32_t segment, uint32_t count, uint32_t alignment,
                          uint32_t kernel);

/* vmcu.free of `count` segments from `segment` (wrapping): they must be
 * live, and die. */
void vmcu_ring_check_free(uint32_t segment, uint32_t count, uint32_t kernel);

/* vmcu.free in a kernel both cores run (--cores=2): the segments must be
 * live; they die for stores and for every other kernel, but `kernel` may
 * still load them, as the other core may be an iteration or two behind
 * (the offset solver applies such frees two iterations late, and
 * vmcu-verify-two-cores proves the order of the two cores' accesses, which
 * this checker does not see). */
void vmcu_ring_check_free_shared(uint32_t segment, uint32_t count,
                                 uint32_t kernel);

/* End of a kernel with a workspace of `count` segments from `segment`: the
 * ones `kernel` wrote die (no check: a workspace may be partly unused). */
void vmcu_ring_check_release(uint32_t segment, uint32_t count,
                             uint32_t kernel);

#ifdef __cplusplus
}
#endif

#endif /* VMCU_RING_CHECK_H */
