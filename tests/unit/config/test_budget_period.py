"""The token budget's period: the day, or the month, that booked usage counts from."""

from __future__ import annotations

from datetime import date

from memwarden.budget import period_start


def test_a_daily_budget_counts_from_today_and_a_monthly_one_from_the_first() -> None:
    today = date(2026, 11, 30)
    assert period_start("day", today) == today
    assert period_start("month", today) == date(2026, 11, 1)
    assert period_start("month", date(2026, 1, 1)) == date(2026, 1, 1)
