#!/usr/bin/env python3
"""scaling.jsonl → a Markdown table of peak RSS (and wall time) by number of feeds.
  scaling-report.py JSONL"""
import collections
import json
import os
import statistics
import sys
from pathlib import Path

rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
groups = collections.defaultdict(list)
for row in rows:
    groups[(row["feeds"], row["tool"], row["phase"])].append(row)


def cell(values, fmt):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})" if len(values) > 1 \
        else fmt.format(values[0])


print("# Peak memory as the number of feeds grows\n")
print(f"Machine: {os.cpu_count()} cores. Concurrency 32, no added latency, nginx on loopback. "
      "Median (min–max) when more than one run; newsboat's runs are fewer (its warm run re-parses everything).\n")
print("| feeds | entries | tool | phase | runs | peak RSS MiB | wall s | items stored |")
print("|---|---|---|---|---|---|---|---|")
for (feeds, tool, phase), values in sorted(groups.items()):
    print(f"| {feeds} | {values[0]['expected_items']} | {tool} | {phase} | {len(values)} | "
          f"{cell([v['peak_rss_mib'] for v in values], '{:.0f}')} | {cell([v['wall'] for v in values], '{:.2f}')} | "
          f"{values[0]['items']} / {values[0]['expected_items']} |")
