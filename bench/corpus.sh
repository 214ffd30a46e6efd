#!/usr/bin/env bash
# corpus.sh - vmcu against CMSIS-NN on the generality corpus (issue 29):
# seeded real-shaped int8 networks (utils/corpus.py lists them; the
# families are utils/make-tflite.py's corpus-* kinds), each compiled by
# vmcuc with its defaults and run by ../shared/tools/cmsis-anchor (CMSIS-NN
# called layer by layer as TFLite Micro's cmsis_nn kernels call it, and
# vmcu, on one Cortex-M4 cycle model, on the same input; the whole model,
# a final SOFTMAX included).
#
# Per model: MACs; Cortex-M4 cycles of vmcu and CMSIS-NN and their ratio;
# SRAM, vmcu's arena + stack against CMSIS-NN's arena + stack (its arena:
# TFLM's greedy plan of the activations + one shared scratch buffer; stacks
# measured), and the ratio; flash (weights, code and the same harness for
# both) and the ratio; TFLM's arena of the .tflite (utils/tflm_arena.py)
# and vmcu's arena against it; bit-exactness of vmcu's output against
# utils/tflite_numpy_ref.py (TFLite's integer kernels) on the same input
# and against CMSIS-NN. Then the worst and the
# median of each ratio. A model with an operator cmsis-anchor lacks
# (CONCATENATION, MAX_POOL_2D) is run for vmcu alone (cmsis-anchor
# --skip-cmsis) and its CMSIS-NN columns say what is missing; a vmcuc
# failure prints its first error line.
#
# usage: bench/corpus.sh [--ci | --held-out | --all] [-j N] [--work DIR] [--summary]
#                        [--only REGEX] [BUILD_DIR]
#   (default: the 42 corpus models; --held-out: the 10 held-out models,
#   only for the final check; -j N: models at once; --work: cmsis-anchor's
#   work folder, kept between runs so CMSIS-NN is built once, default
#   $TMPDIR/vmcu-corpus; --summary: print the table of the last run in
#   --work again without running anything; --only: run only the models
#   whose "FAMILY SEED" line matches, the table shows the last results of all)
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
SET=corpus JOBS=1 WORK="${TMPDIR:-/tmp}/vmcu-corpus" BUILD="$ROOT/build" RUN=1 ONLY=.
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) SET=ci ;;
    --held-out) SET=held-out ;;
    --all) SET=all ;;
    -j) JOBS="$2"; shift ;;
    -j*) JOBS="${1#-j}" ;;
    --work) WORK="$2"; shift ;;
    --summary) RUN=0 ;;
    --only) ONLY="$2"; shift ;;
    -h|--help) print_usage; exit 0 ;;
    *) BUILD="$1" ;;
  esac
  shift
done
ANCHOR="$SHARED/tools/cmsis-anchor/cmsis-anchor"
PY=/usr/bin/python3
require_tools "$BUILD" vmcuc
require_cmsis_anchor "$ANCHOR"
mkdir -p "$WORK/models" "$WORK/logs"

# run_one FAMILY SEED: generate the model, run cmsis-anchor (vmcu alone
# where CMSIS-NN lacks an operator), leave results/NAME.json and logs/NAME.log.
run_one() {
  local family=$1 seed=$2 name model log
  name="${family#corpus-}-$seed"
  model="$WORK/models/$name.tflite"
  log="$WORK/logs/$name.log"
  "$PY" "$ROOT/utils/make-tflite.py" --kind "$family" --seed "$seed" -o "$model"
  rm -f "$WORK/results/$name.json" "$WORK/logs/$name.skip" "$WORK/logs/$name.vmcu-failed"
  if ! "$ANCHOR" "$model" --whole --vmcuc "$BUILD/bin/vmcuc" --work "$WORK" > "$log" 2>&1; then
    if grep -q "unsupported op\|broadcast ADD not supported" "$log"; then
      # CMSIS-NN lacks an operator ("unsupported op X (op N)"): vmcu alone.
      grep -o "unsupported op [A-Z0-9_]*\|broadcast ADD not supported" "$log" | head -1 > "$WORK/logs/$name.skip"
      "$ANCHOR" "$model" --whole --skip-cmsis --vmcuc "$BUILD/bin/vmcuc" --work "$WORK" > "$log.vmcu" 2>&1 ||
        { grep -m1 "overflowed\|will not fit\|rror" "$log.vmcu" || tail -1 "$log.vmcu"; } > "$WORK/logs/$name.vmcu-failed"
      cat "$log.vmcu" >> "$log"; rm -f "$log.vmcu"
    else
      # vmcu's side stopped cmsis-anchor (its ELF does not link, ...): CMSIS-NN alone.
      grep -m1 "overflowed\|will not fit\|rror" "$log" > "$WORK/logs/$name.vmcu-failed" || tail -1 "$log" > "$WORK/logs/$name.vmcu-failed"
      "$ANCHOR" "$model" --whole --skip-vmcu --vmcuc "$BUILD/bin/vmcuc" --work "$WORK" >> "$log" 2>&1 || true
    fi
  fi
  "$PY" "$ROOT/utils/tflm_arena.py" "$model" > "$WORK/logs/$name.tflm"
  # The repository's reference on cmsis-anchor's input (its own numpy_ref
  # lacks CONCATENATION and MAX_POOL_2D).
  rm -f "$WORK/build/$name/ref.bin"
  "$PY" "$ROOT/utils/tflite_numpy_ref.py" "$model" "$WORK/build/$name/input.bin" \
    "$WORK/build/$name/ref.bin" || true
}
export -f run_one
export ROOT WORK BUILD ANCHOR PY

models=$("$PY" "$ROOT/utils/corpus.py" list --set "$SET")
if [ "$RUN" = 1 ]; then
  # The first model alone: cmsis-anchor builds CMSIS-NN into WORK once.
  selected=$(grep -E -- "$ONLY" <<< "$models" || true)
  first=$(head -1 <<< "$selected")
  [ -n "$first" ] && run_one $first
  tail -n +2 <<< "$selected" | xargs -r -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"'
fi

# shellcheck disable=SC2086  # $models: FAMILY SEED pairs, one word each
"$PY" - "$ROOT" "$WORK" "$SET" $models <<'PY'
import json, os, re, statistics, sys
root, work, selection, pairs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
models = [(pairs[i], int(pairs[i + 1])) for i in range(0, len(pairs), 2)]
sys.path.insert(0, os.path.join(root, "utils"))
from corpus import tflite_macs

def read(path):
    return open(path).read().strip() if os.path.exists(path) else ""

print(f"corpus ({selection}): vmcu / CMSIS-NN on the Cortex-M4 cycle model (cmsis-anchor --whole); "
      f"sram = arena + stack; exact = vmcu vs numpy TFLM reference / vs CMSIS-NN")
print(f"{'model':24} {'MACs':>10} {'vmcu cyc':>11} {'cmsis cyc':>11} {'cyc':>6} "
      f"{'vmcu sram':>9} {'cmsis sram':>10} {'sram':>6} {'vmcu flash':>10} {'cmsis flash':>11} "
      f"{'flash':>6} {'tflm arena':>10} {'vmcu arena':>10} {'a/tflm':>6} {'exact':>9}  note")
ratios = {"cyc": [], "sram": [], "flash": [], "a/tflm": []}
failures = []
not_run = []  # no log in --work yet: run them without --only (or --summary after)
for family, seed in models:
    name = f"{family[len('corpus-'):]}-{seed}"
    res_path = os.path.join(work, "results", name + ".json")
    tflm_log = read(os.path.join(work, "logs", name + ".tflm"))
    if not tflm_log and not os.path.exists(res_path):
        not_run.append(name)
        continue
    tflm = int(tflm_log.split("arena=")[1].split()[0]) if "arena=" in tflm_log else None
    skip = read(os.path.join(work, "logs", name + ".skip"))
    vmcu_failed = read(os.path.join(work, "logs", name + ".vmcu-failed"))
    if not os.path.exists(res_path):
        log = read(os.path.join(work, "logs", name + ".log")).splitlines()
        err = next((l for l in log if "rror" in l), log[-1] if log else "no output")
        if vmcu_failed:
            err = (f"CMSIS-NN: {skip}; " if skip else "") + "vmcu: " + re.sub(
                r"^\S*\.elf ", "", vmcu_failed.split("ld: ")[-1].strip())
        print(f"{name:24} no figures: {err.strip()[:200]}")
        failures.append(name)
        continue
    r = json.load(open(res_path))
    c = r.get("cmsis")
    v = r.get("vmcu", {}).get("0", {})
    cmp = r.get("compare", {})
    macs = tflite_macs(os.path.join(work, "models", name + ".tflite"))
    note = []
    row = {}
    if "error" in v:
        first = next((l for l in v["error"].splitlines() if "error" in l), v["error"].splitlines()[0])
        note.append("vmcuc: " + first.strip()[:160])
        failures.append(name)
    elif vmcu_failed:
        note.append("vmcu: " + re.sub(r"^\S*\.elf ", "", vmcu_failed.split("ld: ")[-1].strip())[:160])
        failures.append(name)
    else:
        row["vmcu cyc"] = v["cycles"]
        row["vmcu sram"] = v["arena_bytes"] + v["stack_bytes"]
        row["vmcu flash"] = v["flash_bytes_elf"]
        row["vmcu arena"] = v["arena_bytes"]
    if c:
        row["cmsis cyc"] = c["cycles"]
        row["cmsis sram"] = c["plan"]["arena_bytes"] + c["stack_bytes"]
        row["cmsis flash"] = c["flash_bytes_elf"]
    else:
        note.append("CMSIS-NN: " + (skip or "not run"))
    for key, a, b in (("cyc", "vmcu cyc", "cmsis cyc"), ("sram", "vmcu sram", "cmsis sram"),
                      ("flash", "vmcu flash", "cmsis flash")):
        if a in row and b in row:
            row[key] = row[a] / row[b]
            ratios[key].append((row[key], name))
    if "vmcu arena" in row and tflm:
        row["a/tflm"] = row["vmcu arena"] / tflm
        ratios["a/tflm"].append((row["a/tflm"], name))
        if row["vmcu arena"] > tflm:
            note.append("arena above TFLM's")
    exact = []
    out = os.path.join(work, "build", name, "out_vmcu0.bin")
    ref = os.path.join(work, "build", name, "ref.bin")
    if "error" not in v and os.path.exists(out) and os.path.exists(ref):
        a, b = open(out, "rb").read(), open(ref, "rb").read()
        differ = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
        exact.append("yes" if differ == 0 else f"NO({differ})")
    else:
        exact.append("-")
    x = cmp.get("cmsis_vs_vmcu0")
    exact.append("-" if not x else ("yes" if x.get("mismatches") == 0 and "mismatch" not in x
                                    else f"NO({x.get('mismatches', x.get('mismatch'))})"))
    if exact[0].startswith("NO"):
        failures.append(name)
    tflm_text = f"{tflm:,}" if tflm else "-"
    fmt = lambda k, w, f="{:,}": (f.format(row[k]) if k in row else "-").rjust(w)
    print(f"{name:24} {macs:>10,} {fmt('vmcu cyc', 11)} {fmt('cmsis cyc', 11)} "
          f"{fmt('cyc', 6, '{:.3f}')} {fmt('vmcu sram', 9)} {fmt('cmsis sram', 10)} "
          f"{fmt('sram', 6, '{:.3f}')} {fmt('vmcu flash', 10)} {fmt('cmsis flash', 11)} "
          f"{fmt('flash', 6, '{:.3f}')} {tflm_text:>10} {fmt('vmcu arena', 10)} {fmt('a/tflm', 6, '{:.3f}')} "
          f"{'/'.join(exact):>9}  {'; '.join(note)}")
print()
for key, values in ratios.items():
    if values:
        worst = max(values)
        print(f"{key:7} worst {worst[0]:.3f} ({worst[1]}), median {statistics.median(v for v, _ in values):.3f}"
              f" over {len(values)} models")
for key, target in (("cyc", 0.5), ("sram", 0.75)):
    met = sum(v <= target for v, _ in ratios[key])
    print(f"{key} <= {target} (issue 29's target): {met} of {len(ratios[key])} models")
if not_run:
    print(f"not run in {work}: {len(not_run)} of {len(models)} models (the figures above cover the others)")
above = sorted(n for v, n in ratios["a/tflm"] if v > 1)
print(f"vmcu arena above TFLM's: {len(above)}" + (f": {' '.join(above)}" if above else ""))
print(f"failed (vmcuc error, output mismatch or no result): {len(set(failures))}"
      + (f": {' '.join(sorted(set(failures)))}" if failures else ""))
PY
