"""`memwarden reprocess turn|document <id>`: extract again the windows of an item whose
extraction failed, over HTTP with a key holding memory_write over its scope (the client is
`client.py`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from memwarden.cli.client import DEFAULT_URL, AsJson, Key, Url, out, request

reprocess_app = typer.Typer(
    help="Reprocess a turn or document whose extraction failed (only its failed windows).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
ContextId = Annotated[
    str, typer.Option("--context", help="Context id.", envvar="MEMWARDEN_CONTEXT_ID")
]


def _report(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps(result))
        return
    extraction = result["extraction"]
    facts = sum(
        1 for v in extraction.values() if isinstance(v, list) for item in v if item.get("isNew")
    )
    out.print(
        f"retried {result['windowsRetried']} windows, {result['windowsFailed']} still failing;"
        f" {facts} new facts"
    )


@reprocess_app.command("turn")
def turn_cmd(
    turn_id: str,
    context: ContextId,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Re-extract the failed windows of one turn (409 when none failed)."""
    _report(request("POST", url, key, f"/api/v1/{context}/turns/{turn_id}/reprocess"), as_json)


@reprocess_app.command("document")
def document_cmd(
    document_id: str,
    context: ContextId,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Re-extract the failed windows of one processed document (409 when none failed)."""
    route = f"/api/v1/{context}/documents/{document_id}/reprocess"
    _report(request("POST", url, key, route), as_json)
