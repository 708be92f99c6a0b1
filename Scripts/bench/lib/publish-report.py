#!/usr/bin/env python3
"""Reads feed-publish-bench lines (build=… mode=… seconds=… cpu=… files=… bytes=… feeds_written=…)
from stdin and prints a Markdown table per build: median and min–max wall seconds, median CPU
seconds and the wall/CPU ratio per publication mode (a ratio far above 1 is time spent waiting,
mostly on the disk)."""
import collections
import statistics
import sys

rows = collections.defaultdict(list)
builds = []
for line in sys.stdin:
    fields = dict(part.split("=", 1) for part in line.split())
    build = fields.get("build", "this")
    if build not in builds:
        builds.append(build)
    rows[(build, fields["mode"])].append(fields)


def median(runs, key):
    return statistics.median(float(run[key]) for run in runs)


for build in builds:
    print()
    print(f"**{build}**" + (" (this tree)" if build == "this" else ""))
    print()
    print("| publication | wall s, median (min–max) | CPU s, median | wall / CPU | files written | bytes written | feed databases written |")
    print("|---|---|---|---|---|---|---|")
    for mode in ["initial", "incremental", "full", "unchanged"]:
        runs = rows[(build, mode)]
        seconds = [float(run["seconds"]) for run in runs]
        cpu = median(runs, "cpu")
        wall = statistics.median(seconds)
        ratio = f"{wall / cpu:.2f}x" if cpu > 0 else "–"
        first = runs[0]
        print(f"| {mode} | {wall:.3f} ({min(seconds):.3f}–{max(seconds):.3f}) | {cpu:.3f} | {ratio} "
              f"| {first['files']} | {int(first['bytes']):,} | {first['feeds_written']} |")
    incremental = median(rows[(build, "incremental")], "seconds")
    full = median(rows[(build, "full")], "seconds")
    byte_share = int(rows[(build, "incremental")][0]["bytes"]) / int(rows[(build, "full")][0]["bytes"])
    print()
    print(f"Incremental publication took {incremental / full:.1%} of the time of republishing everything "
          f"and wrote {byte_share:.1%} of the bytes.")

if len(builds) == 2:
    before, after = builds
    print()
    print(f"| publication | wall, {after} / {before} | CPU, {after} / {before} |")
    print("|---|---|---|")
    for mode in ["initial", "incremental", "full", "unchanged"]:
        b, a = rows[(before, mode)], rows[(after, mode)]
        print(f"| {mode} | {median(a, 'seconds') / median(b, 'seconds'):.2f}x | {median(a, 'cpu') / median(b, 'cpu'):.2f}x |")
