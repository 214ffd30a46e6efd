#!/usr/bin/env bash
# flash.sh - the flash-latency trade of --flash-kb on whole int8 networks
# (the shared .tflite models, or the .tflite files given), on the emulated
# Cortex-M4 timed by vmcu-prof's cycle model.
#
# Per model: the plan without any flash budget (--cmsis-flash-percent=0:
# not even the default one, so that the grid starts from the priced plan),
# then budgets at PERCENTS of its
# flash (default 95 90 80 70 60 50), until no plan fits. Per row: the
# budget, the object's flash (code + weights and tables, the header's
# VMCU_FLASH_BYTES), the layers keeping int8 weights, the layers emitted
# compact (rolled loops: budgets that int8 weights alone exceed), cycles
# and MAC/cycle.
# Outputs must be identical across budgets, and a larger flash budget must
# never give more cycles under the same --ram-kb: either is an error
# (exit 1). RAMS gives the --ram-kb budgets of the grid (default 0, the
# smallest plan's arena); the trade-off is drawn into $VMCU_FLASH_SVG
# (default BUILD_DIR/flash-latency.svg): cycles against flash, one line
# per model and --ram-kb.
#
# usage: bench/flash.sh [BUILD_DIR] [MODEL.tflite...]
#        PERCENTS="90 80" RAMS="0 48" bench/flash.sh build
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
shift || true
MODELS_DIR="$SHARED/models"
read -r -a PERCENTS <<< "${PERCENTS:-95 90 80 70 60 50}"
read -r -a RAMS <<< "${RAMS:-0}"
SVG="${VMCU_FLASH_SVG:-$BUILD/flash-latency.svg}"
require_tools "$BUILD" vmcuc vmcu-run vmcu-prof
source "$ROOT/bench/shared-models.sh"
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  [ -d "$MODELS_DIR" ] || { echo "error: no models in $MODELS_DIR (set VMCU_SHARED_DIR or name models)" >&2; exit 1; }
  while IFS='|' read -r file _; do
    [ -n "$file" ] && models+=("$MODELS_DIR/$file")
  done <<< "$SHARED_MODEL_CASES"
fi
make_tmp

printf "%-34s %6s %8s %9s %6s %7s %12s %8s\n" model ram-kb flash-kb flash int8 compact cycles MAC/cyc
: > "$tmp/points.txt"
for model in "${models[@]}"; do
  name=$(basename "$model")
  rm -f "$tmp/first.bin"
  for ram in "${RAMS[@]}"; do
    default_flash=""
    previous_cycles=""
    for percent in 0 "${PERCENTS[@]}"; do
      budget=0
      [ "$percent" = 0 ] || budget=$(( default_flash * percent / 100 / 1024 ))
      if ! "$BUILD/bin/vmcuc" "$model" --cmsis-flash-percent=0 --ram-kb="$ram" --flash-kb="$budget" -o "$tmp/m.o" \
          --header="$tmp/m.h" --report="$tmp/r.json" > /dev/null 2> "$tmp/err"; then
        printf "%-34s %6s %8s  %s\n" "$name" "$ram" "$budget" "$(grep error: "$tmp/err" | head -1)"
        break
      fi
      [ -f "$tmp/first.bin" ] || random_input "$tmp/m.h" "$tmp/in.bin"
      "$BUILD/bin/vmcu-run" "$model" --cmsis-flash-percent=0 --ram-kb="$ram" --flash-kb="$budget" --keep-temps="$tmp/k" \
        --input "$tmp/in.bin" --output "$tmp/out.bin" > /dev/null
      [ -f "$tmp/first.bin" ] || cp "$tmp/out.bin" "$tmp/first.bin"
      cmp -s "$tmp/out.bin" "$tmp/first.bin" ||
        { echo "error: $name: output with --ram-kb=$ram --flash-kb=$budget differs from the first plan's" >&2; exit 1; }
      prof=$("$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --max-instructions=0)
      cycles=$(sed -n 's/.* cycles=\([0-9]*\).*/\1/p' <<< "$prof")
      read -r flash int8 compact macs < <(/usr/bin/python3 - "$tmp/r.json" "$tmp/m.h" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
header = open(sys.argv[2]).read()
flash = int(re.search(r"VMCU_FLASH_BYTES (\d+)u", header).group(1))
assert flash == report["flash_bytes"], "header and report disagree"
print(flash, sum(1 for l in report["layers"] if l.get("int8_weights")),
      sum(1 for l in report["layers"] if l.get("compact")),
      sum(l["macs"] for l in report["layers"]))
PY
)
      [ "$percent" = 0 ] && default_flash=$flash
      printf "%-34s %6s %8s %9s %6s %7s %12s %8.3f\n" "$name" "$ram" "$budget" "$flash" "$int8" "$compact" "$cycles" \
        "$(/usr/bin/python3 -c "print($macs / $cycles)")"
      if [ -n "$previous_cycles" ] && [ "$cycles" -lt "$previous_cycles" ]; then
        echo "error: $name: --ram-kb=$ram --flash-kb=$budget gives fewer cycles ($cycles) than the larger budget before it ($previous_cycles)" >&2
        exit 1
      fi
      previous_cycles=$cycles
      echo "$name $ram $flash $cycles" >> "$tmp/points.txt"
    done
  done
done

/usr/bin/python3 - "$tmp/points.txt" "$SVG" <<'PY'
import collections, sys
lines = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, ram, flash, cycles = line.split()
    lines[(name, ram)].append((int(flash) / 1024, int(cycles) / 1e6))
W, H, M = 640, 400, 60
xs = [p[0] for v in lines.values() for p in v]; ys = [p[1] for v in lines.values() for p in v]
x1, y1 = max(xs) * 1.1, max(ys) * 1.15
sx = lambda x: M + x / x1 * (W - 2 * M)
sy = lambda y: H - M - y / y1 * (H - 2 * M)
colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
       f'<line x1="{M}" y1="{H-M}" x2="{W-M}" y2="{H-M}" stroke="black"/>',
       f'<line x1="{M}" y1="{M}" x2="{M}" y2="{H-M}" stroke="black"/>',
       f'<text x="{W/2}" y="{H-20}" text-anchor="middle">flash (KiB: code, weights, tables)</text>',
       f'<text x="15" y="{H/2}" transform="rotate(-90 15 {H/2})" text-anchor="middle">Cortex-M4 cycles (M, vmcu-prof)</text>']
for k in range(5):
    x, y = x1 * k / 4, y1 * k / 4
    out.append(f'<text x="{sx(x):.0f}" y="{H-M+15}" text-anchor="middle">{x:.0f}</text>')
    out.append(f'<text x="{M-5}" y="{sy(y)+4:.0f}" text-anchor="end">{y:.1f}</text>')
for i, ((name, ram), pts) in enumerate(sorted(lines.items())):
    c = colors[i % len(colors)]
    pts.sort()
    out.append('<polyline fill="none" stroke="%s" points="%s"/>' % (c, " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)))
    out += [f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{c}"/>' for x, y in pts]
    out.append(f'<text x="{W-M-5}" y="{M+15*i}" text-anchor="end" fill="{c}">{name} ram-kb={ram}</text>')
out.append('</svg>')
open(sys.argv[2], 'w').write("\n".join(out) + "\n")
print(f"flash-latency trade-off: {sys.argv[2]}")
PY
