"""`memwarden review`: decisions, state, receipts and the eligibility diagnostic over HTTP.

These verbs talk to a running server with a Context key (`--key` or MEMWARDEN_API_KEY), so
a reviewer needs no access to the deployment's database.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console
from rich.table import Table

review_app = typer.Typer(
    help="Review memories: decide, read state and receipts, diagnose eligibility.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

Url = Annotated[str, typer.Option("--url", help="Server base URL.", envvar="MEMWARDEN_URL")]
Key = Annotated[
    str | None, typer.Option("--key", help="Context API key.", envvar="MEMWARDEN_API_KEY")
]
Project = Annotated[str | None, typer.Option("--project", help="Scope project id.")]
Mission = Annotated[str | None, typer.Option("--mission", help="Scope mission id.")]
Agent = Annotated[str | None, typer.Option("--agent", help="Scope agent id.")]
Visibility = Annotated[str, typer.Option("--visibility", help="shared or private.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the raw JSON response.")]
DEFAULT_URL = "http://127.0.0.1:8420"


def _fail(message: str, code: int) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def _scope(project: str | None, mission: str | None, agent: str | None, visibility: str) -> dict:
    if visibility not in ("shared", "private"):
        _fail("--visibility must be shared or private", 2)
    return {
        "project_id": project,
        "mission_id": mission,
        "agent_id": agent,
        "visibility": visibility,
    }


def _post(url: str, key: str | None, route: str, body: dict[str, Any]) -> dict[str, Any]:
    """One request; every failure becomes one clear line and an exit code."""
    if not key:
        _fail("no API key: pass --key or set MEMWARDEN_API_KEY", 2)
    target = f"{url.rstrip('/')}/api/v1/memory/{route}"
    try:
        resp = httpx.post(target, json=body, headers={"Authorization": f"Bearer {key}"}, timeout=30)
    except httpx.HTTPError as exc:
        _fail(f"cannot reach {url}: {type(exc).__name__}: {exc}", 3)
        raise AssertionError("unreachable") from None
    try:
        payload = resp.json()
    except ValueError:
        payload = None
    if resp.status_code != 200 or not isinstance(payload, dict):
        error = (payload or {}).get("error", {}) if isinstance(payload, dict) else {}
        code = error.get("code", "error")
        message = error.get("message", resp.text[:200] or resp.reason_phrase)
        field = f" (field: {error['field']})" if error.get("field") else ""
        _fail(f"{resp.status_code} {code}: {message}{field}", 1 if resp.status_code >= 500 else 2)
    return payload  # type: ignore[return-value]


def _show(title: str, values: dict[str, Any], as_json: bool, raw: dict[str, Any]) -> None:
    if as_json:
        out.print_json(json.dumps(raw))
        return
    table = Table(title=title, show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for name, value in values.items():
        shown = json.dumps(value) if isinstance(value, dict | list) else str(value)
        table.add_row(name, "-" if value is None else shown)
    out.print(table)


@review_app.command()
def decide(
    record_id: Annotated[str, typer.Argument(help="The memory record's id.")],
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
    raw = _post(url, key, "reviews", body)
    _show("receipt", raw["receipt"], as_json, raw)


@review_app.command()
def state(
    record_id: Annotated[str, typer.Argument(help="The memory record's id.")],
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Show a record's revision, current decision, deleted and expired (no content)."""
    body = {
        "contract_version": 1,
        "scope": _scope(project, mission, agent, visibility),
        "record_id": record_id,
    }
    raw = _post(url, key, "reviews/state", body)
    _show("state", raw["state"], as_json, raw)


@review_app.command("read")
def read_receipt(
    record_id: Annotated[str, typer.Argument(help="The memory record's id.")],
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
    body = {
        "contract_version": 1,
        "scope": _scope(project, mission, agent, visibility),
        "record_id": record_id,
        "revision": revision,
    }
    raw = _post(url, key, "reviews/read", body)
    _show("receipt", raw["receipt"], as_json, raw)


@review_app.command()
def eligibility(
    record_id: Annotated[str, typer.Argument(help="The memory record's id.")],
    project: Project = None,
    mission: Mission = None,
    agent: Agent = None,
    visibility: Visibility = "shared",
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Say whether a record is served and which record (itself or a source) blocks it."""
    body = {
        "contract_version": 1,
        "scope": _scope(project, mission, agent, visibility),
        "record_id": record_id,
    }
    raw = _post(url, key, "reviews/eligibility", body)
    values = {"record_id": raw["record_id"], "servable": raw["servable"]}
    blocking = raw["blocking"] or {}
    values.update({f"blocking.{k}": v for k, v in blocking.items()} or {"blocking": None})
    _show("eligibility", values, as_json, raw)
