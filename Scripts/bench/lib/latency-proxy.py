#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that holds every HTTP request for a fixed delay before passing it on,
so concurrency matters in the benchmarks.   latency-proxy.py LISTEN_PORT TARGET_PORT DELAY_SECONDS

It works on the byte stream: data from the client that starts with an HTTP method begins a new
request and waits DELAY first (keep-alive connections carry many requests).
"""
import asyncio
import sys

LISTEN, TARGET, DELAY = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
METHODS = (b"GET ", b"HEAD ", b"POST ")


async def pipe(reader, writer, delay_requests):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if delay_requests and data.startswith(METHODS):
                await asyncio.sleep(DELAY)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", TARGET)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, server_writer, True), pipe(server_reader, client_writer, False))


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", LISTEN, backlog=1024)
    async with server:
        await server.serve_forever()


asyncio.run(main())
