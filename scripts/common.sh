#!/usr/bin/env bash
# common.sh - shared by test.sh and demo.sh: install what is missing,
# configure and build vmcu into build/ with Ninja.
set -euo pipefail

VMCU_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM_PREFIX=/usr/lib/llvm-22
BUILD_DIR="${VMCU_BUILD_DIR:-$VMCU_ROOT/build}"

# Debian 12 packages the build and the tests need.
VMCU_PACKAGES=(
  cmake ninja-build g++ libgtest-dev
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
  # tools/vmcu-prof, the cycle-approximate profiler (optional in CMake).
  libunicorn-dev libcapstone-dev
  # .tflite test models and references (utils/make-tflite.py,
  # utils/tflite_numpy_ref.py, Arm NN's CpuRef backend).
  python3-flatbuffers python3-numpy python3-pyarmnn libarmnn-cpuref-backend22
)

vmcu_install_deps() {
  local missing=()
  for p in "${VMCU_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "vmcu: installing missing packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: packages missing and not root; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

vmcu_build() {
  cmake -G Ninja -S "$VMCU_ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_INSTALL_PREFIX="$BUILD_DIR/install" \
    ${VMCU_CMAKE_ARGS[@]+"${VMCU_CMAKE_ARGS[@]}"} >/dev/null
  ninja -C "$BUILD_DIR" "$@"
}
