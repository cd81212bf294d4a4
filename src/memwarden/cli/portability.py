"""`memwarden export` and `memwarden import`: a Context's memories to a JSON Lines file, and
a file (memwarden's export, mem0's, or texts) into a Context, over HTTP with a Context key
(the client is `client.py`), each with a progress display.

An import file larger than one request may carry (`IMPORT_BODY_LIMIT`) goes in parts cut
at line ends, each an import of its own (a memwarden export's header line starts each
part); since every item is imported once by its id, a part sent again is skipped.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from memwarden.cli.client import (
    DEFAULT_URL,
    AsJson,
    ContextId,
    Key,
    Url,
    error_line,
    out,
    print_json,
    request,
)
from memwarden.cli.runner import fail
from memwarden.limits import IMPORT_BODY_LIMIT
from memwarden.portability.formats import MAX_ITEMS
from memwarden.portability.responses import OUTCOMES

POLL_S = 0.5
STREAM_TIMEOUT_S = 600.0


def export_cmd(
    context: ContextId,
    output: Annotated[Path, typer.Option("--out", help="The file to write (JSON Lines).")],
    subject: Annotated[
        str | None, typer.Option(help="Only a subject's data: what it wrote or is about it.")
    ] = None,
    scope: Annotated[
        list[str] | None, typer.Option(help="Only records at or below a scope (repeat).")
    ] = None,
    sessions: Annotated[
        bool, typer.Option("--sessions/--no-sessions", help="Sessions and turns too.")
    ] = False,
    include: Annotated[
        list[str] | None,
        typer.Option(help="keys or judgements (grant:manage over the whole Context)."),
    ] = None,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Export a Context's memories to a JSON Lines file (records with every revision,
    review state and receipts; links; sessions and turns with --sessions)."""
    if not key:
        fail("no API key: pass --key or set MEMWARDEN_API_KEY", 2)
    params: dict[str, Any] = {"subject": subject, "sessions": sessions}
    query = [(k, v) for k, v in params.items() if v is not None]
    query += [("scope", s) for s in scope or ()]
    query += [("include", i) for i in include or ()]
    counts: Counter[str] = Counter()
    last: dict[str, Any] = {}
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    try:
        with (
            httpx.stream(
                "GET",
                f"{url.rstrip('/')}/api/v1/{context}/export",
                params=query,
                headers={"Authorization": f"Bearer {key}"},
                timeout=STREAM_TIMEOUT_S,
            ) as resp,
            Progress(*columns, console=out, transient=as_json) as progress,
        ):
            if not resp.is_success:
                resp.read()
                fail(error_line(resp), 2 if resp.status_code < 500 else 1)
            task = progress.add_task("exporting", total=None)
            with output.open("w", encoding="utf-8") as f:
                for line in resp.iter_lines():
                    if not line:
                        continue
                    f.write(line + "\n")
                    last = json.loads(line)
                    counts[last.get("kind", "?")] += 1
                    if counts["record"] % 500 == 0 or last.get("kind") == "end":
                        progress.update(task, description=f"{counts['record']} records")
    except httpx.HTTPError as exc:
        fail(f"cannot reach {url}: {type(exc).__name__}", 3)
    if last.get("kind") != "end":
        fail(f"the export was cut short after {sum(counts.values())} lines", 1)
    summary = {"file": str(output), "counts": last.get("counts", {})}
    if as_json:
        print_json(summary)
    else:
        shown = ", ".join(f"{v} {k}s" for k, v in sorted(summary["counts"].items()))
        out.print(f"exported {shown or 'nothing'} to {output}")


def parts(
    data: bytes, limit: int = IMPORT_BODY_LIMIT, max_lines: int = MAX_ITEMS
) -> Iterator[bytes]:
    """The file in parts of at most `limit` bytes and `max_lines` lines cut at line ends (what
    one import takes); a memwarden export's header line starts every part."""
    first, _, _rest = data.partition(b"\n")
    header = b""
    try:
        value = json.loads(first)
        if isinstance(value, dict) and value.get("kind") == "header":
            header = first + b"\n"
    except ValueError:
        pass
    lines = data[len(header) :].splitlines(keepends=True)
    if len(data) <= limit and len(lines) <= max_lines:
        yield data
        return
    if data.lstrip()[:1] == b"[" or data.lstrip().startswith(b'{"results"'):
        fail(f"a JSON document larger than {limit} bytes cannot be cut: write one memory a line", 2)
    part, count = bytearray(header), 0
    for line in lines:
        if len(header) + len(line) > limit:
            fail(f"a line of the file is longer than {limit} bytes", 2)
        if len(part) + len(line) > limit or count == max_lines:
            yield bytes(part)
            part, count = bytearray(header), 0
        part += line
        count += 1
    if count:
        yield bytes(part)


def _post(url: str, key: str, route: str, body: bytes, params: dict[str, Any]) -> dict[str, Any]:
    try:
        resp = httpx.post(
            f"{url.rstrip('/')}{route}",
            content=body,
            params={k: v for k, v in params.items() if v is not None},
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/x-ndjson"},
            timeout=STREAM_TIMEOUT_S,
        )
    except httpx.HTTPError as exc:
        fail(f"cannot reach {url}: {type(exc).__name__}", 3)
        raise AssertionError("unreachable") from exc
    if not resp.is_success:
        fail(error_line(resp), 2 if resp.status_code < 500 else 1)
    answer: dict[str, Any] = resp.json()
    return answer


def import_cmd(
    context: ContextId,
    file: Annotated[Path, typer.Argument(help="The file: memwarden export, mem0, or texts.")],
    source: Annotated[
        str,
        typer.Option("--source", help="The directory the items came from (they are pinned to it)."),
    ],
    fmt: Annotated[str, typer.Option("--format", help="auto, memwarden, mem0 or texts.")] = "auto",
    scope: Annotated[
        str | None, typer.Option(help="The scope mem0 and text items are written in.")
    ] = None,
    visibility: Annotated[str, typer.Option(help="shared or private.")] = "shared",
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="Follow the import until it ends.")
    ] = True,
    timeout: Annotated[
        float, typer.Option(min=1.0, help="Seconds to follow the import before giving up.")
    ] = 3600.0,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Import a file into a Context: every item passes the judge's gates and
    reconciliation, keeps its original time and is pinned to --source. Shows progress."""
    if not key:
        fail("no API key: pass --key or set MEMWARDEN_API_KEY", 2)
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}", 2)
    base = f"/api/v1/{context}/imports"
    params = {"source_dir": source, "format": fmt, "scope": scope, "visibility": visibility}
    token = key or ""
    started = [_post(url, token, base, part, params) for part in parts(data)]
    if not wait:
        for s in started:
            out.print(s["importId"])
        return
    total = sum(s["total"] for s in started)
    deadline = time.monotonic() + timeout
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    done: list[dict[str, Any]] = []
    with Progress(*columns, console=out, transient=as_json) as progress:
        task = progress.add_task("import queued", total=total)
        for s in started:
            while True:
                job = request("GET", url, key, f"{base}/{s['importId']}")
                finished = sum(d["processed"] for d in done)
                progress.update(
                    task,
                    completed=finished + job["processed"],
                    description=f"import {job['status']}",
                )
                if job["status"] in ("done", "failed"):
                    done.append(job)
                    break
                if time.monotonic() > deadline:
                    fail(f"import {job['importId']} still {job['status']} after {timeout:g} s", 1)
                time.sleep(POLL_S)
    counts = {k: sum(d["counts"].get(k, 0) for d in done) for k in OUTCOMES}
    if as_json:
        print_json({"imports": done, "counts": counts})
    else:
        out.print("imported: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    failed = [d for d in done if d["status"] == "failed"]
    if failed:
        fail(f"import {failed[0]['importId']} failed: {failed[0]['error']}", 1)
