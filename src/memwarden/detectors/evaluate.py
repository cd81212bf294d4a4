"""Score the detectors against labelled rows: precision, recall and false-positive rate.

Two row formats are read. The shared sets give `{"text", "label", "source"}`: a row labelled
with a code is a positive for it, `none` is a negative for card, credential and personal data,
`benign` for prompt injection. Our own sets (`evals/judge/*.jsonl`) add `"class"`, the one class
the row evaluates, and `"split"` (train or test): there a `none` row is a negative for its class
only, so a hard negative written for credentials (a commit hash) is not also counted as a
personal-data negative it was never checked for.

A positive is a hit when the detectors report its class's code, whatever else they report (a
card row that also holds an e-mail is a card hit); a false positive is a negative on which that
code fires, and precision counts only those. `memory_poisoning` is scored on the
`prompt_injection` code, the one the detectors raise for it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from memwarden.detectors.findings import Detection
from memwarden.detectors.scan import scan

ALL_SOURCES: Final = "all"
_NEGATIVE_LABELS: Final = frozenset({"none", "benign"})
_LABEL_ALIASES: Final = {"injection": "prompt_injection"}
# Which classes a shared-format negative counts for, so each is scored on its own negatives.
_NEGATIVES_FOR: Final = {
    "none": ("payment_card", "credential", "personal_data"),
    "benign": ("prompt_injection",),
}
# The detector code that decides each class; a class not listed is its own code.
CLASS_CODES: Final = {"memory_poisoning": "prompt_injection"}


class RowError(ValueError):
    """A row that cannot be scored: no text or label, or a label contradicting its class."""


@dataclass(frozen=True, slots=True)
class Metrics:
    """Counts and rates for one class (`label`) on one source, one split, or all rows."""

    label: str
    source: str
    positives: int
    negatives: int
    true_positives: int
    false_positives: int

    @property
    def recall(self) -> float | None:
        return self.true_positives / self.positives if self.positives else None

    @property
    def false_positive_rate(self) -> float | None:
        return self.false_positives / self.negatives if self.negatives else None

    @property
    def precision(self) -> float | None:
        flagged = self.true_positives + self.false_positives
        return self.true_positives / flagged if flagged else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "source": self.source,
            "positives": self.positives,
            "negatives": self.negatives,
            "true_positives": self.true_positives,
            "false_positives": self.false_positives,
            "precision": self.precision,
            "recall": self.recall,
            "false_positive_rate": self.false_positive_rate,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """Per-class metrics over all rows, then per class and source, then per class and split."""

    overall: tuple[Metrics, ...]
    by_source: tuple[Metrics, ...]
    rows: int
    sub_threshold_injection: dict[str, int] = field(default_factory=dict)
    by_split: tuple[Metrics, ...] = ()
    # Per identifier type, for rows that name one in "kind" (e.g. "iban", "national_id").
    by_kind: tuple[Metrics, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "overall": [m.as_dict() for m in self.overall],
            "by_source": [m.as_dict() for m in self.by_source],
            "by_split": [
                {**{k: v for k, v in m.as_dict().items() if k != "source"}, "split": m.source}
                for m in self.by_split
            ],
            "sub_threshold_injection": dict(self.sub_threshold_injection),
            "by_kind": [
                {**{k: v for k, v in m.as_dict().items() if k != "source"}, "kind": m.source}
                for m in self.by_kind
            ],
        }


def _label(row: Mapping[str, Any]) -> str:
    label = str(row["label"])
    return _LABEL_ALIASES.get(label, label)


def scored_classes(row: Mapping[str, Any]) -> tuple[tuple[str, bool], ...]:
    """The classes a row counts for, each with whether the row is a positive for it."""
    if "text" not in row or "label" not in row:
        raise RowError("a row needs text and label")
    label = _label(row)
    declared = row.get("class")
    if declared is not None:
        declared = _LABEL_ALIASES.get(str(declared), str(declared))
        if label in _NEGATIVE_LABELS:
            return ((declared, False),)
        if label != declared:
            raise RowError(f"label {label!r} contradicts class {declared!r}")
        return ((declared, True),)
    if label in _NEGATIVES_FOR:
        return tuple((code, False) for code in _NEGATIVES_FOR[label])
    return ((label, True),)


def evaluate(
    rows: Iterable[Mapping[str, Any]], detect: Callable[[str], Detection] = scan
) -> Report:
    """Run `detect` on every row and score each class against its own negatives."""
    # counts[(class, source or split, kind)] = [positives, negatives, tp, fp]
    counts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    sub_threshold: dict[str, int] = defaultdict(int)
    total = 0
    for row in rows:
        classes = scored_classes(row)
        total += 1
        source = str(row.get("source") or "unknown")
        split = row.get("split")
        kind = row.get("kind")
        detection = detect(str(row["text"]))
        codes = detection.codes
        if detection.injection_sub_threshold:
            sub_threshold[source] += 1
        for name, positive in classes:
            fired = CLASS_CODES.get(name, name) in codes
            keys = [(name, ALL_SOURCES, "all"), (name, source, "source")]
            if split is not None:
                keys.append((name, str(split), "split"))
            if kind is not None:
                keys.append((name, str(kind), "kind"))
            for key in keys:
                entry = counts[key]
                if positive:
                    entry[0] += 1
                    entry[2] += fired
                else:
                    entry[1] += 1
                    entry[3] += fired

    def select(kind: str) -> tuple[Metrics, ...]:
        return tuple(
            Metrics(key[0], key[1], *counts[key]) for key in sorted(counts) if key[2] == kind
        )

    return Report(
        select("all"),
        select("source"),
        total,
        dict(sub_threshold),
        by_split=select("split"),
        by_kind=select("kind"),
    )


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def render_table(report: Report, title: str = "Detector evaluation") -> Any:
    """A rich Table: one line per class, then per class and source, split, and kind."""
    from rich.table import Table

    table = Table(title=title)
    columns = ("class", "source/split", "pos", "neg", "TP", "FP", "precision", "recall", "FP rate")
    for column in columns:
        table.add_column(
            column,
            justify="left" if column in columns[:2] else "right",
            no_wrap=column == "class",
        )
    sections = [s for s in (report.overall, report.by_source, report.by_split, report.by_kind) if s]
    prefixes = {id(report.by_split): "split=", id(report.by_kind): "kind="}
    for section in sections:
        for m in section:
            table.add_row(
                m.label,
                prefixes.get(id(section), "") + m.source,
                str(m.positives),
                str(m.negatives),
                str(m.true_positives),
                str(m.false_positives),
                _fmt(m.precision),
                _fmt(m.recall),
                _fmt(m.false_positive_rate),
                end_section=m is section[-1] and section is not sections[-1],
            )
    return table
