#!/usr/bin/env bash
# compare-builds.sh - the code vmcuc emits must not depend on the C++
# compiler that built vmcuc: compiles the same models with two builds
# (default: build/, gcc, and build-sanitize/, clang-22 with ASan and UBSan)
# and compares their LLVM IR byte for byte. The models: the generated
# MCUNet-style chain (one and two cores), a residual bottleneck, a corpus
# MobileNetV2, ResNet, concatenation, FC autoencoder and DS-CNN (average pool)
# (utils/make-tflite.py), and the shared models when ../shared/models
# exists.
# usage: scripts/compare-builds.sh [BUILD_A] [BUILD_B]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
A="${1:-$ROOT/build}"
B="${2:-$ROOT/build-sanitize}"
# The compilers run from a scratch directory: make relative build paths absolute.
A="$(cd "$A" && pwd)"
B="$(cd "$B" && pwd)"
for build in "$A" "$B"; do
  for tool in vmcuc vmcu-gen; do
    [ -x "$build/bin/$tool" ] || { echo "error: $build/bin/$tool not built" >&2; exit 1; }
  done
done
# The sanitizer build reports leaks and UB as errors, as in scripts/test.sh.
export ASAN_OPTIONS="detect_leaks=1:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$A/bin/vmcu-gen" --kind=mcunet-vww-chain --seed=1 -o "$tmp/chain.mlir"
"$A/bin/vmcu-gen" --kind=bottleneck --h=8 --w=8 --cin=8 --cmid=24 --cout=8 \
  --residual --seed=2 -o "$tmp/residual.mlir"
/usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind corpus-mobilenet-v2 --seed 3 -o "$tmp/mobilenet-v2.tflite"
/usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind corpus-resnet --seed 4 -o "$tmp/resnet.tflite"
/usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind corpus-concat-branches --seed 5 -o "$tmp/concat.tflite"
/usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind corpus-fc-autoencoder --seed 6 -o "$tmp/autoencoder.tflite"
/usr/bin/python3 "$ROOT/utils/make-tflite.py" --kind corpus-dscnn --seed 1 -o "$tmp/dscnn.tflite"
cases=("chain.mlir" "chain.mlir --cores=2 --cpu=cortex-m33" "residual.mlir"
       "mobilenet-v2.tflite" "resnet.tflite" "concat.tflite" "autoencoder.tflite"
       "dscnn.tflite")
models="${VMCU_SHARED_DIR:-$ROOT/../shared}/models"
if [ -d "$models" ]; then
  for m in "$models"/*.tflite; do
    cp "$m" "$tmp/"
    cases+=("$(basename "$m")")
  done
  cases+=("mlperf-tiny-kws-dscnn-int8.tflite --cores=2 --cpu=cortex-m33")
fi

differ=0
for c in "${cases[@]}"; do
  read -r -a args <<<"$c"
  for side in A B; do
    build=$A; [ $side = B ] && build=$B
    (cd "$tmp" && "$build/bin/vmcuc" "${args[@]}" --emit=llvm -o "out.$side.ll" >/dev/null)
  done
  if cmp -s "$tmp/out.A.ll" "$tmp/out.B.ll"; then
    echo "same:   $c ($(wc -c <"$tmp/out.A.ll") bytes of LLVM IR)"
  else
    echo "DIFFER: $c"
    diff "$tmp/out.A.ll" "$tmp/out.B.ll" | cut -c1-160 | head -20 || true
    differ=$((differ + 1))
  fi
done
echo "compare-builds: ${#cases[@]} models, $differ differ between $(basename "$A") and $(basename "$B")"
[ "$differ" -eq 0 ]
