"""`memwarden history RECORD_ID`: a record's revisions as a table (GET
/{context}/memories/{record_id}/history over HTTP with a key that may read the record)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from memwarden.cli.client import DEFAULT_URL, AsJson, ContextId, Key, Url, request, show


def _when(value: str | None) -> str:
    return value[:19].replace("T", " ") if value else "—"


def history_table(answer: dict[str, Any]) -> Table:
    title = f"{answer['kind']} {answer['record_id']} ({answer['serving']})"
    speaker = f", said by {answer['speaker']}" if answer.get("speaker") else ""
    table = Table(title=title, caption=f"written by {answer['author']}{speaker}")
    for name in ("rev", "op", "cause", "by", "recorded", "until", "valid to", "replaced by"):
        table.add_column(name, no_wrap=name in ("rev", "recorded", "until"))
    for r in answer["revisions"]:
        op = f"{r['op']} (tombstone)" if r["tombstone"] else r["op"]
        table.add_row(
            str(r["revision"]),
            op,
            r["cause"],
            r["author"],
            _when(r["recorded_at"]),
            _when(r["until"]),
            _when(r["valid_to"]),
            r["replaced_by"] or "—",
        )
    if answer.get("next_cursor"):
        table.caption = f"{table.caption}; older: --cursor {answer['next_cursor']}"
    return table


def history_cmd(
    record_id: Annotated[str, typer.Argument(help="The memory record's id.")],
    context: ContextId,
    limit: Annotated[
        int, typer.Option(min=1, max=200, help="Revisions per page (newest first).")
    ] = 50,
    cursor: Annotated[
        str | None, typer.Option(help="next_cursor of the page before: older revisions.")
    ] = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """A memory record's history: each revision's op, cause, author, times, validity and
    the record that replaced it (no content; erased records show their tombstones)."""
    route = f"/api/v1/{context}/memories/{record_id}/history"
    answer = request("GET", url, key, route, params={"limit": limit, "cursor": cursor})
    show(answer, as_json, history_table)
