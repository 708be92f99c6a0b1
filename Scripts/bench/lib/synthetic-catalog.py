#!/usr/bin/env python3
"""A data directory of N catalogued feeds, made in minutes rather than by fetching N feeds, for
the capacity model (Scripts/bench/drivers/capacity-model). Publishing does not fetch, so what it
needs is a catalog and feed databases in the shapes the real commands write:

  synthetic-catalog.py make TEMPLATE_DATA OUT_DATA FEEDS [--databases M] [--hosts HOSTS_TSV] [--seed S]
  synthetic-catalog.py change DATA --percent P | --ids 1,2,3 [--round R] [--exclude 4,5] [--seed S]

`make`: TEMPLATE_DATA is a data directory the real `rss-create` wrote (the driver runs it over
a small seeded corpus), so every schema, migration row and column default is the real one. The
catalog is that catalog emptied and filled with FEEDS rows in one transaction (feeds, about,
last_update, fetch_state: each row a copy of a template row with its own feedid, URL, title and
origin URL); feeds 1…M (M = FEEDS unless --databases) get a database: a copy of a template
feed database, taken round-robin, stamped for its feed as FeedStorage stamps it (the
`feedmill_feed` row and the header's application_id, the first 32 bits of SHA-256 over
"<feedid>\\x1F<origin URL>", which `FeedDatabase.mismatch` checks before a feed is published).
Catalogued feeds without a database are feeds not fetched yet: the publisher lists them in the
catalog and publishes no snapshot for them. URLs follow a real-world host shape when
--hosts names a histogram (host<TAB>count, Scripts/bench/lib/feed-hosts.tsv): a feed's host is
drawn with the histogram's weights, a host of one feed there becoming a host of its own here.

`change`: adds one entry to each chosen feed's database, as an update that found a new entry
does (a new row, the next change sequence; its `last_update` row in the catalog; in a catalog
with the change log, the run's mark raised and the feed marked around its commit, as
`rss-update` does), in a copy renamed over the file (so a database
hard-linked into another data directory is not changed there). --percent picks that share of
the feeds that have a database (seeded), less --exclude; prints the ids changed, one a line.
"""
import argparse
import hashlib
import os
import random
import shutil
import sqlite3
import struct
import sys
import time


def application_id(feed_id, origin_url):
    """FeedIdentity.applicationID: the first 32 bits of SHA-256("<id>\\x1F<url>"), signed; never 0."""
    digest = hashlib.sha256(f"{feed_id}\x1f{origin_url}".encode()).digest()
    value = struct.unpack(">I", digest[:4])[0]
    value = 1 if value == 0 else value
    return struct.unpack(">i", struct.pack(">I", value))[0]


def host_sampler(hosts_tsv, seed):
    """A function feedid -> host: the histogram's multi-feed hosts with their weights, and the
    rest (hosts of one feed) as hosts of their own."""
    rng = random.Random(seed)
    shared, singles = [], 0
    with open(hosts_tsv) as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            host, count = line.rstrip("\n").split("\t")
            if int(count) > 1:
                shared.append((host, int(count)))
            else:
                singles += 1
    total = sum(c for _, c in shared) + singles
    names = [h for h, _ in shared] + [None]
    weights = [c / total for _, c in shared] + [singles / total]

    def sample(feed_id):
        host = rng.choices(names, weights)[0]
        return host or f"blog{feed_id}.example.net"
    return sample


def make(args):
    templates = sorted(
        (os.path.join(args.template, n) for n in os.listdir(args.template) if n.startswith("feed_") and n.endswith(".sqlite")),
        key=lambda p: int(os.path.basename(p)[5:-7]))
    if not templates:
        sys.exit(f"{args.template}: no feed_<id>.sqlite to copy")
    databases = args.feeds if args.databases is None else min(args.databases, args.feeds)
    os.makedirs(args.out, exist_ok=True)
    if os.listdir(args.out):
        sys.exit(f"{args.out} is not empty")
    started = time.monotonic()
    catalog_path = os.path.join(args.out, "all_feeds.sqlite")
    shutil.copyfile(os.path.join(args.template, "all_feeds.sqlite"), catalog_path)
    db = sqlite3.connect(catalog_path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    rows = {t: db.execute(f"SELECT * FROM {t} ORDER BY feedid").fetchall() for t in ("feeds", "about", "last_update", "fetch_state")}
    columns = {t: [c[1] for c in db.execute(f"PRAGMA table_info({t})")] for t in rows}
    sample = host_sampler(args.hosts, args.seed) if args.hosts else (lambda i: f"blog{i}.example.net")
    db.execute("BEGIN")
    for table in rows:
        db.execute(f"DELETE FROM {table}")
    now = int(time.time())
    inserts = {t: f"INSERT INTO {t} ({', '.join(columns[t])}) VALUES ({', '.join('?' * len(columns[t]))})" for t in rows}
    batch = {t: [] for t in rows}

    def flush():
        for table, values in batch.items():
            db.executemany(inserts[table], values)
            values.clear()
    for feed_id in range(1, args.feeds + 1):
        url = f"https://{sample(feed_id)}/feeds/{feed_id}.xml"
        title = f"Synthetic feed {feed_id}"
        for table in rows:
            row = dict(zip(columns[table], rows[table][(feed_id - 1) % len(rows[table])]))
            row["feedid"] = feed_id
            if table == "feeds":
                row["url"] = url
            elif table == "about":
                row["title"] = title
            elif table == "last_update":
                row["when_unix_time"] = now
            elif table == "fetch_state":
                row["origin_url"] = url
                row["opml_title"] = title
            batch[table].append([row[c] for c in columns[table]])
        if feed_id % 50_000 == 0:
            flush()
    flush()
    db.execute("UPDATE feedmill_catalog SET value = ? WHERE key = 'feedid_high_water'", (args.feeds,))
    db.execute("COMMIT")
    catalog_seconds = time.monotonic() - started
    urls = {}
    for feed_id, url in db.execute("SELECT feedid, url FROM feeds WHERE feedid <= ?", (databases,)):
        urls[feed_id] = url
    db.close()
    if args.link_from:
        # The databases of another synthetic directory made with the same seed: the same URLs.
        other = sqlite3.connect(os.path.join(args.link_from, "all_feeds.sqlite"))
        theirs = dict(other.execute("SELECT feedid, url FROM feeds WHERE feedid <= ?", (databases,)))
        other.close()
        if theirs != urls:
            sys.exit(f"{args.link_from}: its first {databases} feeds have other URLs; make both with the same --seed and --hosts")
        for feed_id in range(1, databases + 1):
            os.link(os.path.join(args.link_from, f"feed_{feed_id}.sqlite"), os.path.join(args.out, f"feed_{feed_id}.sqlite"))
        databases = 0
    if args.link_beyond is not None:
        # Past the first N, each feed's file is a hard link to a template's, unstamped: for a
        # benchmark that never opens those feeds (an update run where only the first N are
        # due checks that the others' files exist), a million databases in no disk at all.
        for feed_id in range(args.link_beyond + 1, databases + 1):
            os.link(templates[(feed_id - 1) % len(templates)], os.path.join(args.out, f"feed_{feed_id}.sqlite"))
        databases = min(databases, args.link_beyond)
    for feed_id in range(1, databases + 1):
        path = os.path.join(args.out, f"feed_{feed_id}.sqlite")
        shutil.copyfile(templates[(feed_id - 1) % len(templates)], path)
        feed = sqlite3.connect(path, isolation_level=None)
        feed.execute("PRAGMA synchronous=OFF")
        feed.execute("BEGIN")
        feed.execute("UPDATE feedmill_feed SET feedid = ?, origin_url = ?", (feed_id, urls[feed_id]))
        feed.execute("COMMIT")
        feed.execute(f"PRAGMA application_id = {application_id(feed_id, urls[feed_id])}")
        feed.close()
    os.sync()
    print(f"{args.out}: {args.feeds} catalogued feeds, {len(urls)} databases from {len(templates)} templates; "
          f"catalog {catalog_seconds:.1f} s, all {time.monotonic() - started:.1f} s", file=sys.stderr)


def change(args):
    names = [n for n in os.listdir(args.data) if n.startswith("feed_") and n.endswith(".sqlite")]
    present = sorted(int(n[5:-7]) for n in names)
    if args.ids:
        chosen = [int(i) for i in args.ids.split(",")]
    else:
        excluded = set(int(i) for i in args.exclude.split(",")) if args.exclude else set()
        candidates = [i for i in present if i not in excluded]
        count = max(1, round(len(present) * args.percent / 100))
        chosen = sorted(random.Random(args.seed).sample(candidates, count))
    now = int(time.time())
    catalog = sqlite3.connect(os.path.join(args.data, "all_feeds.sqlite"), isolation_level=None)
    # A catalog with the change log (issue 51): marked as an update run marks, the run's mark
    # raised first, each feed `writing` before its commit and marked after.
    logged = catalog.execute("SELECT 1 FROM sqlite_master WHERE name = 'feed_changes'").fetchone() is not None
    if logged:
        catalog.execute("BEGIN")
        catalog.execute("INSERT INTO feedmill_catalog (key, value) VALUES ('changes_clock', ?) "
                        "ON CONFLICT(key) DO UPDATE SET value = MAX(value, excluded.value, "
                        "(SELECT IFNULL(MAX(change_seq), 0) FROM feed_changes) + 1)", (now,))
        catalog.executemany("INSERT INTO feed_changes (feedid, change_seq, writing) VALUES (?, 0, 1) "
                            "ON CONFLICT(feedid) DO UPDATE SET writing = 1", [(i,) for i in chosen])
        catalog.execute("COMMIT")
    for feed_id in chosen:
        path = os.path.join(args.data, f"feed_{feed_id}.sqlite")
        scratch = path + ".capacity-change"
        shutil.copyfile(path, scratch)
        feed = sqlite3.connect(scratch, isolation_level=None)
        feed.execute("PRAGMA synchronous=OFF")
        feed.execute("BEGIN")
        columns = [c[1] for c in feed.execute("PRAGMA table_info(items)")]
        row = dict(zip(columns, feed.execute("SELECT * FROM items ORDER BY rowid LIMIT 1").fetchone()))
        sequence = feed.execute("SELECT IFNULL(MAX(change_seq), 0) + 1 FROM items").fetchone()[0]
        row.update(id=f"capacity-{feed_id}-{args.round}-{time.time_ns()}", title=f"Entry {args.round} of feed {feed_id}",
                   permalink=f"https://site.example/{feed_id}/{args.round}", pubdate_unix_time=now,
                   first_seen_unix_time=now, change_seq=sequence,
                   content_hash=hashlib.sha256(f"{feed_id}/{args.round}".encode()).hexdigest())
        feed.execute(f"INSERT INTO items ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", [row[c] for c in columns])
        feed.execute("COMMIT")
        feed.close()
        os.replace(scratch, path)
    catalog.execute("BEGIN")
    catalog.executemany("UPDATE last_update SET when_unix_time = ? WHERE feedid = ?", [(now, i) for i in chosen])
    if logged:
        mark = catalog.execute("SELECT MAX(IFNULL((SELECT value FROM feedmill_catalog WHERE key = 'changes_clock'), 0), "
                               "IFNULL((SELECT MAX(change_seq) FROM feed_changes), 0))").fetchone()[0]
        catalog.executemany("UPDATE feed_changes SET writing = 0, change_seq = ? WHERE feedid = ?", [(mark, i) for i in chosen])
    catalog.execute("COMMIT")
    catalog.close()
    print("\n".join(str(i) for i in chosen))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("make")
    m.add_argument("template")
    m.add_argument("out")
    m.add_argument("feeds", type=int)
    m.add_argument("--databases", type=int)
    m.add_argument("--hosts")
    m.add_argument("--link-from")
    m.add_argument("--link-beyond", type=int, help="feeds past this id get a hard link to a template's file, not a stamped copy")
    m.add_argument("--seed", type=int, default=41)
    c = commands.add_parser("change")
    c.add_argument("data")
    c.add_argument("--percent", type=float, default=1.0)
    c.add_argument("--ids")
    c.add_argument("--exclude")
    c.add_argument("--round", type=int, default=1)
    c.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    make(args) if args.command == "make" else change(args)


if __name__ == "__main__":
    main()
