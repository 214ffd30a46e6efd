#!/usr/bin/python3
"""table2-orders.py - output orders for the stride-2 bottlenecks B1 and B2 of
the vMCU paper's Table 2, at pixel level, in two memory models (~10 s).

  bench/table2-orders.py [--module B1|B2|all]

Per module: the count-model peak and the least ring arena of a few output
orders, the optimum over all orders in both models, and the paper's
accounting (bench/table2.sh's paper_acct: max(I, O) + (R*R+2)*min(Cin, Cout)).

Output pixel (p, q) of the fused module reads the input pixels of its
composite window. An input pixel dies when its last reader has loaded it,
before that reader's store (BeforeStore), or at the start if none reads it.

count model: the peak over the stores of live input bytes + stored output
  bytes (step 0: the whole input). Any order peaks at >= I, and at
  >= I + (m - 1) * Cout when every input pixel has >= m readers: no pixel
  dies before all its readers are stored, so the (m-1)th store happens with
  the whole input live.

shift model: vmcu's ring. Input and output are each one contiguous NHWC
  block, the output d bytes below the input (output byte o on input byte
  o - d); the arena is max(I, O - d) + max(0, d). A store must not land on
  a live input pixel.

Exact shift minimum over all orders: fix d. Whether output u can be stored
depends only on which outputs are stored, and storing more only kills input
pixels, so a safe store stays safe: storing greedily whatever is safe stores
every output iff some order does. Equivalently, u must follow every other
reader of a pixel under its bytes, and d is feasible iff that relation has
no cycle. The script looks for a cycle depth first (for an infeasible d it
usually lies among the first outputs); for a feasible d the depth-first
finishing order is a storing order, replayed store by store as a check.
Every byte distance is scanned by increasing arena; the first feasible one
is the minimum.
"""
import argparse
from bisect import bisect_right
from collections import namedtuple
from itertools import accumulate

# Shapes from the paper's Table 2 (bench/table2.sh: name H Cin Cmid Cout R
# strides). Along each axis output p reads input rows
# scale * (p * stride - pad + k) for k < R, as vmcu's window Axis.
Module = namedtuple("Module", "name H Cin Cout R Ho scale stride pad")
MODULES = {
    # 176x176x3, 1x1 stride 2 to 16, depthwise 3x3 pad 1, 1x1 to 8
    "B1": Module("B1", H=176, Cin=3, Cout=8, R=3, Ho=88, scale=2, stride=1, pad=1),
    # 88x88x8, 1x1 to 24, depthwise 7x7 stride 2 (SAME: pad 2, 3 after), 1x1 to 16
    "B2": Module("B2", H=88, Cin=8, Cout=16, R=7, Ho=44, scale=1, stride=2, pad=2),
}


class Grid:
    """Who reads what, by pixel index (row-major, r * H + c)."""

    def __init__(self, m):
        taps = [[r for r in (m.scale * (p * m.stride - m.pad + k) for k in range(m.R))
                 if 0 <= r < m.H] for p in range(m.Ho)]
        readers_of_row = [[p for p in range(m.Ho) if r in taps[p]] for r in range(m.H)]
        self.m = m
        self.n, self.pixels = m.Ho * m.Ho, m.H * m.H
        self.I, self.O = self.pixels * m.Cin, self.n * m.Cout
        self.reads = [[r * m.H + c for r in taps[p] for c in taps[q]]
                      for p in range(m.Ho) for q in range(m.Ho)]
        self.readers = [[p * m.Ho + q for p in readers_of_row[r] for q in readers_of_row[c]]
                        for r in range(m.H) for c in range(m.H)]

    def under(self, u, d):
        """Input pixels that output u's bytes land on at distance d."""
        lo, hi = max(0, self.m.Cout * u - d), min(self.I, self.m.Cout * (u + 1) - d)
        return range(lo // self.m.Cin, (hi - 1) // self.m.Cin + 1) if lo < hi else range(0)


# ------------------------------------------------------------- orders, frees
def two_row_bands(g):
    """Bands of two output rows, column by column inside a band."""
    Ho = g.m.Ho
    return [p * Ho + q for b in range(0, Ho, 2) for q in range(Ho)
            for p in range(b, min(b + 2, Ho))]


def last_use_frees(g, order):
    """Stores before each input pixel dies: at its last reader, 0 if unread."""
    position = {u: t for t, u in enumerate(order)}
    return [max((position[u] for u in rs), default=0) for rs in g.readers]


def vmcu_frees(g):
    """vmcu's row-major frees (TileEmitter.h, emitWindowed): output (p, q)
    frees lastUse(p) x lastUse(q) before its store, output row p frees the
    columns from tailStart of its lastUse rows (freeRowTail), and the rows
    from tailStart die after the last store (freeTail)."""
    m, Ho = g.m, g.m.Ho

    def last_use(o):
        return range(max(0, (o * m.stride - m.pad) * m.scale),
                     min(m.H, (o * m.stride + m.stride - m.pad) * m.scale))

    tail = max(0, (Ho * m.stride - m.pad) * m.scale)
    frees = [g.n] * g.pixels
    for p in range(Ho):
        for r in last_use(p):
            for c in range(tail, m.H):
                frees[r * m.H + c] = (p + 1) * Ho
            for q in range(Ho):
                for c in last_use(q):
                    frees[r * m.H + c] = p * Ho + q
    return frees


# ---------------------------------------------------------------- count model
def count_peak(g, order, frees):
    assert all(s >= t for s, t in zip(frees, last_use_frees(g, order))), "freed before read"
    dying = [0] * (g.n + 1)
    for s in frees:
        dying[s] += 1
    live = g.pixels
    peak = live * g.m.Cin
    for t in range(g.n):
        live -= dying[t]
        peak = max(peak, live * g.m.Cin + (t + 1) * g.m.Cout)
    return peak


def count_bound(g):
    least_readers = min(len(rs) for rs in g.readers)
    return g.I + max(0, least_readers - 1) * g.m.Cout


# ---------------------------------------------------------------- shift model
def arena(g, d):
    return max(g.I, g.O - d) + max(0, d)


def distances_by_arena(g):
    """Every distance d, in groups of equal arena, smallest arena first."""
    lo, hi = min(0, g.O - g.I), max(0, g.O - g.I)
    yield range(lo, hi + 1)
    for k in range(1, g.I + g.O + 1):
        yield (lo - k, hi + k)


def least_arena(g, feasible):
    for group in distances_by_arena(g):
        found = [d for d in group if feasible(d)]
        if found:
            return arena(g, found[0]), found


def run_order_feasible(g, order, frees):
    """Feasibility of d for an order whose stored outputs always form one run
    of indices (row-major, its reverse; None for other orders): pixel x,
    dying after s stores, forbids every d that puts a byte of the first s
    outputs on it."""
    Cin, Cout = g.m.Cin, g.m.Cout
    stored = []  # stored[s - 1]: first and last byte of the first s outputs
    lo = hi = order[0]
    for s, u in enumerate(order, 1):
        lo, hi = min(lo, u), max(hi, u)
        if hi - lo + 1 != s:
            return None
        stored.append((Cout * lo, Cout * (hi + 1) - 1))
    forbidden = sorted((stored[s - 1][0] - Cin * x - Cin + 1, stored[s - 1][1] - Cin * x)
                       for x, s in enumerate(frees) if s > 0)
    starts = [a for a, _ in forbidden]
    reach = list(accumulate((b for _, b in forbidden), max))

    def feasible(d):
        i = bisect_right(starts, d)
        return i == 0 or reach[i - 1] < d
    return feasible


def storing_order(g, d):
    """A safe storing order at distance d, or None if u must follow v must
    follow ... must follow u for some outputs (depth-first cycle search)."""
    def must_follow(u):
        return [v for x in g.under(u, d) for v in g.readers[x] if v != u]

    state = bytearray(g.n)  # 0 unseen, 1 on the stack, 2 finished
    finished = []
    for root in range(g.n):
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, iter(must_follow(root)))]
        while stack:
            u, rest = stack[-1]
            for v in rest:
                if state[v] == 1:
                    return None
                if state[v] == 0:
                    state[v] = 1
                    stack.append((v, iter(must_follow(v))))
                    break
            else:
                state[u] = 2
                finished.append(u)
                stack.pop()
    return finished


def replay_is_safe(g, d, order):
    """Stores `order` one by one: each lands only on dead pixels or on
    pixels whose one remaining reader is the output being stored."""
    left = [len(rs) for rs in g.readers]
    for u in order:
        mine = set(g.reads[u])
        if any(left[x] > 1 or (left[x] == 1 and x not in mine) for x in g.under(u, d)):
            return False
        for x in mine:
            left[x] -= 1
    return True


def any_order_least_arena(g):
    best, ds = least_arena(g, lambda d: storing_order(g, d) is not None)
    assert all(replay_is_safe(g, d, storing_order(g, d)) for d in ds)
    return best, ds


# --------------------------------------------------------------------- report
def paper_accounting(g):
    return max(g.I, g.O) + (g.m.R * g.m.R + 2) * min(g.m.Cin, g.m.Cout)


def report(m):
    g = Grid(m)
    rm, vmcu = list(range(g.n)), vmcu_frees(g)
    plans = [("row-major, vmcu's frees", rm, vmcu)]
    if any(not rs for rs in g.readers):
        plans.append(("row-major, vmcu's frees, never-read at start", rm,
                      [s if rs else 0 for s, rs in zip(vmcu, g.readers)]))
    for label, order in (("row-major", rm), ("reverse row-major", rm[::-1]),
                         ("2-row bands", two_row_bands(g))):
        plans.append((label + ", frees at last use", order, last_use_frees(g, order)))
    rows = []
    for label, order, frees in plans:
        feasible = run_order_feasible(g, order, frees)
        rows.append((label, count_peak(g, order, frees), feasible and least_arena(g, feasible)))
    best_count = min(count for _, count, _ in rows)
    bound, ring = count_bound(g), any_order_least_arena(g)
    assert best_count >= bound
    rows.append(("any order: count bound, ring minimum", bound, ring))
    paper = paper_accounting(g)

    print(f"{m.name}: {m.H}x{m.H}x{m.Cin} -> {m.Ho}x{m.Ho}x{m.Cout}, "
          f"I = {g.I:,} B, O = {g.O:,} B")
    print(f"  {'order, frees':44s} {'count':>8s} {'shift (ring)':>20s}")
    for label, count, shift in rows:
        ring_text = f"{shift[0]:,} (d={shift[1][0]})" if shift else "-"
        print(f"  {label:44s} {count:8,} {ring_text:>20s}")
    print(f"  {'paper accounting':44s} {paper:8,} {paper:20,}")
    print(f"{m.name} verdict: the paper's {paper:,} B is "
          f"{'reachable' if best_count <= paper else 'not reachable'} in the count model "
          f"(best order {best_count:,} B, any-order bound {bound:,} B) and "
          f"{'reachable' if ring[0] <= paper else 'not reachable'} in vmcu's ring "
          f"(least arena over all orders {ring[0]:,} B at "
          f"d={', '.join(map(str, ring[1]))}, {ring[0] - paper:+,} B)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", choices=[*MODULES, "all"], default="all")
    args = parser.parse_args()
    for name in (MODULES if args.module == "all" else [args.module]):
        report(MODULES[name])


if __name__ == "__main__":
    main()
