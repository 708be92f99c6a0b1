#!/usr/bin/env python3
"""What a process's memory is made of at its peak: runs COMMAND, reads /proc/PID/smaps every
10 ms, and prints the peak RSS with, at that moment, the heap plus anonymous mappings (what
the program holds: malloc arenas, large blocks, thread stacks) apart from the executable's
own code pages.

  peak-composition.py COMMAND [ARGS...]

Peak RSS alone misleads between builds: a different build of the same code touches
different 64 KiB blocks of its static binary, and runs of one build differ too: ±1 MiB
(`results/entry-buffers.md`). Compare builds on heap plus anonymous memory.
"""
import collections
import os
import subprocess
import sys
import time


def composition(pid):
    """RSS in KiB by kind of mapping: heap, anon, the executable's code, everything else."""
    kinds = collections.Counter()
    kind = "other"
    executable = os.path.realpath(f"/proc/{pid}/exe")
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if not fields:
                continue
            if "-" in fields[0] and not fields[0].endswith(":"):
                path = fields[5] if len(fields) > 5 else ""
                if path == "[heap]" or path == "":
                    kind = "heap+anon"
                elif path == executable and "x" in fields[1]:
                    kind = "code"
                else:
                    kind = "other"
            elif fields[0] == "Rss:":
                kinds[kind] += int(fields[1])
    return kinds


def main():
    process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    peak, at, most_held = collections.Counter(), 0.0, 0
    while process.poll() is None:
        try:
            kinds = composition(process.pid)
        except (FileNotFoundError, ProcessLookupError):
            break
        most_held = max(most_held, kinds["heap+anon"])
        if sum(kinds.values()) > sum(peak.values()):
            peak, at = kinds, time.monotonic() - started
        time.sleep(0.01)
    mib = lambda kib: f"{kib / 1024:.1f}"
    print(f"peak {mib(sum(peak.values()))} MiB at {at:.2f} s: heap+anon {mib(peak['heap+anon'])}, "
          f"code {mib(peak['code'])}, other {mib(peak['other'])}; most heap+anon {mib(most_held)} "
          f"(exit {process.wait()})")


if __name__ == "__main__":
    main()
