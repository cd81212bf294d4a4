"""`memwarden` command: serve, worker, migrate, contexts, keys, config, doctor."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from memwarden.admin import contexts as contexts_uc
from memwarden.admin import keys as keys_uc
from memwarden.admin import settings_service
from memwarden.answers import wire
from memwarden.cli.erase import erase_cmd
from memwarden.cli.evaluate import eval_app
from memwarden.cli.history import history_cmd
from memwarden.cli.hygiene import hygiene_app
from memwarden.cli.judgements import judgements_app
from memwarden.cli.mcp_cmd import mcp_stdio
from memwarden.cli.passes import passes_app
from memwarden.cli.portability import export_cmd, import_cmd
from memwarden.cli.recall import profile_cmd, query_cmd, state_cmd
from memwarden.cli.reprocess import reprocess_app
from memwarden.cli.review import review_app
from memwarden.cli.runner import (
    OPERATOR,
    all_pages,
    command_group,
    console,
    emit_json,
    fail,
    interrupt_on_sigterm,
    run,
)

app = command_group("memwarden: long-term memory for AI agents in which nothing is stored blindly.")
contexts_app = typer.Typer(help="Create and list Contexts (tenant memory spaces).")
keys_app = typer.Typer(help="Issue, list and revoke API keys.")
config_app = typer.Typer(help="Read and partially update a Context's configuration.")
app.add_typer(contexts_app, name="contexts")
app.add_typer(keys_app, name="keys")
app.add_typer(config_app, name="config")
app.add_typer(review_app, name="review")
app.add_typer(judgements_app, name="judgements")
app.add_typer(hygiene_app, name="hygiene")
app.add_typer(reprocess_app, name="reprocess")
app.add_typer(passes_app, name="passes")
app.add_typer(eval_app, name="eval")
app.command("mcp")(mcp_stdio)
app.command("erase")(erase_cmd)
app.command("history")(history_cmd)
app.command("export")(export_cmd)
app.command("import")(import_cmd)
app.command("query")(query_cmd)
app.command("profile")(profile_cmd)
app.command("state")(state_cmd)


@contextmanager
def _database_step(failure: str, code: int) -> Iterator[None]:
    """A step that reaches the database: the embedded server's own error as it is (exit
    3), any other failure as `<failure>: <type>: <message>` with `code`."""
    from memwarden.store.embedded import EmbeddedServerError

    try:
        yield
    except EmbeddedServerError as exc:
        fail(str(exc), 3)
    except Exception as exc:
        fail(f"{failure}: {type(exc).__name__}: {exc}", code)


def _shown(value: Any, as_json: bool, *lines: Any) -> None:
    """With --json the value as JSON on stdout, else the lines (text or tables)."""
    if as_json:
        emit_json(value)
        return
    for line in lines:
        console.print(line)


def _uuid(value: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        fail(f"{what} {value!r} is not a valid id")
        raise


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8420,
    worker: Annotated[bool, typer.Option(help="Run a job worker in each API process.")] = True,
    workers: Annotated[
        int, typer.Option(min=1, help="API processes sharing the port (each has its own pool).")
    ] = 1,
) -> None:
    """Serve the HTTP API (and MCP endpoint) with an in-process worker by default."""
    import uvicorn

    from memwarden.logging_setup import configure_logging
    from memwarden.settings import get_settings
    from memwarden.store.embedded import EmbeddedServerError, ServeLock

    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    # One serve per embedded data directory (two would share one database and one worker
    # queue without knowing it); with MEMWARDEN_DATABASE_URL several may run.
    lock = None if settings.database_url else ServeLock(settings.data_dir)
    if workers > 1:
        if lock is not None:
            try:
                lock.acquire()
            except EmbeddedServerError as exc:
                fail(str(exc), 3)
        _serve_processes(host, port, worker, workers)
        return
    from memwarden.api.app import create_app
    from memwarden.bootstrap import build_services

    with _database_step("cannot reach the database", 3):
        if lock is not None:
            lock.acquire()
        services = build_services(settings)
    application = create_app(services, run_worker=worker, open_services=True)
    console.print(f"memwarden serving on http://{host}:{port} (data: {settings.data_dir})")
    try:
        uvicorn.run(application, host=host, port=port, log_config=None, access_log=False)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc}", 3)


def _serve_processes(host: str, port: int, worker: bool, workers: int) -> None:
    """`serve --workers N`: this process resolves the database (starting the embedded
    server, which it keeps), migrates once, and has uvicorn start N API processes that
    build their apps from the deployment settings (api/served.py)."""
    import os

    import uvicorn

    from memwarden.settings import get_settings
    from memwarden.store.db import resolve_url
    from memwarden.store.migrate import apply_migrations

    settings = get_settings()
    with _database_step("cannot reach the database", 3):
        url, _server = resolve_url(settings)  # _server: the embedded server lives with us
        apply_migrations(url)
    os.environ["MEMWARDEN_DATABASE_URL"] = url  # the processes share this one server
    factory = "api_with_worker" if worker else "api_only"
    console.print(
        f"memwarden serving on http://{host}:{port} with {workers} processes"
        f" (data: {settings.data_dir})"
    )
    try:
        uvicorn.run(
            f"memwarden.api.served:{factory}",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_config=None,
            access_log=False,
        )
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc}", 3)


@app.command("worker")
def worker_cmd(
    concurrency: Annotated[int, typer.Option(help="Jobs run at once.")] = 2,
) -> None:
    """Run a job worker (document processing, retention purge) until interrupted.

    Any number of workers, on any machines, may share one database: procrastinate hands
    each job to one of them.
    """
    from memwarden.settings import get_settings

    async def work(services: Any) -> None:
        from memwarden.jobs.recovery import run_worker

        console.print("[green]worker started[/] (Ctrl-C to stop)")
        await run_worker(services, concurrency=concurrency, name="cli-worker")

    interrupt_on_sigterm()
    try:
        run(work, log_level=get_settings().log_level)
    except KeyboardInterrupt:
        console.print("worker stopped")


@app.command()
def migrate() -> None:
    """Apply pending database migrations (they also run at every start)."""
    from memwarden.logging_setup import configure_logging
    from memwarden.settings import get_settings
    from memwarden.store.db import resolve_url
    from memwarden.store.migrate import apply_migrations

    configure_logging("WARNING")
    with _database_step("migration failed", 1):
        url, _server = resolve_url(get_settings())
        applied = apply_migrations(url)
    console.print(
        f"applied {len(applied)} migration(s)" + (": " + ", ".join(applied) if applied else "")
    )


@contexts_app.command("create")
def contexts_create(
    name: str,
    subject: Annotated[str, typer.Option(help="Subject of the first key.")] = "owner",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Create a Context and a first key with every grant."""

    created = wire(run(lambda s: contexts_uc.create_context(s.db, OPERATOR, name, owner=subject)))
    key = created.pop("owner_key")
    _shown(
        {"context": created, "key": key},
        as_json,
        f"Context id: [bold]{created['id']}[/]",
        f"Key ({subject}, all grants; shown once): [bold]{key['key']}[/]",
    )


@contexts_app.command("list")
def contexts_list(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List Contexts."""
    rows = run(lambda s: all_pages("contexts", partial(contexts_uc.list_contexts, s.db, OPERATOR)))
    table = Table("id", "name", "created")
    for r in rows:
        table.add_row(r["id"], r["name"], r["created_at"])
    _shown(rows, as_json, table)


@keys_app.command("create")
def keys_create(
    context_id: str,
    subject: Annotated[str, typer.Option(help="The principal the key acts as.")],
    grant: Annotated[list[str], typer.Option("--grant", help="Capability; repeat.")],
    scope: Annotated[str | None, typer.Option(help="Scope-path prefix to narrow to.")] = None,
    expires_at: Annotated[datetime | None, typer.Option(help="Expiry (ISO 8601).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Issue a key; its secret is printed once."""
    ctx = _uuid(context_id, "context id")
    result = wire(
        run(
            lambda s: keys_uc.create_key(
                s.db,
                OPERATOR,
                ctx,
                subject=subject,
                grants=grant,
                scope=scope,
                expires_at=expires_at,
            )
        )
    )
    _shown(
        result, as_json, f"Key id: {result['id']}", f"Key (shown once): [bold]{result['key']}[/]"
    )


@keys_app.command("list")
def keys_list(context_id: str, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List a Context's keys (never their secrets)."""
    ctx = _uuid(context_id, "context id")
    rows = run(lambda s: all_pages("keys", partial(keys_uc.list_keys, s.db, OPERATOR, ctx)))
    table = Table("id", "subject", "grants", "scope", "expires", "revoked")
    for r in rows:
        table.add_row(
            r["id"],
            r["subject"],
            ",".join(r["grants"]),
            r["scope"] or "(all)",
            r["expires_at"] or "",
            r["revoked_at"] or "",
        )
    _shown(rows, as_json, table)


@keys_app.command("revoke")
def keys_revoke(context_id: str, key_id: str) -> None:
    """Revoke a key at once."""
    ctx, kid = _uuid(context_id, "context id"), _uuid(key_id, "key id")
    result = wire(run(lambda s: keys_uc.revoke_key(s.db, OPERATOR, ctx, kid)))
    console.print(f"revoked {result['id']} at {result['revoked_at']}")


@config_app.command("get")
def config_get(context_id: str) -> None:
    """Print a Context's configuration as JSON."""
    ctx = _uuid(context_id, "context id")
    emit_json(wire(run(lambda s: settings_service.get_config(s.db, OPERATOR, ctx))))


@config_app.command("set")
def config_set(
    context_id: str,
    patch: Annotated[str | None, typer.Argument(help="JSON partial configuration.")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="Read the patch from a file.")] = None,
) -> None:
    """Partially update a Context's configuration (objects merge; "" clears an addendum)."""
    ctx = _uuid(context_id, "context id")
    if (patch is None) == (file is None):
        fail("give the patch either as an argument or with --file")
    text = file.read_text() if file else patch
    try:
        body = json.loads(text or "")
    except json.JSONDecodeError as exc:
        fail(f"the patch is not valid JSON: {exc.msg} at line {exc.lineno}")
        return
    emit_json(wire(run(lambda s: settings_service.patch_config(s.db, OPERATOR, ctx, body))))


@app.command()
def doctor() -> None:
    """Check the database, pgvector, model providers and disk."""
    from memwarden.cli.doctor import run_doctor

    raise typer.Exit(run_doctor())
