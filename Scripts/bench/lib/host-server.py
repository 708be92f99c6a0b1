#!/usr/bin/env python3
"""Serves a corpus of corpus.py on loopback by host name, as nginx.conf.in does: the request for
http://h03.localhost:PORT/feed00003.xml gets DIR/h03/feed00003.xml. For the small template
corpus of the capacity model, where starting nginx is not worth it.
  host-server.py DIR PORT"""
import http.server
import os
import sys

ROOT = sys.argv[1]


class Handler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        host = self.headers.get("Host", "").split(".")[0]
        return os.path.join(ROOT, os.path.basename(host), path.split("?", 1)[0].lstrip("/").replace("/", ""))

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler).serve_forever()
