#!/usr/bin/env python3
"""Many readers of rss-serve's /events at once, for Scripts/bench/drivers/serve.

    serve-clients.py --port PORT --connections N --feed ID --publications K --ready FILE

Opens N connections (asyncio, one process), each `GET /events?feeds=ID`, and waits until every
one has its `entry` event; then writes FILE (the driver measures the server's memory and
publishes). For each of K publications it records, per connection, when the `patch` event of
the next generation arrived (wall clock, time.time()), and prints one JSON line per
publication: {"generation", "received", "times": [...]} for the driver to set against the
root's commit time. Connections that fail or close are counted, never retried.
"""
import argparse
import asyncio
import json
import sys
import time


async def reader(port, feed, state, index):
    try:
        stream_reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    except OSError:
        state["failed"] += 1
        return
    writer.write(f"GET /events?feeds={feed} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    kind = None
    try:
        while True:
            line = await stream_reader.readline()
            if not line:
                break
            text = line.decode(errors="replace").rstrip("\r\n")
            if text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("id: ") and kind == "patch":
                state["arrivals"].setdefault(int(text[4:]), []).append(time.time())
            elif text.startswith("id: ") and kind == "entry":
                state["ready"] += 1
    except (OSError, asyncio.IncompleteReadError):
        pass
    state["closed"] += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=10000)
    parser.add_argument("--feed", type=int, default=1)
    parser.add_argument("--publications", type=int, default=3)
    parser.add_argument("--ready", required=True)
    arguments = parser.parse_args()
    state = {"failed": 0, "ready": 0, "closed": 0, "arrivals": {}}
    tasks = []
    for index in range(arguments.connections):
        tasks.append(asyncio.create_task(reader(arguments.port, arguments.feed, state, index)))
        if index % 500 == 499:
            await asyncio.sleep(0.05)
    deadline = time.time() + 300
    while state["ready"] + state["failed"] < arguments.connections and time.time() < deadline:
        await asyncio.sleep(0.1)
    with open(arguments.ready, "w") as handle:
        json.dump({"ready": state["ready"], "failed": state["failed"]}, handle)
    print(json.dumps({"ready": state["ready"], "failed": state["failed"]}), flush=True)
    reported = set()
    deadline = time.time() + 600
    while len(reported) < arguments.publications and time.time() < deadline:
        await asyncio.sleep(0.2)
        for generation, times in sorted(state["arrivals"].items()):
            # A publication is reported once its events have stopped arriving for 2 s.
            if generation not in reported and (len(times) >= state["ready"] or time.time() - max(times) > 2):
                reported.add(generation)
                print(json.dumps({"generation": generation, "received": len(times), "times": times}), flush=True)
    print(json.dumps({"closed": state["closed"]}), flush=True)
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
