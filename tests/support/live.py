"""The real HTTP stack for tests: uvicorn on 127.0.0.1 in a thread, httpx as the client."""

from __future__ import annotations

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
        self.port = free_port()
        self.app = create_app(self.services, run_worker=run_worker, open_services=True)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_config=None,
            access_log=False,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

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
        self.thread.join(timeout=30)

    def client(self, token: str | None = None, timeout: float = 60) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout)
