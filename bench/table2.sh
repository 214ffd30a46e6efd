#!/usr/bin/env bash
# table2.sh - memory of the inverted bottlenecks of the vMCU paper's Table 2,
# measured by running vmcu on generated modules (vmcu-gen, seeded).
#
# For each module: vmcu's arena (vmcu-solve-offsets' peak_ram_bytes, in the
# traversal order vmcu-choose-traversal picks: row-major or reverse), what a
# tensor-level planner needs (TinyEngine-style, in-place depthwise), the
# lower bound max(in, out), the paper's accounting
# max(in, out) + (R*R + 2) * min(Cin, Cout), and any_order_lb: a lower bound
# on the input/output bytes alone (no workspace) that holds for every order
# in which the outputs are computed (docs/offset-solver.md, "Is the halo
# inherent?"). Where the paper's accounting is below any_order_lb, no
# traversal order fits in it.
#
# usage: bench/table2.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
GEN="$BUILD/bin/vmcu-gen"
OPT="$BUILD/bin/vmcu-opt"
require_tools "$BUILD" vmcu-gen vmcu-opt
make_tmp

# name H Cin Cmid Cout R s1,s2,s3 (paper Table 2)
MODULES="
S1 20 16 48 16 3 1,1,1
S2 20 16 48 16 3 1,1,1
S3 10 24 144 16 3 1,1,1
S4 10 24 120 24 3 1,1,1
S5 5 40 240 40 3 1,1,1
S6 5 48 192 48 3 1,1,1
S7 3 96 480 96 3 1,1,1
S8 3 96 384 96 3 1,1,1
B1 176 3 16 8 3 2,1,1
B2 88 8 24 16 7 1,2,1
B3 44 16 80 16 3 1,1,1
B4 44 16 80 16 7 1,1,1
B5 44 16 64 24 5 1,1,1
B6 44 16 80 24 5 1,2,1
B7 22 24 120 24 5 1,1,1
B8 22 24 120 24 5 1,1,1
B9 22 24 120 40 3 1,2,1
B10 11 40 240 40 7 1,1,1
B11 11 40 160 40 5 1,1,1
B12 11 40 200 48 7 1,2,1
B13 11 48 240 48 7 1,1,1
B14 11 48 240 48 3 1,1,1
B15 11 48 288 96 3 1,2,1
B16 6 96 480 96 7 1,1,1
"

# any_order_lb mirrors anyOrderLowerBound (test/lib/TestAnalysis/ScheduleBound.h,
# checked on these shapes by ScheduleBoundTest.Table2Modules). The fused
# module with strides 1,1,1 is one RxR window, pad p = R/2, from A to E.
# When R is odd and Cin == Cout == C on the H x H grid the bound is
# C * (H*H + excess) with excess = min(p, H-1) * H, or H + 1 for p == 1 and
# H >= 2; otherwise it is max(in, out) (lb).
any_order_lb() { # H Cin Cout R strides lb
  local h=$1 cin=$2 cout=$3 r=$4 strides=$5 lb=$6 p excess halo
  p=$(( r / 2 ))
  if [ "$strides" != "1,1,1" ] || [ "$cin" != "$cout" ] || [ $(( r % 2 )) -ne 1 ] \
      || [ "$p" -lt 1 ]; then
    echo "$lb"; return
  fi
  excess=$(( (p < h - 1 ? p : h - 1) * h ))
  [ "$p" -eq 1 ] && [ "$h" -ge 2 ] && excess=$(( h + 1 ))
  halo=$(( cin * (h * h + excess) ))
  echo $(( halo > lb ? halo : lb ))
}

json() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

printf "%-4s %5s %4s %4s %4s %2s %-6s %10s %12s %12s %12s %12s %8s\n" \
  module H Cin Cmid Cout R strides vmcu_bytes tensor_level lower_bound paper_acct any_order_lb vs_TL
: > "$tmp/verdicts"
while read -r name h cin cmid cout r strides; do
  [ -n "$name" ] || continue
  residual=""
  [ "$cin" = "$cout" ] && [ "$strides" = "1,1,1" ] && residual="--residual"
  model="$tmp/$name.mlir"
  if ! "$GEN" --kind=bottleneck --h="$h" --w="$h" --cin="$cin" --cmid="$cmid" \
      --cout="$cout" --kernel="$r" --strides="$strides" $residual --seed=1 \
      -o "$model" 2> "$tmp/gen.err"; then
    printf "%-4s %5s %4s %4s %4s %2s %-6s  not generated: %s\n" "$name" "$h" "$cin" \
      "$cmid" "$cout" "$r" "$strides" "$(head -1 "$tmp/gen.err")"
    continue
  fi
  if ! "$OPT" "$model" --convert-tosa-to-vmcu --vmcu-fuse-bottleneck --vmcu-choose-traversal --vmcu-tile \
      --vmcu-solve-offsets="memory-report=$tmp/$name.json" -o /dev/null 2> "$tmp/opt.err"; then
    printf "%-4s  vmcu failed: %s\n" "$name" "$(grep -m1 error "$tmp/opt.err")"
    continue
  fi
  arena=$(json "$tmp/$name.json" peak_ram_bytes)
  tl=$(json "$tmp/$name.json" tensor_level_bytes)
  lb=$(json "$tmp/$name.json" lower_bound_bytes)
  minc=$(( cin < cout ? cin : cout ))
  paper=$(( lb + (r * r + 2) * minc ))
  anylb=$(any_order_lb "$h" "$cin" "$cout" "$r" "$strides" "$lb")
  ratio=$(/usr/bin/python3 -c "print(f'{$arena/$tl:.2f}x')")
  printf "%-4s %5s %4s %4s %4s %2s %-6s %10s %12s %12s %12s %12s %8s\n" \
    "$name" "$h" "$cin" "$cmid" "$cout" "$r" "$strides" "$arena" "$tl" "$lb" "$paper" "$anylb" "$ratio"
  if [ "$paper" -lt "$anylb" ]; then
    echo "$name: the paper's accounting is below the bound for every traversal order" >> "$tmp/verdicts"
  fi
done <<< "$MODULES"
if [ -s "$tmp/verdicts" ]; then
  echo
  cat "$tmp/verdicts"
fi
