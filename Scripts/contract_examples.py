"""Small publications built by hand from docs/client-contract.md (Python's sqlite3, no Feedmill
code), valid ones and broken ones: the self-tests of Scripts/validate-contract and
Scripts/content-digest. Not a command; those two load it for --self-test.
"""
import copy
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile

FEED_COLUMNS = [
    "id", "title", "summary", "pubdate_unix_time", "permalink", "updated_unix_time", "author",
    "first_seen_unix_time", "pubdate_is_first_seen", "image_url", "enclosures_json", "categories_json", "authors_json",
]
FEED_TABLE = (
    "CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT NOT NULL, summary TEXT NOT NULL, pubdate_unix_time INTEGER NOT NULL, "
    "permalink TEXT, updated_unix_time INTEGER, author TEXT, first_seen_unix_time INTEGER, pubdate_is_first_seen INTEGER NOT NULL, "
    "image_url TEXT, enclosures_json TEXT, categories_json TEXT, authors_json TEXT)"
)
CATALOG_TABLES = [
    "CREATE TABLE feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL)",
    "CREATE TABLE about (feedid INTEGER PRIMARY KEY, title TEXT, link TEXT, description TEXT, image_url TEXT, language TEXT)",
    "CREATE TABLE last_update (feedid INTEGER PRIMARY KEY, when_unix_time INTEGER)",
]
SCHEMA_VERSION = 2


def encode(document):
    """As the publisher encodes a root or a pointer: sorted keys, pretty, "/" unescaped, a newline."""
    return (json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def item(item_id, title):
    return [item_id, title, f"<p>{title}</p>", 1700000000, f"https://site.example/{item_id}", None, "Ann", 1700000100, 0,
            None, '[{"url":"https://site.example/a.mp3","type":"audio/mpeg"}]', None, None]


def sqlite_bytes(statements, rows_by_table):
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "snapshot.sqlite")
        connection = sqlite3.connect(path)
        connection.execute("PRAGMA synchronous = OFF")
        for statement in statements:
            connection.execute(statement)
        for table, rows in rows_by_table.items():
            for row in rows:
                connection.execute(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in row)})", row)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.commit()
        connection.close()
        with open(path, "rb") as file:
            return file.read()


class Builder:
    """Writes one publication directory. digest(path) gives a snapshot's content digest."""

    def __init__(self, directory, digest):
        self.directory = directory
        self.digest = digest
        os.makedirs(directory, exist_ok=True)

    def path(self, name):
        return os.path.join(self.directory, name)

    def put(self, name, data):
        with open(self.path(name), "wb") as file:
            file.write(data)

    def addressed(self, prefix, suffix, data, write=True):
        sha = hashlib.sha256(data).hexdigest()
        name = f"{prefix}.{sha}.{suffix}"
        if write:
            self.put(name, data)
        return name, sha, len(data)

    def feed(self, feedid, version, ids, write=True):
        """A feed snapshot of items ids: its entry's fields (no shard, generation, publication)."""
        data = sqlite_bytes([FEED_TABLE], {"items": [item(i, f"Item {i}") for i in ids]})
        name, sha, size = self.addressed(f"feed_{feedid}", "sqlite", data, write)
        with tempfile.TemporaryDirectory() as scratch:
            copy_path = os.path.join(scratch, "copy.sqlite")
            with open(copy_path, "wb") as file:
                file.write(data)
            content_digest = self.digest(copy_path)
        return {"name": f"feed_{feedid}.sqlite", "file": name, "version": version, "sha256": sha, "size": size,
                "item_count": len(ids), "last_update_unix_time": 1700000000 + version, "schema_version": SCHEMA_VERSION,
                "content_digest": content_digest, "deltas": []}

    def delta(self, feed, old, new, old_ids, new_ids, prefix=None, **changes):
        """The delta from entry old to entry new (changes: fields to break), named in new."""
        document = {
            "format": "feedmill-delta", "format_version": 1, "feedid": feed, "from_version": old["version"],
            "to_version": new["version"], "schema_version": SCHEMA_VERSION, "to_content_digest": new["content_digest"],
            "columns": FEED_COLUMNS, "upserts": [item(i, f"Item {i}") for i in sorted(set(new_ids) - set(old_ids))],
            "deletes": sorted(set(old_ids) - set(new_ids)),
        }
        document.update(changes)
        data = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        if prefix:
            name, sha, size = prefix, hashlib.sha256(data).hexdigest(), len(data)
            self.put(name, data)
        else:
            name, sha, size = self.addressed(f"feed_{feed}", "delta.json", data)
        new["deltas"].append({"from_version": old["version"], "file": name, "sha256": sha, "size": size})

    def catalog(self, version, feeds):
        rows = {
            "feeds": [(f, f"https://host{f}.example/feed.xml") for f in feeds],
            "about": [(f, f"Feed {f}", f"https://host{f}.example/", None, None, "en") for f in feeds],
            "last_update": [(f, 1700000000) for f in feeds],
        }
        data = sqlite_bytes(CATALOG_TABLES, rows)
        name, sha, size = self.addressed("all_feeds", "sqlite", data)
        self.put("all_feeds.sqlite", data)
        return {"name": "all_feeds.sqlite", "file": name, "version": version, "sha256": sha, "size": size,
                "feed_count": len(feeds), "schema_version": SCHEMA_VERSION, "content_digest": self.digest(self.path(name))}

    def browse_index(self, feeds, mutate=None):
        """The catalog's index for browsing (format 2): page 0 of feeds (ids under 250), named
        by page group 0; their titles in one run, named by one title group. mutate(level,
        document) may break a document before it is named (levels: page, page-entry, group,
        group-entry, run, run-entry, title-group, title-group-entry, index). The root's
        catalog_index."""
        mutate = mutate or (lambda level, document: None)

        def named(prefix, document, level):
            mutate(level, document)
            data = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            return self.addressed(prefix, "json", data)

        def entry(level, name, sha, size, **fields):
            document = dict(fields, file=name, sha256=sha, size=size)
            mutate(level + "-entry", document)
            return document
        rows = [{"feedid": f, "url": f"https://host{f}.example/feed.xml", "title": f"Feed {f}", "last_update_unix_time": 1700000000}
                for f in feeds]
        page = entry("page", *named("catalog_page_0", {"format": "feedmill-catalog-page", "format_version": 1, "page": 0, "feeds": rows}, "page"),
                     page=0, count=len(rows))
        group = entry("group", *named("catalog_pages_0", {"format": "feedmill-catalog-page-group", "format_version": 1, "group": 0,
                                                          "pages": [page]}, "group"), group=0, pages=1, count=len(rows))
        titles = [{"key": f"feed {f}", "feedid": f, "title": f"Feed {f}"} for f in feeds]
        run = entry("run", *named("catalog_titles", {"format": "feedmill-catalog-titles", "format_version": 2, "titles": titles}, "run"),
                    first_key=titles[0]["key"], first_feedid=titles[0]["feedid"], count=len(titles))
        title_group = entry("title-group", *named("catalog_title_group", {"format": "feedmill-catalog-title-group", "format_version": 1,
                                                                          "chunks": [run]}, "title-group"),
                            first_key=run["first_key"], first_feedid=run["first_feedid"], chunks=1, count=len(titles))
        name, sha, size = named("catalog_index", {"format": "feedmill-catalog-index", "format_version": 2, "page_size": 250, "group_size": 64,
                                                  "feed_count": len(rows), "page_groups": [group], "title_count": len(titles),
                                                  "title_groups": [title_group]}, "index")
        return {"file": name, "sha256": sha, "size": size}

    def record(self, shard_file_label, text):
        name, sha, _ = self.addressed(f"publisher.{shard_file_label}", "json", text.encode())
        return name, sha[:16]

    def pointer(self, feedid, entries):
        self.put(f"feed_{feedid}.json", encode({"format": "feedmill-feed-pointer", "format_version": 2, "feedid": feedid, "entries": entries}))

    def edit(self, name, change):
        with open(self.path(name), encoding="utf-8") as file:
            document = json.load(file)
        change(document)
        self.put(name, encode(document))


def at(entry, shard, generation, publication):
    return dict(entry, shard=shard, generation=generation, publication=publication)


def format2(directory, digest, sharded=False):
    """A format-2 publication: root generation 2 (3 when sharded), four pointers.

    feed 1: v2 (generation 2) with a delta from v1, and v1 (generation 1) still named;
    feed 2: v1 of generation 1; feed 3: v2 in flight (generation 3, its snapshot never
    written: a publisher killed before) and v1 of generation 2; feed 4: removed from the
    catalog, its pointer not retired yet. Sharded: feed 2 is shard 2/2's, the rest 1/2's.
    Returns the entries by (feedid, version).
    """
    build = Builder(directory, digest)
    one = "1/2" if sharded else "1/1"
    record_one, pub_b = build.record("1of2" if sharded else "1of1", '{"publication": "B"}\n')
    pub_a = hashlib.sha256(b"publication A").hexdigest()[:16]
    pub_c = hashlib.sha256(b"publication C").hexdigest()[:16]
    shards = {one: {"generation": 2, "publication": pub_b, "record": record_one}}
    two, gen_two, pub_two = one, 1, pub_a
    if sharded:
        record_two, pub_d = build.record("2of2", '{"publication": "D"}\n')
        shards["2/2"] = {"generation": 1, "publication": pub_d, "record": record_two}
        two, pub_two = "2/2", pub_d
    entries = {}
    entries[1, 1] = at(build.feed(1, 1, ["a", "b"]), one, 1, pub_a)
    entries[1, 2] = at(build.feed(1, 2, ["a", "c"]), one, 2, pub_b)
    build.delta(1, entries[1, 1], entries[1, 2], ["a", "b"], ["a", "c"])
    entries[2, 1] = at(build.feed(2, 1, ["x"]), two, gen_two, pub_two)
    entries[3, 1] = at(build.feed(3, 1, ["p"]), one, 2, pub_b)
    entries[3, 2] = at(build.feed(3, 2, ["p", "q"], write=False), one, 3, pub_c)
    entries[4, 1] = at(build.feed(4, 1, ["z"]), one, 1, pub_a)
    build.pointer(1, [entries[1, 2], entries[1, 1]])
    build.pointer(2, [entries[2, 1]])
    build.pointer(3, [entries[3, 2], entries[3, 1]])
    build.pointer(4, [entries[4, 1]])
    root = {
        "format": "feedmill-manifest", "format_version": 2, "generation": 3 if sharded else 2, "shards": shards,
        "catalog": build.catalog(2, [1, 2, 3]), "feed_pointer": "feed_{feedid}.json", "atom": "atom.xml", "index": "index.html",
    }
    if not sharded:
        root["catalog_index"] = build.browse_index([1, 2, 3])
    build.put("manifest.json", encode(root))
    return build, entries


def format1(directory, digest):
    """A format-1 publication: feed 1 at v2 with a delta from v1 (kept in history), feed 2 at v1."""
    build = Builder(directory, digest)
    catalog = build.catalog(1, [1, 2])
    os.rename(build.path(catalog["file"]), build.path("all_feeds.v1.sqlite"))
    catalog.update(file="all_feeds.v1.sqlite", source_fingerprint="x")
    feeds = {}
    for feedid, version, ids in [(1, 1, ["a", "b"]), (1, 2, ["a", "c"]), (2, 1, ["x"])]:
        entry = build.feed(feedid, version, ids)
        fixed = f"feed_{feedid}.v{version}.sqlite"
        os.rename(build.path(entry["file"]), build.path(fixed))
        entry.update(feedid=feedid, file=fixed, source_fingerprint="1:1", history=[])
        feeds[feedid, version] = entry
    build.delta(1, feeds[1, 1], feeds[1, 2], ["a", "b"], ["a", "c"], prefix="feed_1.v1-v2.delta.json")
    feeds[1, 2]["history"] = [{"version": 1, "file": "feed_1.v1.sqlite", "sha256": feeds[1, 1]["sha256"]}]
    manifest = {
        "format": "feedmill-manifest", "format_version": 1, "generation": 2, "catalog": catalog,
        "feeds": [feeds[1, 2], feeds[2, 1]], "atom": "atom.xml", "index": "index.html",
        "stable_files": ["all_feeds.sqlite"], "retired_files": [],
    }
    build.put("manifest.json", encode(manifest))
    build.put(".feedmill-publisher.json", encode(manifest))
    return build, feeds


def fake_digest(path):
    """The validator does not compute content digests: any digest that differs per file will do."""
    with open(path, "rb") as file:
        return "sha256:" + hashlib.sha256(b"rows of " + file.read()).hexdigest()


# The validator's cases: (name, builder, change, what the rejection must say).

def first_entry(feedid, change):
    def edit(build, entries):
        build.edit(f"feed_{feedid}.json", lambda p: change(p["entries"][0]))
    return edit


def remove(name_of):
    def edit(build, entries):
        os.remove(build.path(name_of(entries)))
    return edit


def rewrite_delta(**changes):
    def edit(build, entries):
        new = copy.deepcopy(entries[1, 2])
        new["deltas"] = []
        build.delta(1, entries[1, 1], new, ["a", "b"], ["a", "c"], **changes)
        build.edit("feed_1.json", lambda p: p["entries"][0].update(deltas=new["deltas"]))
    return edit


def in_flight_taken_as_usable(build, entries):
    # The in-flight entry is whole; the one a client uses names a file that is gone.
    build.feed(3, 2, ["p", "q"])
    os.remove(build.path(entries[3, 1]["file"]))


def loser_taken_as_usable(build, entries):
    # The first entry is another publication's of the committed generation (a loser of a race).
    build.edit("feed_1.json", lambda p: p["entries"][0].update(publication="0123456789abcdef"))
    os.remove(build.path(entries[1, 1]["file"]))


def root(change):
    def edit(build, entries):
        build.edit("manifest.json", change)
    return edit


def catalog(change):
    return root(lambda r: change(r["catalog"]))


def browse(level, change):
    """The catalog's index built again with the document at level broken by change."""
    def edit(build, entries):
        index = build.browse_index([1, 2, 3], lambda at, document: change(document) if at == level else None)
        build.edit("manifest.json", lambda r: r.update(catalog_index=index))
    return edit


OTHER_SHA = hashlib.sha256(b"other").hexdigest()

FORMAT2_BROKEN = [
    ("pointer-feedid-differs-from-name", lambda b, e: b.edit("feed_2.json", lambda p: p.update(feedid=3)),
     "feed_2.json: /feedid: 3, but the pointer's name says 2"),
    ("usable-entry-names-a-missing-snapshot", remove(lambda e: e[2, 1]["file"]), "feed_2.json: /entries/0/file: feed_2."),
    ("upper-case-hex", first_entry(2, lambda e: e.update(sha256=e["sha256"].upper())), "feed_2.json: /entries/0/sha256:"),
    ("name-hex-is-not-the-sha256", first_entry(2, lambda e: e.update(sha256=OTHER_SHA)), "but the entry says " + OTHER_SHA),
    ("wrong-size", first_entry(2, lambda e: e.update(size=e["size"] + 1)), "bytes, the entry says"),
    ("in-flight-entry-taken-as-usable", in_flight_taken_as_usable, "feed_3.json: /entries/1/file: feed_3."),
    ("loser-entry-taken-as-usable", loser_taken_as_usable, "feed_1.json: /entries/1/file: feed_1."),
    ("another-feeds-file", lambda b, e: b.edit("feed_2.json", lambda p: p["entries"][0].update(
        file=e[1, 2]["file"], sha256=e[1, 2]["sha256"], size=e[1, 2]["size"])), "is another feed's file"),
    ("another-feeds-name", first_entry(2, lambda e: e.update(name="feed_1.sqlite")), "is not feed_2.sqlite"),
    ("delta-to-another-version", rewrite_delta(to_version=3), "/to_version: 3"),
    ("delta-from-another-version", first_entry(1, lambda e: e["deltas"][0].update(from_version=2)), "/from_version: 1"),
    ("delta-to-another-digest", rewrite_delta(to_content_digest="sha256:" + OTHER_SHA), "/to_content_digest"),
    ("delta-row-too-short", rewrite_delta(upserts=[item("c", "Item c")[:-1]]), "12 values for 13 columns"),
    ("delta-id-upserted-and-deleted", rewrite_delta(deletes=["b", "c"]), "both upserted and deleted"),
    ("delta-of-another-feed", rewrite_delta(feedid=2), "/feedid: 2"),
    ("delta-missing", lambda b, e: os.remove(b.path(e[1, 2]["deltas"][0]["file"])), "/entries/0/deltas/0: feed_1."),
    ("missing-catalog", lambda b, e: [os.remove(b.path(n)) for n in os.listdir(b.directory) if n.startswith("all_feeds.") and n != "all_feeds.sqlite"],
     "manifest.json: /catalog/file: all_feeds."),
    ("catalog-feed-count", catalog(lambda c: c.update(feed_count=4)), "the entry says feed_count 4"),
    ("catalog-hex-is-not-the-sha256", catalog(lambda c: c.update(sha256=OTHER_SHA)), "carries sha256"),
    ("record-of-another-shard", root(lambda r: r["shards"]["1/1"].update(record=r["shards"]["1/1"]["record"].replace("1of1", "2of2"))),
     "is another shard's record"),
    ("publication-not-the-records", root(lambda r: r["shards"]["1/1"].update(publication="0123456789abcdef")), "first 16 hex"),
    ("shard-generation-above-the-root", root(lambda r: r.update(generation=1)), "above the root's generation 1"),
    ("unknown-format-version", root(lambda r: r.update(format_version=3)), "format_version 3 is not one"),
    ("root-without-shards", root(lambda r: r.update(shards={})), "manifest.json: /shards:"),
    ("root-without-catalog", root(lambda r: r.pop("catalog")), "'catalog' is a required property"),
    ("entries-not-newest-first", lambda b, e: b.edit("feed_1.json", lambda p: p["entries"].reverse()), "entries are newest first"),
    ("item-count", first_entry(2, lambda e: e.update(item_count=5)), "the entry says item_count 5"),
    ("schema-version", first_entry(2, lambda e: e.update(schema_version=1)), "PRAGMA user_version 2"),
    ("pointer-not-json", lambda b, e: b.put("feed_2.json", b"{"), "feed_2.json: unreadable"),
    ("pointer-without-entries", lambda b, e: b.edit("feed_2.json", lambda p: p.update(entries=[])), "feed_2.json: /entries:"),
    ("pointer-of-another-format", lambda b, e: b.edit("feed_2.json", lambda p: p.update(format="feedmill-manifest")), "feed_2.json: /format:"),
    ("snapshot-path-outside", first_entry(2, lambda e: e.update(file="../feed_2." + e["sha256"] + ".sqlite")), "feed_2.json: /entries/0/file:"),
    ("delta-name-upper-hex", first_entry(1, lambda e: e["deltas"][0].update(file=e["deltas"][0]["file"].upper().replace("FEED_", "feed_"))),
     "feed_1.json: /entries/0/deltas/0/file:"),
    ("publication-short", first_entry(2, lambda e: e.update(publication="abc")), "feed_2.json: /entries/0/publication:"),
    ("catalog-index-format-1", browse("index", lambda i: i.update(format_version=1)), "/format_version: 2 was expected"),
    ("catalog-page-of-another-group", browse("page-entry", lambda p: p.update(page=64)), "a page outside group 0"),
    ("catalog-feed-of-another-page", browse("page", lambda p: p["feeds"].append({"feedid": 250, "url": "https://x.example/"})),
     "a feedid outside page 0"),
    ("catalog-group-count", browse("group-entry", lambda g: g.update(count=4)), "/page_groups/0/count: 4"),
    ("catalog-page-missing", lambda b, e: [os.remove(b.path(n)) for n in os.listdir(b.directory) if n.startswith("catalog_page_0.")],
     "/pages/0/file: catalog_page_0."),
    ("catalog-titles-out-of-order", browse("run", lambda r: r["titles"].reverse()), "not in the order of their keys' UTF-8"),
    ("catalog-title-missing", browse("run", lambda r: r["titles"].pop()), "do not list the pages' titled feeds"),
    ("catalog-run-too-long", browse("run-entry", lambda r: r.update(count=2049)), "/chunks/0/count: 2049"),
    ("catalog-title-group-first-key", browse("title-group-entry", lambda g: g.update(first_key="a")),
     "first_key and first_feedid are not its first run's"),
]

# The format-1 manifest and delta changes the validator refused before format 2, as files:
# (name, change, what the rejection must say).
FORMAT1_FILE_BROKEN = [
    ("no-digest.manifest.json", lambda m: m["feeds"][0].pop("content_digest"), "'content_digest' is a required property"),
    ("upper-hex.manifest.json", lambda m: m["feeds"][0].update(sha256=m["feeds"][0]["sha256"].upper()), '/feeds/0/sha256:'),
    ("format-2.manifest.json", lambda m: m.update(format_version=2), "'shards' is a required property"),
    ("other-format.manifest.json", lambda m: m.update(format="something-else"), '/format:'),
    ("no-format.manifest.json", lambda m: m.pop("format"), "'format' is a required property"),
    ("generation-text.manifest.json", lambda m: m.update(generation="2"), '/generation:'),
    ("generation-past-2-53.manifest.json", lambda m: m.update(generation=9007199254740993), '/generation:'),
    ("negative-size.manifest.json", lambda m: m["catalog"].update(size=-1), '/catalog/size:'),
    ("short-digest.manifest.json", lambda m: m["feeds"][0].update(content_digest="sha256:abc"), '/feeds/0/content_digest:'),
    ("path-delta.manifest.json", lambda m: m["feeds"][0]["deltas"][0].update(file="../victim.delta.json"), '/feeds/0/deltas/0/file:'),
    ("real-value.delta.json", lambda d: d["upserts"][0].__setitem__(3, 1.5), '/upserts/0/3:'),
    ("no-schema.delta.json", lambda d: d.pop("schema_version"), "'schema_version' is a required property"),
    ("bad-digest.delta.json", lambda d: d.update(to_content_digest="sha1:00"), '/to_content_digest:'),
    ("id-not-first.delta.json", lambda d: d["columns"].reverse(), '/columns/0:'),
]

FORMAT1_BROKEN = [
    ("format1-missing-snapshot", lambda b, f: os.remove(b.path("feed_2.v1.sqlite")), "manifest.json: /feeds/1/file: feed_2.v1.sqlite does not exist"),
    ("format1-missing-history", lambda b, f: os.remove(b.path("feed_1.v1.sqlite")), "/feeds/0/history/0/file: feed_1.v1.sqlite does not exist"),
    ("format1-delta-of-another-version", lambda b, f: b.edit("manifest.json", lambda m: m["feeds"][0]["deltas"][0].update(from_version=2)),
     "is not feed_1.v2-v2.delta.json"),
]


def run(validate, arguments):
    lines = []
    status = validate(arguments, out=lines.append)
    return status, "\n".join(lines)


def self_test(validate):
    """The validator's self-test: every valid example accepted, every broken one rejected for its reason."""
    failures, accepted, rejected = [], 0, 0
    with tempfile.TemporaryDirectory() as scratch:
        def expect(name, arguments, valid, reason=None):
            nonlocal accepted, rejected
            status, output = run(validate, arguments)
            if valid and status == 0:
                accepted += 1
                print(f"self-test: accepted {name}")
            elif not valid and status == 1 and (reason is None or reason in output):
                rejected += 1
                print(f"self-test: rejected {name}: {first_problem(output, reason)}")
            else:
                failures.append(name)
                wanted = "accepted" if valid else f"rejected with {reason!r}"
                print(f"self-test: FAILED {name}: status {status}, wanted {wanted}; output:\n{output}")

        for sharded in (False, True):
            name = "format-2" + ("-sharded" if sharded else "")
            format2(os.path.join(scratch, name), fake_digest, sharded)
            expect(name, [os.path.join(scratch, name)], True)
        for name, change, reason in FORMAT2_BROKEN:
            directory = os.path.join(scratch, name)
            build, entries = format2(directory, fake_digest)
            change(build, entries)
            expect(name, [directory], False, reason)
        format1(os.path.join(scratch, "format-1"), fake_digest)
        expect("format-1", [os.path.join(scratch, "format-1")], True)
        for name, change, reason in FORMAT1_BROKEN:
            directory = os.path.join(scratch, name)
            build, feeds = format1(directory, fake_digest)
            change(build, feeds)
            expect(name, [directory], False, reason)
        valid_files = [os.path.join(scratch, "format-1", n) for n in ("manifest.json", ".feedmill-publisher.json", "feed_1.v1-v2.delta.json")]
        valid_files.append(os.path.join(scratch, "format-2", "feed_1.json"))
        valid_files.append(os.path.join(scratch, "format-2", "manifest.json"))
        expect("files: manifests, pointer, delta", valid_files, True)
        for name, change, reason in FORMAT1_FILE_BROKEN:
            source = valid_files[2] if name.endswith(".delta.json") else valid_files[0]
            with open(source, encoding="utf-8") as file:
                document = json.load(file)
            change(document)
            path = os.path.join(scratch, name)
            with open(path, "w", encoding="utf-8") as file:
                json.dump(document, file)
            expect("file " + name, [path], False, f"{path}: {reason}" if reason.startswith("/") else reason)
    print(f"self-test: {accepted} valid accepted, {rejected} broken rejected, {len(failures)} failed"
          + (f": {', '.join(failures)}" if failures else ""))
    return 1 if failures else 0


def first_problem(output, reason):
    """The line that says reason, without the scratch directory's path."""
    for line in output.splitlines():
        if reason is None or reason in line:
            return os.path.basename(line.split(": ", 1)[0]) + ": " + line.split(": ", 1)[-1]
    return output.splitlines()[0] if output else ""
