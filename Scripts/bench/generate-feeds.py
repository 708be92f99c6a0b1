#!/usr/bin/env python3
"""Writes deterministic (seeded) large feeds for the parse benchmarks.

  ordinary.rss.xml   RSS 2.0, ~3,000 items of ~6 KB content:encoded each (a busy news feed).
  fulltext.atom.xml  Atom 1.0, ~130 entries of ~150 KB escaped HTML each (a full-text blog archive):
                     the case where libxml2's xmlTextReader slows down.
Usage: generate-feeds.py OUTDIR [MEGABYTES]
"""
import random
import sys
from html import escape
from pathlib import Path

WORDS = ("feed parser latency sqlite offline reader network cache entry atom channel item "
         "summary content permalink publish batch cron worker thread queue stream buffer").split()


def paragraph(rng, words):
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    link = f'<a href="/posts/{rng.randrange(10**6)}">{rng.choice(WORDS)}</a>'
    return f"<p>{text.capitalize()} {link} &amp; more.</p>\n"


def ordinary(rng, target):
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
           'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Ordinary</title>'
           '<link>https://ordinary.example/</link>\n']
    size, n = 0, 0
    while size < target:
        body = "".join(paragraph(rng, rng.randrange(40, 90)) for _ in range(8))
        item = (f"<item><title>Item {n} {rng.choice(WORDS)}</title><link>https://ordinary.example/{n}</link>"
                f'<guid isPermaLink="false">ord-{n}</guid><pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate>'
                f"<dc:creator>Writer {n % 7}</dc:creator><description>{escape(body[:200])}</description>"
                f"<content:encoded><![CDATA[{body}]]></content:encoded></item>\n")
        out.append(item)
        size += len(item)
        n += 1
    out.append("</channel></rss>\n")
    return "".join(out)


def fulltext(rng, target):
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
           '<title>Full text</title><id>urn:fulltext</id><link href="https://fulltext.example/"/>\n']
    size, n = 0, 0
    while size < target:
        body = "".join(paragraph(rng, rng.randrange(60, 120)) for _ in range(220))
        entry = (f"<entry><id>urn:fulltext:{n}</id><title>Essay {n}</title>"
                 f'<link rel="alternate" type="text/html" href="/essays/{n}.html"/>'
                 f"<updated>2024-11-0{n % 9 + 1}T10:00:00Z</updated>"
                 f'<content type="html">{escape(body)}</content></entry>\n')
        out.append(entry)
        size += len(entry)
        n += 1
    out.append("</feed>\n")
    return "".join(out)


def main():
    outdir = Path(sys.argv[1])
    megabytes = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    outdir.mkdir(parents=True, exist_ok=True)
    target = int(megabytes * 1_000_000)
    (outdir / "ordinary.rss.xml").write_text(ordinary(random.Random(42), target), encoding="utf-8")
    (outdir / "fulltext.atom.xml").write_text(fulltext(random.Random(43), target), encoding="utf-8")


if __name__ == "__main__":
    main()
