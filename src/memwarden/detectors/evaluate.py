"""Score the detectors against labelled rows: precision, recall and false-positive rate.

Rows are `{"text", "label", "source"}` from either evaluation file. A row is a hit for its label
when the detectors report that label's code, whatever else they report (a card row that also
holds an e-mail is a card hit). Negatives are rows labelled `none` or `benign`; a false positive
is a negative on which the label's code fires, and precision counts only those, so that a
personal-data finding inside a card row is not held against personal data.
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
# Which dataset each negative label belongs to, so each code is scored on its own negatives.
_NEGATIVES_FOR: Final = {
    "none": ("payment_card", "credential", "personal_data"),
    "benign": ("prompt_injection",),
}


@dataclass(frozen=True, slots=True)
class Metrics:
    """Counts and rates for one label on one source (or on all sources)."""

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
    """Per-label metrics over all sources, then per label and source."""

    overall: tuple[Metrics, ...]
    by_source: tuple[Metrics, ...]
    rows: int
    sub_threshold_injection: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "overall": [m.as_dict() for m in self.overall],
            "by_source": [m.as_dict() for m in self.by_source],
            "sub_threshold_injection": dict(self.sub_threshold_injection),
        }


def _label(row: Mapping[str, Any]) -> str:
    label = str(row["label"])
    return _LABEL_ALIASES.get(label, label)


def evaluate(
    rows: Iterable[Mapping[str, Any]], detect: Callable[[str], Detection] = scan
) -> Report:
    """Run `detect` on every row and score each label against its dataset's negatives."""
    # counts[(label, source)] = [positives, negatives, tp, fp]
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    sub_threshold: dict[str, int] = defaultdict(int)
    total = 0
    for row in rows:
        total += 1
        label = _label(row)
        source = str(row.get("source") or "unknown")
        detection = detect(str(row["text"]))
        codes = detection.codes
        if detection.injection_sub_threshold:
            sub_threshold[source] += 1
        if label in _NEGATIVES_FOR:
            for code in _NEGATIVES_FOR[label]:
                for key in ((code, source), (code, ALL_SOURCES)):
                    counts[key][1] += 1
                    counts[key][3] += code in codes
        else:
            for key in ((label, source), (label, ALL_SOURCES)):
                counts[key][0] += 1
                counts[key][2] += label in codes

    def metrics(key: tuple[str, str]) -> Metrics:
        pos, neg, tp, fp = counts[key]
        return Metrics(key[0], key[1], pos, neg, tp, fp)

    overall = tuple(metrics(k) for k in sorted(counts) if k[1] == ALL_SOURCES)
    by_source = tuple(metrics(k) for k in sorted(counts) if k[1] != ALL_SOURCES)
    return Report(overall, by_source, total, dict(sub_threshold))


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def render_table(report: Report, title: str = "Detector evaluation") -> Any:
    """A rich Table with one line per label, then per label and source."""
    from rich.table import Table

    table = Table(title=title)
    for column in ("label", "source", "pos", "neg", "TP", "FP", "precision", "recall", "FP rate"):
        table.add_column(column, justify="left" if column in {"label", "source"} else "right")
    for m in (*report.overall, *report.by_source):
        table.add_row(
            m.label,
            m.source,
            str(m.positives),
            str(m.negatives),
            str(m.true_positives),
            str(m.false_positives),
            _fmt(m.precision),
            _fmt(m.recall),
            _fmt(m.false_positive_rate),
            end_section=m is report.overall[-1],
        )
    return table
