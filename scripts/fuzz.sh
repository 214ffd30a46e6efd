#!/usr/bin/env bash
# fuzz.sh - fuzz the .tflite importer with libFuzzer, ASan and UBSan.
#
# Builds build-fuzz/ with clang-22 (VMCU_BUILD_FUZZERS=ON), seeds a corpus
# with every utils/make-tflite.py kind (and ../shared's models when present)
# and runs vmcu-fuzz-tflite for RUNS inputs (default 20000) with a fixed
# seed. Exits non-zero on a crash, a sanitizer report or an imported module
# that does not verify; the reproducer is left in build-fuzz/fuzz/.
#
# usage: scripts/fuzz.sh [RUNS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
RUNS="${1:-20000}"
VMCU_PACKAGES+=(clang-22 libclang-rt-22-dev)
vmcu_install_deps

FUZZ_BUILD="$VMCU_ROOT/build-fuzz"
cmake -G Ninja -S "$VMCU_ROOT" -B "$FUZZ_BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DVMCU_BUILD_FUZZERS=ON -DVMCU_BUILD_UNITTESTS=OFF >/dev/null
ninja -C "$FUZZ_BUILD" vmcu-fuzz-tflite

work="$FUZZ_BUILD/fuzz"
rm -rf "$work" && mkdir -p "$work/corpus"
for kind in conv conv1x1 depthwise depthwise-s2 add head mini-mcunet; do
  /usr/bin/python3 "$VMCU_ROOT/utils/make-tflite.py" --kind "$kind" --seed 1 \
    -o "$work/corpus/$kind.tflite"
done
SHARED="${VMCU_SHARED_DIR:-$VMCU_ROOT/../shared}"
if [ -d "$SHARED/models" ]; then
  cp "$SHARED"/models/*.tflite "$work/corpus/"
fi
cd "$work"
"$FUZZ_BUILD/bin/vmcu-fuzz-tflite" -runs="$RUNS" -seed=1 -max_len=1200000 \
  -rss_limit_mb=4096 -timeout=25 -print_final_stats=1 corpus 2>&1 | tail -20
