#!/usr/bin/env python3
"""Reads feed-publish-bench lines (mode=… seconds=… files=… bytes=… feeds_written=…) from
stdin and prints a Markdown table: median and min–max seconds per publication mode."""
import collections
import statistics
import sys

rows = collections.defaultdict(list)
for line in sys.stdin:
    fields = dict(part.split("=") for part in line.split())
    rows[fields["mode"]].append(fields)

print()
print("| publication | seconds, median (min–max) | files written | bytes written | feed databases written |")
print("|---|---|---|---|---|")
for mode in ["initial", "incremental", "full", "unchanged"]:
    runs = rows[mode]
    seconds = [float(run["seconds"]) for run in runs]
    first = runs[0]
    print(f"| {mode} | {statistics.median(seconds):.3f} ({min(seconds):.3f}–{max(seconds):.3f}) "
          f"| {first['files']} | {int(first['bytes']):,} | {first['feeds_written']} |")

incremental = statistics.median(float(run["seconds"]) for run in rows["incremental"])
full = statistics.median(float(run["seconds"]) for run in rows["full"])
byte_share = int(rows["incremental"][0]["bytes"]) / int(rows["full"][0]["bytes"])
print()
print(f"Incremental publication took {incremental / full:.1%} of the time of republishing everything "
      f"and wrote {byte_share:.1%} of the bytes.")
