#!/usr/bin/env bash
# test.sh - the README's test command: install deps, build, run the unit
# tests and the lit suite; exits non-zero on any failure.
# usage: scripts/test.sh [--sanitize]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# --sanitize: the same suite on a build of the compiler, tools and unit
# tests with ASan and UBSan (clang-22, in build-sanitize/). Any report
# fails the test that triggered it.
if [ "${1:-}" = "--sanitize" ]; then
  VMCU_PACKAGES+=(clang-22 libclang-rt-22-dev)
  BUILD_DIR="${VMCU_BUILD_DIR:-$VMCU_ROOT/build-sanitize}"
  VMCU_CMAKE_ARGS=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
                   -DVMCU_SANITIZE=ON)
  # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons memory from
  # vmcu's instrumented code that Debian's uninstrumented MLIR libraries
  # then use legitimately (a false use-after-poison at every start).
  export ASAN_OPTIONS="detect_leaks=1:allow_user_poisoning=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi

vmcu_install_deps
vmcu_build

# Unit tests run inside lit (test/Unit), so one lit run covers both.
set +e
"$LLVM_PREFIX/bin/lit" -v --xunit-xml-output="$BUILD_DIR/test-results.xml" \
  "$BUILD_DIR/test" "$BUILD_DIR/test/Unit" 2>&1 | tee "$BUILD_DIR/lit.log"
rc=${PIPESTATUS[0]}
set -e

# lit's own totals: they count each GoogleTest case, not each shard.
count() { awk -v k="$1" '$0 ~ "^ *" k " *: *[0-9]" {n += $(NF - 1)} END {print n + 0}' "$BUILD_DIR/lit.log"; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") + $(count "Unexpectedly Passed") ))
unsupported=$(count Unsupported)
echo "vmcu tests: $passed passed, $failed failed ($unsupported unsupported)"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
