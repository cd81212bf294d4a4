"""`memwarden query`, `profile` and `state`: what a key is served now or, with `--as-of`,
what it would have been served at a past moment (GET /{context}/query, /profile and /state
over HTTP with the key's own grants)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.table import Table

from memwarden.cli.client import DEFAULT_URL, AsJson, ContextId, Key, Url, request, show

AsOf = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        help="An ISO-8601 moment with its timezone (2026-11-30T09:00:00Z): what the key "
        "would have been served then.",
    ),
]
Scope = Annotated[
    list[str] | None, typer.Option("--scope", help="A scope path to read (repeatable).")
]


def hits_table(title: str, hits: list[dict[str, Any]], *, scored: bool = False) -> Table:
    table = Table(title=title)
    for name in ("id", "kind", "text", "scope", "revision") + (("score",) if scored else ()):
        table.add_column(name, no_wrap=name in ("id", "revision", "score"))
    for hit in hits:
        scope = hit["scope"]
        where = f"{scope['path'] or '/'} ({scope['visibility']})"
        row = [hit["id"], hit["kind"], hit.get("text") or "", where, str(hit.get("revision") or "")]
        if scored:
            row.append(f"{hit['score']:.4f}" if hit.get("score") is not None else "")
        table.add_row(*row)
    return table


def _when(as_of: str | None) -> str:
    return f" as of {as_of}" if as_of else ""


def query_cmd(
    text: Annotated[str, typer.Argument(help="What to recall.")],
    context: ContextId,
    limit: Annotated[int, typer.Option(min=1, max=100, help="Hits at most.")] = 10,
    mode: Annotated[str, typer.Option(help="hybrid, lexical or vector.")] = "hybrid",
    scope: Scope = None,
    as_of: AsOf = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Recall: the records and chunks that best answer TEXT, ranked."""
    params = {"query": text, "limit": limit, "mode": mode, "scope": scope, "as_of": as_of}
    answer = request("GET", url, key, f"/api/v1/{context}/query", params=params)
    show(
        answer,
        as_json,
        lambda a: hits_table(f"{a['query']!r}{_when(as_of)}", a["hits"], scored=True),
    )


def profile_table(answer: dict[str, Any], as_of: str | None) -> RenderableType:
    entity = answer["entity"]
    name = entity.get("name") or entity["id"]
    parts = [
        hits_table(f"{name}: {part}{_when(as_of)}", answer[part])
        for part in ("attributes", "relations", "actions", "history")
        if answer[part]
    ]
    return Group(*parts) if parts else f"{name}: nothing served{_when(as_of)}"


def profile_cmd(
    context: ContextId,
    entity: Annotated[
        str | None,
        typer.Option(help="An entity id or name; without it the key's own (speaker) profile."),
    ] = None,
    speaker: Annotated[
        str | None, typer.Option(help="The speaker whose own profile to read.")
    ] = None,
    history: Annotated[bool, typer.Option(help="Also superseded values.")] = False,
    scope: Scope = None,
    as_of: AsOf = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """An entity's profile: its attributes, relations and actions."""
    params = {
        "entity": entity,
        "speaker": speaker,
        "history": str(history).lower(),
        "scope": scope,
        "as_of": as_of,
    }
    answer = request("GET", url, key, f"/api/v1/{context}/profile", params=params)
    show(answer, as_json, lambda a: profile_table(a, as_of))


def state_table(answer: dict[str, Any], as_of: str | None) -> RenderableType:
    parts = [
        hits_table(f"{part}{_when(as_of)}", answer[part])
        for part in ("instructions", "uncertainties", "actions")
        if answer[part]
    ]
    return Group(*parts) if parts else f"no instructions, uncertainties or actions{_when(as_of)}"


def state_cmd(
    context: ContextId,
    scope: Scope = None,
    as_of: AsOf = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """The standing state: instructions, open uncertainties and recent actions."""
    params = {"scope": scope, "as_of": as_of}
    answer = request("GET", url, key, f"/api/v1/{context}/state", params=params)
    show(answer, as_json, lambda a: state_table(a, as_of))
