#!/usr/bin/python3
"""tflm_arena.py - TFLite Micro's tensor arena for a .tflite, from the model's own graph.

  tflm_arena.py MODEL.tflite [--plan] [--check-report REPORT.json]

Prints the bytes TFLite Micro's default memory planner gives the model's
tensors: the non-persistent ("head") section of the arena that the
MicroAllocator plans with the GreedyMemoryPlanner. It replays, over the
flatbuffer's own subgraph 0 (its tensors and operators as written, not a
lowered or optimised graph):

  * which tensors are planned (micro_allocation_info.cc,
    InitializeAllocationInfo): every tensor without constant data in its
    buffer, of non-zero size (product of the shape times the element size:
    1 for int8, 4 for int32 / float32; the reader knows only these three
    types, any other counts 1 byte per element). Variable tensors do not
    occur in the models this repository writes and are not looked for;
  * their lifetimes (MarkAllocationLifetimes): the subgraph inputs and
    outputs are created at scope 0; operator i (in the order of the
    operator vector) opens scope i + 1, creates its outputs there and uses
    its inputs and outputs there; the subgraph outputs are used until the
    last scope. Every operator counts, also one whose output nothing reads
    (TFLM runs them all);
  * the sizes: each rounded up to 16 bytes (MicroArenaBufferAlignment(),
    CreatePlan's AlignSizeUp);
  * the plan (greedy_memory_planner.cc, CalculateOffsetsIfNeeded): the
    buffers sorted by size, largest first (its bubble sort over the buffers
    added from the tail: among equal sizes, the later tensor first); each is
    placed at the lowest offset where it overlaps no buffer already placed
    whose lifetime [first_created, last_used] intersects its own, scanning
    the placed buffers in offset order; the arena is the highest end.

Counted: the planned tensors above. Not counted: the scratch buffers that
kernels request in Prepare (CMSIS-NN's im2col and depthwise buffers,
AVERAGE_POOL_2D's, MEAN's int32 sums: they would be one-operator buffers in
the same plan), the persistent "tail" (TfLiteEvalTensors, nodes,
per-channel quantization arrays, OpData) and the head's alignment. So the
figure is a lower bound of what TFLM needs for the activations. RESHAPE,
SQUEEZE and EXPAND_DIMS outputs are buffers of their own, as the greedy
planner plans them (TFLM's reshape kernel copies unless an offline plan
made input and output coincide); PAD is a copy of its own too.

--plan lists every planned buffer (tensor, name, bytes, lifetime, offset).
--check-report reads vmcuc's JSON memory report (`vmcuc --report`) and fails
(exit status 1) when vmcu's arena, its `peak_ram_bytes` (the pool with the
line-buffer workspaces), exceeds this arena.

plan_tensors() and greedy_plan() are the library: utils/make-tflite.py
calls them on the graphs it draws.
"""
import argparse
import json
import sys

import numpy as np

from tflite_numpy_ref import read_model

ALIGNMENT = 16  # MicroArenaBufferAlignment()


def align_up(n, alignment=ALIGNMENT):
    return (n + alignment - 1) // alignment * alignment


def lifetimes(ops, inputs, outputs):
    """{tensor: [first_created, last_used]} as MarkAllocationLifetimes sets
    them; ops is a list of (input ids, output ids) in execution order."""
    life = {}

    def created(t, scope):  # UpdateFirstCreated sets both ends
        life[t] = [scope, scope]

    def used(t, scope):
        if t in life:
            life[t][1] = scope
        else:  # never created (a constant read by an op): not planned anyway
            life[t] = [None, scope]
    for t in list(inputs) + list(outputs):
        created(t, 0)
    scope = 0
    for op_inputs, op_outputs in ops:
        scope += 1
        for t in op_outputs:
            created(t, scope)
        for t in op_inputs:
            if t >= 0:  # -1: an omitted optional input
                used(t, scope)
        for t in op_outputs:
            used(t, scope)
    for t in outputs:
        used(t, scope)
    return life


def greedy_plan(buffers):
    """buffers: [(size, first, last)] in AddBuffer order. Returns (offsets,
    the arena's high-water mark) as GreedyMemoryPlanner computes them."""
    if not buffers:
        return [], 0
    # Added from the tail, then a stable descending sort: equal sizes keep
    # the reversed order.
    order = sorted(range(len(buffers)), key=lambda i: (-buffers[i][0], -i))
    offsets = [None] * len(buffers)
    placed = []  # (offset, buffer id), kept sorted by offset (insertion after equal offsets)
    for i in order:
        size, first, last = buffers[i]
        candidate = 0
        for off, j in placed:
            _, f, l = buffers[j]
            if f > last or first > l:  # no overlap in time
                continue
            if off - candidate >= size:
                break
            candidate = max(candidate, off + buffers[j][0])
        offsets[i] = candidate
        at = len(placed)
        while at > 0 and placed[at - 1][0] > candidate:
            at -= 1
        placed.insert(at, (candidate, i))
    return offsets, max(o + b[0] for o, b in zip(offsets, buffers))


def plan_tensors(sizes, constant, ops, inputs, outputs):
    """The plan of a graph: sizes[t] in bytes (unaligned), constant[t] true
    for tensors with data in the flatbuffer, ops as for lifetimes().
    Returns (arena bytes, [(tensor, aligned bytes, first, last, offset)])."""
    life = lifetimes(ops, inputs, outputs)
    planned = [t for t in range(len(sizes))
               if not constant[t] and sizes[t] > 0 and t in life and life[t][0] is not None]
    buffers = [(align_up(sizes[t]), life[t][0], life[t][1]) for t in planned]
    offsets, high = greedy_plan(buffers)
    return high, [(t, b[0], b[1], b[2], o) for t, b, o in zip(planned, buffers, offsets)]


def model_arena(buf):
    """(arena bytes, plan rows, tensors) of a .tflite's bytes."""
    tensors, ops, inputs, outputs = read_model(buf)
    sizes = [int(np.prod(t.shape, dtype=np.int64)) * np.dtype(t.dtype).itemsize for t in tensors]
    constant = [t.data is not None for t in tensors]
    arena, rows = plan_tensors(sizes, constant, [(op.inputs, op.outputs) for op in ops],
                               inputs, outputs)
    return arena, rows, tensors


def main():
    parser = argparse.ArgumentParser(
        description="TFLite Micro's non-persistent tensor arena (GreedyMemoryPlanner over the "
                    "flatbuffer's own tensors and lifetimes, 16-byte aligned; no scratch "
                    "buffers, no persistent tail).")
    parser.add_argument("model", metavar="MODEL.tflite")
    parser.add_argument("--plan", action="store_true", help="list every planned buffer")
    parser.add_argument("--check-report", metavar="REPORT.json",
                        help="vmcuc's --report: fail if its peak_ram_bytes exceed this arena")
    args = parser.parse_args()
    with open(args.model, "rb") as f:
        buf = bytearray(f.read())
    arena, rows, tensors = model_arena(buf)
    if args.plan:
        print(f"{'tensor':>6} {'bytes':>8} {'first':>5} {'last':>5} {'offset':>8}  name")
        for t, size, first, last, offset in sorted(rows, key=lambda r: r[4]):
            print(f"{t:6} {size:8} {first:5} {last:5} {offset:8}  {tensors[t].name}")
    print(f"tflm_arena: {args.model} arena={arena} B ({len(rows)} tensors)")
    if args.check_report:
        with open(args.check_report) as f:
            vmcu = int(json.load(f)["peak_ram_bytes"])
        if vmcu > arena:
            print(f"tflm_arena: error: vmcu's arena {vmcu} B exceeds TFLM's {arena} B "
                  f"({vmcu / arena:.3f}x) for {args.model}", file=sys.stderr)
            return 1
        print(f"tflm_arena: vmcu arena={vmcu} B <= TFLM arena={arena} B ({vmcu / arena:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
