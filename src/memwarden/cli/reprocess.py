"""`memwarden reprocess turn|document <id>`: extract again the windows of an item whose
extraction failed, over HTTP with a key holding memory_write over its scope (the client is
`client.py`)."""

from __future__ import annotations

from typing import Any

from memwarden.cli.client import DEFAULT_URL, AsJson, ContextId, Key, Url, request, show
from memwarden.cli.runner import command_group

reprocess_app = command_group(
    "Reprocess a turn or document whose extraction failed (only its failed windows)."
)


def _reprocess(route: str, url: str, key: str | None, as_json: bool) -> None:
    show(request("POST", url, key, f"{route}/reprocess"), as_json, _line)


def _line(result: dict[str, Any]) -> str:
    extraction = result["extraction"]
    facts = sum(
        1 for v in extraction.values() if isinstance(v, list) for item in v if item.get("isNew")
    )
    return (
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
    _reprocess(f"/api/v1/{context}/turns/{turn_id}", url, key, as_json)


@reprocess_app.command("document")
def document_cmd(
    document_id: str,
    context: ContextId,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Re-extract the failed windows of one processed document (409 when none failed)."""
    _reprocess(f"/api/v1/{context}/documents/{document_id}", url, key, as_json)
