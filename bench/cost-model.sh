#!/usr/bin/env bash
# cost-model.sh - fits and checks the planners' cycle model
# (include/vmcu/Analysis/CostModel.h) against vmcu-prof's Cortex-M4 cycles
# of every kernel of the shared models (default budget, a large one and all
# fused) and of corpus models whose odd channel counts give narrow
# segments (default, all fused and all unfused), so that recomputing,
# line-buffered and separate layers, wide and narrow segments are all
# measured.
#
# Prints, per kernel family, the non-negative least-squares fit of
# cycles = a*MACs + b*outputs + c*ring accesses (MACs as executed,
# recomputation included; each kernel's relative error weighted alike, so
# small kernels count as much as large ones) next to the constants
# compiled in and both's largest and median error, then each model's
# total: measured, estimated, error.
#
# usage: bench/cost-model.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
MODELS="$SHARED/models"
require_tools "$BUILD" vmcuc vmcu-run vmcu-prof
require_models "$MODELS"
make_tmp
source "$ROOT/bench/shared-models.sh"

# Corpus models (utils/corpus.py) with channel counts of several odd
# factors: their segments are 1-3 bytes in many layers.
FIT_CORPUS="mobilenet-v2 2
mobilenet-v2 3
mobilenet-v2 4
dscnn 1
dscnn 5
resnet 5
mobilenet-v1 1
cnn-fc 6"

i=0
# measure MODEL PLAN [VMCUC ARGS...]: one run's report and per-kernel cycles.
measure() {
  local model=$1 name=$2; shift 2
  i=$((i + 1))
  "$BUILD/bin/vmcuc" "$model" "$@" -o "$tmp/m.o" --header="$tmp/m.h" --report="$tmp/r$i.json" >/dev/null
  random_input "$tmp/m.h" "$tmp/in.bin"
  "$BUILD/bin/vmcu-run" "$model" "$@" --keep-temps="$tmp/k" --input "$tmp/in.bin" --output "$tmp/out.bin" >/dev/null
  "$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --per-function \
    --max-instructions=0 > "$tmp/p$i.txt"
  echo "$name" > "$tmp/n$i.txt"
}
while IFS='|' read -r file output; do
  [ -n "$file" ] || continue
  for plan in --ram-kb=0 --ram-kb=256 --schedule=fused; do
    args=("$plan")
    [ -n "$output" ] && args+=(--tflite-output="$output")
    measure "$MODELS/$file" "$file ${plan#--}" "${args[@]}"
  done
done <<< "$SHARED_MODEL_CASES"
while read -r family seed; do
  model="$tmp/$family-$seed.tflite"
  /usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind "corpus-$family" --seed "$seed" -o "$model"
  for plan in --ram-kb=0 --schedule=fused --schedule=unfused; do
    measure "$model" "$family-$seed ${plan#--}" "$plan"
  done
done <<< "$FIT_CORPUS"

/usr/bin/python3 - "$tmp" "$i" "$ROOT/lib/Analysis/CostModel.cpp" <<'PY'
import itertools, json, re, sys
import numpy as np
tmp, runs, src = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows, totals = [], []
for i in range(1, runs + 1):
    report = json.load(open(f"{tmp}/r{i}.json"))
    cycles = {}
    for line in open(f"{tmp}/p{i}.txt"):
        m = re.match(r"\s*(\d+)\s+\d+\s+\S+\s+\S+%\s+vmcu_kernel_(\d+)_", line)
        if m:
            cycles[int(m.group(2))] = int(m.group(1))
    est = meas = 0
    for k, layer in enumerate(report["layers"]):
        est += layer["estimated_cycles"]; meas += cycles[k]
        # A softmax's few outputs take ~100 cycles each: a negligible total
        # that would set the elementwise per-output cost (adds') alone.
        if layer["op"] == "softmax":
            continue
        rows.append((layer["schedule"], layer["executed_macs"], layer["out_bytes"],
                     layer["ring_accesses"], cycles[k], layer["estimated_cycles"]))
    totals.append((open(f"{tmp}/n{i}.txt").read().strip(), meas, est))
compiled = dict(re.findall(r"case KernelKind::(\w+):\s*return \{([^}]*)\}", open(src).read()))

def fit(x, y):
    """Non-negative least squares of the relative errors: the best
    unconstrained fit over the subsets of the terms that stays >= 0."""
    best = None
    for n in range(x.shape[1], 0, -1):
        for terms in itertools.combinations(range(x.shape[1]), n):
            c = np.linalg.lstsq(x[:, terms] / y[:, None], np.ones(len(y)), rcond=None)[0]
            if (c < 0).any():
                continue
            coef = np.zeros(x.shape[1]); coef[list(terms)] = c
            err = (((x @ coef) - y) / y) ** 2
            if best is None or err.sum() < best[0]:
                best = (err.sum(), coef)
    return best[1]

print(f"{'kind':17} {'kernels':>7} {'perMac':>7} {'perOutput':>9} {'perAccess':>9}"
      f" {'compiled in':>20} {'fit max/median err':>19} {'compiled in':>12}")
for kind in sorted({r[0] for r in rows}):
    sel = [r for r in rows if r[0] == kind]
    x = np.array([r[1:4] for r in sel], float); y = np.array([r[4] for r in sel], float)
    coef = fit(x, y)
    err = abs(x @ coef - y) / y
    old = abs(np.array([r[5] for r in sel], float) - y) / y
    name = "".join(w.capitalize() for w in kind.split("-"))
    print(f"{kind:17} {len(sel):7} {coef[0]:7.2f} {coef[1]:9.1f} {coef[2]:9.1f}"
          f" {compiled.get(name, '?'):>20} {err.max():9.1%}/{np.median(err):7.1%}"
          f" {old.max():6.1%}/{np.median(old):5.1%}")
print()
print(f"{'model (plan)':52} {'measured':>12} {'estimated':>12} {'error':>7}")
for name, meas, est in totals:
    print(f"{name:52} {meas:12} {est:12} {(est - meas) / meas:7.1%}")
PY
