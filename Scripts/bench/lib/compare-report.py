#!/usr/bin/env python3
"""Turns compare.jsonl into compare.md (medians and min–max) and compare.png (wall time by
concurrency, Feedmill and newsboat, cold runs).   compare-report.py JSONL OUTDIR"""
import collections
import json
import os
import platform
import statistics
import sys
from pathlib import Path

rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
out = Path(sys.argv[2])
groups = collections.defaultdict(list)
for row in rows:
    groups[(row["latency"], row["concurrency"], row["tool"], row["phase"])].append(row)


def cell(values, fmt="{:.2f}"):
    if not values:
        return "–"
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


lines = [
    "# Feedmill against newsboat",
    "",
    f"Machine: {os.cpu_count()} cores, {round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30)} GiB, "
    f"{platform.platform()}. Corpus: {rows[0]['expected_items']} entries. Medians (min–max) of "
    f"{max(r['run'] for r in rows) + 1} runs. Cold: empty data directory; warm: the same again, nothing changed.",
    "",
    "| latency | concurrency | tool | phase | wall s | CPU s | peak RSS MiB | 304s | body MB | items stored |",
    "|---|---|---|---|---|---|---|---|---|---|",
]
for (latency, concurrency, tool, phase), group in sorted(groups.items()):
    items = sorted({r["items"] for r in group})
    lines.append(
        f"| {int(latency * 1000)} ms | {concurrency} | {tool} | {phase} | {cell([r['wall'] for r in group])} | "
        f"{cell([r['cpu'] for r in group])} | {cell([r['peak_rss_mib'] for r in group], '{:.0f}')} | "
        f"{statistics.median(r['status_304'] for r in group):.0f} of {statistics.median(r['requests'] for r in group):.0f} | "
        f"{statistics.median(r['body_bytes'] for r in group) / 1e6:.1f} | {', '.join(map(str, items))} / {group[0]['expected_items']} |")
(out / "compare.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
latencies = sorted({r["latency"] for r in rows})
figure, axes = plt.subplots(1, len(latencies), figsize=(6 * len(latencies), 4.2), squeeze=False)
for axis, latency in zip(axes[0], latencies):
    for tool, colour in (("feedmill", "#0b57d0"), ("newsboat", "#b3261e")):
        points = sorted((c, statistics.median(r["wall"] for r in g)) for (l, c, t, p), g in groups.items()
                        if l == latency and t == tool and p == "cold")
        if points:
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", color=colour, label=f"{tool} (cold)")
        points = sorted((c, statistics.median(r["wall"] for r in g)) for (l, c, t, p), g in groups.items()
                        if l == latency and t == tool and p == "warm")
        if points:
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="s", linestyle="--", color=colour,
                      alpha=0.6, label=f"{tool} (warm)")
    axis.set_xscale("log", base=2)
    axis.set_xlabel("concurrency (transfers / reload-threads)")
    axis.set_ylabel("wall time, s")
    axis.set_title(f"1,000 feeds, {int(latency * 1000)} ms added latency")
    axis.grid(alpha=0.3)
    axis.legend()
figure.tight_layout()
figure.savefig(out / "compare.png", dpi=110)
