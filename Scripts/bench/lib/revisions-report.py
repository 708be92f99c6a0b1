#!/usr/bin/env python3
"""Reads the compare-revisions driver's JSON lines and prints the before/after table (medians)."""
import json
import statistics
import sys

base, parse_bytes = sys.argv[1], int(sys.argv[2])
samples = {}
for line in sys.stdin:
    row = json.loads(line)
    side = row["side"]
    if row["bench"] == "parse+normalise":
        samples.setdefault(("parse + normalise, MB/s", side), []).append(parse_bytes / 1e6 / row["seconds"])
    elif row["bench"] == "storage":
        fields = dict(field.split("=") for field in row["line"].split())
        samples.setdefault(("storage, rows/s", side), []).append(int(fields["rows_per_second"]))
    else:
        assert row["exit"] == 0 and row["items"] == row["expected_items"], row
        for measure in ("wall", "cpu", "peak_rss_mib"):
            samples.setdefault((f"1,000 feeds {row['phase']}, {measure}", side), []).append(row[measure])
higher_is_better = ("MB/s", "rows/s")
print(f"before = {base}, after = this tree; medians of {len(samples[('storage, rows/s', 'before')])} interleaved runs")
print()
print("| measure | before | after | after/before |")
print("|---|---|---|---|")
for name in dict.fromkeys(name for name, _ in samples):
    before, after = statistics.median(samples[(name, "before")]), statistics.median(samples[(name, "after")])
    better = "higher is better" if name.endswith(higher_is_better) else "lower is better"
    print(f"| {name} ({better}) | {before:,.2f} | {after:,.2f} | {after / before:.2f} |")
