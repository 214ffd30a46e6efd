#!/usr/bin/env python3
"""Checks that vmcuc, vmcu-run and the vmcu-tosa-to-llvm pipeline offer the
same compile options with the same help (CompileFlags declares them once).

  compare_option_help.py VMCUC_HELP VMCU_RUN_HELP VMCU_OPT_HELP

Each file is a tool's --help output. Prints, for each option the pipeline
offers, whether both tools offer it with the same description and values,
then `N shared options, M differ`.
"""
import re
import sys

OPTION = re.compile(r"^\s*--([a-z0-9-]+)(?:=<[^>]*>)?\s+- (.*)$")
VALUE = re.compile(r"^\s*=([a-z0-9-]+)\s+-\s+(.*)$")


def options(lines):
    """{name: (description, [(value, help)])} of consecutive option lines."""
    found, current = {}, None
    for line in lines:
        if m := OPTION.match(line):
            current = m.group(1)
            found[current] = (m.group(2).strip(), [])
        elif (m := VALUE.match(line)) and current:
            found[current][1].append((m.group(1), m.group(2).strip()))
    return found


def pipeline_block(lines):
    """The option lines under --vmcu-tosa-to-llvm in vmcu-opt --help."""
    start = next(i for i, l in enumerate(lines) if "--vmcu-tosa-to-llvm " in l)
    indent = len(lines[start]) - len(lines[start].lstrip())
    block = []
    for line in lines[start + 1:]:
        stripped = line.lstrip()
        if stripped.startswith("--") and len(line) - len(stripped) <= indent:
            break
        block.append(line)
    return block


def main():
    vmcuc, run, opt = (open(f).read().splitlines() for f in sys.argv[1:4])
    pipeline = options(pipeline_block(opt))
    tools = {"vmcuc": options(vmcuc), "vmcu-run": options(run)}
    # The pipeline's own I/O options, which the tools name after their files.
    pipeline_only = {"from", "memory-report", "memory-svg"}
    differ = 0
    shared = sorted(set(pipeline) - pipeline_only)
    for name in shared:
        for tool, offered in tools.items():
            if offered.get(name) != pipeline[name]:
                differ += 1
                print(f"{name}: {tool} differs: {offered.get(name)} vs {pipeline[name]}")
        print(f"{name}: same in vmcuc, vmcu-run and vmcu-tosa-to-llvm")
    print(f"{len(shared)} shared options, {differ} differ")


if __name__ == "__main__":
    main()
