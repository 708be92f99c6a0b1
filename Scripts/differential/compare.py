#!/usr/bin/env python3
"""Differential check: Feedmill's rss-inspect against feedparser 6, entry by entry.

Corpus: every feed fixture in this repository, plus feedparser's own test suite (its
`tests/wellformed` and `tests/illformed` documents, BSD-2-Clause, read from the feedparser
sdist that pip downloads from PyPI into out/differential; nothing of it is committed).

For each file both parsers run; entries are paired by position. A field agrees for a file
when every pair agrees (and both found the same number of entries). Compared, after the
normalisation both sides promise:
  id         feedparser's `id`; where feedparser has none, any id Feedmill made up counts.
  permalink  feedparser's `link` when it is an absolute http(s) URL (Feedmill stores no
             other kind), else none on both sides.
  title      as plain text: feedparser's title, unescaped and stripped of tags when its
             type is HTML, white space collapsed.
  date       `published_parsed`, else `updated_parsed`, as seconds since the epoch.
  author     the byline: feedparser's `authors` (else `author_detail`), each its name else its
             email, repeats dropped, joined by ", "; an Atom entry without authors takes the
             feed's (RFC 4287 4.2.1, which Feedmill applies and feedparser does not). Against
             rss-inspect's `author`.
  enclosures the set of http(s) URLs of feedparser's `enclosures` (RSS `enclosure`, Atom
             `link rel="enclosure"`) and `media_content`, against the `url`s of rss-inspect's
             `enclosures`.
  categories the set of feedparser's `tags` terms (else labels), white space collapsed, without
             the `itunes:keywords`/`itunes:category` tags (scheme http://www.itunes.com/), which
             Feedmill does not read (docs/fidelity.md says why); against the terms of
             rss-inspect's `categories`.
rss-inspect runs with --details, so the same script measures a binary from before issue 40
(which printed enclosures and categories only there, categories as strings).

Prints agreement per field (all files, and the repository's real-world feeds alone), and
writes every disagreement to out/differential/disagreements.txt.

  Scripts/differential/compare.py [--inspect PATH] [--limit N] [--show N]
"""
import argparse
import calendar
import concurrent.futures
import glob
import html
import json
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "out", "differential")
FEEDPARSER_VERSION = "6.0.11"
FIELDS = ["id", "permalink", "title", "date", "author", "enclosures", "categories"]
ITUNES_SCHEME = "http://www.itunes.com/"


def ensure_feedparser():
    try:
        import feedparser  # noqa: F401
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", f"feedparser=={FEEDPARSER_VERSION}"])


def feedparser_suite():
    """The feedparser sdist's test documents, extracted once."""
    target = os.path.join(OUT, f"feedparser-{FEEDPARSER_VERSION}")
    if not os.path.isdir(target):
        os.makedirs(OUT, exist_ok=True)
        subprocess.check_call([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                               f"feedparser=={FEEDPARSER_VERSION}", "-d", OUT])
        with tarfile.open(os.path.join(OUT, f"feedparser-{FEEDPARSER_VERSION}.tar.gz")) as archive:
            members = [m for m in archive.getmembers() if "/tests/wellformed/" in m.name or "/tests/illformed/" in m.name
                       or m.name.endswith("/LICENSE")]
            archive.extractall(OUT, members=members)
    files = []
    for kind in ("wellformed", "illformed"):
        for path in glob.glob(os.path.join(target, "tests", kind, "**", "*"), recursive=True):
            if os.path.isfile(path) and path.endswith((".xml", ".rdf")):
                files.append(path)
    return sorted(files)


def is_json(path):
    with open(path, "rb") as handle:
        return handle.read(64).lstrip().startswith(b"{")


def repository_feeds():
    patterns = ["Tests/FeedParsingTests/Fixtures/*", "Tests/FeedNormalizationTests/Fixtures/*", "Examples/feeds/*",
                "Fixtures/recordings/bodies/*"]
    files = []
    for pattern in patterns:
        # feedparser 6 does not read JSON Feed: those files are compared by the tests only.
        files += [p for p in glob.glob(os.path.join(ROOT, pattern)) if os.path.isfile(p) and not is_json(p)]
    return sorted(files)


TAG = re.compile(r"<[^>]*>")
SPACE = re.compile(r"\s+")


def plain(text, is_html):
    if text is None:
        return ""
    if is_html:
        text = html.unescape(TAG.sub(" ", text))
    return SPACE.sub(" ", text).strip()


def is_web(url):
    return isinstance(url, str) and re.match(r"^https?://[^/\s]", url, re.I) is not None


def collapse(text):
    return SPACE.sub(" ", text or "").strip()


def byline(people):
    names = []
    for person in people:
        name = collapse(person.get("name")) or collapse(person.get("email"))
        if name and name not in names:
            names.append(name)
    return ", ".join(names) or None


def people(context):
    listed = [p for p in context.get("authors") or [] if p]
    if not listed and context.get("author_detail"):
        listed = [context["author_detail"]]
    return listed


def reference(path):
    import feedparser
    parsed = feedparser.parse(path)
    entries = []
    feed_people = people(parsed.feed) if (parsed.get("version") or "").startswith("atom") else []
    for entry in parsed.entries:
        detail = entry.get("title_detail") or {}
        date = entry.get("published_parsed") or entry.get("updated_parsed")
        link = entry.get("link")
        entries.append({
            "id": entry.get("id") or None,
            "permalink": link if is_web(link) else None,
            "title": plain(entry.get("title"), "html" in (detail.get("type") or "")),
            "date": calendar.timegm(date) if date else None,
            "author": byline(people(entry) or feed_people),
            "enclosures": {e.get("href") for e in entry.get("enclosures") or [] if is_web(e.get("href"))}
            | {m.get("url") for m in entry.get("media_content") or [] if is_web(m.get("url"))},
            "categories": {collapse(t.get("term") or t.get("label")) for t in entry.get("tags") or []
                           if t.get("scheme") != ITUNES_SCHEME and collapse(t.get("term") or t.get("label"))},
        })
    return entries


def ours(path, inspect):
    result = subprocess.run([inspect, "--details", path], capture_output=True, timeout=60)
    if result.returncode != 0:
        return [], result.stderr.decode("utf-8", "replace").strip()
    document = json.loads(result.stdout)
    return [{
        "id": item["id"],
        "permalink": item["permalink"],
        "title": SPACE.sub(" ", item["title"]).strip(),
        "date": item["pubdate_unix_time"],
        "author": item.get("author"),
        "enclosures": {e["url"] for e in item.get("enclosures") or []},
        "categories": {c if isinstance(c, str) else c["term"] for c in item.get("categories") or []},
    } for item in document["items"]], None


def agrees(field, theirs, mine):
    if field == "id" and theirs["id"] is None:
        return True  # feedparser has no id; Feedmill always makes one
    return theirs[field] == mine[field]


def compare(path, inspect):
    try:
        theirs = reference(path)
    except Exception as error:  # feedparser itself failed: nothing to compare
        return path, None, f"feedparser failed: {error}"
    mine, error = ours(path, inspect)
    result = {}
    notes = []
    for field in FIELDS:
        if len(theirs) != len(mine):
            result[field] = False
            continue
        bad = [(t[field], m[field]) for t, m in zip(theirs, mine) if not agrees(field, t, m)]
        result[field] = not bad
        for t, m in bad[:2]:
            notes.append(f"{field}: feedparser {t!r} / feedmill {m!r}")
    if len(theirs) != len(mine):
        notes.insert(0, f"entries: feedparser {len(theirs)} / feedmill {len(mine)}" + (f" ({error})" if error else ""))
    return path, result, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inspect", default=None, help="rss-inspect binary (default: build the debug one)")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--show", type=int, default=15, help="disagreements printed (all go to the file)")
    arguments = parser.parse_args()
    ensure_feedparser()
    inspect = arguments.inspect
    if inspect is None:
        subprocess.check_call(["swift", "build", "--product", "feedmill"], cwd=ROOT, stdout=subprocess.DEVNULL)
        binpath = subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=ROOT, text=True).strip()
        subprocess.check_call([str(ROOT / "Scripts" / "command-links"), binpath], cwd=ROOT)
        inspect = os.path.join(binpath, "rss-inspect")
    real_world = repository_feeds()
    corpus = real_world + feedparser_suite()
    if arguments.limit:
        corpus = corpus[: arguments.limit]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda p: compare(p, inspect), corpus))
    os.makedirs(OUT, exist_ok=True)
    compared = [(p, r, n) for p, r, n in results if r is not None]
    skipped = len(results) - len(compared)
    with open(os.path.join(OUT, "disagreements.txt"), "w") as report:
        for path, result, notes in compared:
            if not all(result.values()):
                report.write(os.path.relpath(path, ROOT) + "\n" + "".join(f"    {n}\n" for n in notes))
    def line(name, rows):
        if not rows:
            return f"{name}: no files"
        cells = [f"{field} {100.0 * sum(1 for _, r, _ in rows if r[field]) / len(rows):.1f}%" for field in FIELDS]
        return f"{name} ({len(rows)} files): " + ", ".join(cells)
    real = set(real_world)
    print(line("all", compared))
    print(line("this repository's feeds", [row for row in compared if row[0] in real]))
    if skipped:
        print(f"({skipped} files feedparser itself could not read were left out)")
    shown = 0
    for path, result, notes in compared:
        if not all(result.values()) and shown < arguments.show:
            print(os.path.relpath(path, OUT if path.startswith(OUT) else ROOT), "|", "; ".join(notes[:2]))
            shown += 1
    print(f"every disagreement: {os.path.relpath(os.path.join(OUT, 'disagreements.txt'), ROOT)}")


if __name__ == "__main__":
    main()
