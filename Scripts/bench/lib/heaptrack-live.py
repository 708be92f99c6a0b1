#!/usr/bin/env python3
"""What a process held, by allocation site, at chosen moments of its run (heaptrack data).

Why: heaptrack_print reports the peak and the leaks, not how the live heap changed over a
run. A site whose live bytes grow from one moment to the next grows with the work done (the
feeds fetched), where a bounded cache levels off.

    heaptrack -o /tmp/ht rss-create ...
    Scripts/bench/lib/heaptrack-live.py /tmp/ht.zst 0.1 0.5 0.9

prints the live total at each fraction of the run, then the sites that grew most between the
first and the last, named by their first frame in Feedmill, GRDB, libcurl, SQLite, libxml2 or
Dispatch (libcurl's own functions have no symbols in Debian's build). Reads heaptrack's
interpreted format: `s` strings, `i` instruction pointers, `t` trace nodes, `a` allocation
info (size, trace), `+`/`-` an allocation info index allocated/freed, `c` timestamps.
"""
import collections
import subprocess
import sys

NAMED = ("Feed", "GRDB", "curl_", "sqlite3_", "xml", "dispatch")


def main():
    path, fractions = sys.argv[1], [float(x) for x in sys.argv[2:]] or [0.1, 0.9]
    lines = subprocess.run(["zstd", "-dc", path], capture_output=True, text=True, errors="replace").stdout.splitlines()
    times = [int(line[2:], 16) for line in lines if line.startswith("c ")]
    moments = [fraction * times[-1] for fraction in fractions]
    strings, functions, traces, infos = [""], [0], [(0, 0)], []
    live, snapshots = collections.Counter(), []
    for line in lines:
        kind = line[:1]
        if kind == "s":
            strings.append(line[2:].split(" ", 1)[1] if " " in line[2:] else "")
        elif kind == "i":
            fields = line.split()
            functions.append(int(fields[3], 16) if len(fields) > 3 else 0)
        elif kind == "t":
            _, ip, parent = line.split()
            traces.append((int(ip, 16), int(parent, 16)))
        elif kind == "a":
            _, size, trace = line.split()
            infos.append((int(size, 16), int(trace, 16)))
        elif kind == "+":
            live[int(line[2:], 16)] += 1
        elif kind == "-":
            live[int(line[2:], 16)] -= 1
        elif kind == "c":
            while len(snapshots) < len(moments) and int(line[2:], 16) >= moments[len(snapshots)]:
                snapshots.append(dict(live))

    def site(trace):
        frames = []
        while trace and len(frames) < 40:
            ip, trace = traces[trace]
            function = functions[ip] if ip < len(functions) else 0
            frames.append(strings[function] if 0 < function < len(strings) else "?")
        for frame in frames:
            if any(name in frame for name in NAMED) and "swift_" not in frame:
                return frame[:110]
        return " < ".join(frame[:40] for frame in frames[:4])

    by_site = []
    for snapshot in snapshots:
        counter = collections.Counter()
        for index, count in snapshot.items():
            if count:
                size, trace = infos[index]
                counter[site(trace)] += count * size
        by_site.append(counter)
    print("run fraction  " + " ".join(f"{f:6.2f}" for f in fractions[: len(by_site)]))
    print("live MiB      " + " ".join(f"{sum(c.values()) / 2**20:6.2f}" for c in by_site))
    sites = set().union(*by_site)
    for name in sorted(sites, key=lambda s: by_site[0][s] - by_site[-1][s])[:12]:
        print("              " + " ".join(f"{c[name] / 2**20:6.3f}" for c in by_site) + "  " + name)


if __name__ == "__main__":
    main()
