#!/usr/bin/python3
"""shape-grid.py - the grid of single-layer shapes of bench/shape-grid.sh (issue 29, item 3).

  bench/shape-grid.py list  [--quick] [--only REGEX]   one "NAME SPEC" per line (SPEC: make-tflite.py --layer)
  bench/shape-grid.py grid  [--quick]                  the grid, one point per line, with its MACs
  bench/shape-grid.py table --work DIR [--quick] [--only REGEX]
                                                       the table of the results in DIR (see shape-grid.sh)

Every grid point is one CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED of
make-tflite.py --layer (seed 1: per-channel int8 weights, int32 bias, RELU6
after a conv or depthwise, none after an FC). Windows are SAME, 1x1 VALID.
The points are written out below in groups; the channel counts are drawn by
hand from {1, 3, 8, 13, 16, 30, 47, 64, 128, 256} (13, 30 and 47 are not
multiples of 4; not every combination: a listed sample). A point gives its
input size, or takes the largest square side of SIDES (at most 48, 96 for an
input of 1 to 3 channels: a network's first layer) whose MACs stay within
MAX_MACS, so that most layers have 0.1 M to 1.2 M MACs and the full grid
runs in about half an hour on two cores. --quick is the points marked q, a
few of every kind.

Layer kinds and issue 29's floors (vmcu MAC/cycle, layers of >= 50k MACs):
conv (a window larger than 1x1), pointwise (1x1 conv) and fc 0.55; depthwise
0.20, except a depthwise with one input channel, held to the conv floor.
"""
import argparse
import json
import os
import re
import statistics
import sys

SIDES = (96, 64, 48, 40, 32, 24, 20, 16, 12, 10, 8, 6, 5, 4, 3)
MAX_MACS = 1_200_000
FLOOR_MACS = 50_000
FLOORS = {"conv": 0.55, "pointwise": 0.55, "fc": 0.55, "depthwise": 0.20}

# Channel pairs (cin, cout) per conv group; "q" marks the --quick points.
POINTWISE = [(1, 16), (3, 16), (8, 3), (8, 16), (13, 30, "q"), (16, 1), (16, 16), (16, 47),
             (30, 64), (47, 13), (64, 64, "q"), (64, 128), (64, 256), (128, 30), (128, 128),
             (256, 64), (256, 256)]
CONV3 = [(1, 8), (1, 16), (3, 3), (3, 8), (3, 16, "q"), (3, 30), (8, 8), (8, 16), (13, 13),
         (16, 1), (16, 16), (16, 47, "q"), (30, 30), (47, 64), (64, 64), (128, 128), (256, 256)]
CONV5 = [(1, 8), (3, 16), (8, 16), (16, 30), (47, 47), (64, 64)]
CONV7 = [(1, 8, "q"), (3, 16), (8, 8), (16, 16), (30, 13)]
# (k, cin, cout) with stride 2
CONV_S2 = [(3, 1, 8), (3, 3, 16, "q"), (3, 3, 30), (3, 8, 16), (3, 16, 30), (3, 47, 64),
           (3, 128, 256), (1, 16, 30), (1, 64, 128), (5, 3, 16), (5, 16, 16), (7, 3, 16)]
# (k, cin, cout) with dilation 2
CONV_D2 = [(3, 8, 8), (3, 13, 30, "q"), (3, 16, 16), (3, 64, 64), (5, 8, 16)]
# non-square windows: (kh, kw, cin, cout, h, w, stride) (h, w None: fitted square)
CONV_RECT = [(1, 3, 16, 16, None, None, 1), (1, 3, 47, 30, None, None, 1, "q"),
             (3, 1, 16, 16, None, None, 1), (3, 1, 13, 30, None, None, 1),
             (1, 5, 30, 30, None, None, 1), (5, 1, 30, 30, None, None, 1),
             (1, 7, 64, 64, None, None, 1), (7, 1, 64, 64, None, None, 1),
             (3, 5, 30, 8, None, None, 1), (5, 3, 16, 16, None, None, 1),
             (1, 10, 8, 16, None, None, 1), (10, 1, 8, 16, None, None, 1),
             (10, 4, 1, 64, 49, 10, 2, "q"),   # DS-CNN's first layer on a 49x10 spectrogram
             (4, 10, 1, 64, 10, 49, 2), (10, 4, 3, 16, None, None, 2), (4, 10, 8, 8, None, None, 1),
             (1, 3, 16, 16, 1, 128, 1), (1, 5, 47, 64, 1, 64, 1)]   # 1-D convolutions (H = 1)
# depthwise (k, c): stride 1 / stride 2
DW3 = [1, 3, 8, 13, 16, 30, 47, 64, 128, 256]
DW3_QUICK = (1, 47)
DW_S2 = [(3, 3), (3, 8), (3, 16), (3, 30), (3, 64, "q"), (3, 128), (5, 30), (5, 64), (7, 30)]
DW_BIG = [(5, 16, "q"), (5, 47), (5, 128), (7, 16), (7, 64)]
# (kh, kw, c, mult, stride, h, w)
DW_RECT = [(3, 1, 64, 1, 1, None, None), (1, 3, 30, 1, 1, None, None),
           (5, 3, 47, 1, 1, None, None), (10, 4, 8, 1, 1, None, None),
           (4, 10, 16, 1, 1, None, None), (1, 10, 13, 1, 1, None, None),
           (10, 4, 1, 8, 2, 49, 10)]       # a DS-CNN depthwise stem
# depthwise dilation 2: (k, c)
DW_D2 = [(3, 13), (3, 16), (3, 64, "q"), (5, 30)]
# multipliers: (k, c, mult, stride)
DW_MULT = [(3, 1, 2, 1), (3, 1, 4, 1), (3, 1, 8, 1), (3, 1, 8, 2, "q"), (3, 47, 2, 1),
           (3, 3, 2, 2), (3, 3, 4, 2), (3, 3, 8, 2, "q"), (3, 8, 2, 1), (3, 8, 4, 1),
           (3, 13, 8, 1), (3, 16, 2, 1, "q"), (3, 16, 4, 2), (3, 30, 2, 1), (3, 64, 2, 1),
           (5, 8, 4, 1), (3, 64, 2, 2)]
# FC: (cin, cout, rows)
FC = [(256, 256, 1), (250, 200, 1, "q"), (512, 128, 1), (1000, 64, 1), (2048, 30, 1),
      (30, 2048, 1), (128, 512, 1), (47, 1000, 1), (640, 128, 1), (13, 4096, 1),
      (100, 100, 8), (256, 64, 4)]


def _out(size, k, stride, dil, pad):
    span = (k - 1) * dil + 1
    return -(-size // stride) if pad == "same" else (size - span) // stride + 1


def macs(p):
    """Multiply-accumulates of a point (as make-tflite.py's graph_macs counts them)."""
    if p["op"] == "fc":
        return p["rows"] * p["cin"] * p["cout"]
    oh = _out(p["h"], p["kh"], p["sh"], p["dil"], p["pad"])
    ow = _out(p["w"], p["kw"], p["sw"], p["dil"], p["pad"])
    if p["op"] == "conv":
        return oh * ow * p["cout"] * p["kh"] * p["kw"] * p["cin"]
    return oh * ow * p["cin"] * p["mult"] * p["kh"] * p["kw"]


def _fit(p):
    """p with h = w = the largest side of SIDES (<= 48, or 96 for cin <= 3) whose
    MACs are within MAX_MACS and that holds the dilated window."""
    top = 96 if p["cin"] <= 3 else 48
    span = max((p["kh"] - 1) * p["dil"] + 1, (p["kw"] - 1) * p["dil"] + 1)
    fits = [s for s in SIDES if span <= s <= top]
    for s in fits:
        q = dict(p, h=s, w=s)
        if macs(q) <= MAX_MACS:
            return q
    return dict(p, h=fits[-1], w=fits[-1])


def _point(group, op, quick, h=None, w=None, **kw):
    p = dict(op=op, cin=1, cout=1, kh=1, kw=1, sh=1, sw=1, dil=1, mult=1, rows=1,
             pad="same", group=group, quick=quick)
    p.update(kw)
    if op == "conv" and p["kh"] == p["kw"] == 1:
        p["pad"] = "valid"
    if op != "fc":
        p = dict(p, h=h, w=w) if h else _fit(p)
    return p


def _q(t):
    """(the tuple without a trailing "q", whether it had one)"""
    return (t[:-1], True) if t and t[-1] == "q" else (t, False)


def grid():
    pts = []
    for (cin, cout), q in map(_q, POINTWISE):
        pts.append(_point("pointwise", "conv", q, cin=cin, cout=cout))
    for k, pairs in ((3, CONV3), (5, CONV5), (7, CONV7)):
        for (cin, cout), q in map(_q, pairs):
            pts.append(_point(f"conv{k}x{k}", "conv", q, cin=cin, cout=cout, kh=k, kw=k))
    for (k, cin, cout), q in map(_q, CONV_S2):
        pts.append(_point("conv-stride2", "conv", q, cin=cin, cout=cout, kh=k, kw=k, sh=2, sw=2))
    for (k, cin, cout), q in map(_q, CONV_D2):
        pts.append(_point("conv-dilation2", "conv", q, cin=cin, cout=cout, kh=k, kw=k, dil=2))
    for (kh, kw, cin, cout, h, w, s), q in map(_q, CONV_RECT):
        pts.append(_point("conv-nonsquare", "conv", q, h, w, cin=cin, cout=cout, kh=kh, kw=kw,
                          sh=s, sw=s))
    for c in DW3:
        pts.append(_point("dw3x3", "depthwise", c in DW3_QUICK, cin=c, kh=3, kw=3))
    for (k, c), q in map(_q, DW_S2):
        pts.append(_point("dw-stride2", "depthwise", q, cin=c, kh=k, kw=k, sh=2, sw=2))
    for (k, c), q in map(_q, DW_BIG):
        pts.append(_point(f"dw{k}x{k}", "depthwise", q, cin=c, kh=k, kw=k))
    for (kh, kw, c, mult, s, h, w), q in map(_q, DW_RECT):
        pts.append(_point("dw-nonsquare", "depthwise", q, h, w, cin=c, mult=mult, kh=kh, kw=kw,
                          sh=s, sw=s))
    for (k, c), q in map(_q, DW_D2):
        pts.append(_point("dw-dilation2", "depthwise", q, cin=c, kh=k, kw=k, dil=2))
    for (k, c, mult, s), q in map(_q, DW_MULT):
        pts.append(_point("dw-multiplier", "depthwise", q, cin=c, mult=mult, kh=k, kw=k,
                          sh=s, sw=s))
    for (cin, cout, rows), q in map(_q, FC):
        pts.append(_point("fc", "fc", q, cin=cin, cout=cout, rows=rows))
    for p in pts:
        p["name"] = name(p)
        p["kind"] = kind(p)
        p["macs"] = macs(p)
        p["floor"] = FLOORS["conv" if p["kind"] == "depthwise" and p["cin"] == 1 else p["kind"]]
    names = [p["name"] for p in pts]
    assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]
    return pts


def kind(p):
    if p["op"] == "conv":
        return "pointwise" if p["kh"] == p["kw"] == 1 else "conv"
    return p["op"]


def name(p):
    """conv3x3s2d1-3x16-96x96, dw3x3s1d1m8-1-48x48, fc-250x200-r1"""
    if p["op"] == "fc":
        return f"fc-{p['cin']}x{p['cout']}-r{p['rows']}"
    s = f"{p['sh']}" if p["sh"] == p["sw"] else f"{p['sh']}x{p['sw']}"
    win = f"{p['kh']}x{p['kw']}s{s}d{p['dil']}"
    if p["op"] == "conv":
        return f"conv{win}-{p['cin']}x{p['cout']}-{p['h']}x{p['w']}"
    return f"dw{win}m{p['mult']}-{p['cin']}-{p['h']}x{p['w']}"


def spec(p):
    keys = ("rows", "cin", "cout") if p["op"] == "fc" else \
        ("h", "w", "cin", "cout", "kh", "kw", "sh", "sw", "dil", "mult", "pad")
    if p["op"] == "depthwise":
        keys = tuple(k for k in keys if k != "cout")
    return p["op"] + ":" + ",".join(f"{k}={p[k]}" for k in keys)


def select(quick, only):
    return [p for p in grid() if (p["quick"] or not quick) and re.search(only, p["name"])]


def describe(p):
    if p["op"] == "fc":
        return f"FC [{p['rows']}, {p['cin']}] -> {p['cout']}"
    c_out = p["cout"] if p["op"] == "conv" else p["cin"] * p["mult"]
    oh = _out(p["h"], p["kh"], p["sh"], p["dil"], p["pad"])
    ow = _out(p["w"], p["kw"], p["sw"], p["dil"], p["pad"])
    return f"{p['h']}x{p['w']}x{p['cin']} -> {oh}x{ow}x{c_out} {p['pad'].upper()}"


# --- the table -----------------------------------------------------------------------

# Below this many MACs per output, a pointwise or FC output's
# requantization (8 instructions: 3 table loads, SMMLAR, ADD, ASR, SSAT,
# STRB; docs/kernels.md) costs more than a quarter of its MACs' cycles at
# one cycle per MAC, about the GEMM tiles' rate.
FEW_MACS_PER_OUTPUT = 32


def shape_class(p):
    """The class of shapes a point below its floor falls in, by what bounds it."""
    if p["op"] == "depthwise":
        return "depthwise over 1-3 input channels" if p["cin"] <= 3 else \
            "depthwise over 4 or more channels"
    if p["op"] == "conv" and p["cin"] <= 3:
        return "conv or pointwise over 1-3 input channels"
    if p["op"] == "conv" and p["cout"] == 1:
        return "conv into one output channel"
    per_output = p["cin"] * (p["kh"] * p["kw"] if p["op"] == "conv" else 1)
    if per_output < FEW_MACS_PER_OUTPUT:
        return f"layers of fewer than {FEW_MACS_PER_OUTPUT} MACs per output"
    return "other"


def short_cmsis(k):
    return k.replace("arm_", "").replace("_s8", "").replace("depthwise_conv", "dw").replace(
        "fully_connected", "fc").replace("convolve", "conv")


def load(work, p):
    """The figures of point p in work (None where missing)."""
    r = dict(p)
    path = os.path.join(work, "results", p["name"] + ".json")
    log = os.path.join(work, "logs", p["name"] + ".log")
    failed = os.path.join(work, "logs", p["name"] + ".vmcu-failed")
    r["note"] = ""
    if not os.path.exists(path):
        text = open(log).read().strip().splitlines() if os.path.exists(log) else []
        r["note"] = next((l for l in text if "rror" in l), text[-1] if text else "not run")[:160]
        r["missing"] = True
        return r
    j = json.load(open(path))
    c = j.get("cmsis")
    v = j.get("vmcu", {}).get("0", {})
    if c:
        r["cmsis_cyc"] = c["cycles"]
        r["cmsis_layer_cyc"] = sum(o["cycles"] for o in c["ops"])
        r["cmsis_path"] = "+".join(short_cmsis(o["kernel"]) for o in c["ops"])
        r["macs_cmsis"] = sum(o["macs"] for o in c["ops"])
    if "cycles" in v:
        r["vmcu_cyc"] = v["cycles"]
        r["vmcu_layer_cyc"] = sum(k["cycles"] for k in v["kernels"])
        rep = os.path.join(work, "build", p["name"], "vmcu-wc0", "r.json")
        layers = json.load(open(rep))["layers"] if os.path.exists(rep) else []
        r["vmcu_path"] = "+".join(l["schedule"] or l["op"] for l in layers) or "?"
        r["vmcu_macs"] = sum(l["macs"] for l in layers)
    elif "error" in v:
        first = next((l for l in v["error"].splitlines() if "error" in l), v["error"].splitlines()[0])
        r["note"] = "vmcuc: " + first.strip()[:160]
    elif os.path.exists(failed):
        r["note"] = "vmcu: " + open(failed).read().strip()[:160]
    cmp = j.get("compare", {})

    def same(key):
        x = cmp.get(key)
        if not x:
            return "-"
        return "yes" if x.get("mismatches") == 0 and "mismatch" not in x else \
            f"NO({x.get('mismatches', x.get('mismatch'))})"
    r["exact"] = f"{same('npref_vs_vmcu0')}/{same('cmsis_vs_vmcu0')}"
    tpath = os.path.join(work, "logs", p["name"] + ".time")
    r["wall_s"] = float(open(tpath).read()) if os.path.exists(tpath) else None
    return r


def table(work, pts):
    rows = [load(work, p) for p in pts]
    print("shape grid: one layer per point, seed 1, vmcu (vmcuc defaults) and CMSIS-NN on cmsis-anchor's "
          "Cortex-M4 cycle model; cycles of the whole invoke of the one-layer model")
    print("x = vmcu MAC/cycle / CMSIS-NN MAC/cycle (> 1: vmcu faster); exact = vmcu output vs numpy TFLM "
          "reference / vs CMSIS-NN; floor = issue 29's floor of the kind (layers >= 50k MACs)")
    hdr = (f"{'point':34} {'kind':9} {'shape':30} {'MACs':>9} {'vmcu cyc':>10} {'cmsis cyc':>10} "
           f"{'vmcu':>6} {'cmsis':>6} {'x':>6} {'vmcu path':14} {'cmsis path':18} {'exact':>8} {'floor':>5} flag")
    print(hdr)
    for r in rows:
        vm = r["macs"] / r["vmcu_cyc"] if "vmcu_cyc" in r else None
        cm = r["macs"] / r["cmsis_cyc"] if "cmsis_cyc" in r else None
        r["vmcu_mpc"], r["cmsis_mpc"] = vm, cm
        r["x"] = vm / cm if vm and cm else None
        applies = r["macs"] >= FLOOR_MACS
        r["below"] = applies and vm is not None and vm < r["floor"]
        flag = "BELOW" if r["below"] else ("ok" if applies and vm is not None else
                                           ("n/a" if not applies else "-"))
        if "missing" in r or vm is None:
            flag = "FAIL" if applies else flag
        f = lambda x, fmt: format(x, fmt) if x is not None else "-"
        print(f"{r['name']:34} {r['kind']:9} {describe(r):30} {r['macs']:>9,} "
              f"{f(r.get('vmcu_cyc'), ','):>10} {f(r.get('cmsis_cyc'), ','):>10} {f(vm, '.3f'):>6} "
              f"{f(cm, '.3f'):>6} {f(r['x'], '.2f'):>6} {r.get('vmcu_path', '-'):14} "
              f"{r.get('cmsis_path', '-'):18} {r.get('exact', '-'):>8} {r['floor']:>5.2f} {flag}"
              + (f"  {r['note']}" if r["note"] else ""))
    print()
    done = [r for r in rows if r.get("vmcu_mpc")]
    print("slowest vmcu point per kind (layers >= 50k MACs), and the median MAC/cycle of the kind:")
    for k in ("conv", "pointwise", "depthwise", "fc"):
        ks = [r for r in done if r["kind"] == k and r["macs"] >= FLOOR_MACS]
        if not ks:
            continue
        w = min(ks, key=lambda r: r["vmcu_mpc"])
        print(f"  {k:9} slowest {w['vmcu_mpc']:.3f} MAC/cycle: {w['name']} (vmcu path {w['vmcu_path']}, "
              f"CMSIS-NN {w['cmsis_mpc']:.3f} with {w.get('cmsis_path', '-')}); median "
              f"{statistics.median(r['vmcu_mpc'] for r in ks):.3f} over {len(ks)} points")
    print("vmcu paths (all points): MAC/cycle min / median / max, points, slowest point:")
    paths = sorted({r["vmcu_path"] for r in done})
    for path in sorted(paths, key=lambda s: min(r["vmcu_mpc"] for r in done if r["vmcu_path"] == s)):
        ps = [r for r in done if r["vmcu_path"] == path]
        w = min(ps, key=lambda r: r["vmcu_mpc"])
        print(f"  {path:18} {w['vmcu_mpc']:.3f} / {statistics.median(r['vmcu_mpc'] for r in ps):.3f} / "
              f"{max(r['vmcu_mpc'] for r in ps):.3f}  {len(ps):3} points  slowest {w['name']}")
    below = [r for r in done if r["below"]]
    print(f"below issue 29's floor (>= 50k MACs; conv/pointwise/fc 0.55, depthwise 0.20, one input channel "
          f"0.55): {len(below)} of {sum(r['macs'] >= FLOOR_MACS for r in done)}"
          + "".join(f"\n  {r['name']} {r['vmcu_mpc']:.3f} < {r['floor']:.2f} ({r['vmcu_path']})"
                    for r in sorted(below, key=lambda r: r["vmcu_mpc"] / r["floor"])))
    if below:
        print("below the floor by class of shape: points, vmcu MAC/cycle min-max")
        classes = sorted({shape_class(r) for r in below},
                         key=lambda c: (-sum(shape_class(r) == c for r in below), c))
        for c in classes:
            cs = [r["vmcu_mpc"] for r in below if shape_class(r) == c]
            print(f"  {len(cs):3}  {c:58} {min(cs):.3f}-{max(cs):.3f}")
    xs = [r["x"] for r in done if r["x"]]
    if xs:
        lo = min((r for r in done if r["x"]), key=lambda r: r["x"])
        print(f"vmcu / CMSIS-NN MAC/cycle: median {statistics.median(xs):.2f}, worst {lo['x']:.2f} ({lo['name']}), "
              f"vmcu slower than CMSIS-NN on {sum(x < 1 for x in xs)} of {len(xs)} points")
    bad = [r["name"] for r in rows if "NO" in r.get("exact", "")]
    fail = [r["name"] for r in rows if not r.get("vmcu_mpc") or not r.get("cmsis_mpc")]
    print(f"not bit-exact: {len(bad)}" + (": " + " ".join(bad) if bad else ""))
    print(f"no figures (vmcuc or cmsis-anchor failed, or not run): {len(fail)}" + (": " + " ".join(fail) if fail else ""))
    walls = [r["wall_s"] for r in rows if r.get("wall_s")]
    if walls:
        print(f"cmsis-anchor wall time: {sum(walls):.0f} s over {len(walls)} points "
              f"(median {statistics.median(walls):.0f} s, longest {max(walls):.0f} s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("list", "grid", "table"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default=".")
    ap.add_argument("--work")
    a = ap.parse_args()
    pts = select(a.quick, a.only)
    if a.what == "list":
        for p in pts:
            print(p["name"], spec(p))
    elif a.what == "grid":
        print(f"{'point':34} {'group':15} {'kind':9} {'shape':30} {'MACs':>9} floor  quick")
        for p in pts:
            print(f"{p['name']:34} {p['group']:15} {p['kind']:9} {describe(p):30} {p['macs']:>9,} "
                  f"{p['floor']:.2f}   {'q' if p['quick'] else ''}")
        print(f"{len(pts)} points, {sum(p['macs'] for p in pts):,} MACs, "
              f"{sum(p['macs'] >= FLOOR_MACS for p in pts)} with >= 50k MACs")
    else:
        if not a.work:
            ap.error("table needs --work")
        table(a.work, pts)


if __name__ == "__main__":
    sys.exit(main())
