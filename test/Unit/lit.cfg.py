# -*- Python -*-
# Runs every GoogleTest executable under build/unittests as lit tests.

import os

import lit.formats

config.name = "VMCU-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.vmcu_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# scripts/test.sh --sanitize sets these for the sanitizer build.
for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
