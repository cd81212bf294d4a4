"""The dashboard's SVG charts and its settings form, as pure functions."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from memwarden.web.charts import HEIGHT, WIDTH, recall_per_day, tokens_per_stage, verdicts_per_day
from memwarden.web.pages_context import settings_patch

TODAY = date(2026, 3, 31)


def entry(day: str, verdict: str, reason: str = "none", entries: int = 1) -> dict:
    return {"day": day, "verdict": verdict, "reason": reason, "entries": entries}


def test_each_day_stacks_one_segment_per_verdict_and_reason_code() -> None:
    chart = verdicts_per_day(
        [
            entry("2026-03-31", "fail", "payment_card", 2),
            entry("2026-03-31", "warn", "personal_data"),
            entry("2026-03-30", "pass"),
        ],
        30,
        TODAY,
    )
    assert {(b["cls"], b["title"]) for b in chart["bars"]} == {
        ("fail", "2026-03-31: 2 fail (payment_card)"),
        ("warn", "2026-03-31: 1 warn (personal_data)"),
        ("pass", "2026-03-30: 1 pass (none)"),
    }
    assert chart["legend"] == [
        {"key": "fail:payment_card", "count": 2},
        {"key": "pass:none", "count": 1},
        {"key": "warn:personal_data", "count": 1},
    ]
    assert chart["first"] == "2026-03-02" and chart["last"] == "2026-03-31"


def test_entries_outside_the_period_are_not_drawn() -> None:
    chart = verdicts_per_day([entry("2026-01-01", "fail", "policy")], 30, TODAY)
    assert chart["bars"] == [] and chart["legend"] == []


@given(
    st.lists(st.tuples(st.integers(0, 29), st.sampled_from(["pass", "warn", "fail"])), max_size=60)
)
def test_bars_stay_inside_the_chart(items: list[tuple[int, str]]) -> None:
    entries = [entry(f"2026-03-{31 - d:02d}", v, "policy") for d, v in items]
    for bar in verdicts_per_day(entries, 30, TODAY)["bars"]:
        assert bar["x"] >= 0 and bar["x"] + bar["w"] <= WIDTH
        assert bar["y"] >= -0.01 and bar["y"] + bar["h"] <= HEIGHT + 0.01


def test_tokens_per_stage_draws_the_budget_as_a_line_on_the_same_scale() -> None:
    stages = {
        "judge": {"prompt_tokens": 300, "completion_tokens": 100},
        "extraction": {"prompt_tokens": 500, "completion_tokens": 100},
    }
    chart = tokens_per_stage(stages, budget=2000)
    assert chart["spent"] == 1000
    assert [(b["label"], b["tokens"]) for b in chart["bars"]] == [
        ("extraction", 600),
        ("judge", 400),
    ]
    assert chart["budget_x"] == WIDTH  # the budget is the largest value: the full width
    assert tokens_per_stage(stages, None)["budget_x"] is None


def test_the_settings_form_becomes_a_configuration_patch() -> None:
    form = {
        "judge.enabled": "on",
        "judge.on_warn": "hold",
        "judge.retention_days": "7",
        "prompt_addendums.judge": "Be strict.",
        "models.chat": "openai:gpt-x",
        "token_budget.limit": "50000",
        "token_budget.period": "day",
    }
    patch = settings_patch(form)
    assert patch["judge"]["enabled"] is True and patch["judge"]["input"] is False
    assert patch["judge"]["on_warn"] == "hold" and patch["judge"]["retention_days"] == 7
    assert patch["prompt_addendums"]["judge"] == "Be strict."
    assert patch["prompt_addendums"]["extraction"] == ""  # an emptied box clears it
    assert patch["token_budget"] == {"limit": 50000, "period": "day"}
    assert settings_patch({})["token_budget"] == {"limit": None, "period": "month"}
    assert patch["models"] == {
        "judge": None,
        "extraction": None,
        "chat": {"provider": "openai", "model": "gpt-x"},
    }


def test_recall_traffic_draws_one_bar_per_day_with_hits() -> None:
    chart = recall_per_day(
        [
            {"day": "2026-03-31", "hits": 4, "records": 2},
            {"day": "2026-03-29", "hits": 2, "records": 1},
        ],
        30,
        TODAY,
    )
    assert chart["total"] == 6
    assert [b["title"] for b in chart["bars"]] == [
        "2026-03-29: 2 records returned",
        "2026-03-31: 4 records returned",
    ]
    assert chart["bars"][1]["h"] == HEIGHT and chart["bars"][0]["h"] == HEIGHT / 2
