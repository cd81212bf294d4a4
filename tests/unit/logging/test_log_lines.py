"""Log lines from structlog and from standard-library loggers never interleave."""

from __future__ import annotations

import json
import logging
import sys
import threading
import time

import structlog

from memwarden.logging_setup import configure_logging


class _SlowStream:
    """A stream that yields the CPU on every write, as a loaded machine does."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        time.sleep(0.0005)
        return len(text)

    def flush(self) -> None:
        pass


def test_concurrent_structlog_and_stdlib_lines_are_each_one_whole_json_object(
    monkeypatch,
) -> None:
    stream = _SlowStream()
    monkeypatch.setattr(sys, "stderr", stream)
    configure_logging("INFO", json=True)
    try:

        def from_structlog() -> None:
            log = structlog.get_logger("lines")
            for i in range(150):
                log.info("request", path=f"/s/{i}")

        def from_stdlib() -> None:
            log = logging.getLogger("memwarden.lines")
            for i in range(150):
                log.warning("stdlib line %d", i)

        threads = [threading.Thread(target=f) for f in (from_structlog, from_stdlib)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        monkeypatch.undo()
        configure_logging("INFO", json=True)
    lines = "".join(stream.parts).splitlines()
    assert len(lines) == 300
    parsed = [json.loads(line) for line in lines]
    assert sum(1 for p in parsed if p["event"] == "request") == 150
