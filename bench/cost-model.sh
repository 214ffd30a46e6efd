#!/usr/bin/env bash
# cost-model.sh - fits and checks the schedule chooser's cycle model
# (include/vmcu/Analysis/CostModel.h) against vmcu-prof's Cortex-M4 cycles
# of every kernel of the shared models, compiled with the default budget,
# with a large one and all fused (so recomputing, line-buffered and
# separate layers are all measured).
#
# Prints, per kernel family, the least-squares fit cycles = a*MACs +
# b*outputs (MACs as executed, recomputation included) next to the
# constants compiled in, then each model's total: measured, estimated, error.
#
# usage: bench/cost-model.sh [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
MODELS="${VMCU_SHARED_DIR:-$ROOT/../shared}/models"
for tool in vmcuc vmcu-run vmcu-prof; do
  [ -x "$BUILD/bin/$tool" ] || { echo "error: $BUILD/bin/$tool not built" >&2; exit 1; }
done
[ -d "$MODELS" ] || { echo "error: no models in $MODELS (set VMCU_SHARED_DIR)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$ROOT/bench/shared-models.sh"

i=0
while IFS='|' read -r file output; do
  [ -n "$file" ] || continue
  for plan in --ram-kb=0 --ram-kb=256 --schedule=fused; do
    i=$((i + 1))
    args=("$MODELS/$file" "$plan")
    [ -n "$output" ] && args+=(--tflite-output="$output")
    "$BUILD/bin/vmcuc" "${args[@]}" -o "$tmp/m.o" --header="$tmp/m.h" --report="$tmp/r$i.json" >/dev/null
    random_input "$tmp/m.h" "$tmp/in.bin"
    "$BUILD/bin/vmcu-run" "${args[@]}" --keep-temps="$tmp/k" --input "$tmp/in.bin" --output "$tmp/out.bin" >/dev/null
    "$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --per-function \
      --max-instructions=0 > "$tmp/p$i.txt"
    echo "$file ${plan#--}" > "$tmp/n$i.txt"
  done
done <<< "$SHARED_MODEL_CASES"

/usr/bin/python3 - "$tmp" "$i" "$ROOT/lib/Analysis/CostModel.cpp" <<'PY'
import json, re, sys
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
        rows.append((layer["schedule"], layer["executed_macs"], layer["out_bytes"], cycles[k]))
        est += layer["estimated_cycles"]; meas += cycles[k]
    totals.append((open(f"{tmp}/n{i}.txt").read().strip(), meas, est))
compiled = dict(re.findall(r"case KernelKind::(\w+):\s*return \{([^}]*)\}", open(src).read()))
# Kinds whose MACs per output barely differ on the shared models (the stems'
# im2col convs): a free fit is meaningless, so they take the per-MAC cost
# of the kind whose tiles they run and fit only the per-output term.
PER_MAC_OF = {"im2col": "gemm"}
def fit(sel, per_mac=None):
    a = np.array([[r[1], r[2]] for r in sel], float); y = np.array([r[3] for r in sel], float)
    if per_mac is None:
        coef = np.linalg.lstsq(a, y, rcond=None)[0]
    else:
        rest = y - per_mac * a[:, 0]
        coef = np.array([per_mac, rest @ a[:, 1] / (a[:, 1] @ a[:, 1])])
    return coef, max(abs(a @ coef - y) / y)
print(f"{'kind':17} {'kernels':>7} {'fit perMac':>10} {'perOutput':>10} {'compiled in':>16} {'max |err|':>9}")
fits = {}
for kind in sorted({r[0] for r in rows}, key=lambda k: (k in PER_MAC_OF, k)):
    sel = [r for r in rows if r[0] == kind]
    base = fits.get(PER_MAC_OF.get(kind))
    coef, err = fit(sel, None if base is None else base[0])
    fits[kind] = coef
    name = "".join(w.capitalize() for w in kind.split("-"))
    print(f"{kind:17} {len(sel):7} {coef[0]:10.2f} {coef[1]:10.1f} {compiled.get(name, '?'):>16} {err:9.1%}")
print()
print(f"{'model (plan)':52} {'measured':>12} {'estimated':>12} {'error':>7}")
for name, meas, est in totals:
    print(f"{name:52} {meas:12} {est:12} {(est - meas) / meas:7.1%}")
PY
