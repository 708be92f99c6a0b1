#!/usr/bin/env python3
"""The measuring half of `Scripts/bench/run capacity-model` (the driver builds the release
binaries and the template data directory, then calls this). Each step stores its figures under
its own keys in RESULTS/capacity-model.json, so a step can be run again alone (after format 2
lands: `Scripts/bench/run capacity-model publishing clients report`) without losing the others;
capacity-model-report.py turns the file into RESULTS/capacity-model.md.

  capacity-model.py --bin DIR --work DIR --results DIR [--sizes 10000,100000] [--million 1000000]
                    [--runs 2] STEP...

Steps:
  catalogs  synthetic data directories (synthetic-catalog.py): SIZE feeds each, with a
            database each; and MILLION catalogued feeds whose first 10,000 have databases
            (hard links to those of the 10,000-feed directory, the rest not fetched yet).
  publishing per SIZE, with the real rss-publish, into a fresh directory: the first publication,
            one with nothing changed, then RUNS publications after 1% of the feeds changed
            (the changes stay in the data directory: a later run changes other entries);
            wall and CPU seconds (GNU time), peak RSS, files and bytes written (the
            publication directory before and after, by kind of name), and the sizes of the root,
            pointers, publisher record and catalog snapshot. The publication is removed after.
  clients   per catalog of 10,000 and MILLION feeds: rss-pull following 50 feeds through
            counting-server.py (bytes on the wire, headers included), first sync, a sync with no
            new publication, a sync after 1% of the other feeds changed and were published,
            and one after 5 of the 50 also changed.
  hosts     the host histogram of Scripts/bench/lib/feed-hosts.tsv and how it falls into shards.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FOLLOWED = 50
CHANGED_FOLLOWED = 5
SERVER_PORT = 18494  # 18490-18492: the template, publish-at-scale and update-at-scale servers
# Figures are kept per publication format ("f1/…", "f2/…"), so a run with format 2 keeps the
# format-1 figures beside it for comparison; set in main() from rss-publish's options.
SERIES = "f1"


# The bytes the last run_timed command read (None when /proc could not tell).
LAST_READ_BYTES = None


def run_timed(command, **kwargs):
    """Runs command under GNU time; returns (wall s, cpu s, peak RSS MiB, exit, stdout, stderr).
    The bytes it read (read(2) and pread(2) calls, /proc/PID/io `rchar`, page cache included)
    are left in LAST_READ_BYTES: read from GNU time's own process once it has exited but before
    it is reaped (waitid with WNOWAIT), when its counts include those of the command it waited for."""
    global LAST_READ_BYTES
    process = subprocess.Popen(["/usr/bin/time", "-f", "CAPACITY-TIME %e %U %S %M", *command],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    out_chunks, err_chunks = [], []
    def drain(stream, chunks):
        chunks.append(stream.read())
    threads = [threading.Thread(target=drain, args=(process.stdout, out_chunks)),
               threading.Thread(target=drain, args=(process.stderr, err_chunks))]
    for thread in threads:
        thread.start()
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    LAST_READ_BYTES = None
    try:
        for line in open(f"/proc/{process.pid}/io"):
            if line.startswith("rchar:"):
                LAST_READ_BYTES = int(line.split()[1])
    except OSError:
        pass
    for thread in threads:
        thread.join()
    returncode = process.wait()
    lines = "".join(err_chunks).splitlines()
    timing = [line for line in lines if line.startswith("CAPACITY-TIME ")][-1].split()[1:]
    stderr = "\n".join(line for line in lines if not line.startswith("CAPACITY-TIME "))
    return float(timing[0]), float(timing[1]) + float(timing[2]), int(timing[3]) / 1024, returncode, "".join(out_chunks), stderr


def kind_of(name):
    """The kind of a name in a publication, format 1 or 2 (SPEC-41 section 2)."""
    if name == "manifest.json":
        return "root"
    if re.fullmatch(r"feed_[0-9]+\.json", name):
        return "pointer"
    if re.fullmatch(r"feed_[0-9]+\.([0-9a-f]{64}|v[0-9]+)\.sqlite", name):
        return "snapshot"
    if name.endswith(".delta.json"):
        return "delta"
    if re.fullmatch(r"all_feeds\.([0-9a-f]{64}|v[0-9]+)\.sqlite", name):
        return "catalog"
    if name.startswith("publisher.") or name == ".feedmill-publisher.json":
        return "record"
    if name.startswith(".feedmill-intent"):
        return "intent"
    if re.fullmatch(r"(all_feeds|feed_[0-9]+)\.sqlite", name):
        return "stable"
    if name in ("atom.xml", "index.html"):
        return "page"
    if re.fullmatch(r"catalog_(index|titles|title_group|page_[0-9]+|pages_[0-9]+)\.[0-9a-f]{64}\.json", name):
        return "browse"
    return "other"


def listing(directory):
    """name -> (inode, size, mtime_ns) for every plain file."""
    files = {}
    if os.path.isdir(directory):
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    files[entry.name] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return files


def written(before, after):
    """Files and bytes written by kind (names new or changed), and names removed."""
    by_kind = {}
    for name, state in after.items():
        if before.get(name) != state:
            kind = by_kind.setdefault(kind_of(name), {"files": 0, "bytes": 0})
            kind["files"] += 1
            kind["bytes"] += state[1]
    return {"by_kind": by_kind, "files": sum(k["files"] for k in by_kind.values()),
            "bytes": sum(k["bytes"] for k in by_kind.values()), "removed": len(set(before) - set(after))}


def shape(directory):
    """Sizes in a publication: the root, the record, the catalog snapshot, pointers, snapshots."""
    files = listing(directory)
    kinds = {}
    for name, (_, size, _) in files.items():
        kinds.setdefault(kind_of(name), []).append(size)
    result = {kind: {"count": len(sizes), "bytes": sum(sizes), "mean": sum(sizes) / len(sizes), "max": max(sizes)}
              for kind, sizes in kinds.items()}
    root = os.path.join(directory, "manifest.json")
    if os.path.exists(root):
        manifest = json.load(open(root))
        result["format_version"] = manifest.get("format_version")
        result["generation"] = manifest.get("generation")
        catalog = manifest.get("catalog", {})
        result["catalog_file"] = catalog.get("file")
        result["catalog_size"] = catalog.get("size")
    return result


def publish(args, data, out, label, results, key, publisher=None):
    before = listing(out)
    command = [publisher or os.path.join(args.bin, "rss-publish"), "--data-dir", data, "--out", out]
    wall, cpu, rss, status, stdout, stderr = run_timed(command)
    if status not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {status}:\n{stderr}")
    figures = {"label": label, "command": " ".join(command), "exit": status, "wall_s": wall, "cpu_s": cpu, "peak_rss_mib": rss,
               "read_bytes": LAST_READ_BYTES, "names_listed": len(before),
               "summary": (stdout + stderr).strip().splitlines()[0] if (stdout + stderr).strip() else "",
               "written": written(before, listing(out)), "shape": shape(out)}
    results[key] = figures
    print(f"{key}: {label}: wall {wall:.1f} s, CPU {cpu:.1f} s, {figures['written']['files']} files, "
          f"{figures['written']['bytes']:,} bytes", file=sys.stderr)
    save(args, results)
    return figures


def change(args, data, percent=None, ids=None, exclude=None, round_number=1):
    command = [sys.executable, os.path.join(HERE, "synthetic-catalog.py"), "change", data, "--round", str(round_number),
               "--seed", str(41 + round_number)]
    if ids:
        command += ["--ids", ",".join(map(str, ids))]
    else:
        command += ["--percent", str(percent)]
    if exclude:
        command += ["--exclude", ",".join(map(str, exclude))]
    return [int(line) for line in subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()]


def make_catalog(args, feeds, databases=None, link_from=None):
    data = os.path.join(args.work, f"data-{feeds}")
    if os.path.exists(os.path.join(data, "all_feeds.sqlite")):
        return None
    shutil.rmtree(data, ignore_errors=True)
    command = [sys.executable, os.path.join(HERE, "synthetic-catalog.py"), "make", os.path.join(args.work, "template", "data"), data,
               str(feeds), "--hosts", os.path.join(HERE, "feed-hosts.tsv")]
    if databases is not None:
        command += ["--databases", str(databases)]
    if link_from:
        command += ["--link-from", link_from]
    started = time.monotonic()
    subprocess.run(command, check=True)
    return {"command": " ".join(command), "seconds": time.monotonic() - started}


def step_catalogs(args, results):
    for feeds in args.sizes:
        made = make_catalog(args, feeds)
        if made:
            results[f"catalog/{feeds}"] = dict(made, feeds=feeds)
    smallest = min(args.sizes)
    made = make_catalog(args, args.million, databases=smallest, link_from=os.path.join(args.work, f"data-{smallest}"))
    if made:
        results[f"catalog/{args.million}"] = dict(made, feeds=args.million)
    for feeds in args.sizes + [args.million]:
        data = os.path.join(args.work, f"data-{feeds}")
        files = listing(data)
        feed_bytes = [size for name, (_, size, _) in files.items() if name.startswith("feed_")]
        entry = results.setdefault(f"catalog/{feeds}", {"feeds": feeds})
        entry.update(catalog_bytes=files["all_feeds.sqlite"][1], feed_databases=len(feed_bytes),
                     feed_database_mean_bytes=sum(feed_bytes) / max(1, len(feed_bytes)))
    save(args, results)


def working_copy(args, feeds, use):
    """A copy of data-FEEDS to change: the catalog copied, the feed databases hard links (a
    change replaces a file by rename, so the source keeps its own and every run starts alike)."""
    source = os.path.join(args.work, f"data-{feeds}")
    data = os.path.join(args.work, f"{SERIES}-{use}-data-{feeds}")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    for name in os.listdir(source):
        if name == "all_feeds.sqlite":
            shutil.copyfile(os.path.join(source, name), os.path.join(data, name))
        elif name.startswith("feed_"):
            os.link(os.path.join(source, name), os.path.join(data, name))
    return data


def step_publishing(args, results):
    # The million-feed catalog is published by the clients step (its root and catalog snapshot).
    for feeds in args.sizes:
        data = working_copy(args, feeds, "publishing")
        out = os.path.join(args.work, f"{SERIES}-pub-{feeds}")
        shutil.rmtree(out, ignore_errors=True)
        publish(args, data, out, "first publication", results, f"{SERIES}/publish/{feeds}/first")
        publish(args, data, out, "nothing changed", results, f"{SERIES}/publish/{feeds}/unchanged")
        for run in range(1, args.runs + 1):
            changed = change(args, data, percent=1.0, round_number=100 + run)
            figures = publish(args, data, out, f"1% changed ({len(changed)} feeds), run {run}", results, f"{SERIES}/publish/{feeds}/changed-{run}")
            figures["changed_feeds"] = len(changed)
            save(args, results)
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


def step_million(args, results):
    """At MILLION catalogued feeds (the first 10,000 with databases): publications with 1 feed
    changed and with 1% of the million changed (10,000: every feed with a database), RUNS of
    each, alternating this build's rss-publish with --against's (same data, in turn: both under
    the same load), each build into a directory of its own (a build may write a record format
    the other refuses); and one with nothing changed. Bytes read are read(2) bytes, page cache
    included; requests are what a bucket would be asked: a PUT per file written and a LIST per
    1,000 names there at the start (the directory is listed once a publication)."""
    builds = [("this", os.path.join(args.bin, "rss-publish"))]
    if args.against_publisher:
        builds.insert(0, (args.against_label, args.against_publisher))
    # Figures of an earlier run of this step (another --against, other keys) would mix with this one's.
    dropped = [key for key in results if key.startswith(f"{SERIES}/million/")]
    for key in dropped:
        del results[key]
    results.setdefault("_dropped", []).extend(dropped)
    data = working_copy(args, args.million, "million")
    outs = {build[0]: os.path.join(args.work, f"{SERIES}-million-pub-{build[0]}") for build in builds}
    for out in outs.values():
        shutil.rmtree(out, ignore_errors=True)
    prefix = f"{SERIES}/million"
    present = sorted(int(n[5:-7]) for n in os.listdir(data) if re.fullmatch(r"feed_[0-9]+\.sqlite", n))
    order = [0]

    def one(build, label, key):
        figures = publish(args, data, outs[build[0]], f"{label} ({build[0]})", results, key, publisher=build[1])
        order[0] += 1
        figures.update(build=build[0], list_requests=-(-figures["names_listed"] // 1000), put_requests=figures["written"]["files"],
                       _order=order[0])
        save(args, results)

    for build in builds:
        one(build, "first publication", f"{prefix}/first-{build[0]}")
    # A change seen by neither yet: each build publishes it once (the publication after the
    # first writes every record page once more, with its entries' publication id).
    change(args, data, ids=[present[0]], round_number=190)
    for build in builds:
        one(build, "settling: 1 feed changed", f"{prefix}/settle-{build[0]}")
    # Each run: nothing changed (the constant at that state), 1 feed changed, 1% changed; the
    # builds in turn on the same change, the first of a pair alternating from run to run.
    for run in range(1, args.runs + 1):
        turn = builds if run % 2 else builds[::-1]
        for build in turn:
            one(build, "nothing changed", f"{prefix}/nothing-{run}-{build[0]}")
        change(args, data, ids=[present[(run * 7919) % len(present)]], round_number=300 + run * 10)
        for build in turn:
            one(build, "1 feed changed", f"{prefix}/one-{run}-{build[0]}")
        changed = change(args, data, percent=100.0, round_number=400 + run * 10)
        for build in turn:
            one(build, f"1% changed ({len(changed):,} feeds)", f"{prefix}/percent-{run}-{build[0]}")
        # The publication after one that changed feeds on every record page writes every page
        # once more (their entries' publication id): each build publishes once more before
        # the next run's measurements.
        change(args, data, ids=[present[run]], round_number=500 + run * 10)
        for build in turn:
            one(build, "settling after 1%: 1 feed changed", f"{prefix}/settle-{run}-{build[0]}")
    for out in outs.values():
        shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(data, ignore_errors=True)


class CountingServer:
    def __init__(self, directory, log):
        self.log = log
        open(log, "w").close()
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "counting-server.py"), directory, str(SERVER_PORT), log],
                                        stdout=subprocess.PIPE, text=True)
        self.process.stdout.readline()

    def mark(self):
        return sum(1 for _ in open(self.log))

    def since(self, mark):
        lines = [json.loads(line) for line in open(self.log)][mark:]
        by_kind = {}
        for line in lines:
            kind = by_kind.setdefault(kind_of(line["path"]), {"requests": 0, "wire_bytes": 0, "body_bytes": 0, "not_modified": 0})
            kind["requests"] += 1
            kind["wire_bytes"] += line["request_bytes"] + line["response_bytes"]
            kind["body_bytes"] += line["body_bytes"]
            kind["not_modified"] += line["status"] == 304
        return {"requests": len(lines), "wire_bytes": sum(k["wire_bytes"] for k in by_kind.values()),
                "response_bytes": sum(line["response_bytes"] for line in lines),
                "request_bytes": sum(line["request_bytes"] for line in lines),
                "body_bytes": sum(k["body_bytes"] for k in by_kind.values()), "by_kind": by_kind}

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait()


def pull(args, server, folder, followed, extra):
    mark = server.mark()
    command = [os.path.join(args.bin, "rss-pull"), f"http://127.0.0.1:{SERVER_PORT}/", folder, "--json", *extra]
    for feed in followed:
        command += ["--feed", str(feed)]
    wall, cpu, rss, status, stdout, stderr = run_timed(command)
    try:
        report = json.loads(stdout)
    except ValueError:
        report = {"stdout": stdout[-2000:]}
    shown = " ".join(command[:4 + len(extra)]) + f" --feed … ({len(followed)} feeds)"
    return {"command": shown, "exit": status, "wall_s": wall, "stderr": stderr[-2000:], "client_report": report, "wire": server.since(mark)}


def step_clients(args, results):
    help_text = subprocess.run([os.path.join(args.bin, "rss-pull"), "--help"], capture_output=True, text=True).stdout
    extra = ["--catalog-max-age", "86400"] if "--catalog-max-age" in help_text else []
    for feeds in (min(args.sizes), args.million):
        data = working_copy(args, feeds, "client")
        out = os.path.join(args.work, f"{SERIES}-client-pub-{feeds}")
        folder = os.path.join(args.work, f"{SERIES}-client-folder-{feeds}")
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
        present = sorted(int(n[5:-7]) for n in os.listdir(data) if re.fullmatch(r"feed_[0-9]+\.sqlite", n))
        followed = sorted(random.Random(41).sample(present, FOLLOWED))
        prefix = f"{SERIES}/client/{feeds}"
        publish(args, data, out, "first publication", results, f"{prefix}/publish-first")
        server = CountingServer(out, os.path.join(args.work, f"{SERIES}-client-{feeds}.log"))
        try:
            # "one" (issue 51): a publication where one other feed changed, and the sync after it.
            phases = [("first", "first sync (catalog and 50 snapshots)", None),
                      ("again", "again, no new publication", None),
                      ("one", "after a publication where 1 other feed changed", "one"),
                      ("churn", "after a publication where 1% of the other feeds changed", []),
                      ("five", f"after a publication where {CHANGED_FOLLOWED} of the 50 and 1% of the others changed", followed[:CHANGED_FOLLOWED])]
            for number, (name, label, changed_followed) in enumerate(phases):
                if changed_followed == "one":
                    other = next(feed for feed in present if feed not in followed)
                    change(args, data, ids=[other], round_number=200 + number)
                    publish(args, data, out, f"publication before '{name}'", results, f"{prefix}/publish-{name}")
                elif changed_followed is not None:
                    change(args, data, percent=1.0, exclude=followed, round_number=200 + number)
                    if changed_followed:
                        change(args, data, ids=changed_followed, round_number=200 + number)
                    publish(args, data, out, f"publication before '{name}'", results, f"{prefix}/publish-{name}")
                figures = pull(args, server, folder, followed, extra)
                figures.update(label=label, catalogued=feeds, followed=FOLLOWED, published=len(present))
                results[f"{prefix}/{name}"] = figures
                print(f"{prefix}/{name}: {figures['wire']['requests']} requests, {figures['wire']['wire_bytes']:,} bytes on the wire, "
                      f"exit {figures['exit']}", file=sys.stderr)
                save(args, results)
            if "--search" in help_text:
                search(args, server, prefix, present, results)
        finally:
            server.stop()
        results[f"{prefix}/shape"] = shape(out)
        save(args, results)
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


def search(args, server, prefix, present, results):
    """Searching the catalog's titles as a reader choosing feeds does (issue 51): one title, and
    the first 50 of a prefix every synthetic title shares; what it cost on the wire."""
    for name, text in (("one", f"Synthetic feed {present[len(present) // 2]}"), ("shared", "synthetic")):
        mark = server.mark()
        wall, _, _, status, stdout, stderr = run_timed([os.path.join(args.bin, "rss-pull"), f"http://127.0.0.1:{SERVER_PORT}/", "--search", text])
        figures = {"label": f"search \"{text}\"", "exit": status, "wall_s": wall, "matches": len(stdout.splitlines()),
                   "stderr": stderr[-2000:], "wire": server.since(mark)}
        results[f"{prefix}/search-{name}"] = figures
        print(f"{prefix}/search-{name}: {figures['matches']} matches, {figures['wire']['requests']} requests, "
              f"{figures['wire']['wire_bytes']:,} bytes on the wire, exit {status}", file=sys.stderr)
        save(args, results)


def fnv1a64(host):
    value = 0xcbf29ce484222325
    for byte in host.lower().rstrip(".").encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return value


def step_hosts(args, results):
    hosts = {}
    for line in open(os.path.join(HERE, "feed-hosts.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        host, count = line.rstrip("\n").split("\t")
        hosts[host] = int(count)
    total = sum(hosts.values())
    ranked = sorted(hosts.items(), key=lambda kv: (-kv[1], kv[0]))
    counts = sorted(hosts.values(), reverse=True)
    shards = {}
    for count in (2, 4, 8, 16, 32, 64):
        load = [0] * count
        for host, feeds in hosts.items():
            load[fnv1a64(host) % count] += feeds
        shards[count] = {"largest_share": max(load) / total, "mean_share": 1 / count}
    results["hosts"] = {"feeds": total, "hosts": len(hosts), "top": ranked[:15],
                        "single_feed_hosts": sum(1 for c in counts if c == 1),
                        "top10_share": sum(counts[:10]) / total, "shards": shards}
    save(args, results)


def save(args, results):
    """Merges this run's figures into the file as it is now (another step may be running beside
    this one: each replaces only the keys it measured)."""
    path = os.path.join(args.results, "capacity-model.json")
    current = json.load(open(path)) if os.path.exists(path) else {}
    for key in results.get("_dropped", []):
        current.pop(key, None)
    for key, value in results.items():
        if key == "_dropped":
            continue
        if key == "runs":
            current["runs"] = [run for run in current.get("runs", []) if run not in value] + value
        elif key not in results.get("_loaded", {}) or results["_loaded"][key] != value:
            current[key] = value
    current.pop("_loaded", None)
    with open(path + ".tmp", "w") as file:
        json.dump(current, file, indent=1, sort_keys=True)
        file.write("\n")
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--million", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--against-publisher", help="another build's rss-publish, alternated with this one's by the million step")
    parser.add_argument("--against-label", default="before")
    parser.add_argument("steps", nargs="+", choices=["catalogs", "publishing", "clients", "million", "hosts"])
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    global SERIES
    publish_help = subprocess.run([os.path.join(args.bin, "rss-publish"), "--help"], capture_output=True, text=True).stdout
    SERIES = "f2" if "--retire-after" in publish_help else "f1"
    path = os.path.join(args.results, "capacity-model.json")
    results = json.load(open(path)) if os.path.exists(path) else {}
    results["_loaded"] = json.loads(json.dumps(results))
    results.setdefault("runs", []).append({"steps": args.steps, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                           "series": SERIES, "argv": sys.argv[1:]})
    for step in args.steps:
        globals()[f"step_{step}"](args, results)
    save(args, results)


if __name__ == "__main__":
    main()
