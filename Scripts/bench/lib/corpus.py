#!/usr/bin/env python3
"""Writes a deterministic (seeded) corpus of realistic feeds for the comparative benchmarks.

  corpus.py OUTDIR FEEDS PORT [SEED]

- ~60% RSS 2.0 (content:encoded, dc:creator, guids with and without isPermaLink), ~25% Atom 1.0
  (alternate links not always first, relative links under xml:base), ~15% RSS 1.0 (RDF).
- 10–100 entries each; bodies sized so feeds run from a few KB to a few hundred KB; one feed in
  300 is very large (5–20 MB); one in 20 is ISO-8859-1.
- Spread over 50 host names (h01.localhost … h50.localhost) that resolve to 127.0.0.1.
Also writes feeds.opml, urls.txt and corpus.json (per feed: url, format, entries, bytes): the
corpus's own count of entries, which the benchmark checks stored items against.
"""
import json
import random
import sys
from html import escape
from pathlib import Path

WORDS = ("feed parser latency sqlite offline reader network cache entry atom channel item summary "
         "content permalink publish batch cron worker thread queue stream buffer café naïve façade").split()


def sentence(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def body(rng, target):
    parts, size = [], 0
    while size < target:
        part = f"<p>{sentence(rng, rng.randrange(20, 60))} <a href=\"/notes/{rng.randrange(10**6)}\">more</a></p>\n"
        parts.append(part)
        size += len(part)
    return "".join(parts)


def date(rng):
    day = rng.randrange(1, 28)
    return f"Mon, {day:02d} Oct 2024 {rng.randrange(24):02d}:{rng.randrange(60):02d}:00 +0000", \
        f"2024-10-{day:02d}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00Z"


def rss20(rng, n, entries, size):
    items = []
    for i in range(entries):
        rfc, _ = date(rng)
        guid = (f'<guid isPermaLink="false">urn:corpus:{n}:{i}</guid>' if i % 2
                else f"<guid>https://site{n}.example/posts/{i}</guid>")
        items.append(
            f"<item><title>{escape(sentence(rng, 6))}</title><link>https://site{n}.example/posts/{i}</link>{guid}"
            f"<pubDate>{rfc}</pubDate><dc:creator>Writer {i % 7}</dc:creator>"
            f"<description>{escape(sentence(rng, 25))}</description>"
            f"<content:encoded><![CDATA[{body(rng, size)}]]></content:encoded></item>\n")
    return ('<?xml version="1.0" encoding="{enc}"?>\n<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
            f"<title>Corpus feed {n}</title><link>https://site{n}.example/</link><description>RSS 2.0</description>\n"
            + "".join(items) + "</channel></rss>\n")


def atom(rng, n, entries, size):
    items = []
    for i in range(entries):
        _, iso = date(rng)
        links = [f'<link rel="alternate" type="text/html" href="posts/{i}.html"/>',
                 f'<link rel="replies" type="text/html" href="posts/{i}.html#comments"/>']
        if i % 3 == 0:
            links.reverse()
        items.append(
            f"<entry><id>tag:site{n}.example,2024:{i}</id><title>{escape(sentence(rng, 6))}</title>{''.join(links)}"
            f"<updated>{iso}</updated><author><name>Writer {i % 5}</name></author>"
            f'<content type="html">{escape(body(rng, size))}</content></entry>\n')
    return ('<?xml version="1.0" encoding="{enc}"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
            f'xml:base="https://site{n}.example/blog/"><title>Corpus feed {n}</title><id>urn:corpus:{n}</id>'
            '<updated>2024-10-28T00:00:00Z</updated><link href="./"/>\n' + "".join(items) + "</feed>\n")


def rss10(rng, n, entries, size):
    items = []
    for i in range(entries):
        _, iso = date(rng)
        items.append(
            f'<item rdf:about="https://site{n}.example/story/{i}"><title>{escape(sentence(rng, 6))}</title>'
            f"<link>https://site{n}.example/story/{i}</link><description>{escape(body(rng, size // 2))}</description>"
            f"<dc:date>{iso}</dc:date></item>\n")
    return ('<?xml version="1.0" encoding="{enc}"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f'<channel rdf:about="https://site{n}.example/"><title>Corpus feed {n}</title>'
            f"<link>https://site{n}.example/</link><description>RSS 1.0</description></channel>\n"
            + "".join(items) + "</rdf:RDF>\n")


def main():
    # --small: only small feeds (10-30 entries of 150-1,200 bytes), for capacity runs over
    # tens of thousands of feeds; --hosts N spreads them over N host names (default 50).
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    small = "--small" in sys.argv
    hosts = int(sys.argv[sys.argv.index("--hosts") + 1]) if "--hosts" in sys.argv else 50
    if "--hosts" in sys.argv:
        args.remove(str(hosts))
    out, count, port = Path(args[0]), int(args[1]), int(args[2])
    rng = random.Random(int(args[3]) if len(args) > 3 else 2024)
    out.mkdir(parents=True, exist_ok=True)
    corpus, outlines = [], []
    for n in range(1, count + 1):
        kind = rng.choices(["rss20", "atom", "rss10"], weights=[60, 25, 15])[0]
        entries = rng.randrange(10, 31) if small else rng.randrange(10, 101)
        large = n % 300 == 150 and not small
        # Markup adds ~6% to the body text: aim below the 5–20 MB range's top.
        per_entry = (rng.randrange(5, 19) * 1_000_000 // entries) if large else rng.choice([150, 400, 1200] if small else [150, 400, 1200, 3000, 6000])
        text = {"rss20": rss20, "atom": atom, "rss10": rss10}[kind](rng, n, entries, per_entry)
        latin1 = n % 20 == 7
        data = text.replace("{enc}", "ISO-8859-1" if latin1 else "UTF-8").encode("iso-8859-1" if latin1 else "utf-8")
        host = f"h{(n - 1) % hosts + 1:02d}"
        path = out / host / f"feed{n:05d}.{'rdf' if kind == 'rss10' else 'xml'}"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        url = f"http://{host}.localhost:{port}/{path.name}"
        corpus.append({"n": n, "url": url, "file": str(path.relative_to(out)), "format": kind, "entries": entries,
                       "bytes": len(data), "latin1": latin1})
        outlines.append(f'<outline type="rss" text="Corpus feed {n}" xmlUrl="{url}"/>')
    (out / "urls.txt").write_text("".join(item["url"] + "\n" for item in corpus))
    (out / "feeds.opml").write_text('<?xml version="1.0"?>\n<opml version="2.0"><head><title>Corpus</title></head><body>\n'
                                    + "\n".join(outlines) + "\n</body></opml>\n")
    (out / "corpus.json").write_text(json.dumps(corpus, indent=1))
    total = sum(item["bytes"] for item in corpus)
    print(f"{count} feeds, {sum(item['entries'] for item in corpus)} entries, {total / 1e6:.1f} MB, "
          f"largest {max(item['bytes'] for item in corpus) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
