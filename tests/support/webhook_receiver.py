"""A webhook receiver on 127.0.0.1 for tests: a real threaded HTTP server that records
every POST (headers and body) and answers with scripted statuses (200 once the script is
spent); `down()` closes its socket (connections refused) and `up()` opens it again on
the same port, so a test can take the receiver away for a while."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.live import free_port


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    status: int

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


class WebhookReceiver:
    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[Received] = []
        self._script: deque[int] = deque()
        self.stall_s = 0.0  # how long each answer waits
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def respond(self, *statuses: int) -> None:
        """The next answers, in order; 200 after them."""
        with self._lock:
            self._script.extend(statuses)

    def delivered(self) -> list[Received]:
        """What was received and answered 2xx."""
        with self._lock:
            return [r for r in self.received if 200 <= r.status < 300]

    def _next_status(self) -> int:
        with self._lock:
            return self._script.popleft() if self._script else 200

    def _record(self, item: Received) -> None:
        with self._lock:
            self.received.append(item)

    def up(self) -> WebhookReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status = receiver._next_status()
                time.sleep(receiver.stall_s)
                receiver._record(Received(self.path, dict(self.headers.items()), body, status))
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "http://127.0.0.1:1/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def down(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> WebhookReceiver:
        return self.up()

    def __exit__(self, *exc: object) -> None:
        self.down()
