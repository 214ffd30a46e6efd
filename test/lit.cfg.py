# -*- Python -*-
# lit configuration for the vmcu regression tests.

import os
import subprocess
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "VMCU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.vmcu_obj_root, "test")
# Unit/ has its own config; Inputs/ holds files tests read.
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%vmcu_src", config.vmcu_src_root))
config.substitutions.append(("%vmcu_obj", config.vmcu_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.vmcu_tools_dir, config.llvm_tools_dir]
tools = ["vmcu-opt", "vmcuc", "vmcu-gen", "vmcu-run", "vmcu-translate", "mlir-opt", "mlir-runner", "mlir-translate",
         "llc", "llvm-objdump"]
# vmcu-prof is built only where unicorn and capstone are (tools/vmcu-prof).
if config.vmcu_prof_enabled.upper() in ("ON", "TRUE", "1"):
    config.available_features.add("vmcu-prof")
    tools.append("vmcu-prof")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Optional features for heavy or environment-dependent tests.
# `sanitize`: the tools are built with ASan and UBSan (scripts/test.sh
# --sanitize); their static libraries cannot be linked into uninstrumented
# programs such as the embedding example.
if config.vmcu_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
arm_cc = shutil.which("arm-none-eabi-gcc")
qemu = shutil.which("qemu-system-arm")
if arm_cc and qemu:
    config.available_features.add("qemu")
config.substitutions.append(("%arm_cc", arm_cc or "arm-none-eabi-gcc"))
# The host C compiler, for host-side reference programs.
host_cc = shutil.which("cc")
if host_cc:
    config.available_features.add("host-cc")
config.substitutions.append(("%host_cc", host_cc or "cc"))
# A host clang, for tests that compile generated C with both compilers.
host_clang = shutil.which("clang") or shutil.which("clang-22")
if host_clang:
    config.available_features.add("host-clang")
config.substitutions.append(("%host_clang", host_clang or "clang"))
config.substitutions.append(
    ("%runtime_dir", os.path.join(config.vmcu_src_root, "runtime")))
# Semihosting gives the guest stdout (on qemu's stderr) and the exit code.
qemu_flags = ("-nographic -monitor none -serial none "
              "-semihosting-config enable=on,target=native")
qemu_timeout_s = 120
for name, board in (("%qemu_m4", "mps2-an386"), ("%qemu_m7", "mps2-an500"),
                    ("%qemu_m33x2", "mps2-an521")):
    config.substitutions.append(
        (name, "timeout %d %s -M %s %s" % (qemu_timeout_s, qemu or "qemu-system-arm",
                                           board, qemu_flags)))
# The real .tflite models (../shared, or $VMCU_SHARED_DIR); tests skip
# without them.
shared_dir = os.environ.get("VMCU_SHARED_DIR",
                            os.path.join(config.vmcu_src_root, "..", "shared"))
config.substitutions.append(("%shared_dir", shared_dir))
if os.path.isdir(os.path.join(shared_dir, "models")):
    config.available_features.add("shared-models")
if os.path.isdir(os.path.join(shared_dir, "cmsis-vectors", "cases")):
    config.available_features.add("cmsis-vectors")
# Debian's python modules import only with /usr/bin/python3.
def debian_python_has(modules):
    code = "import " + ", ".join(modules)
    return subprocess.run(["/usr/bin/python3", "-c", code],
                          capture_output=True).returncode == 0
# utils/make-tflite.py and utils/tflite_numpy_ref.py (python3-flatbuffers,
# python3-numpy).
if debian_python_has(["flatbuffers", "numpy"]):
    config.available_features.add("tflite-tools")
# Arm NN's CpuRef backend, the .tflite reference (python3-pyarmnn).
if debian_python_has(["pyarmnn"]):
    config.available_features.add("armnn")
# The host reference oracle (upstream MLIR's own TOSA lowering):
# utils/tosa-ref.sh with this suite's mlir-opt and mlir-runner.
llvm_prefix = os.path.dirname(os.path.normpath(config.llvm_tools_dir))
config.substitutions.append(
    ("%tosa_ref", "env VMCU_LLVM_PREFIX=%s bash %s" % (
        llvm_prefix, os.path.join(config.vmcu_src_root, "utils",
                                  "tosa-ref.sh"))))
if os.path.exists(os.path.join(shared_dir, "tools", "tflite_ref.py")):
    config.available_features.add("shared-tools")
# `corpus-full`: the whole generality corpus (utils/corpus.py, 42 models,
# 10-30 minutes) end to end; VMCU_CORPUS_FULL=1 enables it. Its CI
# subset (test/E2E/corpus.test) always runs.
if os.environ.get("VMCU_CORPUS_FULL") == "1":
    config.available_features.add("corpus-full")
if os.environ.get("VMCU_INSTALL_TEST") != "0":
    config.available_features.add("install")
