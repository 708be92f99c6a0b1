#!/usr/bin/env python3
"""Serves generated feeds on 127.0.0.1 with a fixed delay before every response.

  latency-server.py PORT DELAY_SECONDS FEED_COUNT FEED_BYTES

Paths /feed/N.xml (N < FEED_COUNT) return a deterministic RSS document of about FEED_BYTES
with an ETag (If-None-Match answered with 304). HTTP/1.1 keep-alive, one thread per
connection, so many transfers can wait on the delay at once. Stops on SIGTERM.
"""
import hashlib
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, DELAY, COUNT, SIZE = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])


def feed(n):
    items, body = [], 0
    i = 0
    while body < SIZE:
        item = (f"<item><title>Feed {n} item {i}</title><link>https://h.example/{n}/{i}</link>"
                f"<guid>feed-{n}-{i}</guid><pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate>"
                f"<description>{'Lorem ipsum dolor sit amet. ' * 20}</description></item>")
        items.append(item)
        body += len(item)
        i += 1
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>Feed {n}</title>'
            f"<link>https://h.example/{n}</link>{''.join(items)}</channel></rss>").encode()


FEEDS = [feed(n) for n in range(COUNT)]
ETAGS = ['"' + hashlib.sha1(body).hexdigest()[:16] + '"' for body in FEEDS]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; with Nagle on, a kept-alive connection
    # waits ~40 ms for the delayed ACK between them.
    disable_nagle_algorithm = True

    def do_GET(self):
        time.sleep(DELAY)
        try:
            n = int(self.path.split("/")[-1].split(".")[0])
            body, etag = FEEDS[n], ETAGS[n]
        except (ValueError, IndexError):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml; charset=utf-8")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 256
ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
