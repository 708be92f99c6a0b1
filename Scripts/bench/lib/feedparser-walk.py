#!/usr/bin/env python3
"""Python's feedparser on the same files, timed in-process per file: FILE BYTES SECONDS."""
import sys
import time

import feedparser

for path in sys.argv[1:]:
    with open(path, "rb") as file:
        data = file.read()
    start = time.perf_counter()
    result = feedparser.parse(data)
    elapsed = time.perf_counter() - start
    assert result.entries is not None
    print(path, len(data), f"{elapsed:.6f}")
