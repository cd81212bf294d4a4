"""The retry schedule and what an attempt's outcome does to a delivery and its subscription."""

from __future__ import annotations

import pytest

from memwarden.webhooks.backoff import (
    Schedule,
    decide,
    error_class,
    outcome,
    pause_reason,
)

DEFAULT = Schedule(first_s=60.0, max_s=8 * 3600.0, max_attempts=8)


def test_each_wait_is_four_times_the_last_up_to_the_cap() -> None:
    middle = [DEFAULT.delay(n, 0.5) for n in range(1, 8)]
    assert middle[:5] == [60.0, 240.0, 960.0, 3840.0, 15360.0]
    assert middle[5:] == [28800.0, 28800.0]


def test_jitter_spreads_a_wait_by_a_fifth_either_way() -> None:
    assert DEFAULT.delay(1, 0.0) == pytest.approx(48.0)
    assert DEFAULT.delay(1, 0.999999) == pytest.approx(72.0, rel=1e-5)


def test_the_default_attempts_span_about_a_day() -> None:
    low = sum(DEFAULT.delay(n, 0.0) for n in range(1, 8))
    high = sum(DEFAULT.delay(n, 0.999999) for n in range(1, 8))
    assert 14 * 3600 < low < high < 30 * 3600


@pytest.mark.parametrize(
    ("status", "expected"),
    [(200, "delivered"), (204, "delivered"), (410, "gone"), (301, "failed"), (500, "failed")],
)
def test_a_2xx_delivers_a_410_is_gone_and_the_rest_fail(status: int, expected: str) -> None:
    assert outcome(status) == expected


def test_no_answer_is_a_failed_attempt() -> None:
    assert outcome(None) == "failed"


def test_error_classes_name_redirects_apart_from_other_statuses() -> None:
    assert [error_class(s) for s in (200, 302, 404, 410, 503)] == [
        None,
        "redirect",
        "http_status",
        "gone",
        "http_status",
    ]


def test_a_failure_is_retried_until_the_attempts_are_spent() -> None:
    first = decide(DEFAULT, "failed", 1, 0.5)
    assert (first.delivery, first.retry_in_s) == ("pending", 60.0)
    last = decide(DEFAULT, "failed", 8, 0.5)
    assert (last.delivery, last.retry_in_s) == ("failed", None)


def test_a_410_keeps_the_delivery_for_a_resume_and_a_2xx_delivers() -> None:
    assert decide(DEFAULT, "gone", 8, 0.5).delivery == "pending"
    assert decide(DEFAULT, "delivered", 3, 0.5).delivery == "delivered"


def test_a_subscription_pauses_on_gone_at_once_or_after_failures_in_a_row() -> None:
    assert pause_reason("gone", 1, 50) == "gone"
    assert pause_reason("http_status", 49, 50) is None
    assert pause_reason("timeout", 50, 50) == "failures"
    assert pause_reason(None, 80, 50) is None
