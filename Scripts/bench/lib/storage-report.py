#!/usr/bin/env python3
"""Reads `feedmill|floor rows=… rows_per_second=…` lines and prints the storage table."""
import statistics
import sys

rates = {"feedmill": [], "floor": []}
rows = 0
for line in sys.stdin:
    tool, *fields = line.split()
    values = dict(field.split("=") for field in fields)
    rates[tool].append(int(values["rows_per_second"]))
    rows = int(values["rows"])
print(f"Storage throughput, {rows} rows, one database and one transaction per feed (rows/s)")
print()
print("| writer | rows/s, median (min–max) |")
print("|---|---|")
for tool, label in (("floor", "C floor (sqlite3 API, one prepared statement)"), ("feedmill", "Feedmill FeedDatabase")):
    print(f"| {label} | {statistics.median(rates[tool]):,.0f} ({min(rates[tool]):,}–{max(rates[tool]):,}) |")
share = statistics.median(rates["feedmill"]) / statistics.median(rates["floor"])
print()
print(f"Feedmill = {share:.0%} of the C floor (target: at least 50%)")
