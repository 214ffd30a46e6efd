"""Runs a tool on seeded mutations of a model and counts the outcomes, for
the robustness tests (test/Target/TFLite, test/Tools/vmcuc).

The tool must either succeed or print `error:` and exit 1; a signal or any
other exit code is a crash.
"""
import subprocess

ERROR = "error: "


def run_mutations(count, write, command, timeout):
    """For each i < count, writes mutation i (write(i) returns its path) and
    runs command(path, i). Prints each crash; returns (succeeded, errors,
    crashes)."""
    succeeded = errors = crashes = 0
    for i in range(count):
        path = write(i)
        run = subprocess.run(command(path, i), capture_output=True, text=True,
                             timeout=timeout)
        if run.returncode == 0:
            succeeded += 1
        elif run.returncode == 1 and ERROR in run.stderr:
            errors += 1
        else:
            crashes += 1
            print(f"crash on {path}: exit {run.returncode}\n{run.stderr}")
    return succeeded, errors, crashes
