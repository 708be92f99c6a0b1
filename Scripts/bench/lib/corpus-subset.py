#!/usr/bin/env python3
"""Writes a smaller corpus drawn from a larger one: every feed over a size, and the rest drawn
at random (seeded), so that lists of different lengths hold the same largest feeds.

  corpus-subset.py SOURCE_CORPUS OUTDIR FEEDS [SEED] [LARGE_BYTES]     defaults: 7, 1000000

Why: the scaling benchmark's corpora come from one generator, but one feed in 300 is very
large, so the 200-feed corpus has one such feed and the 5,000-feed corpus 17, and the peak
follows the largest feeds in memory at once. Lists drawn this way differ in their number of
feeds only. The feeds are not copied: OUTDIR's host directories link to SOURCE_CORPUS's, and
feeds.opml, urls.txt and corpus.json (what the benchmark counts stored items against) list
the chosen feeds in the source's order.
"""
import json
import random
import sys
from pathlib import Path

source, out = Path(sys.argv[1]), Path(sys.argv[2])
count = int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 7
large_bytes = int(sys.argv[5]) if len(sys.argv) > 5 else 1_000_000

feeds = json.loads((source / "corpus.json").read_text())
large = [feed for feed in feeds if feed["bytes"] > large_bytes]
if len(large) > count:
    sys.exit(f"{len(large)} feeds are over {large_bytes} bytes: more than the {count} asked for")
others = [feed for feed in feeds if feed["bytes"] <= large_bytes]
chosen = sorted(large + random.Random(seed).sample(others, count - len(large)), key=lambda feed: feed["n"])

out.mkdir(parents=True, exist_ok=True)
for host in sorted({feed["file"].split("/")[0] for feed in chosen}):
    link = out / host
    if not link.is_symlink():
        link.symlink_to((source / host).resolve(), target_is_directory=True)
urls = {feed["url"] for feed in chosen}
outlines = [line for line in (source / "feeds.opml").read_text().splitlines()
            if "<outline" not in line or any(f'xmlUrl="{url}"' in line for url in urls)]
(out / "feeds.opml").write_text("\n".join(outlines) + "\n")
(out / "urls.txt").write_text("".join(feed["url"] + "\n" for feed in chosen))
(out / "corpus.json").write_text(json.dumps(chosen, indent=0))
print(f"{out}: {len(chosen)} feeds, {len(large)} of them over {large_bytes} bytes, "
      f"{sum(feed['entries'] for feed in chosen)} entries", file=sys.stderr)
