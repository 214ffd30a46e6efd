#!/usr/bin/python3
"""stream-floor.py - SRAM floors of streaming a model's first window layers
(issue 15, "below the tensor floor"), by row-by-row simulation.

  bench/stream-floor.py [row|pixel ...]

Prints, for the first layers of MCUNet-5fps-VWW and MLPerf Tiny VWW (their
geometry is written out in chains() below, read off the .tflite files), the
ring and band bytes a fused, streamed kernel over output rows would need:
with the model input resident in the ring (vmcu today) and with the input
handed over row by row (a camera callback). The figures are what the
session-13 note and docs/streaming.md quote; nothing here runs vmcu.

Row-by-row (pixel-granular) simulation of a fused, streamed
stem chain: stem conv KxK/s -> [dw KxK/s + pointwise*]... in one kernel.

Model of a chain: tensor T0 (the model input) and groups g = 1..n; group g is
one window layer (K, stride, top/left pad) reading T_{g-1}, followed by any
number of pointwise layers computed on the window layer's output pixel in
registers/stack (no band). Group g's result is T_g; T_n is the fused output,
written into the ring. Each intermediate T_g (0 < g < n) is either
  * a fixed band of K_{g+1} rows x W_g x C_g bytes (the line-buffer design), or
  (its least size in a given order, the peak of its live bytes, is also
  reported: (K-1) rows + K pixels for a stride-1 window in pixel order).
Time: one tick per computed pixel of any group. A byte lives in [write,
last read) (the kernel frees dead inputs before it stores, as vmcu does).

Schedules: "row" = the line-buffer kernel's order (before output row p,
compute in full the rows of the previous group it needs, recursively);
"pixel" = the laziest row-major interleaving (a pixel of group g is computed
only when a pixel of group g+1 needs it).

Reported per chain and input mode (resident in the ring / row callback with
only the stem's K input rows buffered):
  ring   exact minimal span of the ring: the input (if resident) at
         [0, I), the output at the largest base below it such that no
         output byte is stored over an input byte still live (vMCU Eq. 1),
         span = max(I + d, O); bands counted separately,
  ideal  peak of live bytes of all tensors (input, intermediates, output)
         in this order: a lower bound for any placement, bands included.
"""
import sys
from dataclasses import dataclass, field
import numpy as np

INF = 1 << 60


@dataclass
class Group:
    name: str
    K: int
    s: int
    pt: int          # top pad (rows); left pad = pt (square, symmetric models)
    cout: int        # channels of the window layer's output
    pws: list = field(default_factory=list)  # output channels of trailing 1x1s

    @property
    def c_final(self):
        return self.pws[-1] if self.pws else self.cout


@dataclass
class Chain:
    name: str
    H: int
    W: int
    C: int
    groups: list
    band_channels: dict = field(default_factory=dict)  # g -> C of a narrower band

    def shapes(self):
        """[(H, W, C)] of T0..Tn."""
        out = [(self.H, self.W, self.C)]
        h, w = self.H, self.W
        for g in self.groups:
            # SAME (or explicit pad + VALID) with ceil: what the models use
            h, w = -(-h // g.s), -(-w // g.s)
            out.append((h, w, g.c_final))
        return out


def simulate(chain, order="row"):
    """Returns write[g] and free[g] (int arrays [H, W]) per tensor T_g, and
    the number of ticks."""
    shp = chain.shapes()
    n = len(chain.groups)
    write = [np.full(s[:2], -1 if g == 0 else INF, np.int64) for g, s in enumerate(shp)]
    last = [np.full(s[:2], -1, np.int64) for s in shp]
    done = [0] * (n + 1)   # pixels computed so far, row-major, per group
    t = [0]

    def window(g, r, c):
        G = chain.groups[g - 1]
        H, W, _ = shp[g - 1]
        r0, c0 = r * G.s - G.pt, c * G.s - G.pt
        rows = range(max(r0, 0), min(r0 + G.K, H))
        cols = range(max(c0, 0), min(c0 + G.K, W))
        return rows, cols

    def compute_next(g):
        """Computes the next pixel (row-major) of T_g, g >= 1."""
        H, W, _ = shp[g]
        k = done[g]
        r, c = divmod(k, W)
        rows, cols = window(g, r, c)
        if g > 1:
            need = rows[-1] * shp[g - 1][1] + (cols[-1] if order == "pixel" else shp[g - 1][1] - 1)
            while done[g - 1] <= need:
                compute_next(g - 1)
        tick = t[0]
        t[0] += 1
        last[g - 1][rows.start:rows.stop, cols.start:cols.stop] = tick
        write[g][r, c] = tick
        done[g] += 1

    Hn, Wn, _ = shp[n]
    for k in range(Hn * Wn):
        if order == "row" and k % Wn == 0 and n > 1:
            # whole rows of every earlier group before an output row
            r = k // Wn
            rows, _ = window(n, r, 0)
            need = (rows[-1] + 1) * shp[n - 1][1] - 1
            while done[n - 1] <= need:
                compute_next(n - 1)
        compute_next(n)
    free = [np.where(l < 0, write[g], l) if g < n else np.full(l.shape, INF, np.int64)
            for g, l in enumerate(last)]
    # a T_g pixel no one reads (past the last window) dies when written
    return write, free, t[0], shp


def bytes_of(arr_hw, c):
    """Per-byte times (pixel times repeated over channels, NHWC order)."""
    return np.repeat(arr_hw.reshape(-1), c)


def min_distance(wA, fA, wB, fB, start=0, limit=None):
    """Least d >= start such that B placed at [-d, -d + |B|) relative to A at
    [0, |A|) has no byte live at the same time as the A byte at its address."""
    nA, nB = len(wA), len(wB)
    limit = nA + 1 if limit is None else limit
    for d in range(start, limit + 1):
        # B byte k at address k - d; overlaps A byte k - d when 0 <= k - d < nA
        lo, hi = d, min(nB, nA + d)
        if lo >= hi:
            return d
        a = slice(lo - d, hi - d)
        b = slice(lo, hi)
        ok = (wB[b] >= fA[a]) | (wA[a] >= fB[b])
        if ok.all():
            return d
    return None


def peak_live(intervals, ticks):
    diff = np.zeros(ticks + 3, np.int64)
    for w, f in intervals:
        w = np.clip(w, -1, ticks + 1) + 1
        f = np.clip(f, -1, ticks + 1) + 1
        np.add.at(diff, w, 1)
        np.add.at(diff, f, -1)
    return int(np.cumsum(diff).max())


def analyse(chain, order="row", verbose=True):
    write, free, ticks, shp = simulate(chain, order)
    n = len(chain.groups)
    sizes = [h * w * c for h, w, c in shp]
    bands = {}
    for g in range(1, n):
        G = chain.groups[g]           # the window layer reading T_g
        c = chain.band_channels.get(g, shp[g][2])
        bands[f"T{g} {shp[g][0]}x{shp[g][1]}x{c}: {G.K} rows"] = G.K * shp[g][1] * c
    in_band = chain.groups[0].K * shp[0][1] * shp[0][2]
    band_sum = sum(bands.values())
    wb = [bytes_of(write[g], shp[g][2]) for g in range(n + 1)]
    fb = [bytes_of(free[g], shp[g][2]) for g in range(n + 1)]
    # resident input: input -> output in the ring, bands aside
    d = min_distance(wb[0], fb[0], wb[n], fb[n])
    ring_res = max(sizes[0] + d, sizes[n])
    # ideal peak (all tensors live-counted, intermediates as live pixels)
    ideal_res = peak_live([(wb[g], fb[g]) for g in range(n + 1)], ticks)
    # row callback: input rows arrive just before their first use; only the
    # output is in the ring; input kept in a K-row band (fixed)
    first_use = np.full(shp[0][:2], INF, np.int64)
    # first read time of input pixels: recompute from the stem's write order
    G = chain.groups[0]
    H1, W1, _ = shp[1]
    for r in range(H1):
        for c in range(W1):
            r0, c0 = r * G.s - G.pt, c * G.s - G.pt
            rs = slice(max(r0, 0), min(r0 + G.K, shp[0][0]))
            cs = slice(max(c0, 0), min(c0 + G.K, shp[0][1]))
            first_use[rs, cs] = np.minimum(first_use[rs, cs], write[1][r, c])
    wcb = bytes_of(first_use, shp[0][2])
    ideal_cb = peak_live([(wcb, fb[0])] + [(wb[g], fb[g]) for g in range(1, n + 1)], ticks)
    ring_cb = sizes[n]
    res = dict(name=chain.name, order=order, sizes=sizes, shapes=shp, d=d,
               ring_res=ring_res, ideal_res=ideal_res, bands=bands, band_sum=band_sum,
               in_band=in_band, ring_cb=ring_cb, ideal_cb=ideal_cb, ticks=ticks)
    # least band per intermediate in this order: its peak of live bytes
    res["band_min"] = {g: peak_live([(bytes_of(write[g], chain.band_channels.get(g, shp[g][2])),
                                      bytes_of(free[g], chain.band_channels.get(g, shp[g][2])))], ticks)
                       for g in range(1, n)}
    if verbose:
        report(res)
    return res


def report(r):
    print(f"== {r['name']} ({r['order']} order)  tensors " +
          " -> ".join(f"{h}x{w}x{c}={h*w*c}" for h, w, c in r["shapes"]))
    for k, v in r["bands"].items():
        print(f"   band {k}: {v} B")
    print(f"   resident input: ring {r['ring_res']} B (output {r['d']} B behind the input) "
          f"+ bands {r['band_sum']} B = {r['ring_res'] + r['band_sum']} B; "
          f"ideal peak live {r['ideal_res']} B")
    print(f"   row callback:   ring {r['ring_cb']} B + input band {r['in_band']} B + bands "
          f"{r['band_sum']} B = {r['ring_cb'] + r['in_band'] + r['band_sum']} B; "
          f"ideal peak live {r['ideal_cb']} B")
    print("   least band (peak live rows of the intermediate in this order): " +
          ", ".join(f"T{g} {v} B" for g, v in r["band_min"].items()))


def chains():
    # MCUNet-5fps-VWW: PAD 1 (all sides) folded into VALID convs
    stem_m = Group("stem 3x3/2", 3, 2, 1, 16)
    m1 = Chain("MCUNet M1: stem + dw0 + pw0(16->8)", 80, 80, 3,
               [stem_m, Group("dw0 3x3/1", 3, 1, 1, 16, [8])])
    m2 = Chain("MCUNet M2: M1 + block1 (pw 8->48, dw 3x3/2, pw 48->16), band expanded", 80, 80, 3,
               [stem_m, Group("dw0 3x3/1", 3, 1, 1, 16, [8, 48]), Group("dw1 3x3/2", 3, 2, 1, 48, [16])])
    m2n = Chain("MCUNet M2n: as M2, band at 8 ch, expansion recomputed per tap", 80, 80, 3,
                [stem_m, Group("dw0 3x3/1", 3, 1, 1, 16, [8, 48]), Group("dw1 3x3/2", 3, 2, 1, 48, [16])],
                band_channels={2: 8})
    # MLPerf Tiny VWW: SAME; 96 -> 48 at stride 2 pads bottom/right only
    stem_v = Group("stem 3x3/2", 3, 2, 0, 8)
    v1 = Chain("VWW V1: stem + dw1", 96, 96, 3, [stem_v, Group("dw1 3x3/1", 3, 1, 1, 8)])
    v2 = Chain("VWW V2: stem + dw1 + pw2(8->16) + dw3 3x3/2", 96, 96, 3,
               [stem_v, Group("dw1 3x3/1", 3, 1, 1, 8, [16]), Group("dw3 3x3/2", 3, 2, 0, 16)])
    v3 = Chain("VWW V3: V2 + pw4(16->32)", 96, 96, 3,
               [stem_v, Group("dw1 3x3/1", 3, 1, 1, 8, [16]), Group("dw3 3x3/2", 3, 2, 0, 16, [32])])
    return [m1, m2, m2n, v1, v2, v3]


if __name__ == "__main__":
    orders = sys.argv[1:] or ["row", "pixel"]
    for ch in chains():
        for o in orders:
            analyse(ch, o)
