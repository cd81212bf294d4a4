"""The real HTTP stack for tests: uvicorn on 127.0.0.1 in a thread, httpx as the client."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time

import httpx
import uvicorn

from memwarden.api.app import create_app
from memwarden.bootstrap import build_services
from memwarden.services import Services
from memwarden.settings import Settings
from memwarden.store.db import Database

# httpx builds a TLS context (loading the CA bundle) for every Client unless given one:
# 0.2 s of CPU on a loaded machine, for each of the thousands of clients a run opens on
# plain http://127.0.0.1. One default context, made once, serves them all.
_TLS = httpx.create_ssl_context()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _PromptServer(uvicorn.Server):
    """uvicorn's server, woken at once by `wake()` instead of at its next 0.1 s tick: a
    test's teardown waits for its server to stop, hundreds of times a run."""

    _loop: asyncio.AbstractEventLoop | None = None
    _woken: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    def wake(self) -> None:
        """Called from the test's thread after setting should_exit."""
        loop, woken = self._loop, self._woken
        if loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(woken.set)


class LiveServer:
    """Serves one app for one test; `services` is built inside the server's event loop."""

    def __init__(self, settings: Settings, *, run_worker: bool = False) -> None:
        db = Database(
            settings.database_url or "",
            min_size=1,
            max_size=min(5, settings.pool_max_size),
            timeout_s=settings.pool_timeout_s,
            statement_timeout_s=settings.statement_timeout_s,
        )
        self.services: Services = build_services(settings, db=db)
        # The socket is bound here and handed to uvicorn: a port picked first and bound
        # later could be taken in between by a server of another xdist worker.
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.port = int(self.socket.getsockname()[1])
        self.app = create_app(self.services, run_worker=run_worker, open_services=True)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_config=None,
            access_log=False,
            lifespan="on",
        )
        self.server = _PromptServer(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("test server failed to start")
            if time.monotonic() > deadline:
                raise TimeoutError("test server did not start in 30 s")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.wake()
        self.thread.join(timeout=30)
        self.socket.close()  # uvicorn closed it unless the server never started

    def client(self, token: str | None = None, timeout: float = 60) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout, verify=_TLS)
