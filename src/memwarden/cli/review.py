"""`memwarden review`: decisions, state, receipts and the eligibility diagnostic over HTTP.

These verbs talk to a running server with a Context key (`--key` or MEMWARDEN_API_KEY), so
a reviewer needs no access to the deployment's database.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from memwarden.cli.client import DEFAULT_URL, AsJson, Key, Url, request, show
from memwarden.cli.runner import command_group, fail

review_app = command_group(
    "Review memories: decide, read state and receipts, diagnose eligibility."
)
RecordId = Annotated[str, typer.Argument(help="The memory record's id.")]
Project = Annotated[str | None, typer.Option("--project", help="Scope project id.")]
Mission = Annotated[str | None, typer.Option("--mission", help="Scope mission id.")]
Agent = Annotated[str | None, typer.Option("--agent", help="Scope agent id.")]
Visibility = Annotated[str, typer.Option("--visibility", help="shared or private.")]


def _scope(project: str | None, mission: str | None, agent: str | None, visibility: str) -> dict:
    if visibility not in ("shared", "private"):
        fail("--visibility must be shared or private", 2)
    return {
        "project_id": project,
        "mission_id": mission,
        "agent_id": agent,
        "visibility": visibility,
    }


def _post(url: str, key: str | None, route: str, body: dict[str, Any]) -> dict[str, Any]:
    return request("POST", url, key, f"/api/v1/memory/{route}", body=body)


def _read(
    url: str, key: str | None, route: str, record_id: str, scope: dict, **extra: Any
) -> dict[str, Any]:
    """A read of one record in a scope (`reviews/<route>`, contract version 1)."""
    body = {"contract_version": 1, "scope": scope, "record_id": record_id, **extra}
    return _post(url, key, route, body)


def _table(title: str, values: dict[str, Any]) -> Table:
    table = Table(title=title, show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for name, value in values.items():
        shown = json.dumps(value) if isinstance(value, dict | list) else str(value)
        table.add_row(name, "-" if value is None else shown)
    return table


def _show(field: str, raw: dict[str, Any], as_json: bool) -> None:
    """The answer's `field` object as a two-column table titled so, or the whole answer as
    JSON."""
    show(raw, as_json, lambda r: _table(field, r[field]))


@review_app.command()
def decide(
    record_id: RecordId,
    revision: Annotated[int, typer.Option("--revision", "-r", help="Expected revision.")],
    disposition: Annotated[str, typer.Option(help="approved, rejected or unreviewed.")],
    evidence: Annotated[str, typer.Option("--evidence", help="Evidence reference (stored).")],
    idempotency_key: Annotated[
        str | None, typer.Option("--idempotency-key", help="Makes retries safe.")
    ] = None,
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Record a revision-checked decision and print its receipt."""
    command: dict[str, Any] = {
        "contract_version": 1,
        "record_id": record_id,
        "expected_revision": revision,
        "disposition": disposition,
        "evidence_ref": evidence,
    }
    if idempotency_key is not None:
        command["idempotency_key"] = idempotency_key
    body = {"scope": _scope(project, mission, agent, visibility), "command": command}
    _show("receipt", _post(url, key, "reviews", body), as_json)


@review_app.command()
def state(
    record_id: RecordId,
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Show a record's revision, current decision, deleted and expired (no content)."""
    scope = _scope(project, mission, agent, visibility)
    _show("state", _read(url, key, "reviews/state", record_id, scope), as_json)


@review_app.command("read")
def read_receipt(
    record_id: RecordId,
    revision: Annotated[int, typer.Option("--revision", "-r", help="A decision's revision.")],
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Show the original receipt of the decision that produced a revision."""
    scope = _scope(project, mission, agent, visibility)
    raw = _read(url, key, "reviews/read", record_id, scope, revision=revision)
    _show("receipt", raw, as_json)


@review_app.command()
def eligibility(
    record_id: RecordId,
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Say whether a record is served and which record (itself or a source) blocks it."""
    scope = _scope(project, mission, agent, visibility)
    raw = _read(url, key, "reviews/eligibility", record_id, scope)
    show(raw, as_json, lambda r: _table("eligibility", _eligibility(r)))


def _eligibility(raw: dict[str, Any]) -> dict[str, Any]:
    values = {"record_id": raw["record_id"], "servable": raw["servable"]}
    blocking = raw["blocking"] or {}
    values.update({f"blocking.{k}": v for k, v in blocking.items()} or {"blocking": None})
    return values
