"""`memwarden eval judge`: score the deterministic detectors against labelled JSONL rows.

Detectors only, offline: the numbers say what the judge catches with no model at all,
which is its floor whatever model a deployment configures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from memwarden.detectors.evaluate import RowError, evaluate, render_table, scored_classes
from memwarden.detectors.scan import scan

eval_app = typer.Typer(
    help="Evaluate the judge's detectors on labelled data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)


@eval_app.callback()
def _group() -> None:
    """Evaluations (a callback keeps `judge` a subcommand while it is the only one)."""


def _rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                err.print(f"[bold red]error:[/] {path.name} line {n} is not JSON")
                raise typer.Exit(2) from None
            if not isinstance(row, dict):
                err.print(f"[bold red]error:[/] {path.name} line {n} is not an object")
                raise typer.Exit(2)
            try:
                scored_classes(row)
            except RowError as exc:
                err.print(f"[bold red]error:[/] {path.name} line {n}: {exc}")
                raise typer.Exit(2) from None
            rows.append(row)
    return rows


@eval_app.command("judge")
def judge_cmd(
    data: Annotated[
        list[Path],
        typer.Option(
            "--data",
            exists=True,
            dir_okay=False,
            readable=True,
            help="JSONL rows of {text, label, source} or {text, label, class, split, source};"
            " repeat for several files.",
        ),
    ],
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="Score only rows of this split (train or test); rows without one are skipped.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Precision, recall and false-positive rate per class, source and split."""
    rows = [row for path in data for row in _rows(path)]
    if split is not None:
        kept = [row for row in rows if row.get("split") == split]
        if len(kept) < len(rows) and not as_json:
            err.print(f"skipped {len(rows) - len(kept)} rows outside split {split!r}")
        rows = kept
    columns = (TextColumn("scanning"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=as_json) as progress:
        task = progress.add_task("scan", total=len(rows))

        def detect(text: str) -> Any:
            progress.advance(task)
            return scan(text)

        report = evaluate(rows, detect)
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
    else:
        names = ", ".join(path.name for path in data)
        suffix = f" (split {split})" if split is not None else ""
        out.print(render_table(report, title=f"Detector evaluation: {names}{suffix}"))
