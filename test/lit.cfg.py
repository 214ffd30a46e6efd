# -*- Python -*-
# lit configuration for the vmcu regression tests.

import os
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

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.vmcu_tools_dir, config.llvm_tools_dir]
tools = ["vmcu-opt", "mlir-opt", "mlir-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Optional features for heavy or environment-dependent tests.
if shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc"):
    config.available_features.add("qemu")
if os.path.isdir(os.path.join(config.vmcu_src_root, "..", "shared", "models")):
    config.available_features.add("shared-models")
if os.environ.get("VMCU_INSTALL_TEST") != "0":
    config.available_features.add("install")
