"""Server-rendered SVG charts (no script): pure functions from data to chart geometry.

Each returns a dict the template draws; bars carry their numbers as text and a <title>,
so a chart reads without colour."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta
from typing import Any

WIDTH, HEIGHT = 640, 180


def _days(count: int, today: date | None = None) -> list[date]:
    end = today or datetime.now(UTC).date()
    return [end - timedelta(days=count - 1 - i) for i in range(count)]


def verdicts_per_day(
    counts: list[dict[str, Any]], days: int, today: date | None = None
) -> dict[str, Any]:
    """Stacked bars: per day, one segment per (verdict, reason code) pair; `counts` are
    rows of {day, verdict, reason, entries}."""
    per_day: dict[date, Counter[str]] = defaultdict(Counter)
    for row in counts:
        per_day[date.fromisoformat(row["day"])][f"{row['verdict']}:{row['reason']}"] += row[
            "entries"
        ]
    columns = _days(days, today)
    tallest = max((sum(per_day[d].values()) for d in columns), default=0) or 1
    step = WIDTH / days
    bars: list[dict[str, Any]] = []
    keys = sorted({k for d in columns for k in per_day.get(d, ())})
    for i, day in enumerate(columns):
        y = float(HEIGHT)
        for key in keys:
            n = per_day[day][key]
            if not n:
                continue
            h = HEIGHT * n / tallest
            y -= h
            verdict, reason = key.split(":", 1)
            bars.append(
                {
                    "x": round(i * step + 1, 1),
                    "y": round(y, 1),
                    "w": round(step - 2, 1),
                    "h": round(h, 1),
                    "cls": verdict,
                    "title": f"{day.isoformat()}: {n} {verdict} ({reason})",
                }
            )
    legend = [{"key": k, "count": sum(per_day[d][k] for d in columns)} for k in keys]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "bars": bars,
        "legend": legend,
        "first": columns[0].isoformat(),
        "last": columns[-1].isoformat(),
    }


def tokens_per_stage(stages: dict[str, dict[str, Any]], budget: int | None) -> dict[str, Any]:
    """Horizontal bars of tokens per stage over the period, with the budget as a line."""
    totals = {s: v["prompt_tokens"] + v["completion_tokens"] for s, v in sorted(stages.items())}
    spent = sum(totals.values())
    scale = max([*totals.values(), budget or 0, 1])
    row = 24
    bars = [
        {
            "y": i * row,
            "w": round((WIDTH - 160) * n / scale, 1),
            "label": stage,
            "tokens": n,
        }
        for i, (stage, n) in enumerate(totals.items())
    ]
    line = round(160 + (WIDTH - 160) * budget / scale, 1) if budget else None
    return {
        "width": WIDTH,
        "height": max(row * len(bars), row),
        "bars": bars,
        "budget_x": line,
        "spent": spent,
        "budget": budget,
    }


def recall_per_day(
    traffic: list[dict[str, Any]], days: int, today: date | None = None
) -> dict[str, Any]:
    """Bars of records returned to clients per day."""
    hits = {date.fromisoformat(t["day"]): t["hits"] for t in traffic}
    columns = _days(days, today)
    tallest = max((hits.get(d, 0) for d in columns), default=0) or 1
    step = WIDTH / days
    bars = []
    for i, day in enumerate(columns):
        n = hits.get(day, 0)
        if not n:
            continue
        h = HEIGHT * n / tallest
        bars.append(
            {
                "x": round(i * step + 1, 1),
                "y": round(HEIGHT - h, 1),
                "w": round(step - 2, 1),
                "h": round(h, 1),
                "title": f"{day.isoformat()}: {n} records returned",
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "bars": bars,
        "total": sum(hits.get(d, 0) for d in columns),
        "first": columns[0].isoformat(),
        "last": columns[-1].isoformat(),
    }
