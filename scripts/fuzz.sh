#!/usr/bin/env bash
# fuzz.sh - fuzz the .tflite importer and vmcuc's pipeline with libFuzzer,
# ASan and UBSan.
#
# Builds build-fuzz/ with clang-22 (VMCU_BUILD_FUZZERS=ON) and runs:
#   vmcu-fuzz-tflite   the .tflite importer, on a corpus of every
#                      utils/make-tflite.py kind (and ../shared's models);
#   vmcu-fuzz-compile  parse + the whole pipeline to the LLVM dialect (static
#                      ring verifier on), on small TOSA models from vmcu-gen.
# Each runs RUNS inputs (default 20000) or, with --time=SECONDS, for that
# long, with a fixed seed. Exits non-zero on a crash, a sanitizer report or a
# module that does not verify; the reproducer is left in build-fuzz/fuzz-*/.
#
# usage: scripts/fuzz.sh [--time=SECONDS] [--target=tflite|compile|all] [RUNS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
TIME="" TARGET=all RUNS=20000
for arg in "$@"; do
  case "$arg" in
    --time=*) TIME="${arg#--time=}" ;;
    --target=*) TARGET="${arg#--target=}" ;;
    *) RUNS="$arg" ;;
  esac
done
case "$TARGET" in tflite|compile|all) ;; *) echo "error: --target must be tflite, compile or all" >&2; exit 2 ;; esac
VMCU_PACKAGES+=(clang-22 libclang-rt-22-dev)
vmcu_install_deps

# As scripts/test.sh --sanitize: LLVM's BumpPtrAllocator poisons memory from
# instrumented code that Debian's uninstrumented MLIR then reads (a false
# use-after-poison).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0}"
FUZZ_BUILD="$VMCU_ROOT/build-fuzz"
cmake -G Ninja -S "$VMCU_ROOT" -B "$FUZZ_BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DVMCU_BUILD_FUZZERS=ON -DVMCU_BUILD_UNITTESTS=OFF >/dev/null
ninja -C "$FUZZ_BUILD" vmcu-fuzz-tflite vmcu-fuzz-compile vmcu-gen

# run_fuzzer NAME CORPUS_DIR MAX_LEN: libFuzzer for RUNS inputs or TIME s.
run_fuzzer() {
  local name="$1" corpus="$2" max_len="$3" budget
  if [ -n "$TIME" ]; then budget="-max_total_time=$TIME"; else budget="-runs=$RUNS"; fi
  echo "== $name ($budget)"
  (cd "$(dirname "$corpus")" && "$FUZZ_BUILD/bin/$name" "$budget" -seed=1 \
     -max_len="$max_len" -rss_limit_mb=4096 -timeout=25 -print_final_stats=1 \
     "$corpus" 2>&1 | tail -20)
}

if [ "$TARGET" != compile ]; then
  work="$FUZZ_BUILD/fuzz-tflite"
  rm -rf "$work" && mkdir -p "$work/corpus"
  for kind in conv conv1x1 depthwise depthwise-s2 add head mini-mcunet maxpool activations leaky-relu \
      logistic-tanh hard-swish mean mean-requant mean-head depthwise-mult dilated \
      grouped scalar-ops channel-mul squeeze float-edges softmax classifier \
      inception concat-axes slices two-heads batched nchw broadcast-ops broadcasts \
      resize resize-tie resize-odd stems; do
    /usr/bin/python3 "$VMCU_ROOT/utils/make-tflite.py" --kind "$kind" --seed 1 \
      -o "$work/corpus/$kind.tflite"
  done
  SHARED="${VMCU_SHARED_DIR:-$VMCU_ROOT/../shared}"
  if [ -d "$SHARED/models" ]; then
    cp "$SHARED"/models/*.tflite "$work/corpus/"
  fi
  run_fuzzer vmcu-fuzz-tflite "$work/corpus" 1200000
fi

if [ "$TARGET" != tflite ]; then
  work="$FUZZ_BUILD/fuzz-compile"
  rm -rf "$work" && mkdir -p "$work/corpus"
  gen="$FUZZ_BUILD/bin/vmcu-gen"
  # Small models of every kind, so one input compiles in milliseconds.
  "$gen" --kind=conv --h=4 --w=4 --cin=8 --cout=8 -o "$work/corpus/conv.mlir"
  "$gen" --kind=conv --h=5 --w=5 --cin=3 --cout=8 --kernel=3 --stride=2 -o "$work/corpus/stem.mlir"
  "$gen" --kind=depthwise --h=4 --w=4 --c=8 --kernel=3 -o "$work/corpus/dw.mlir"
  "$gen" --kind=fc --m=1 --k=16 --n=8 -o "$work/corpus/fc.mlir"
  "$gen" --kind=add --h=2 --w=2 --c=8 -o "$work/corpus/add.mlir"
  "$gen" --kind=avgpool --h=4 --w=4 --c=8 --kernel=2 --stride=2 -o "$work/corpus/pool.mlir"
  "$gen" --kind=bottleneck --h=4 --w=4 --cin=8 --cmid=16 --cout=8 --kernel=3 --residual -o "$work/corpus/block.mlir"
  "$gen" --kind=concat --h=4 --w=4 --cin=8 --cmid=8 --cout=8 -o "$work/corpus/concat.mlir"
  "$gen" --kind=resize --h=3 --w=3 --c=8 -o "$work/corpus/resize.mlir"
  # Stem bottlenecks (KxK conv, depthwise, 1x1), imported from make-tflite.
  /usr/bin/python3 "$VMCU_ROOT/utils/make-tflite.py" --kind stems --seed 1 -o "$work/stems.tflite"
  "$gen" --model="$work/stems.tflite" -o "$work/corpus/stems.mlir"
  run_fuzzer vmcu-fuzz-compile "$work/corpus" 65536
fi
