"""The reviewer CLI's one HTTP client: `memwarden judgements`, `review`, `hygiene`,
`passes` and `reprocess` talk to a running server with a Context key, so a reviewer needs
no access to the deployment's database.

One set of `--url/--key/--context/--json` options, one timeout, one way to print an answer
(`show`), and one error format through the CLI's one error handler (`runner.fail`):
`<status> <code>: <message> (field: <f>)`, exit 2 for a refused request, 1 for a server
failure, 3 when the server cannot be reached.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console, RenderableType

from memwarden.cli.runner import fail

DEFAULT_URL = "http://127.0.0.1:8420"
# A dry run re-judges up to 50 logged inputs with the judge model: give it time.
TIMEOUT_S = 120.0

Url = Annotated[str, typer.Option("--url", help="Server base URL.", envvar="MEMWARDEN_URL")]
Key = Annotated[
    str | None, typer.Option("--key", help="Context API key.", envvar="MEMWARDEN_API_KEY")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the raw JSON response.")]
ContextId = Annotated[
    str, typer.Option("--context", help="Context id.", envvar="MEMWARDEN_CONTEXT_ID")
]

out = Console()


def error_line(resp: httpx.Response) -> str:
    """The server's error as one line; the body is JSON `{"error": {...}}` when ours."""
    try:
        payload = resp.json()
    except ValueError:
        payload = None
    error = payload.get("error", {}) if isinstance(payload, dict) else {}
    error = error if isinstance(error, dict) else {}
    code = error.get("code", "error")
    message = error.get("message") or resp.text[:200] or resp.reason_phrase
    field = f" (field: {error['field']})" if error.get("field") else ""
    return f"{resp.status_code} {code}: {message}{field}"


def request(
    method: str,
    url: str,
    key: str | None,
    route: str,
    *,
    body: Any = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One request; any failure becomes one clear line and an exit code."""
    if not key:
        fail("no API key: pass --key or set MEMWARDEN_API_KEY", 2)
    query = {k: v for k, v in (params or {}).items() if v is not None}
    try:
        resp = httpx.request(
            method,
            f"{url.rstrip('/')}{route}",
            json=body,
            params=query,
            headers={"Authorization": f"Bearer {key}"},
            timeout=TIMEOUT_S,
        )
    except httpx.HTTPError as exc:
        fail(f"cannot reach {url}: {type(exc).__name__}", 3)
        raise AssertionError("unreachable") from exc
    payload: Any = None
    if resp.is_success:
        try:
            payload = resp.json()
        except ValueError:
            payload = None
    if not isinstance(payload, dict):
        fail(error_line(resp), 1 if resp.status_code >= 500 or resp.is_success else 2)
    return payload


def print_json(payload: dict[str, Any]) -> None:
    out.print_json(json.dumps(payload))


def show(
    payload: dict[str, Any], as_json: bool, text: Callable[[dict[str, Any]], RenderableType]
) -> None:
    """A server answer: as raw JSON with --json, else what `text` makes of it (a line or a
    table), built only when it is printed."""
    if as_json:
        print_json(payload)
    else:
        out.print(text(payload))
