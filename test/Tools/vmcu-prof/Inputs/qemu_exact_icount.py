#!/usr/bin/env python3
"""Counts the instructions a vmcu ELF executes in vmcu_invoke() on QEMU,
exactly, for comparison with vmcu-prof.

vmcu-run --icount gives QEMU's virtual-time figure, which has a resolution
of 40 instructions. This instead runs QEMU (mps2-an386) with one guest
instruction per translation block and logs every block it executes
(-d exec,nochain), so each log line is one executed instruction, including
the IT-block instructions whose condition fails. The stack-painting and
stack-scanning loops of the runtime (millions of instructions) are left
out of the log with -dfilter. Counted: the lines from the first entry to
vmcu_invoke up to the return into main (vmcu_invoke never calls main).

usage: qemu_exact_icount.py MODEL.ELF INPUT.BIN WORK_PREFIX
prints: qemu-trace: instructions=N
"""
import os
import re
import shutil
import subprocess
import sys

# The runtime's loops over all of RAM (runtime/startup.c, vmcu_runtime.c).
UNLOGGED = {"Reset_Handler", "vmcu_rt_stack_high_water",
            "vmcu_rt_stack_overflowed"}


def functions(elf):
    """name -> (address, size) of the ELF's sized function symbols."""
    nm = shutil.which("llvm-nm") or "arm-none-eabi-nm"
    out = subprocess.run([nm, "--print-size", "--defined-only", elf],
                         check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "Tt":
            result[fields[3]] = (int(fields[0], 16) & ~1, int(fields[1], 16))
    return result


def one_insn_per_tb_flags(qemu):
    version = subprocess.run([qemu, "--version"], check=True,
                             capture_output=True, text=True).stdout
    major, minor = map(int, re.search(r"version (\d+)\.(\d+)", version).groups())
    # -singlestep became -accel tcg,one-insn-per-tb=on in QEMU 8.1.
    if (major, minor) >= (8, 1):
        return ["-accel", "tcg,one-insn-per-tb=on"]
    return ["-singlestep"]


def main():
    elf, input_bin, prefix = sys.argv[1:4]
    funcs = functions(elf)
    invoke = funcs["vmcu_invoke"][0]
    main_lo, main_size = funcs["main"]
    ranges = ",".join("0x%x+0x%x" % (addr, size)
                      for name, (addr, size) in sorted(funcs.items())
                      if name not in UNLOGGED and size)
    qemu = shutil.which("qemu-system-arm")
    log = prefix + ".exec.log"
    cmd = [qemu, "-M", "mps2-an386", "-nographic", "-monitor", "none",
           "-serial", "none", "-semihosting-config", "enable=on,target=native"]
    cmd += one_insn_per_tb_flags(qemu)
    cmd += ["-d", "exec,nochain", "-dfilter", ranges, "-D", log,
            "-kernel", elf, "-append",
            "%s %s" % (os.path.abspath(input_bin),
                       os.path.abspath(prefix + ".out"))]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    # "Trace 0: 0x7f... [00800408/00000100/00000110/ff000201] Reset_Handler"
    trace = re.compile(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
    count, inside = 0, False
    with open(log) as f:
        for line in f:
            m = trace.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if not inside and pc == invoke:
                inside = True
            elif inside and main_lo <= pc < main_lo + main_size:
                inside = False
            if inside:
                count += 1
    os.remove(log)
    if count == 0:
        sys.exit("error: no instruction of vmcu_invoke in the trace")
    print("qemu-trace: instructions=%d" % count)


if __name__ == "__main__":
    main()
