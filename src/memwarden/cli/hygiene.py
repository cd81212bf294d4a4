"""`memwarden hygiene`: scans, the review queue and its corrections over HTTP, with a key
holding memory_review (challenge: memory_write or memory_review). The client is
`client.py`."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from memwarden.cli.client import (
    DEFAULT_URL,
    AsJson,
    ContextId,
    Key,
    Url,
    out,
    print_json,
    request,
    show,
)
from memwarden.cli.runner import command_group

hygiene_app = command_group("Memory hygiene: scan, review queue, resolve, restore, challenge.")
POLL_S = 0.5


def _base(context: str) -> str:
    return f"/api/v1/{context}/hygiene"


def _counts(counts: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())


@hygiene_app.command("scan")
def scan_cmd(
    context: ContextId,
    rejudge: Annotated[
        bool, typer.Option("--rejudge", help="Re-judge pending pairs with the current judge.")
    ] = False,
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="Follow the run until it ends.")
    ] = True,
    timeout: Annotated[float, typer.Option(help="Seconds to follow the run.")] = 600.0,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Start a full hygiene cycle (stale sweep, sweep, re-examination) and show its
    progress; exits 1 when the run failed."""
    started = request("POST", url, key, f"{_base(context)}/scan", body={"rejudge": rejudge})
    run_id = started["runId"]
    run: dict[str, Any] = {"runId": run_id, "status": started.get("status", "queued")}
    if wait:
        deadline = time.monotonic() + timeout
        with Progress(
            SpinnerColumn(),
            TextColumn("[bold]{task.fields[status]}[/] {task.description}"),
            TimeElapsedColumn(),
            console=out,
            transient=True,
            disable=as_json,
        ) as progress:
            task = progress.add_task(f"run {run_id}", status="queued")
            while time.monotonic() < deadline:
                run = request("GET", url, key, f"{_base(context)}/runs/{run_id}")
                progress.update(
                    task,
                    status=run["status"],
                    description=_counts(run["counts"]),
                )
                if run["status"] in ("done", "failed"):
                    break
                time.sleep(POLL_S)
    if as_json:
        print_json(run)
    else:
        out.print(f"run {run_id}: {run['status']}")
        if "counts" in run:
            out.print(_counts(run["counts"]))
    if run.get("status") == "failed":
        raise typer.Exit(1)


def _queue_table(items: list[dict[str, Any]]) -> Table:
    table = Table(title="Hygiene queue")
    for column in ("id", "when", "status", "verdict", "direction", "conf", "judge", "a", "b"):
        table.add_column(column, overflow="fold")
    for i in items:
        b = i["b"]["text"][:50] if i["b"] else f"challenge: {(i['reason'] or '')[:40]}"
        table.add_row(
            i["id"],
            (i["created_at"] or "")[:19],
            i["status"],
            i["verdict"],
            i["direction"] or "",
            f"{i['confidence']:.2f}",
            i["judge_model"] or "",
            i["a"]["text"][:50],
            b,
        )
    return table


@hygiene_app.command("queue")
def queue_cmd(
    context: ContextId,
    status: Annotated[str, typer.Option(help="pending, resolved or dismissed.")] = "pending",
    limit: Annotated[int, typer.Option(min=1, max=100)] = 20,
    cursor: Annotated[str | None, typer.Option(help="next_cursor of the previous page.")] = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Queue items, newest first, with both memories."""
    params = {"status": status, "limit": limit, "cursor": cursor}
    page = request("GET", url, key, f"{_base(context)}/queue", params=params)
    if as_json:
        print_json(page)
        return
    out.print(_queue_table(page["items"]))
    if page.get("next_cursor"):
        out.print(f"next page: --cursor {page['next_cursor']}")


@hygiene_app.command("resolve")
def resolve_cmd(
    item_id: str,
    context: ContextId,
    resolution: Annotated[str, typer.Option(help="keep_both, keep_a or keep_b.")],
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Decide a queue item once (keep_a supersedes b, keep_b supersedes a)."""
    body = {"resolution": resolution}
    done = request("POST", url, key, f"{_base(context)}/queue/{item_id}/resolve", body=body)
    show(done, as_json, lambda d: f"resolved {item_id}: {d['item']['resolution']}")


@hygiene_app.command("restore")
def restore_cmd(
    record_id: str,
    context: ContextId,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Undo an automatic resolution: the memory is live again."""
    done = request("POST", url, key, f"{_base(context)}/memories/{record_id}/restore")
    show(done, as_json, lambda d: f"restored {record_id} at revision {d['revision']}")


@hygiene_app.command("challenge")
def challenge_cmd(
    record_id: str,
    context: ContextId,
    reason: Annotated[str, typer.Option(help="Why the memory is wrong.")],
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Flag a memory that is wrong against the world for a person (not invalidated)."""
    body = {"reason": reason}
    done = request("POST", url, key, f"{_base(context)}/memories/{record_id}/challenge", body=body)
    show(done, as_json, lambda d: f"challenged {record_id}: queue item {d['id']}")
