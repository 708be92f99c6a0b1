#!/usr/bin/env python3
"""scaling.jsonl → Markdown tables of peak RSS (and wall time) by number of feeds, for the
generated corpora and for the lists drawn with the 5,000-feed corpus's largest feeds.
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
    groups[(row.get("list", "generated"), row["feeds"], row["tool"], row["phase"])].append(row)


def cell(values, fmt):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})" if len(values) > 1 \
        else fmt.format(values[0])


def growth(kind, phase):
    """Feedmill's median peak at the most feeds over the fewest, for one kind of list. The
    lists drawn from the 5,000-feed corpus end with that corpus itself."""
    peaks = {feeds: statistics.median(r["peak_rss_mib"] for r in runs)
             for (list_, feeds, tool, phase_), runs in groups.items() if list_ == kind and tool == "feedmill" and phase_ == phase}
    source = groups.get(("generated", 5000, "feedmill", phase))
    if kind != "generated" and source:
        peaks[5000] = statistics.median(r["peak_rss_mib"] for r in source)
    if len(peaks) < 2:
        return None
    fewest, most = min(peaks), max(peaks)
    return fewest, most, peaks[most] / peaks[fewest]

print("# Peak memory as the number of feeds grows\n")
print(f"Machine: {os.cpu_count()} cores. Concurrency 32, no added latency, nginx on loopback. Median (min–max) "
      "when more than one run; Feedmill's runs interleaved by round. Lists: `generated`, a corpus generated at "
      "that size (one feed in 300 is very large, so the 200-feed corpus has one feed over 1 MB and the 5,000-feed "
      "corpus 17); `5,000's largest`, drawn from the 5,000-feed corpus with all 17 of its feeds over 1 MB "
      "(`corpus-subset.py`), so they differ from it in their number of feeds only. newsboat rows marked "
      "`earlier run` are kept from a previous run of this script.\n")
print("| list | feeds | entries | tool | phase | runs | peak RSS MiB | wall s | items stored |")
print("|---|---|---|---|---|---|---|---|---|")
for (kind, feeds, tool, phase), values in sorted(groups.items(), key=lambda item: (item[0][0] != "generated", *item[0][1:])):
    name = tool + (" (earlier run)" if values[0].get("earlier_run") else "")
    print(f"| {kind} | {feeds} | {values[0]['expected_items']} | {name} | {phase} | {len(values)} | "
          f"{cell([v['peak_rss_mib'] for v in values], '{:.1f}')} | {cell([v['wall'] for v in values], '{:.2f}')} | "
          f"{values[0]['items']} / {values[0]['expected_items']} |")
print()
for kind in ("generated", "5,000's largest"):
    for phase in ("cold", "warm"):
        found = growth(kind, phase)
        if found:
            print(f"- Feedmill {phase}, {kind}: peak at {found[1]:,} feeds / at {found[0]:,} = {found[2]:.2f} (medians)")
