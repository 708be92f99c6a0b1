#!/usr/bin/env python3
"""Writes Scripts/bench/results/capacity-model.md from capacity-model.json: the measured figures
per publication format (f1, f2), then the model built on them, each assumption named where it
is used (docs/benchmarks.md#capacity-model explains them).

  capacity-model-report.py RESULTS_JSON COMMAND REVISION MACHINE
"""
import json
import re
import statistics
import sys

results = json.load(open(sys.argv[1]))
command, revision, machine = sys.argv[2], sys.argv[3], sys.argv[4]
PENDING = "*pending format 2*"
FORMATS = {"f1": "format 1", "f2": "format 2"}

# Assumptions of the model, used below where they are named.
FETCH_SECONDS = 0.5          # one fetch over the internet, as the README's model takes
NOT_MODIFIED_SECONDS = 0.25  # one conditional request answered 304
PER_HOST = 2                 # rss-update --per-host default (FetchScheduler.defaultPerHostLimit)
CHANGED_SHARE = 0.20         # of the feeds fetched in an hour, those whose body changed (the README's "a fifth")
BODY_KB = 30                 # a changed feed's body on the wire, compressed
REQUEST_KB = 0.6             # a conditional request and its 304, headers only
COLD_MS, WARM_MS = 2.6, 0.7  # CPU per changed / unchanged feed (results/capacity.md, concurrency 256)
RECORD_BUDGET = 100e6        # a publisher record written whole by every publication: at most this
SHARD_COUNT = 32


def n(value, digits=0):
    return "–" if value is None else f"{value:,.{digits}f}"


def size(value):
    if value is None:
        return "–"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:,.1f} {unit}"
    return f"{value:,.0f} B"


def series_present():
    return [s for s in FORMATS if any(k.startswith(s + "/") for k in results)]


def publish_keys(series, feeds):
    order = {"first": 0, "unchanged": 1}
    keys = [k for k in results if k.startswith(f"{series}/publish/{feeds}/")]
    return sorted(keys, key=lambda k: order.get(k.split("/")[3], 2 + int(k.split("-")[-1]) if "-" in k.split("/")[3] else 9))


def published_sizes(series):
    return sorted({int(k.split("/")[2]) for k in results if k.startswith(f"{series}/publish/")})


def shapes(series):
    """(catalogued feeds, published feeds, run, shape) of the last publication of each run."""
    found = []
    for feeds in published_sizes(series):
        found.append((feeds, feeds, "publish", results[publish_keys(series, feeds)[-1]]["shape"]))
    for key in sorted(results):
        if key.startswith(f"{series}/client/") and key.endswith("/shape"):
            feeds = int(key.split("/")[2])
            published = results.get(f"{series}/client/{feeds}/first", {}).get("published", feeds)
            found.append((feeds, published, "client", results[key]))
    return sorted(found, key=lambda f: (f[0], f[2]))


def slope(series, kind):
    """(bytes per feed, fixed bytes) of a name that grows with the catalog, through the two
    largest points: the catalog snapshot per catalogued feed (every run); the root, record and
    pages only from runs where every catalogued feed is published."""
    points = {}
    for feeds, published, _, shape in shapes(series):
        value = shape.get(kind, {}).get("max")
        if value and (kind == "catalog" or published == feeds):
            points[feeds] = value
    if len(points) < 2:
        return None, None
    (a, va), (b, vb) = sorted(points.items())[-2:]
    per_feed = (vb - va) / (b - a)
    return per_feed, va - per_feed * a


def at(series, kind, feeds):
    per_feed, fixed = slope(series, kind)
    return None if per_feed is None else fixed + per_feed * feeds


print("# Capacity model\n")
print(f"`{command}`, {revision}.")
print("Runs: " + "; ".join(f"{r['date']} {r.get('series', '')} ({' '.join(r['steps'])})" for r in results.get("runs", [])[-8:]) + ".")
print(f"Machine: {machine}; shared with other helpers' builds (load average 4-20 on 2 cores during these runs): "
      "CPU seconds are the figure to read, wall clock an upper bound.")
print("What each figure means and the assumptions of the model: docs/benchmarks.md#capacity-model. "
      "Every measurement's command line is in capacity-model.json.\n")

print("## Synthetic catalogs\n")
print("| catalogued feeds | feed databases | made in | data catalog file | mean feed database |")
print("|---|---|---|---|---|")
for feeds in sorted(int(k.split("/")[1]) for k in results if k.startswith("catalog/")):
    c = results[f"catalog/{feeds}"]
    made = f"{c['seconds']:.0f} s" if "seconds" in c else "–"
    print(f"| {feeds:,} | {n(c.get('feed_databases'))} | {made} | {size(c.get('catalog_bytes'))} | {size(c.get('feed_database_mean_bytes'))} |")

KINDS = ["snapshot", "delta", "pointer", "root", "record", "intent", "catalog", "stable", "page"]
for series in series_present():
    label = FORMATS[series]
    print(f"\n## Publishing, {label}\n")
    print("| feeds | publication | wall s | CPU s | peak RSS MiB | files written | bytes written | by kind: files / bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for feeds in published_sizes(series):
        for key in publish_keys(series, feeds):
            p = results[key]
            w = p["written"]
            kinds = ", ".join(f"{k} {w['by_kind'][k]['files']:,} / {size(w['by_kind'][k]['bytes'])}" for k in KINDS if k in w["by_kind"])
            print(f"| {feeds:,} | {p['label']} | {p['wall_s']:.1f} | {p['cpu_s']:.1f} | {p['peak_rss_mib']:.0f} | {w['files']:,} | "
                  f"{size(w['bytes'])} | {kinds} |")
    phase_order = {"publish-first": 0, "publish-churn": 1, "publish-five": 2}
    for key in sorted((k for k in results if k.startswith(f"{series}/client/") and "/publish-" in k),
                      key=lambda k: (int(k.split("/")[2]), phase_order.get(k.split("/")[3], 9))):
        p = results[key]
        feeds = int(key.split("/")[2])
        print(f"| {feeds:,} catalogued (client run) | {p['label']} | {p['wall_s']:.1f} | {p['cpu_s']:.1f} | {p['peak_rss_mib']:.0f} | "
              f"{p['written']['files']:,} | {size(p['written']['bytes'])} | |")
    print("\nStable names (`feed_<id>.sqlite`, `all_feeds.sqlite`) are hard links in a directory (no bytes written) and "
          "copies on object storage: counted here as they would be uploaded.\n")
    print(f"**Sizes in a publication, {label}** (after the last publication of each run):\n")
    print("| feeds catalogued | feeds published | run | root (`manifest.json`) | pointer, mean | publisher record | catalog snapshot | snapshot, mean | largest page |")
    print("|---|---|---|---|---|---|---|---|---|")
    for feeds, published, run, s in shapes(series):
        pointer = size(s.get("pointer", {}).get("mean")) if series == "f2" else "none"
        print(f"| {feeds:,} | {published:,} | {run} | {size(s.get('root', {}).get('max'))} | {pointer} | {size(s.get('record', {}).get('max'))} | "
              f"{size(s.get('catalog_size') or s.get('catalog', {}).get('max'))} | {size(s.get('snapshot', {}).get('mean'))} | "
              f"{size(s.get('page', {}).get('max'))} |")
    print(f"\nExtrapolated, {label} (a straight line through the two largest sizes measured):\n")
    print("| name | bytes per feed | at 1,000,000 | at 10,000,000 | at 10,000,000, per shard of 32 |")
    print("|---|---|---|---|---|")
    for kind, name in (("catalog", "catalog snapshot (per catalogued feed)"), ("record", "publisher record (per published feed)"),
                       ("root", "root"), ("page", "largest page (`index.html`)")):
        per_feed, fixed = slope(series, kind)
        if per_feed is None:
            continue
        shard = size(fixed + per_feed * 1e7 / SHARD_COUNT) if kind == "record" else "–"
        print(f"| {name} | {per_feed:,.1f} | {size(fixed + per_feed * 1e6)} | {size(fixed + per_feed * 1e7)} | {shard} |")

    sizes = [f for f in published_sizes(series) if any(k.startswith(f"{series}/publish/{f}/changed-") for k in results)]
    print(f"\n**Uploads when 1% of the feeds change per hour, {label}**\n")
    if not sizes:
        print("Not measured yet.")
        continue
    feeds = max(sizes)
    runs = [results[k] for k in publish_keys(series, feeds) if "/changed-" in k]
    changed = runs[0].get("changed_feeds") or feeds // 100
    per_kind = {}
    for r in runs:
        for kind, v in r["written"]["by_kind"].items():
            per_kind.setdefault(kind, []).append(v)
    per_feed_kinds = ("snapshot", "delta", "pointer", "stable")
    files_per_changed = sum(statistics.median(v["files"] for v in per_kind[k]) for k in per_feed_kinds if k in per_kind) / changed
    bytes_per_changed = sum(statistics.median(v["bytes"] for v in per_kind[k]) for k in per_feed_kinds if k in per_kind) / changed
    other_files = sum(statistics.median(v["files"] for v in per_kind[k]) for k in per_kind if k not in per_feed_kinds)
    print(f"Measured at {feeds:,} feeds, {changed:,} changed, {len(runs)} publications (median): per changed feed "
          f"{files_per_changed:.2f} files and {size(bytes_per_changed)} (snapshot, deltas, pointer, stable name); "
          f"{other_files:.0f} more files per publication (root, record, intent, catalog snapshot and its stable name, pages), "
          "whose size grows with the catalog (extrapolated above).\n")
    print("| feeds | changed per hour | uploads per hour | uploads per second | bytes per hour | of which per-publication files |")
    print("|---|---|---|---|---|---|")
    for total in (100_000, 1_000_000, 10_000_000):
        churn = total // 100
        fixed = sum(v for v in (at(series, "record", total), at(series, "catalog", total), at(series, "catalog", total),
                                at(series, "page", total), at(series, "root", total)) if v)
        uploads = churn * files_per_changed + other_files
        print(f"| {total:,} | {churn:,} | {uploads:,.0f} | {uploads / 3600:,.1f} | {size(churn * bytes_per_changed + fixed)} | {size(fixed)} |")
    print("\nOne publication an hour. Publishing more often multiplies the per-publication files, not the per-feed uploads.")

million = sorted((k for k in results if k.startswith("f2/million/")), key=lambda k: results[k].get("_order", 0))
if million:
    print("\n## Publishing at 1,000,000 catalogued feeds (issue 51)\n")
    print("The 1,000,000-feed catalog (its first 10,000 feeds with a database, the rest catalogued and never fetched), published "
          "by each build into a directory of its own; then, in turn, one feed changed, 1% of the million changed (10,000 feeds: every "
          "feed with a database) and nothing changed, each published by each build in turn (before/after on the same data, under the same load). "
          "Read: bytes the process read (read(2), page cache included). Requests: what a bucket would be asked, a PUT per file "
          "written and a LIST per 1,000 names there at the start.\n")
    print("| publication | wall s | CPU s | peak RSS MiB | read | written | files written | PUT | LIST |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = [results[k] for k in million]
    for r in rows:
        print(f"| {r['label']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_rss_mib']:,.0f} | {size(r.get('read_bytes'))} | "
              f"{size(r['written']['bytes'])} | {r['written']['files']:,} | {r.get('put_requests', '–')} | {r.get('list_requests', '–')} |")
    builds = list(dict.fromkeys(r.get("build") for r in rows if r.get("build")))
    kinds = [("1 feed changed", "/one-"), ("1% changed", "/percent-"), ("nothing changed", "/nothing-")]

    def medians(build, marker):
        chosen = [results[k] for k in million if marker in k and k.endswith("-" + build)]
        if not chosen:
            return None
        return {key: statistics.median([r[key] if key != "written" else r["written"]["bytes"] for r in chosen])
                for key in ("wall_s", "cpu_s", "written")} | {"read": statistics.median([r.get("read_bytes") or 0 for r in chosen])}
    print("\nMedians of the runs, by build:\n")
    print("| publication | build | wall s | CPU s | read | written |")
    print("|---|---|---|---|---|---|")
    for label, marker in kinds:
        for build in builds:
            m = medians(build, marker)
            if m:
                print(f"| {label} | {build} | {m['wall_s']:.2f} | {m['cpu_s']:.2f} | {size(m['read'])} | {size(m['written'])} |")
    one, percent = medians("this", "/one-"), medians("this", "/percent-")
    nothing = medians("this", "/nothing-")
    if one and percent and nothing:
        per_feed = max(0.0, one["wall_s"] - nothing["wall_s"])
        model = nothing["wall_s"] + 10_000 * per_feed
        at_percent = (percent["wall_s"] - nothing["wall_s"]) / 10_000
        print(f"\nProportionality (this build, wall, medians): the constant is a publication with nothing changed, measured just "
              f"before the one-feed publication, {nothing['wall_s']:.2f} s; one changed feed adds {per_feed * 1000:,.0f} ms; "
              f"10,000 × that + the constant is {model:,.1f} s, and 1% changed took {percent['wall_s']:,.1f} s: "
              f"{percent['wall_s'] / max(model, 1e-9):.3f}× (issue 51's target: at most 1.5×). Each of the 10,000 feeds of a 1% "
              f"publication cost {at_percent * 1000:.1f} ms above the constant; the first publication, {results[million[0]]['wall_s'] * 1000 / 10_000:.1f} ms "
              "per feed.")

searches = sorted(k for k in results if re.fullmatch(r"f2/client/[0-9]+/search-[a-z]+", k))
if searches:
    print("\n## Searching the catalog's titles (issue 51)\n")
    print("`rss-pull BASE --search TEXT` against the same server: the index, a title group and the runs that can hold the matches "
          "(at most 50 shown). Every synthetic title starts \"Synthetic feed\".\n")
    print("| catalogued feeds | search | matches | requests | bytes on the wire | exit |")
    print("|---|---|---|---|---|---|")
    for key in searches:
        r = results[key]
        print(f"| {int(key.split('/')[2]):,} | {r['label']} | {r['matches']} | {r['wire']['requests']} | {size(r['wire']['wire_bytes'])} | {r['exit']} |")

print("\n## Client bytes per sync, 50 feeds followed\n")
print("`rss-pull` (the reference client) against `counting-server.py` serving the publication as object storage would "
      "(ETag, If-None-Match, HTTP/1.1 keep-alive, no compression, no TLS). Bytes on the wire: request lines and headers sent, "
      "status lines, headers and bodies received.\n")
print("| format | catalogued feeds | published | sync | requests | 304 | **bytes on the wire** | root | pointers | catalog | snapshots + deltas | exit |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for series in series_present():
    client_sizes = sorted({int(k.split("/")[2]) for k in results if k.startswith(f"{series}/client/")})
    for feeds in client_sizes:
        for phase in ("first", "again", "churn", "five"):
            c = results.get(f"{series}/client/{feeds}/{phase}")
            if not c:
                continue
            by = c["wire"]["by_kind"]

            def wire(*kinds):
                return sum(by.get(k, {}).get("wire_bytes", 0) for k in kinds)
            not_modified = sum(v["not_modified"] for v in by.values())
            pointers = size(wire("pointer")) if series == "f2" else "none"
            print(f"| {FORMATS[series][-1]} | {feeds:,} | {c['published']:,} | {c['label']} | {c['wire']['requests']} | {not_modified} | "
                  f"**{size(c['wire']['wire_bytes'])}** | {size(wire('root'))} | {pointers} | {size(wire('catalog', 'stable'))} | "
                  f"{size(wire('snapshot', 'delta'))} | {c['exit']} |")
if "f2" not in series_present():
    print(f"| 2 | 10,000 and 1,000,000 | | every sync | | | {PENDING} | | | | | |")
catalog_series = "f2" if "f2" in series_present() else "f1"
if at(catalog_series, "catalog", 1e6):
    print(f"\nA format-2 client fetches the catalog only when it has none, when a followed feed is missing from it, or when its copy is "
          f"older than `--catalog-max-age` (default 86,400 s): per client and day {size(at(catalog_series, 'catalog', 1e4))} at 10,000 "
          f"catalogued feeds, {size(at(catalog_series, 'catalog', 1e6))} at 1,000,000, {size(at(catalog_series, 'catalog', 1e7))} at "
          "10,000,000 (uncompressed), beside the syncs above. Format 1 fetches it whenever its version changed: every publication "
          "that changed a feed.")

h = results.get("hosts")
print("\n## Hosts of a real-world feed list and the per-host limit\n")
if h:
    print(f"`Scripts/bench/lib/feed-hosts.tsv`: {h['feeds']:,} public feeds on {h['hosts']:,} hosts; {h['single_feed_hosts']:,} hosts have "
          f"one feed; the 10 largest hold {h['top10_share']:.1%}. Per-host limit {PER_HOST} (`--per-host` default), {FETCH_SECONDS} s "
          f"per fetch, {NOT_MODIFIED_SECONDS} s per 304: a host of H feeds needs H × t / {PER_HOST} seconds per round; scaled "
          "to 1 M and 10 M feeds by its share of the list.\n")
    print("| host | feeds in the list | share | feeds at 1 M | s per round at 1 M (all 304 / all fetched) | feeds at 10 M | s per round at 10 M |")
    print("|---|---|---|---|---|---|---|")
    for host, count in h["top"][:8]:
        share = count / h["feeds"]
        at1, at10 = share * 1e6, share * 1e7
        print(f"| {host} | {count} | {share:.2%} | {at1:,.0f} | {at1 * NOT_MODIFIED_SECONDS / PER_HOST:,.0f} / "
              f"{at1 * FETCH_SECONDS / PER_HOST:,.0f} | {at10:,.0f} | {at10 * NOT_MODIFIED_SECONDS / PER_HOST:,.0f} / "
              f"{at10 * FETCH_SECONDS / PER_HOST:,.0f} |")
    print(f"\nAt {PER_HOST} transfers per host one host is refreshed hourly up to {3600 * PER_HOST / FETCH_SECONDS:,.0f} feeds "
          f"({3600 * PER_HOST / NOT_MODIFIED_SECONDS:,.0f} if every answer is a 304). Every feed of a host is in one shard, "
          "so shards do not lift this limit.\n")
    print("Shards by FNV-1a 64 of the host (`ShardAssignment`), the largest shard's share of the list's feeds:\n")
    print("| shards | largest shard | even share |")
    print("|---|---|---|")
    for count, s in sorted(h["shards"].items(), key=lambda kv: int(kv[0])):
        print(f"| {count} | {s['largest_share']:.1%} | {s['mean_share']:.1%} |")

print("\n## Shards for 10,000,000 feeds an hour\n")
feeds_per_second = 1e7 / 3600
cores = feeds_per_second * (CHANGED_SHARE * COLD_MS + (1 - CHANGED_SHARE) * WARM_MS) / 1000
bandwidth = feeds_per_second * (CHANGED_SHARE * BODY_KB + (1 - CHANGED_SHARE) * REQUEST_KB) * 8 / 1000
in_flight = feeds_per_second * (CHANGED_SHARE * FETCH_SECONDS + (1 - CHANGED_SHARE) * NOT_MODIFIED_SECONDS)
print(f"- Fetching, CPU: {feeds_per_second:,.0f} feeds/s; {COLD_MS} ms per changed feed, {WARM_MS} ms per unchanged one "
      f"(results/capacity.md), {CHANGED_SHARE:.0%} changed: {cores:.1f} cores.")
print(f"- Bandwidth in: {CHANGED_SHARE:.0%} × {BODY_KB} KB bodies + {REQUEST_KB} KB per 304: {bandwidth:,.0f} Mbit/s.")
print(f"- Transfers in flight: {in_flight:,.0f} ({FETCH_SECONDS} s per fetch, {NOT_MODIFIED_SECONDS} s per 304).")
for series in series_present():
    sizes = published_sizes(series)
    unchanged = results.get(f"{series}/publish/{max(sizes)}/unchanged") if sizes else None
    if unchanged:
        per_feed_ms = unchanged["cpu_s"] * 1000 / max(sizes)
        print(f"- Publishing, {FORMATS[series]}: a publication with nothing changed took {unchanged['cpu_s']:.1f} s of CPU at "
              f"{max(sizes):,} feeds ({per_feed_ms:.2f} ms per feed: every feed database is read for its fingerprint): "
              f"{per_feed_ms * 1e7 / 60000:,.0f} CPU minutes per publication at 10,000,000 in one shard, "
              f"{per_feed_ms * 1e7 / SHARD_COUNT / 60000:,.1f} in each of {SHARD_COUNT}.")
    changed = [results[k] for k in publish_keys(series, max(sizes)) if "/changed-" in k] if sizes else []
    if changed and len(sizes) > 1:
        small = [results[k] for k in publish_keys(series, min(sizes)) if "/changed-" in k]
        big_rss, small_rss = max(r["peak_rss_mib"] for r in changed), max(r["peak_rss_mib"] for r in small)
        per_feed_kb = (big_rss - small_rss) * 1024 / (max(sizes) - min(sizes))
        print(f"- Publisher memory, {FORMATS[series]}: peak RSS of a 1%-changed publication {small_rss:,.0f} MiB at {min(sizes):,} feeds, "
              f"{big_rss:,.0f} MiB at {max(sizes):,} ({per_feed_kb:.0f} KiB per feed): "
              f"~{(small_rss + per_feed_kb * (1e7 / SHARD_COUNT - min(sizes)) / 1024) / 1024:,.1f} GiB for a shard of "
              f"{1e7 / SHARD_COUNT:,.0f} feeds, ~{(small_rss + per_feed_kb * (1e7 - min(sizes)) / 1024) / 1024:,.0f} GiB for 10,000,000 in one.")
    per_feed, fixed = slope(series, "record")
    if per_feed:
        shards = max(1, -(-int(fixed + per_feed * 1e7) // int(RECORD_BUDGET)))
        print(f"- Publisher record, {FORMATS[series]}: {per_feed:,.0f} bytes per feed, written whole by every publication: "
              f"{size(fixed + per_feed * 1e7)} at 10,000,000 in one shard; at most {size(RECORD_BUDGET)} per publication takes "
              f"{shards} shards.")
print("- Per-host limits: not lifted by shards (above): the largest hosts need a higher `--per-host` or a longer interval.")
