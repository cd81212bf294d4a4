"""`memwarden judgements`: the judge's review log over HTTP (list, show, override, holds,
dry runs), with a key holding grant:manage over the Context (the client is `client.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
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

judgements_app = command_group(
    "Review the ingest judge: list, show, override, approve/reject holds, dry runs."
)


def _base(context: str) -> str:
    return f"/api/v1/{context}/judgements"


def _entries_table(entries: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title)
    for column in (
        "id",
        "when",
        "gate",
        "verdict",
        "override",
        "reasons",
        "source",
        "held",
        "excerpt",
    ):
        table.add_column(column, overflow="fold")
    for e in entries:
        held = "held" if e["held"] and not e["hold_decision"] else (e["hold_decision"] or "")
        table.add_row(
            e["id"],
            (e["created_at"] or "")[:19],
            e["gate"],
            e["verdict"],
            (e.get("override") or {}).get("verdict", ""),
            ",".join(e["reasons"]),
            e["source"],
            held,
            e["excerpt"][:60].replace("\n", " "),
        )
    return table


@judgements_app.command("list")
def list_cmd(
    context: ContextId,
    verdict: Annotated[str | None, typer.Option(help="pass, warn or fail.")] = None,
    stage: Annotated[str | None, typer.Option(help="input or row.")] = None,
    held: Annotated[bool, typer.Option("--held", help="Only holds awaiting a decision.")] = False,
    limit: Annotated[int, typer.Option(min=1, max=100)] = 20,
    cursor: Annotated[str | None, typer.Option(help="next_cursor of the previous page.")] = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Review-log entries, newest first."""
    params = {
        "verdict": verdict,
        "stage": stage,
        "held": "true" if held else None,
        "limit": limit,
        "cursor": cursor,
    }
    page = request("GET", url, key, _base(context), params=params)
    show(page, as_json, lambda p: _entries_table(p["judgements"], "Judgements"))
    if page.get("next_cursor") and not as_json:
        out.print(f"next page: --cursor {page['next_cursor']}")


@judgements_app.command("show")
def show_cmd(
    judgement_id: str, context: ContextId, url: Url = DEFAULT_URL, key: Key = None
) -> None:
    """One entry, with the judge's and any reviewer's verdict."""
    print_json(request("GET", url, key, f"{_base(context)}/{judgement_id}"))


@judgements_app.command("override")
def override_cmd(
    judgement_id: str,
    context: ContextId,
    verdict: Annotated[str, typer.Option(help="pass, warn or fail.")],
    replay: Annotated[bool, typer.Option("--replay", help="Ingest the kept request.")] = False,
    url: Url = DEFAULT_URL,
    key: Key = None,
) -> None:
    """Record the correct verdict beside the judge's (and replay a kept request)."""
    body = {"verdict": verdict, "replay": replay}
    result = request("POST", url, key, f"{_base(context)}/{judgement_id}/override", body=body)
    out.print(f"override recorded: {verdict}; replay: {result['replay']}")


def _decide(judgement_id: str, context: str, url: str, key: str | None, verb: str) -> None:
    result = request("POST", url, key, f"{_base(context)}/{judgement_id}/{verb}")
    changed = result["changed"]
    out.print(
        f"{verb}d: {changed['facts']} facts, {changed['chunks']} chunks, {changed['turns']} turns"
    )


@judgements_app.command("approve")
def approve_cmd(
    judgement_id: str, context: ContextId, url: Url = DEFAULT_URL, key: Key = None
) -> None:
    """Release what the judgement holds."""
    _decide(judgement_id, context, url, key, "approve")


@judgements_app.command("reject")
def reject_cmd(
    judgement_id: str, context: ContextId, url: Url = DEFAULT_URL, key: Key = None
) -> None:
    """Delete what the judgement holds."""
    _decide(judgement_id, context, url, key, "reject")


@judgements_app.command("dry-run")
def dry_run_cmd(
    context: ContextId,
    addendum_file: Annotated[Path, typer.Option(exists=True, dir_okay=False, readable=True)],
    verdict: Annotated[str | None, typer.Option(help="pass, warn or fail.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=50)] = 20,
    compare_current: Annotated[bool, typer.Option("--compare-current")] = False,
    judgement_id: Annotated[list[str] | None, typer.Option("--id")] = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Judge recorded entries again under a candidate addendum; stores nothing."""
    body: dict[str, Any] = {
        "addendum": addendum_file.read_text(encoding="utf-8"),
        "limit": limit,
        "compareCurrent": compare_current,
    }
    if verdict:
        body["verdict"] = verdict
    if judgement_id:
        body["judgementIds"] = judgement_id
    result = request("POST", url, key, f"{_base(context)}/dry-run", body=body)
    show(result, as_json, _dry_run_table)
    if not as_json:
        out.print(
            f"tested {result['tested']}, skipped {result['skipped']}, changed {result['changed']}"
        )
        if result.get("note"):
            out.print(f"[yellow]{result['note']}[/]")


def _dry_run_table(result: dict[str, Any]) -> Table:
    table = Table(title="Dry run")
    for column in ("id", "source", "original", "candidate", "current", "changed"):
        table.add_column(column)
    for e in result["entries"]:
        if "skipped" in e:
            table.add_row(e["id"], e.get("source", ""), "", f"skipped: {e['skipped']}", "", "")
            continue
        current = (e.get("current") or {}).get("verdict") or ""
        candidate = e["candidate"].get("verdict") or e["candidate"].get("error", "")
        table.add_row(
            e["id"],
            e["source"],
            e["original"]["verdict"],
            candidate,
            current,
            "yes" if e["changed"] else "",
        )
    return table
