"""Run one use case from the CLI with the deployment's Services, and report failures plainly."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from memwarden.answers import wire
from memwarden.bootstrap import build_services
from memwarden.domain.grants import Caller
from memwarden.errors import AppError
from memwarden.logging_setup import configure_logging
from memwarden.services import Services
from memwarden.settings import get_settings
from memwarden.store.embedded import EmbeddedServerError

T = TypeVar("T")
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)

# The CLI runs on the deployment's machine with its data directory: it acts as operator.
OPERATOR = Caller(None, None, "operator", None, {}, is_admin=True)


def interrupt_on_sigterm() -> None:
    """A long-running command (worker, MCP stdio) stops on SIGTERM as on Ctrl-C, so it
    closes its Services and releases the embedded server (Python's default SIGTERM
    action ends the process without running any cleanup)."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def command_group(help: str) -> typer.Typer:
    """A `memwarden` subcommand group: its help when called bare, and no rich tracebacks
    (failures go through `fail`)."""
    return typer.Typer(help=help, no_args_is_help=True, pretty_exceptions_enable=False)


def fail(message: str, code: int = 1) -> None:
    """The CLI's one error handler: one line on stderr, an exit code, never a traceback."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def run(use_case: Callable[[Services], Awaitable[T]], *, log_level: str = "WARNING") -> T:
    """Build Services, run the use case, close; every failure becomes one clear line.

    One-shot commands log warnings only; a long-running one (the worker) passes its level.
    """
    settings = get_settings()
    configure_logging(log_level, json=True)

    async def main() -> T:
        services = build_services(settings)
        await services.open()
        try:
            return await use_case(services)
        finally:
            await services.close()

    try:
        return asyncio.run(main())
    except AppError as exc:
        field = f" (field: {exc.field})" if exc.field else ""
        fail(f"{exc.message}{field}", 2)
    except EmbeddedServerError as exc:
        fail(str(exc), 3)
    except OSError as exc:
        fail(f"{type(exc).__name__}: {exc}", 3)
    except Exception as exc:  # never a bare traceback
        fail(f"{type(exc).__name__}: {exc}", 1)
    raise AssertionError("unreachable")


async def all_pages(key: str, fetch: Callable[..., Awaitable[BaseModel]]) -> list[dict[str, Any]]:
    """Every row of a paged use case, `fetch(cursor=...)`: follow `next_cursor` to null."""
    rows: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        page = wire(await fetch(cursor=cursor))
        rows.extend(page[key])
        cursor = page["next_cursor"]
        if cursor is None:
            return rows


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, default=str) + "\n")
