"""retrieval/as_of.py: which texts are a moment, and the clock skew's edge."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memwarden.errors import InvalidInput
from memwarden.retrieval.as_of import CLOCK_SKEW, parse_moment

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


def test_a_moment_with_an_offset_or_z_is_read_as_that_instant_in_utc() -> None:
    assert parse_moment("2026-12-01T12:00:00+02:00", NOW) == datetime(2026, 12, 1, 10, tzinfo=UTC)
    assert parse_moment("2026-12-01T10:00:00Z", NOW) == datetime(2026, 12, 1, 10, tzinfo=UTC)
    east = timezone(timedelta(hours=5))
    assert parse_moment(datetime(2026, 12, 1, 15, tzinfo=east), NOW) == datetime(
        2026, 12, 1, 10, tzinfo=UTC
    )
    assert parse_moment(None, NOW) is None


@pytest.mark.parametrize(
    "value", ["2026-12-01T10:00:00", "2026-12-01", "1700000000", "", "soon", "2026-12-01T25:00Z"]
)
def test_a_text_that_is_no_instant_is_refused_naming_as_of(value: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        parse_moment(value, NOW)
    assert raised.value.field == "as_of"


def test_a_naive_datetime_is_refused() -> None:
    with pytest.raises(InvalidInput):
        parse_moment(datetime(2026, 12, 1), NOW)


def test_the_skew_is_the_edge_a_moment_at_it_reads_as_now_and_past_it_is_refused() -> None:
    assert parse_moment(NOW + CLOCK_SKEW, NOW) == NOW
    with pytest.raises(InvalidInput, match="future"):
        parse_moment(NOW + CLOCK_SKEW + timedelta(microseconds=1), NOW)
