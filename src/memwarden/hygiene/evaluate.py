"""`memwarden eval hygiene`: labelled pairs through the scan's own steps, nothing stored.

Each pair goes through the cross-project predicate, the adjudicator of its judging path
(the configured model, else the offline one working from the text) and the routing
policy, exactly as a scan would take it, and the report counts what came out: a confusion
matrix, the false-supersede rate on complementary pairs (spec 2's failure, target at most
5%), supersedes pointing the wrong way, the share of cross-project pairs skipped, and what
routing would have done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from memwarden.domain.provenance import Rank
from memwarden.hygiene.adjudicate import (
    Adjudication,
    AdjudicationError,
    Adjudicator,
    JudgingPath,
    PairSide,
    adjudicate_offline_text,
    adjudicate_with_model,
    judging_path,
    side_from_text,
)
from memwarden.hygiene.projects import parse_project, provably_cross_project
from memwarden.hygiene.routing import route
from memwarden.models.contracts import PAIR_VERDICTS

LABELS: Final[tuple[str, ...]] = (*PAIR_VERDICTS, "cross_project")
PREDICTIONS: Final[tuple[str, ...]] = ("cross_project", *PAIR_VERDICTS, "undecided")
OUTCOMES: Final[tuple[str, ...]] = (
    "skipped_cross_project",
    "kept_both",
    "linked",
    "queued",
    "auto_resolved",
    "dismissed",
)
RANKS: Final[Mapping[str, Rank]] = {r.name.lower(): r for r in Rank}
SHORT: Final[Mapping[str, str]] = {
    "cross_project": "x-proj",
    "duplicate": "dup",
    "supersedes": "sup",
    "contradiction": "contra",
    "complementary": "compl",
    "unrelated": "unrel",
    "undecided": "undec",
}
REQUIRED: Final = ("id", "a", "b", "a_time", "b_time", "label")


class RowError(ValueError):
    """A labelled row that cannot be evaluated (names the field, never the texts)."""


@dataclass(frozen=True)
class LabelledPair:
    id: str
    a: PairSide
    b: PairSide
    label: str
    superseding: str | None
    split: str | None
    source: str | None


def _time(row: Mapping[str, Any], name: str) -> datetime:
    value = row.get(name)
    if not isinstance(value, str):
        raise RowError(f"{name} must be an ISO 8601 string")
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise RowError(f"{name} is not ISO 8601") from None
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _rank(row: Mapping[str, Any], name: str) -> Rank:
    value = row.get(name, "provisional")
    if value not in RANKS:
        raise RowError(f"{name} must be one of {', '.join(RANKS)}")
    return RANKS[value]


def parse_row(row: Mapping[str, Any]) -> LabelledPair:
    """One line of `{"id", "a", "b", "a_time", "b_time", "a_project", "b_project", "label",
    "superseding"}`, optionally with `split`, `source`, `a_rank` and `b_rank` (ranks are
    `provisional` unless given)."""
    for name in REQUIRED:
        if name not in row:
            raise RowError(f"missing field {name}")
    for name in ("a", "b"):
        if not isinstance(row[name], str) or not row[name].strip():
            raise RowError(f"{name} must be a non-empty string")
    label = row["label"]
    if label not in LABELS:
        raise RowError(f"label must be one of {', '.join(LABELS)}")
    superseding = row.get("superseding")
    if superseding not in ("a", "b", None):
        raise RowError('superseding must be "a", "b" or null')
    if (label == "supersedes") != (superseding is not None):
        raise RowError("superseding is set for supersedes rows, and only for them")
    projects = []
    for name in ("a_project", "b_project"):
        value = row.get(name)
        if value is not None and not isinstance(value, str):
            raise RowError(f"{name} must be an owner/slug string or null")
        try:
            projects.append(parse_project(value))
        except ValueError:
            raise RowError(f"{name} must look like owner/slug") from None
    pair_id = str(row["id"])
    a = side_from_text(
        f"{pair_id}:a", row["a"], _time(row, "a_time"), projects[0], _rank(row, "a_rank")
    )
    b = side_from_text(
        f"{pair_id}:b", row["b"], _time(row, "b_time"), projects[1], _rank(row, "b_rank")
    )
    split = row.get("split")
    source = row.get("source")
    return LabelledPair(
        pair_id,
        a,
        b,
        label,
        superseding,
        split if isinstance(split, str) else None,
        source if isinstance(source, str) else None,
    )


Choose = Callable[[JudgingPath], Adjudicator | None]
"""The model serving a judging path, or None (that path is judged offline)."""


@dataclass(frozen=True)
class Outcome:
    pair: LabelledPair
    predicted: str
    superseding: str | None
    action: str
    judged_by: str  # "model", "offline" or "filter"
    error: bool = False


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def confusion(self) -> dict[str, dict[str, int]]:
        matrix = {label: dict.fromkeys(PREDICTIONS, 0) for label in LABELS}
        for o in self.outcomes:
            matrix[o.pair.label][o.predicted] += 1
        return {label: row for label, row in matrix.items() if sum(row.values())}

    def _of(self, label: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.pair.label == label]

    @property
    def accuracy(self) -> float | None:
        return _rate(sum(o.predicted == o.pair.label for o in self.outcomes), len(self.outcomes))

    @property
    def false_supersede_rate(self) -> float | None:
        """Complementary pairs judged supersedes: a valid fact would be replaced."""
        pairs = self._of("complementary")
        return _rate(sum(o.predicted == "supersedes" for o in pairs), len(pairs))

    @property
    def wrong_direction(self) -> tuple[int, int]:
        """(supersedes pairs judged supersedes the wrong way, those judged supersedes)."""
        found = [o for o in self._of("supersedes") if o.predicted == "supersedes"]
        return sum(o.superseding != o.pair.superseding for o in found), len(found)

    @property
    def cross_project_skipped(self) -> float | None:
        pairs = self._of("cross_project")
        return _rate(sum(o.predicted == "cross_project" for o in pairs), len(pairs))

    @property
    def false_skips(self) -> int:
        """Pairs of one project (or unknown) that the filter skipped anyway."""
        return sum(
            o.predicted == "cross_project" and o.pair.label != "cross_project"
            for o in self.outcomes
        )

    @property
    def routing(self) -> dict[str, int]:
        counts = Counter(o.action for o in self.outcomes)
        return {name: counts.get(name, 0) for name in OUTCOMES}

    @property
    def model_calls(self) -> int:
        return sum(o.judged_by == "model" for o in self.outcomes)

    @property
    def errors(self) -> int:
        return sum(o.error for o in self.outcomes)

    def as_dict(self) -> dict[str, Any]:
        wrong, supersedes = self.wrong_direction
        return {
            "pairs": len(self.outcomes),
            "labels": dict(Counter(o.pair.label for o in self.outcomes)),
            "confusion": self.confusion,
            "accuracy": self.accuracy,
            "false_supersede_rate_complementary": self.false_supersede_rate,
            "wrong_direction_supersedes": wrong,
            "supersedes_judged_supersedes": supersedes,
            "cross_project_skipped_share": self.cross_project_skipped,
            "false_cross_project_skips": self.false_skips,
            "routing": self.routing,
            "model_calls": self.model_calls,
            "model_errors": self.errors,
        }


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


async def evaluate_pair(pair: LabelledPair, choose: Choose | None = None) -> Outcome:
    """The scan's steps for one pair: filter, adjudicate (model or offline), route."""
    if provably_cross_project(pair.a.project, pair.b.project):
        return Outcome(pair, "cross_project", None, "skipped_cross_project", "filter")
    adjudicator = choose(judging_path(pair.a.rank, pair.b.rank)) if choose else None
    adjudication: Adjudication | None = None
    error = False
    if adjudicator is None:
        adjudication = adjudicate_offline_text(pair.a, pair.b)
    else:
        try:
            adjudication = (await adjudicate_with_model(adjudicator, pair.a, pair.b)).adjudication
        except AdjudicationError:
            error = True  # the pair is left alone, as a scan would leave it
    routed = route(adjudication, pair.a.rank, pair.b.rank, at_a=pair.a.at, at_b=pair.b.at)
    predicted = "undecided" if adjudication is None else adjudication.verdict
    superseding = None if adjudication is None else adjudication.superseding
    judged_by = "offline" if adjudicator is None else "model"
    return Outcome(pair, predicted, superseding, routed.action, judged_by, error)


async def evaluate(
    pairs: Iterable[LabelledPair],
    choose: Choose | None = None,
    progress: Callable[[], None] | None = None,
) -> Report:
    report = Report()
    for pair in pairs:
        report.outcomes.append(await evaluate_pair(pair, choose))
        if progress is not None:
            progress()
    return report


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def render_tables(report: Report, title: str = "Hygiene evaluation") -> list[Any]:
    """Rich tables: the confusion matrix, the headline rates, and routing outcomes."""
    from rich.table import Table

    matrix = Table(title=f"{title}: gold label (rows) by verdict (columns)")
    matrix.add_column("gold", no_wrap=True)
    for name in PREDICTIONS:
        matrix.add_column(SHORT.get(name, name), justify="right")
    matrix.add_column("total", justify="right")
    for label, row in report.confusion.items():
        matrix.add_row(label, *(str(row[p]) for p in PREDICTIONS), str(sum(row.values())))
    data = report.as_dict()
    wrong, judged = report.wrong_direction
    rates = Table(title="Headline numbers")
    rates.add_column("measure")
    rates.add_column("value", justify="right")
    rates.add_row("pairs", str(data["pairs"]))
    rates.add_row("accuracy (verdict = gold label)", _fmt(report.accuracy))
    rates.add_row(
        "false-supersede rate on complementary (target <= 0.05)", _fmt(report.false_supersede_rate)
    )
    rates.add_row("wrong-direction supersedes", f"{wrong} of {judged}")
    rates.add_row("cross-project pairs skipped", _fmt(report.cross_project_skipped))
    rates.add_row("same-project pairs skipped (false skips)", str(report.false_skips))
    rates.add_row("model calls", str(report.model_calls))
    rates.add_row("model errors (pair left alone)", str(report.errors))
    routing = Table(title="What routing would have done")
    routing.add_column("outcome")
    routing.add_column("pairs", justify="right")
    for name, count in report.routing.items():
        routing.add_row(name, str(count))
    return [matrix, rates, routing]
