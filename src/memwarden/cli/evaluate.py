"""`memwarden eval judge` and `memwarden eval hygiene`: scores on labelled JSONL rows.

`eval judge` runs the deterministic detectors only, offline: the numbers say what the
judge catches with no model at all, its floor whatever model a deployment configures.
`eval hygiene` runs labelled pairs through hygiene's filter, adjudicator and routing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from memwarden.cli.runner import command_group
from memwarden.detectors.evaluate import RowError, evaluate, render_table, scored_classes
from memwarden.detectors.scan import scan

eval_app = command_group(
    "Evaluate the judge's detectors and hygiene's adjudication on labelled data."
)
out = Console()
err = Console(stderr=True)
T = TypeVar("T")


@eval_app.callback()
def _group() -> None:
    """Evaluations: `judge` (detectors) and `hygiene` (pair adjudication)."""


def _jsonl(path: Path, parse: Callable[[dict[str, Any]], T], invalid: type[Exception]) -> list[T]:
    """Each non-blank line of a JSONL file, an object read by `parse`; a line that is not
    JSON, not an object or that `parse` refuses (raising `invalid`) stops with exit 2."""
    items: list[T] = []
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
                items.append(parse(row))
            except invalid as exc:
                err.print(f"[bold red]error:[/] {path.name} line {n}: {exc}")
                raise typer.Exit(2) from None
    return items


def _in_split(
    items: list[T], split: str | None, split_of: Callable[[T], Any], noun: str, quiet: bool
) -> list[T]:
    """Only the items of `split` (all without one); says how many were skipped."""
    if split is None:
        return items
    kept = [item for item in items if split_of(item) == split]
    if len(kept) < len(items) and not quiet:
        err.print(f"skipped {len(items) - len(kept)} {noun} outside split {split!r}")
    return kept


def _title(what: str, data: list[Path], split: str | None) -> str:
    suffix = f" (split {split})" if split is not None else ""
    return f"{what} evaluation: {', '.join(path.name for path in data)}{suffix}"


def _progress(label: str, as_json: bool) -> Progress:
    """A bar on stderr while rows are scored; none with --json."""
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=err, transient=True, disable=as_json)


def _scored_row(row: dict[str, Any]) -> dict[str, Any]:
    scored_classes(row)  # raises RowError for a row that cannot be scored
    return row


def _data_option(what: str) -> Any:
    """--data: labelled JSONL files (`what` each line holds), the option repeated."""
    return typer.Option(
        "--data",
        exists=True,
        dir_okay=False,
        readable=True,
        help=f"JSONL {what}; repeat for several files.",
    )


def _split_option(noun: str) -> Any:
    return typer.Option(
        "--split",
        help=f"Score only {noun} of this split (train or test); {noun} without one are skipped.",
    )


AsJson = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


@eval_app.command("judge")
def judge_cmd(
    data: Annotated[
        list[Path],
        _data_option("rows of {text, label, source} or {text, label, class, split, source}"),
    ],
    split: Annotated[str | None, _split_option("rows")] = None,
    as_json: AsJson = False,
) -> None:
    """Precision, recall and false-positive rate per class, source and split."""
    rows = [row for path in data for row in _jsonl(path, _scored_row, RowError)]
    rows = _in_split(rows, split, lambda row: row.get("split"), "rows", as_json)
    with _progress("scanning", as_json) as progress:
        task = progress.add_task("scan", total=len(rows))

        def detect(text: str) -> Any:
            progress.advance(task)
            return scan(text)

        report = evaluate(rows, detect)
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
    else:
        out.print(render_table(report, title=_title("Detector", data, split)))


@eval_app.command("hygiene")
def hygiene_cmd(
    data: Annotated[
        list[Path],
        _data_option(
            "pairs of {id, a, b, a_time, b_time, a_project, b_project, label, superseding}"
        ),
    ],
    split: Annotated[str | None, _split_option("pairs")] = None,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline", help="Use the offline adjudicator even where a model is configured."
        ),
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Confusion matrix, false supersedes, directions, cross-project skips and routing."""
    from memwarden.bootstrap import model_settings
    from memwarden.config import ContextConfig
    from memwarden.hygiene.adjudicate import AdjudicationError, Adjudicator, choose_adjudicator
    from memwarden.hygiene.evaluate import RowError as PairError
    from memwarden.hygiene.evaluate import evaluate, parse_row, render_tables
    from memwarden.models.registry import Models
    from memwarden.settings import get_settings

    pairs = [pair for path in data for pair in _jsonl(path, parse_row, PairError)]
    pairs = _in_split(pairs, split, lambda pair: pair.split, "pairs", as_json)
    models = Models(model_settings(get_settings()))
    config = ContextConfig()

    def choose(path: Any) -> Adjudicator | None:
        if offline:
            return None
        try:
            return choose_adjudicator(models, config, path)
        except AdjudicationError:
            return None

    async def run() -> Any:
        try:
            with _progress("judging", as_json) as progress:
                task = progress.add_task("pairs", total=len(pairs))
                return await evaluate(pairs, choose, lambda: progress.advance(task))
        finally:
            await models.aclose()

    report = asyncio.run(run())
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
        return
    for table in render_tables(report, title=_title("Hygiene", data, split)):
        out.print(table)
