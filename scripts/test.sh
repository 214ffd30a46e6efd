#!/usr/bin/env bash
# test.sh - the README's test command: install deps, build, run the unit
# tests and the lit suite; exits non-zero on any failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

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
