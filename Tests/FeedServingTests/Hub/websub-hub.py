#!/usr/bin/env python3
"""A WebSub hub and publisher for rss-serve's tests, following the W3C Recommendation
(https://www.w3.org/TR/websub/): subscription requests (§5.1), verification of intent with a
random hub.challenge (§5.3), and signed content distribution (§7, X-Hub-Signature
sha256=HMAC(secret, body)). It also serves the topic itself (/feed.xml, advertising this hub
and its own URL) and the feed list (/list.opml). Controlled by the test:

  POST /publish?entries=a,b
                        the feed with these entries becomes the topic's content, and is
                        distributed to every verified subscriber; answers JSON
                        [[callback, status], ...]
  GET  /subscriptions   JSON: every subscription request seen, with its verification result

Standard library only. Prints "listening PORT" once ready.
"""
import hashlib, hmac, json, secrets, sys, threading, urllib.parse, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

state = {"feed": b"", "subscriptions": []}
lock = threading.Lock()


def base():
    return f"http://127.0.0.1:{server.server_address[1]}"


def feed(entries):
    items = "".join(
        f"<entry><id>urn:test:{e}</id><title>{e}</title><updated>2026-12-01T00:00:00Z</updated>"
        f"<link href='https://example.org/{e}'/></entry>" for e in entries)
    return (f"<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
            f"<title>Pushed</title><id>urn:test:feed</id><updated>2026-12-01T00:00:00Z</updated>"
            f"<link rel='hub' href='{base()}/hub'/><link rel='self' href='{base()}/feed.xml'/>"
            f"{items}</feed>").encode()


def verify(subscription):
    """GET the callback with a challenge; the subscription holds only if it is echoed."""
    challenge = secrets.token_hex(16)
    query = {"hub.mode": subscription["mode"], "hub.topic": subscription["topic"], "hub.challenge": challenge}
    if subscription["mode"] == "subscribe":
        query["hub.lease_seconds"] = str(subscription["lease"])
    separator = "&" if "?" in subscription["callback"] else "?"
    url = subscription["callback"] + separator + urllib.parse.urlencode(query)
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            echoed = answer.read().decode()
            subscription["verified"] = answer.status == 200 and echoed == challenge
    except Exception as error:
        subscription["verified"] = False
        subscription["error"] = str(error)
    subscription["checked"] = True


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", kind="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/feed.xml":
            with lock:
                body = state["feed"]
            return self.answer(200, body, "application/atom+xml")
        if self.path == "/list.opml":
            opml = (f"<?xml version='1.0'?><opml version='2.0'><head><title>t</title></head><body>"
                    f"<outline type='rss' text='Pushed' xmlUrl='{base()}/feed.xml'/></body></opml>").encode()
            return self.answer(200, opml, "text/x-opml")
        if self.path == "/subscriptions":
            with lock:
                body = json.dumps(state["subscriptions"]).encode()
            return self.answer(200, body, "application/json")
        self.answer(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.path == "/hub":
            form = dict(urllib.parse.parse_qsl(body.decode()))
            mode, topic, callback = form.get("hub.mode"), form.get("hub.topic"), form.get("hub.callback")
            if mode not in ("subscribe", "unsubscribe") or not topic or not callback:
                return self.answer(400, b"bad request")
            if topic != f"{base()}/feed.xml":
                return self.answer(400, b"unknown topic")
            subscription = {"mode": mode, "topic": topic, "callback": callback, "secret": form.get("hub.secret"),
                            "lease": int(form.get("hub.lease_seconds", "864000")), "verified": False, "checked": False}
            with lock:
                state["subscriptions"].append(subscription)
            self.answer(202, b"accepted")
            threading.Thread(target=verify, args=(subscription,)).start()
            return
        if self.path.startswith("/publish?entries="):
            entries = urllib.parse.unquote(self.path.split("=", 1)[1]).split(",")
            body = feed(entries)
            with lock:
                state["feed"] = body
                active = {}
                for s in state["subscriptions"]:
                    if s["checked"] and s["verified"]:
                        if s["mode"] == "subscribe":
                            active[s["callback"]] = s
                        else:
                            active.pop(s["callback"], None)
            results = []
            for callback, s in active.items():
                headers = {"Content-Type": "application/atom+xml",
                           "Link": f'<{base()}/hub>; rel="hub", <{s["topic"]}>; rel="self"'}
                if s["secret"]:
                    digest = hmac.new(s["secret"].encode(), body, hashlib.sha256).hexdigest()
                    headers["X-Hub-Signature"] = "sha256=" + digest
                request = urllib.request.Request(callback, data=body, headers=headers, method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        results.append([callback, answer.status])
                except urllib.error.HTTPError as error:
                    results.append([callback, error.code])
                except Exception as error:
                    results.append([callback, str(error)])
            return self.answer(200, json.dumps(results).encode(), "application/json")
        self.answer(404)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
state["feed"] = feed(["first"])
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
