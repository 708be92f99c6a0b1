#!/usr/bin/env python3
"""Feedmill's rss-create/rss-update against newsboat on the same corpus, served by nginx on
loopback, optionally through a proxy that adds latency. Prints one JSON object per measurement.

  compare.py WORK BINDIR RUNS CONCURRENCIES LATENCIES TOOLS

Cold = fresh data directory (Feedmill: rss-create, which imports and fetches every feed;
newsboat: reload with an empty cache). Warm = the same command again with nothing changed on
the server (Feedmill: rss-update --all). Measured per run: wall and CPU seconds and peak RSS
(GNU time), requests answered 304 and body bytes sent (nginx's access log), items stored
(each tool's own database) against the corpus's count.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

WORK, BINDIR = Path(sys.argv[1]), Path(sys.argv[2])
RUNS = int(sys.argv[3])
CONCURRENCIES = [int(x) for x in sys.argv[4].split(",")]
LATENCIES = [float(x) for x in sys.argv[5].split(",")]
TOOLS = sys.argv[6].split(",")
CORPUS = WORK / "corpus"
ACCESS_LOG = WORK / "serve" / "nginx-access.log"
NGINX_PORT, PROXY_PORT = 18480, 18481
FEEDS = json.loads((CORPUS / "corpus.json").read_text())
EXPECTED = sum(feed["entries"] for feed in FEEDS)


def log_position():
    return ACCESS_LOG.stat().st_size if ACCESS_LOG.exists() else 0


def log_since(position):
    with ACCESS_LOG.open("rb") as log:
        log.seek(position)
        lines = log.read().decode().splitlines()
    return {"requests": len(lines), "status_304": sum(1 for line in lines if line.startswith("304 ")),
            "body_bytes": sum(int(line.split()[1]) for line in lines if len(line.split()) > 1)}


def timed(command, cwd=None):
    result = subprocess.run(["/usr/bin/time", "-f", "TIME %e %U %S %M", *command], cwd=cwd,
                            capture_output=True, text=True)
    line = [l for l in result.stderr.splitlines() if l.startswith("TIME ")][-1].split()
    return {"exit": result.returncode, "wall": float(line[1]), "cpu": float(line[2]) + float(line[3]),
            "peak_rss_mib": int(line[4]) / 1024}


def urls(latency):
    text = (CORPUS / "urls.txt").read_text()
    return text if latency == 0 else text.replace(f":{NGINX_PORT}/", f":{PROXY_PORT}/")


def feedmill(phase, concurrency, latency, data):
    port = NGINX_PORT if latency == 0 else PROXY_PORT
    # The corpus has feeds up to 20 MB; Feedmill's default cap is 16 MiB.
    common = ["--data-dir", str(data), "--allow-private-networks", "--concurrency", str(concurrency), "--max-size", "32"]
    if phase == "cold":
        shutil.rmtree(data, ignore_errors=True)
        opml = data.parent / f"feeds-{port}.opml"
        opml.write_text((CORPUS / "feeds.opml").read_text().replace(f":{NGINX_PORT}/", f":{port}/"))
        command = [str(BINDIR / "rss-create"), "--opml", str(opml), *common]
    else:
        command = [str(BINDIR / "rss-update"), "--all", *common]
    measured = timed(command)
    items = sum(sqlite3.connect(f).execute("SELECT COUNT(*) FROM items").fetchone()[0] for f in data.glob("feed_*.sqlite"))
    return measured, items


def newsboat(phase, concurrency, latency, data):
    if phase == "cold":
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        (data / "urls").write_text(urls(latency))
        (data / "config").write_text(f"reload-threads {concurrency}\nauto-reload no\ndownload-timeout 60\n")
    measured = timed(["newsboat", "-x", "reload", "-u", str(data / "urls"), "-c", str(data / "cache.db"),
                      "-C", str(data / "config")], cwd=data)
    items = sqlite3.connect(data / "cache.db").execute("SELECT COUNT(*) FROM rss_item").fetchone()[0]
    return measured, items


def main():
    for latency in LATENCIES:
        for concurrency in CONCURRENCIES:
            for tool in TOOLS:
                for run in range(RUNS):
                    data = WORK / "runs" / f"{tool}-{concurrency}-{latency}"
                    data.parent.mkdir(parents=True, exist_ok=True)
                    for phase in ("cold", "warm"):
                        position = log_position()
                        measured, items = (feedmill if tool == "feedmill" else newsboat)(phase, concurrency, latency, data)
                        row = {"tool": tool, "phase": phase, "feeds": len(FEEDS), "concurrency": concurrency, "latency": latency, "run": run,
                               "items": items, "expected_items": EXPECTED, **measured, **log_since(position)}
                        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
