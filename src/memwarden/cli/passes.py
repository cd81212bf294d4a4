"""`memwarden passes run STAGE`: run a background pass by hand over HTTP with a key holding
memory_write over the whole Context, and follow it with a progress bar until it ends (the
client is `client.py`)."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from memwarden.cli.client import DEFAULT_URL, AsJson, ContextId, Key, Url, out, print_json, request
from memwarden.cli.runner import command_group, fail

passes_app = command_group(
    "Background passes: run rollup, gist, consolidation or elaboration by hand."
)
STEPS = {"queued": 0, "running": 1, "done": 2, "failed": 2}
POLL_S = 0.5


@passes_app.callback()
def passes_group() -> None:
    """Background passes: run rollup, gist, consolidation or elaboration by hand."""


def _line(run: dict[str, Any]) -> str:
    c = run["counts"]
    return (
        f"{run['stage']} {run['status']}: {c['inputs']} inputs, {c['written']} written,"
        f" {c['dropped']} dropped, {c['held']} held"
    )


@passes_app.command("run")
def run_cmd(
    stage: Annotated[str, typer.Argument(help="rollup, gist, consolidation or elaboration.")],
    context: ContextId,
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="Follow the run until it ends.")
    ] = True,
    timeout: Annotated[
        float, typer.Option(min=1.0, help="Seconds to follow the run before giving up.")
    ] = 600.0,
    url: Url = DEFAULT_URL,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Queue a run (it takes every input with new material, ignoring the idle delay) and
    show its progress: queued, running, done or failed, with its counts."""
    base = f"/api/v1/{context}/passes"
    run_id = request("POST", url, key, f"{base}/{stage}/run")["runId"]
    if not wait:
        out.print(run_id)
        return
    route = f"{base}/runs/{run_id}"
    deadline = time.monotonic() + timeout
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=out, transient=as_json) as progress:
        task = progress.add_task(f"{stage} queued", total=2)
        while True:
            run = request("GET", url, key, route)
            progress.update(task, completed=STEPS[run["status"]], description=_line(run))
            if run["status"] in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                fail(f"run {run_id} still {run['status']} after {timeout:g} s", 1)
            time.sleep(POLL_S)
    if as_json:
        print_json(run)
    if run["status"] == "failed":
        fail(f"run {run_id} failed: {run['errorCode']}", 1)
