#!/usr/bin/env python3
"""Aggregate parse throughput over a set of corpus files, median (min–max) of RUNS runs, for the
C walks, Feedmill and feedparser, all in-process on bytes already in memory.
  parse-corpus.py RUNS BINDIR WALKERDIR FILE..."""
import statistics
import subprocess
import sys

runs, bindir, walkers, files = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
total = sum(len(open(f, "rb").read()) for f in files)


def per_run(command, repeat_inside=False):
    """Seconds per run: the sum of per-file times (one line per file per run)."""
    if repeat_inside:
        lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()
        sums = [0.0] * runs
        counts = {}
        for line in lines:
            path, _, seconds = line.split()[:3]
            index = counts.get(path, 0)
            counts[path] = index + 1
            sums[index] += float(seconds)
        return sums
    result = []
    for _ in range(runs):
        lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()
        result.append(sum(float(line.split()[2]) for line in lines))
    return result


tools = {
    "C SAX2 walk": per_run([f"{walkers}/sax-walk", *files]),
    "C xmlTextReader walk": per_run([f"{walkers}/reader-walk", *files]),
    "Feedmill parse": per_run([f"{bindir}/feed-parse-bench", "--repeat", str(runs), *files], repeat_inside=True),
    "Feedmill parse + normalise": per_run([f"{bindir}/feed-parse-bench", "--normalize", "--repeat", str(runs), *files], repeat_inside=True),
    "feedparser (Python)": per_run([sys.executable, "Scripts/bench/lib/feedparser-walk.py", *files]),
}
rates = {tool: [total / 1e6 / seconds for seconds in times] for tool, times in tools.items()}
print(f"Parse throughput over {len(files)} corpus files ({total / 1e6:.1f} MB), MB/s, median (min–max) of {runs} runs\n")
print("| parser | MB/s |")
print("|---|---|")
for tool, values in rates.items():
    print(f"| {tool} | {statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f}) |")
median = {tool: statistics.median(values) for tool, values in rates.items()}
fastest_c = max(median["C SAX2 walk"], median["C xmlTextReader walk"])
print()
print(f"- Feedmill parse = {median['Feedmill parse'] / fastest_c:.0%} of the faster C walk (target ≥ 70%)")
print(f"- Feedmill parse = {median['Feedmill parse'] / median['feedparser (Python)']:.0f}× feedparser (target ≥ 50×); "
      f"with normalisation {median['Feedmill parse + normalise'] / median['feedparser (Python)']:.0f}×")
ratio = median["Feedmill parse"] / median["Feedmill parse + normalise"]
print(f"- Parse + normalise takes {ratio:.2f}× the time of parse alone (target ≤ 2×): {'met' if ratio <= 2 else 'not met'} in this run")
