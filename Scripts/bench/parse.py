#!/usr/bin/env python3
"""Runs the parse benchmark and prints a Markdown table (median and min–max of N runs).

Compared on the same files in the same run:
  xmllint --stream --noout  libxml2's own streaming reader, whole process (reads the file too)
  C SAX2 walk               libxml2 SAX2 push parser, every node visited, nothing kept (in-process)
  C xmlTextReader walk      libxml2 reader, every node and text value visited (in-process)
  Feedmill parse            FeedParser.parse: encoding, lexical repair, SAX2, entries built (in-process)
  Feedmill parse+normalize  … plus ids, permalinks, dates, HTML sanitising (in-process)
"""
import statistics
import subprocess
import sys
import time


def run_walker(command, files):
    """Each line: FILE BYTES SECONDS [...] → {file: [seconds]}"""
    times = {}
    output = subprocess.run(command + files, check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        parts = line.split()
        times.setdefault(parts[0], []).append(float(parts[2]))
    return times


def time_process(command, repeats):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return samples


def main():
    repeats = int(sys.argv[1])
    bindir, workdir = sys.argv[2], sys.argv[3]
    files = sys.argv[4:]
    sizes = {f: len(open(f, "rb").read()) for f in files}
    results = {}  # tool -> file -> [seconds]
    results["xmllint --stream --noout"] = {f: time_process(["xmllint", "--stream", "--noout", f], repeats) for f in files}
    results["C SAX2 walk"] = run_walker([f"{workdir}/sax-walk"] * 1, files * repeats)
    results["C xmlTextReader walk"] = run_walker([f"{workdir}/reader-walk"], files * repeats)
    results["Feedmill parse"] = run_walker([f"{bindir}/feed-parse-bench", "--repeat", str(repeats)], files)
    results["Feedmill parse+normalize"] = run_walker(
        [f"{bindir}/feed-parse-bench", "--normalize", "--repeat", str(repeats)], files)

    print(f"Parse throughput, MB/s (1 MB = 10^6 bytes); median (min–max) of {repeats} runs\n")
    header = "| tool | " + " | ".join(f"{f.split('/')[-1]} ({sizes[f] / 1e6:.1f} MB)" for f in files) + " |"
    print(header)
    print("|" + "---|" * (len(files) + 1))
    medians = {}
    for tool, per_file in results.items():
        cells = []
        for f in files:
            rates = [sizes[f] / 1e6 / s for s in per_file[f]]
            medians[(tool, f)] = statistics.median(rates)
            cells.append(f"{statistics.median(rates):.0f} ({min(rates):.0f}–{max(rates):.0f})")
        print(f"| {tool} | " + " | ".join(cells) + " |")
    print()
    for f in files:
        name = f.split("/")[-1]
        fastest_c = max(medians[("C SAX2 walk", f)], medians[("C xmlTextReader walk", f)])
        print(f"- {name}: Feedmill parse = {medians[('Feedmill parse', f)] / medians[('xmllint --stream --noout', f)]:.2f}× "
              f"xmllint --stream, {medians[('Feedmill parse', f)] / fastest_c:.2f}× the faster C walk; "
              f"SAX2 walk = {medians[('C SAX2 walk', f)] / medians[('C xmlTextReader walk', f)]:.2f}× the reader walk")


if __name__ == "__main__":
    main()
