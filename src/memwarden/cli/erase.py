"""`memwarden erase`: erase one target for good over HTTP with a key holding grant:manage
over it, and follow the job with a progress display until it ends (the client is
`client.py`). It asks before it starts, unless `--yes`: nothing undoes an erasure."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from memwarden.cli.client import DEFAULT_URL, AsJson, ContextId, Key, Url, out, print_json, request
from memwarden.cli.runner import fail

STEPS = {"queued": 0, "running": 1, "done": 2, "failed": 2}
POLL_S = 0.5
SHOWN = ("records", "derived_records", "turns", "documents", "judgements", "retained_inputs")


def _target(
    records: list[str] | None,
    subject: str | None,
    speaker: str | None,
    scope: str | None,
    session: str | None,
    document: str | None,
) -> dict[str, Any]:
    given = {
        "recordIds": records or None,
        "subject": subject,
        "speaker": speaker,
        "scopePrefix": scope,
        "sessionId": session,
        "documentId": document,
    }
    named = {k: v for k, v in given.items() if v is not None}
    if len(named) != 1:
        fail(
            "name exactly one of --record, --subject, --speaker, --scope, --session, --document", 2
        )
    return named


def _line(erasure: dict[str, Any]) -> str:
    counts = erasure["counts"]
    shown = ", ".join(f"{counts.get(k, 0)} {k.replace('_', ' ')}" for k in SHOWN)
    return f"erasure {erasure['status']}: {shown}"


def erase_cmd(
    context: ContextId,
    record: Annotated[
        list[str] | None, typer.Option("--record", help="A record id (repeat for several).")
    ] = None,
    subject: Annotated[
        str | None, typer.Option(help="A principal: what it wrote and what is about it.")
    ] = None,
    speaker: Annotated[
        str | None, typer.Option(help="An end user id: what they said and what is about them.")
    ] = None,
    scope: Annotated[str | None, typer.Option(help="A scope prefix: everything inside it.")] = None,
    session: Annotated[str | None, typer.Option(help="A session id.")] = None,
    document: Annotated[str | None, typer.Option(help="A document id.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask: erase at once.")] = False,
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="Follow the erasure until it ends.")
    ] = True,
    timeout: Annotated[
        float, typer.Option(min=1.0, help="Seconds to follow the erasure before giving up.")
    ] = 3600.0,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Erase one target's content everywhere for good (records, subject, speaker, scope,
    session or document): only content-free tombstones stay. Shows the job's progress."""
    body = _target(record, subject, speaker, scope, session, document)
    if not yes and not typer.confirm(f"Erase {body} for good? Nothing can undo it"):
        fail("nothing erased", 1)
    base = f"/api/v1/{context}/erasures"
    erasure_id = request("POST", url, key, base, body=body)["erasureId"]
    if not wait:
        out.print(erasure_id)
        return
    route = f"{base}/{erasure_id}"
    deadline = time.monotonic() + timeout
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=out, transient=as_json) as progress:
        task = progress.add_task("erasure queued", total=2)
        while True:
            erasure = request("GET", url, key, route)
            progress.update(task, completed=STEPS[erasure["status"]], description=_line(erasure))
            if erasure["status"] in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                fail(f"erasure {erasure_id} still {erasure['status']} after {timeout:g} s", 1)
            time.sleep(POLL_S)
    if as_json:
        print_json(erasure)
    if erasure["status"] == "failed":
        fail(f"erasure {erasure_id} failed: {erasure['error']}", 1)
