#!/usr/bin/env bash
# models.sh - speed and SRAM of whole real int8 networks (the .tflite models
# in ../shared/models, or $VMCU_SHARED_DIR/models), compiled by vmcuc with
# the default SRAM budget (no --ram-kb; the default flash budget applies)
# and a few --ram-kb budgets, run by vmcu-run on the
# emulated Cortex-M4 (outputs checked identical across budgets) and timed
# by vmcu-prof's Cortex-M4 cycle model.
#
# Per model and budget: estimated cycles, MACs per cycle, the arena (pool,
# line-buffer workspaces included), the largest line-buffer workspace inside
# it, the stack high-water mark measured on the board, total SRAM (arena +
# stack), what a TinyEngine-style tensor-level planner needs for the same
# graph, flash, and the schedules chosen (fused bottlenecks recomputing,
# with a line buffer, or separate layers). Every model runs whole (the
# MLPerf Tiny models' SOFTMAX included). At the first budget, the model
# also runs with --cores=2 on the Cortex-M33 pair (vmcu-run, vmcu-prof
# --cores=2 with its default bus contention): the 2-core column is that
# makespan over the row's one-core cycles (both on the M4 timing table),
# and its output must equal the one-core output. The cycles@Nws column is the same
# ELF's cycles on flash with $VMCU_FLASH_WAIT_STATES wait states (default 5:
# an STM32F4 at 168 MHz, RM0090 Table 10) behind its ART accelerator
# (vmcu-prof --flash-wait-states; docs/tools/vmcu-prof.md).
#
# The RAM-latency curve (total SRAM against cycles, one line per model) is
# drawn into $VMCU_CURVE_SVG (default BUILD_DIR/ram-latency.svg).
#
# usage: bench/models.sh [BUILD_DIR] [BUDGETS_KIB...]   (default: 0 32 48 64)
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
shift || true
BUDGETS=("${@:-0 32 48 64}")
read -r -a BUDGETS <<< "${BUDGETS[*]}"
MODELS="$SHARED/models"
CURVE="${VMCU_CURVE_SVG:-$BUILD/ram-latency.svg}"
WAIT_STATES="${VMCU_FLASH_WAIT_STATES:-5}"
require_tools "$BUILD" vmcuc vmcu-run vmcu-prof
require_models "$MODELS"
make_tmp
source "$ROOT/bench/shared-models.sh"

field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$2"; }
summary() {
  /usr/bin/python3 - "$@" <<'PY'
import collections, json, sys
report = json.load(open(sys.argv[1]))
cycles, stack, two, ws = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
layers = report["layers"]
macs = sum(l["macs"] for l in layers)
kinds = collections.Counter(l["schedule"] for l in layers if l["schedule"].startswith("fused"))
separate = sum(1 for l in layers if l["op"] != "bottleneck")
arena = report["peak_ram_bytes"]
print(f"{cycles:>12} {ws:>12} {macs / cycles:8.3f} {arena:7} {max(l['workspace_bytes'] for l in layers):9}"
      f" {stack:6} {arena + stack:7} {report['tensor_level_bytes']:12} {report['flash_bytes']:8} {two:>6}"
      f"  recompute={kinds['fused-recompute']} line-buffer={kinds['fused-line-buffer']}"
      f" stem={kinds['fused-stem']} layers={separate}")
PY
}

printf "%-34s %6s %12s %12s %8s %7s %9s %6s %7s %12s %8s %6s  %s\n" model ram-kb cycles \
  "cycles@${WAIT_STATES}ws" MAC/cyc arena workspace stack sram tensor_level flash 2-core schedules
: > "$tmp/curve.txt"
while IFS='|' read -r file output; do
  [ -n "$file" ] || continue
  for budget in "${BUDGETS[@]}"; do
    args=("$MODELS/$file" --ram-kb="$budget")
    [ -n "$output" ] && args+=(--tflite-output="$output")
    if ! "$BUILD/bin/vmcuc" "${args[@]}" -o "$tmp/m.o" --header="$tmp/m.h" \
        --report="$tmp/r.json" > /dev/null 2> "$tmp/err"; then
      printf "%-34s %6s  %s\n" "$file" "$budget" "$(head -1 "$tmp/err")"
      continue
    fi
    random_input "$tmp/m.h" "$tmp/in.bin"
    line=$("$BUILD/bin/vmcu-run" "${args[@]}" --keep-temps="$tmp/k" --input "$tmp/in.bin" --output "$tmp/out.bin")
    [ "$budget" = "${BUDGETS[0]}" ] && cp "$tmp/out.bin" "$tmp/first.bin"
    cmp -s "$tmp/out.bin" "$tmp/first.bin" ||
      { echo "error: $file: output with --ram-kb=$budget differs from --ram-kb=${BUDGETS[0]}" >&2; exit 1; }
    prof=$("$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --max-instructions=0)
    cycles=$(field cycles "$prof"); stack=$(field stack "$line")
    prof_ws=$("$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --max-instructions=0 --flash-wait-states="$WAIT_STATES")
    two=-
    if [ "$budget" = "${BUDGETS[0]}" ]; then
      two_line=$("$BUILD/bin/vmcu-run" "${args[@]}" --cores=2 --cpu=cortex-m33 --input "$tmp/in.bin" --output "$tmp/two.bin")
      cmp -s "$tmp/two.bin" "$tmp/out.bin" ||
        { echo "error: $file: the --cores=2 output differs from one core's" >&2; exit 1; }
      two=$(/usr/bin/python3 -c "print(f'{$(field makespan "$two_line") / $cycles:.3f}')")
    fi
    printf "%-34s %6s %s\n" "$file" "$budget" "$(summary "$tmp/r.json" "$cycles" "$stack" "$two" "$(field cycles "$prof_ws")")"
    echo "$file $(( $(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/r.json'))['peak_ram_bytes'])") + stack )) $cycles" >> "$tmp/curve.txt"
  done
done <<< "$SHARED_MODEL_CASES"

/usr/bin/python3 - "$tmp/curve.txt" "$CURVE" <<'PY'
import collections, sys
points = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, sram, cycles = line.split()
    points[name].append((int(sram) / 1024, int(cycles) / 1e6))
W, H, M = 640, 400, 60
xs = [p[0] for v in points.values() for p in v]; ys = [p[1] for v in points.values() for p in v]
x0, x1, y1 = 0, max(xs) * 1.1, max(ys) * 1.15
sx = lambda x: M + (x - x0) / (x1 - x0) * (W - 2 * M)
sy = lambda y: H - M - y / y1 * (H - 2 * M)
colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<line x1="{M}" y1="{H-M}" x2="{W-M}" y2="{H-M}" stroke="black"/>',
       f'<line x1="{M}" y1="{M}" x2="{M}" y2="{H-M}" stroke="black"/>',
       f'<text x="{W/2}" y="{H-20}" text-anchor="middle">total SRAM (arena + stack), KiB</text>',
       f'<text x="15" y="{H/2}" transform="rotate(-90 15 {H/2})" text-anchor="middle">Cortex-M4 cycles (M, vmcu-prof)</text>']
for i in range(6):
    x = x1 * i / 5; y = y1 * i / 5
    out.append(f'<text x="{sx(x):.0f}" y="{H-M+15}" text-anchor="middle">{x:.0f}</text>')
    out.append(f'<text x="{M-5}" y="{sy(y)+4:.0f}" text-anchor="end">{y:.0f}</text>')
for i, (name, pts) in enumerate(sorted(points.items())):
    pts = sorted(set(pts)); c = colors[i % len(colors)]
    out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="' +
               " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts) + '"/>')
    out += [f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{c}"/>' for x, y in pts]
    out.append(f'<text x="{W-M}" y="{M + 15*i}" text-anchor="end" fill="{c}">{name.replace(".tflite", "")}</text>')
out.append("</svg>")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print(f"RAM-latency curve: {sys.argv[2]}")
PY
