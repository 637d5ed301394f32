"""A TCP proxy on 127.0.0.1 between `vorpal bot` and the fixture server, for the bot tier: it
adds a delay to every byte in each direction (a slow line: the order and the throughput are
kept, only the latency grows), and it can cut the line for a while (a network cut: nothing
passes either way, new connections hang, and when the line comes back every connection of
the cut is closed, as a router that lost its state would).

    proxy = Proxy(upstream_port, delay=0.4)
    port = await proxy.start()
    await proxy.cut(25)
"""

import asyncio
import time


class Proxy:
    def __init__(self, upstream_port, delay=0.0):
        self.upstream_port = upstream_port
        self.delay = delay
        self.cut_until = 0.0
        self.server = None
        self.conns = set()  # (reader_task, writer) pairs of live connections
        self.opened = 0

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def close(self):
        if self.server:
            self.server.close()
        for w in list(self.conns):
            w.close()

    def cutting(self):
        return time.monotonic() < self.cut_until

    async def cut(self, seconds):
        """Nothing passes for `seconds`; then the connections open during the cut are closed."""
        self.cut_until = time.monotonic() + seconds
        during = set(self.conns)
        await asyncio.sleep(seconds)
        during |= self.conns
        for w in during:
            w.close()

    async def _serve(self, client_r, client_w):
        self.opened += 1
        self.conns.add(client_w)
        try:
            while self.cutting():
                await asyncio.sleep(0.1)
            if client_w.is_closing():
                return
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            self.conns.add(up_w)
            await asyncio.gather(self._pipe(client_r, up_w), self._pipe(up_r, client_w),
                                 return_exceptions=True)
        except OSError:
            pass
        finally:
            client_w.close()
            self.conns.discard(client_w)

    async def _pipe(self, reader, writer):
        """Copies reader to writer, each chunk `delay` after it arrived, holding it in a cut."""
        queue = asyncio.Queue()

        async def send():
            while True:
                at, data = await queue.get()
                if data is None:
                    break
                wait = at + self.delay - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                while self.cutting():
                    await asyncio.sleep(0.1)
                if writer.is_closing():
                    break
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.create_task(send())
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                queue.put_nowait((time.monotonic(), data))
        except OSError:
            pass
        finally:
            queue.put_nowait((time.monotonic(), None))
            await asyncio.gather(sender, return_exceptions=True)
            self.conns.discard(writer)
