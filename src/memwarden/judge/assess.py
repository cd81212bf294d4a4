"""Judging one item: detectors over the whole text, then the model per window.

Detectors see the whole text (they are cheap and have no window edges); the model sees
16,000-character windows, at most 8. An item that needs more is not judged on its first
part: it is a judge error. When the model fails and `on_error` is `allow`, what the
detectors found still counts, so a card number never passes because a model was down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from memwarden.config import ContextConfig
from memwarden.detectors import scan, verdict_for
from memwarden.judge.model import JudgeError, ModelChoice, Signal, judge_windows
from memwarden.judge.policy import combine, severity
from memwarden.judge.text import excerpt
from memwarden.judge.usage import DeferredSink
from memwarden.pipeline.windowing import TooManyWindows, windows, windows_needed

WINDOW_CHARS: Final = 16_000
MAX_WINDOWS: Final = 8


@dataclass
class Assessment:
    """The verdict of one item; `error` when the model could not judge it."""

    verdict: str
    reasons: tuple[str, ...]
    excerpt: str
    error: bool = False
    model: str | None = None
    sink: DeferredSink = field(default_factory=DeferredSink)


def detect(text: str) -> tuple[Signal, int | None]:
    """The detectors' verdict and where its first finding starts (for the excerpt)."""
    detection = scan(text)
    verdict, reasons = verdict_for(detection)
    focus = next((f.start for f in detection.findings if f.code in reasons), None)
    return (verdict, reasons), focus


async def assess(
    text: str, config: ContextConfig, choice: ModelChoice, addendum: str | None
) -> Assessment:
    """Judge `text` (already guarded): detectors, then the model where one is configured."""
    detected, focus = detect(text)
    sink = DeferredSink()
    signals: list[Signal] = [detected]
    window_at: int | None = None
    # Past 8 windows the item is a judge error whether or not a model would read it: the
    # limit is the judge's, not the model's, so detectors alone follow on_error too.
    error = windows_needed(len(text), WINDOW_CHARS, 0) > MAX_WINDOWS
    if choice.provider is not None and not error:
        try:
            plan = windows(text, WINDOW_CHARS, 0, MAX_WINDOWS, on_overflow="raise")
            found = await judge_windows(choice.provider, addendum, plan.windows or [""], sink)
        except (TooManyWindows, JudgeError):
            error = True
        else:
            signals.extend(found)
            window_at = _worst_window(found, detected)
    verdict, reasons = combine(signals)
    if window_at is not None:  # the model set the verdict: show its worst window
        return Assessment(
            verdict,
            reasons,
            excerpt(text, window_at * WINDOW_CHARS, lead=0),
            error,
            choice.name,
            sink,
        )
    return Assessment(verdict, reasons, excerpt(text, focus), error, choice.name, sink)


def _worst_window(found: list[Signal], detected: Signal) -> int | None:
    """The first window whose verdict is the worst, when the model (not detectors) set it."""
    if not found:
        return None
    worst = max(severity(v) for v, _ in found)
    if worst <= severity(detected[0]):
        return None
    return next(i for i, (v, _) in enumerate(found) if severity(v) == worst)
