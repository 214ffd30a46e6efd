# lib-common.sh - sourced by bench scripts: where the repository and the
# shared folder are, a temporary folder, their --help text and the checks
# of the tools they need.

# ROOT: the repository; SHARED: the shared folder (models, cmsis-anchor),
# VMCU_SHARED_DIR or ../shared beside the repository.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="${VMCU_SHARED_DIR:-$ROOT/../shared}"

# make_tmp: sets $tmp to a temporary folder removed when the script exits.
make_tmp() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# print_usage: the script's header comment (from line 2 to `set -euo`),
# without its "# ".
print_usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

# require_tools BUILD_DIR TOOL...: exit 1 unless every BUILD_DIR/bin/TOOL
# is built.
require_tools() {
  local build=$1 tool
  shift
  for tool in "$@"; do
    [ -x "$build/bin/$tool" ] || { echo "error: $build/bin/$tool not built; run scripts/test.sh first" >&2; exit 1; }
  done
}

# require_models DIR: exit 1 unless DIR (the shared models) exists.
require_models() {
  [ -d "$1" ] || { echo "error: no models in $1 (set VMCU_SHARED_DIR)" >&2; exit 1; }
}

# require_cmsis_anchor ANCHOR: exit 1 unless ANCHOR (cmsis-anchor's
# executable) and the Python modules it imports are there.
require_cmsis_anchor() {
  [ -x "$1" ] || { echo "error: no cmsis-anchor at $1 (set VMCU_SHARED_DIR)" >&2; exit 1; }
  /usr/bin/python3 -c "import elftools, unicorn, capstone" 2> /dev/null || {
    echo "error: cmsis-anchor needs python3-pyelftools python3-unicorn python3-capstone (apt-get install them)" >&2; exit 1; }
}
