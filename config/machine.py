"""The machine a benchmark figure was measured on, in one line (no Django: the live
benchmarks call it from a process that does not set Django up)."""

import os
import platform
import sys


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    # where the interpreter lives tells its build: Debian's (/usr) or pyenv's, say
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} from {sys.base_prefix}"
    )
