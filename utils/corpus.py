#!/usr/bin/python3
"""corpus.py - the generality corpus of issue 29: seeded real-shaped int8 networks.

  corpus.py list  [--set SET]              one "FAMILY SEED" per line
  corpus.py stats [--set SET]              shapes, MACs, weights, TFLM arena per model
  corpus.py check [--set SET] --vmcuc P --vmcu-run P [--cc P] [--work DIR] [-j N]
                  [--only REGEX] [--timeout S]

SET is `corpus` (default), `held-out`, `ci` or `all` (corpus and held-out).
Every model is `make-tflite.py --kind FAMILY --seed SEED`; the families
(make-tflite.py's corpus-* kinds) draw their architecture from the
distribution stated in their docstrings, within the corpus bounds
(make-tflite.py's CORPUS_MAX_*).

  * corpus: seeds 1-6 of each of the 7 families (42 models);
  * held-out: 10 more (seeds 1001-1010, the family cycling through the
    list). They are not run while vmcu is being tuned on the corpus, only
    at the end, and are reported apart;
  * ci: 8 models of the corpus, the smallest of each family (fewest MACs;
    `corpus.py stats` prints them) and mobilenet-v2-1, the smallest with a
    depthwise stem (multiplier 8 over 3 channels) and residual ADDs.
    test/E2E/corpus.test runs them in the default suite.

`check` asserts, per model, what test/E2E/corpus.test asserts for the CI
models (test/E2E/corpus-full.test runs it on the whole corpus):

  1. bit-exact: vmcu-run MODEL --cpu=cortex-m4 --ring-check on make-tflite's
     input equals utils/tflite_numpy_ref.py's output byte for byte;
  2. the header compiles: vmcuc MODEL --header M.h, then CC -mcpu=cortex-m4
     -mthumb -Wall -Wextra -Werror -c test/Tools/vmcuc/Inputs/use-header.c
     (which uses every macro and function of the header);
  3. vmcu's arena (peak_ram_bytes of vmcuc's --report, workspaces included)
     is at most TFLM's arena of the same .tflite (utils/tflm_arena.py).

It prints one line per model (ok, or each failure with its first error line
and the command that reproduces it) and exits 1 if any model failed.
"""
import argparse
import concurrent.futures
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PYTHON = "/usr/bin/python3"

FAMILIES = [
    "corpus-mobilenet-v1",
    "corpus-mobilenet-v2",
    "corpus-dscnn",
    "corpus-resnet",
    "corpus-cnn-fc",
    "corpus-fc-autoencoder",
    "corpus-concat-branches",
]
CORPUS_SEEDS = range(1, 7)
CORPUS = [(family, seed) for family in FAMILIES for seed in CORPUS_SEEDS]
HELD_OUT = [(FAMILIES[i % len(FAMILIES)], 1001 + i) for i in range(10)]
CI = [
    ("corpus-mobilenet-v1", 5),
    ("corpus-mobilenet-v2", 2),
    ("corpus-mobilenet-v2", 1),    # the depthwise stem (multiplier 8 over 3 channels), ADDs, PADs
    ("corpus-dscnn", 6),
    ("corpus-resnet", 3),
    ("corpus-cnn-fc", 6),
    ("corpus-fc-autoencoder", 2),
    ("corpus-concat-branches", 4),
]
SETS = {"corpus": CORPUS, "held-out": HELD_OUT, "ci": CI, "all": CORPUS + HELD_OUT}
USE_HEADER_C = os.path.join(ROOT, "test", "Tools", "vmcuc", "Inputs", "use-header.c")


def load_make_tflite():
    sys.path.insert(0, HERE)
    spec = importlib.util.spec_from_file_location("make_tflite",
                                                  os.path.join(HERE, "make-tflite.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.CORPUS_FAMILIES == FAMILIES, "corpus.py's families are make-tflite.py's"
    return module


def name(family, seed):
    return f"{family[len('corpus-'):]}-{seed}"


def tflite_macs(path):
    """Multiply-accumulates of a .tflite's CONV_2D, DEPTHWISE_CONV_2D and
    FULLY_CONNECTED operators (as make-tflite.py's graph_macs counts them)."""
    import numpy as np
    import tflite_numpy_ref as ref
    import tflite_schema as S
    with open(path, "rb") as f:
        tensors, ops, _, _ = ref.read_model(bytearray(f.read()))
    macs = 0
    for op in ops:
        out = int(np.prod(tensors[op.outputs[0]].shape))
        w = tensors[op.inputs[1]].shape if len(op.inputs) > 1 else ()
        if op.code == S.OP_CONV_2D:
            macs += out * w[1] * w[2] * w[3]
        elif op.code == S.OP_DEPTHWISE_CONV_2D:
            macs += out * w[1] * w[2]
        elif op.code == S.OP_FULLY_CONNECTED:
            macs += out * w[1]
    return macs


def stats(models):
    mk = load_make_tflite()
    import numpy as np
    import tflite_schema as S
    codes = {v: k[3:] for k, v in vars(S).items() if k.startswith("OP_")}
    print(f"{'model':26} {'input':16} {'ops':>4} {'MACs':>11} {'weights':>8} {'tflm_arena':>10}"
          f"  features")
    for family, seed in models:
        g, _ = mk.build_graph(family, seed)
        count = {}
        mults = set()
        for op in g.operators:
            code = g.opcodes[op.opcode_index]
            count[codes[code]] = count.get(codes[code], 0) + 1
            if code == S.OP_DEPTHWISE_CONV_2D:
                cin = g.tensors[op.inputs[0]].shape[-1]
                cout = g.tensors[op.outputs[0]].shape[-1]
                if cout != cin:
                    mults.add(f"dw x{cout // cin} over {cin}")
        features = " ".join(f"{k}:{v}" for k, v in sorted(count.items())
                            if k in ("ADD", "CONCATENATION", "MAX_POOL_2D", "PAD",
                                     "FULLY_CONNECTED"))
        shape = "x".join(str(d) for d in g.tensors[g.inputs[0]].shape[1:])
        print(f"{name(family, seed):26} {shape:16} {len(g.operators):4} "
              f"{mk.graph_macs(g):11,} {mk.graph_weight_bytes(g):8} "
              f"{mk.graph_tflm_arena(g):10}  {features} {' '.join(sorted(mults))}".rstrip())


SLOW_SECONDS = 60  # steps that take longer are named in the model's line


def _run(cmd, timeout=None, times=None):
    """(ok, first error line) of a command given as an argument list;
    appends (program, seconds) to `times`."""
    start = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s"
    finally:
        if times is not None:
            times.append((os.path.basename(cmd[0]), time.time() - start))
    if r.returncode == 0:
        return True, ""
    lines = [l for l in (r.stderr + r.stdout).splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l.lower()]
    return False, (errors or lines or [f"exit status {r.returncode}"])[0].strip()


def check_model(family, seed, args, times):
    """The failures of one model: [(what, message, command)]; `times`
    gets each step's duration."""
    base = os.path.join(args.work, name(family, seed))
    tfl, inp, ref, out = base + ".tflite", base + ".in", base + ".np", base + ".m4"
    steps = [
        ("make", [PYTHON, os.path.join(HERE, "make-tflite.py"), "--kind", family, "--seed",
                  str(seed), "-o", tfl, "--input-bin", inp]),
        ("numpy reference", [PYTHON, os.path.join(HERE, "tflite_numpy_ref.py"), tfl, inp, ref]),
    ]
    for what, cmd in steps:
        ok, msg = _run(cmd)
        if not ok:
            return [(what, msg, cmd)]
    failures = []
    run = [args.vmcu_run, tfl, "--cpu=cortex-m4", "--ring-check", "--input", inp,
           "--output", out]
    ok, msg = _run(run, args.timeout, times)
    if not ok:
        failures.append(("vmcu-run (M4, ring check)", msg, run))
    else:
        ok, msg = _run(["cmp", out, ref])
        if not ok:
            failures.append(("bit-exact", f"output differs from tflite_numpy_ref.py: {msg}",
                             run + ["&&", "cmp", out, ref]))
    compile_cmd = [args.vmcuc, tfl, "--cpu=cortex-m4", "-o", base + ".o", "--header",
                   base + ".h", "--report", base + ".json"]
    ok, msg = _run(compile_cmd, args.timeout, times)
    if not ok:
        failures.append(("vmcuc", msg, compile_cmd))
        return failures
    cc = [args.cc, "-mcpu=cortex-m4", "-mthumb", "-Wall", "-Wextra", "-Werror",
          f'-DMODEL_HEADER="{base}.h"', "-x", "c", "-c", USE_HEADER_C, "-o", base + ".use.o"]
    ok, msg = _run(cc)
    if not ok:
        failures.append(("header compiles", msg, cc))
    arena = [PYTHON, os.path.join(HERE, "tflm_arena.py"), tfl, "--check-report",
             base + ".json"]
    ok, msg = _run(arena)
    if not ok:
        failures.append(("arena <= TFLM", msg, arena))
    return failures


def check(models, args):
    os.makedirs(args.work, exist_ok=True)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        def one(model):
            times = []
            return model, check_model(model[0], model[1], args, times), times
        for (family, seed), failures, times in pool.map(one, models):
            slow = ", ".join(f"{program} {seconds:.0f} s" for program, seconds in times
                             if seconds > SLOW_SECONDS)
            if not failures:
                print(f"{name(family, seed):26} ok" + (f" (slow: {slow})" if slow else ""),
                      flush=True)
                continue
            if slow:
                print(f"{name(family, seed):26} slow: {slow}", flush=True)
            failed += 1
            for what, msg, cmd in failures:
                print(f"{name(family, seed):26} FAIL {what}: {msg}\n"
                      f"{'':26}   repro: {shlex.join(cmd)}", flush=True)
    print(f"corpus.py: {len(models) - failed} of {len(models)} models pass"
          + (f", {failed} fail" if failed else ""))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n", 2)[2])
    parser.add_argument("command", choices=["list", "stats", "check"])
    parser.add_argument("--set", default="corpus", choices=list(SETS))
    parser.add_argument("--vmcuc", help="vmcuc to check with")
    parser.add_argument("--vmcu-run", help="vmcu-run to check with")
    parser.add_argument("--cc", default="arm-none-eabi-gcc",
                        help="the C compiler for the header (default %(default)s)")
    parser.add_argument("--work", default="corpus-check", help="where the models go")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="models checked at once")
    parser.add_argument("--only", default="", metavar="REGEX",
                        help='only the models whose "FAMILY SEED" matches')
    parser.add_argument("--timeout", type=int, default=1800,
                        help="seconds a vmcu-run or vmcuc may take (default %(default)s)")
    args = parser.parse_args()
    models = [m for m in SETS[args.set] if re.search(args.only, f"{m[0]} {m[1]}")]
    if args.command == "list":
        for family, seed in models:
            print(family, seed)
        return 0
    if args.command == "stats":
        stats(models)
        return 0
    if not args.vmcuc or not args.vmcu_run:
        parser.error("check needs --vmcuc and --vmcu-run")
    args.work = os.path.abspath(args.work)
    return check(models, args)


if __name__ == "__main__":
    sys.exit(main())
