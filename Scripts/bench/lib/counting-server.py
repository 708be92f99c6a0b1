#!/usr/bin/env python3
"""A static HTTP/1.1 server for a publication directory that behaves as object storage behind a
CDN does for a client, and counts the bytes on the wire (Scripts/bench/drivers/capacity-model):

  counting-server.py DIR PORT LOG

- ETag: the MD5 of the file's bytes in quotes (as S3 gives for a single-part upload), with
  `If-None-Match` answered 304 (headers only); `Last-Modified`, `Content-Length`, `Date`, `Server`.
- `Content-Type` and `Cache-Control` by name, as SPEC-41 sets them on upload: the root and the
  pointers `public, max-age=30`, content-addressed names `public, max-age=31536000, immutable`,
  stable names and pages `public, max-age=60`; format-1 versioned names (`.v3.`) immutable.
- Keep-alive (HTTP/1.1), no compression (object storage serves the bytes it holds), no TLS (the
  figures leave out TLS records: about 29 bytes per record, and a handshake per connection).
- LOG gets one JSON line per request: method, path, status, request_bytes (request line and
  headers as received), response_bytes (status line, headers and body as sent), body_bytes.
"""
import email.utils
import hashlib
import http.server
import json
import os
import re
import sys
import threading

ROOT, PORT, LOG = sys.argv[1], int(sys.argv[2]), sys.argv[3]
log_lock = threading.Lock()
etags = {}

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=30"
STABLE = "public, max-age=60"


def headers_for(name):
    """Content-Type and Cache-Control for a published name (SPEC-41 section 2)."""
    if name.endswith(".sqlite"):
        kind = "application/vnd.sqlite3"
    elif name.endswith(".json"):
        kind = "application/json"
    elif name.endswith(".xml"):
        kind = "application/atom+xml"
    elif name.endswith(".html"):
        kind = "text/html; charset=utf-8"
    else:
        kind = "application/octet-stream"
    if re.search(r"\.[0-9a-f]{64}\.", name) or re.search(r"\.v[0-9]+(-v[0-9]+)?\.(sqlite|delta\.json)$", name):
        cache = IMMUTABLE
    elif name == "manifest.json" or re.fullmatch(r"feed_[0-9]+\.json", name):
        cache = SHORT
    elif name.startswith("."):
        cache = "no-store"
    else:
        cache = STABLE
    return kind, cache


def etag_of(path, stat):
    key = (path, stat.st_ino, stat.st_size, stat.st_mtime_ns)
    tag = etags.get(key)
    if tag is None:
        digest = hashlib.md5()
        with open(path, "rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
        tag = etags[key] = f'"{digest.hexdigest()}"'
    return tag


class CountingWriter:
    def __init__(self, raw):
        self.raw, self.count = raw, 0

    def write(self, data):
        self.count += len(data)
        return self.raw.write(data)

    def flush(self):
        return self.raw.flush()

    @property
    def closed(self):
        return self.raw.closed

    def close(self):
        return self.raw.close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "capacity-model"
    sys_version = ""

    def setup(self):
        super().setup()
        self.wfile = CountingWriter(self.wfile)

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.serve(body=False)

    def do_GET(self):
        self.serve(body=True)

    def serve(self, body):
        self.wfile.count = 0
        request_bytes = len(self.raw_requestline) + sum(len(k) + len(v) + 4 for k, v in self.headers.items()) + 2
        name = self.path.split("?", 1)[0].lstrip("/")
        path = os.path.join(ROOT, name)
        sent_body = 0
        if "/" in name or name in ("", ".", "..") or not os.path.isfile(path):
            message = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(message)))
            self.end_headers()
            if body:
                self.wfile.write(message)
                sent_body = len(message)
            status = 404
        else:
            stat = os.stat(path)
            tag = etag_of(path, stat)
            kind, cache = headers_for(name)
            match = self.headers.get("If-None-Match")
            status = 304 if match and tag in [m.strip() for m in match.split(",")] or match == "*" else 200
            self.send_response(status)
            self.send_header("ETag", tag)
            self.send_header("Cache-Control", cache)
            self.send_header("Last-Modified", email.utils.formatdate(stat.st_mtime, usegmt=True))
            if status == 304:
                self.end_headers()
            else:
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(stat.st_size))
                self.end_headers()
                if body:
                    with open(path, "rb") as file:
                        for block in iter(lambda: file.read(1 << 16), b""):
                            self.wfile.write(block)
                            sent_body += len(block)
        self.wfile.flush()
        record = {"method": self.command, "path": name, "status": status, "request_bytes": request_bytes,
                  "response_bytes": self.wfile.count, "body_bytes": sent_body}
        with log_lock, open(LOG, "a") as log:
            log.write(json.dumps(record) + "\n")


server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
server.daemon_threads = True
print("ready", flush=True)
server.serve_forever()
