"""`memwarden eval judge` and `memwarden eval hygiene`: scores on labelled JSONL rows.

`eval judge` runs the deterministic detectors only, offline: the numbers say what the
judge catches with no model at all, its floor whatever model a deployment configures.
`eval hygiene` runs labelled pairs through hygiene's filter, adjudicator and routing.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from memwarden.detectors.evaluate import RowError, evaluate, render_table, scored_classes
from memwarden.detectors.scan import scan

eval_app = typer.Typer(
    help="Evaluate the judge's detectors and hygiene's adjudication on labelled data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)


@eval_app.callback()
def _group() -> None:
    """Evaluations: `judge` (detectors) and `hygiene` (pair adjudication)."""


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


def _pairs(path: Path) -> list[Any]:
    from memwarden.hygiene.evaluate import RowError as PairError
    from memwarden.hygiene.evaluate import parse_row

    pairs: list[Any] = []
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
                pairs.append(parse_row(row))
            except PairError as exc:
                err.print(f"[bold red]error:[/] {path.name} line {n}: {exc}")
                raise typer.Exit(2) from None
    return pairs


@eval_app.command("hygiene")
def hygiene_cmd(
    data: Annotated[
        list[Path],
        typer.Option(
            "--data",
            exists=True,
            dir_okay=False,
            readable=True,
            help="JSONL pairs of {id, a, b, a_time, b_time, a_project, b_project, label,"
            " superseding}; repeat for several files.",
        ),
    ],
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="Score only pairs of this split (train or test); pairs without one are skipped.",
        ),
    ] = None,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline", help="Use the offline adjudicator even where a model is configured."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Confusion matrix, false supersedes, directions, cross-project skips and routing."""
    from memwarden.bootstrap import model_settings
    from memwarden.config import ContextConfig
    from memwarden.hygiene.adjudicate import AdjudicationError, Adjudicator, choose_adjudicator
    from memwarden.hygiene.evaluate import evaluate, render_tables
    from memwarden.models.registry import Models
    from memwarden.settings import get_settings

    pairs = [pair for path in data for pair in _pairs(path)]
    if split is not None:
        kept = [pair for pair in pairs if pair.split == split]
        if len(kept) < len(pairs) and not as_json:
            err.print(f"skipped {len(pairs) - len(kept)} pairs outside split {split!r}")
        pairs = kept
    models = Models(model_settings(get_settings()))
    config = ContextConfig()

    def choose(path: Any) -> Adjudicator | None:
        if offline:
            return None
        try:
            return choose_adjudicator(models, config, path)
        except AdjudicationError:
            return None

    columns = (TextColumn("judging"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())

    async def run() -> Any:
        try:
            with Progress(*columns, console=err, transient=True, disable=as_json) as progress:
                task = progress.add_task("pairs", total=len(pairs))
                return await evaluate(pairs, choose, lambda: progress.advance(task))
        finally:
            await models.aclose()

    report = asyncio.run(run())
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
        return
    names = ", ".join(path.name for path in data)
    suffix = f" (split {split})" if split is not None else ""
    for table in render_tables(report, title=f"Hygiene evaluation: {names}{suffix}"):
        out.print(table)
