"""`as_of`: the moment a recall read is answered for (what would have been served then).

A moment is an ISO-8601 timestamp with its offset: a bare local time means a different
instant on every server, so it is refused rather than guessed. A moment later than now
(past `CLOCK_SKEW`, for clients whose clocks run a little ahead) asks about a future nobody
knows yet and is refused too; within the skew it reads as now.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memwarden.errors import InvalidInput

CLOCK_SKEW = timedelta(seconds=60)
FIELD = "as_of"


def parse_moment(value: datetime | str | None, now: datetime | None = None) -> datetime | None:
    """The checked moment (UTC, never after `now`), or None for a read of the present."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        except ValueError:
            raise InvalidInput(
                "as_of must be an ISO-8601 timestamp with a timezone, e.g. 2026-01-31T12:00:00Z",
                field=FIELD,
            ) from None
    else:
        moment = value
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidInput(
            "as_of needs a timezone (a trailing Z or an offset such as +02:00)", field=FIELD
        )
    current = now or datetime.now(UTC)
    if moment > current + CLOCK_SKEW:
        raise InvalidInput("as_of must not be in the future", field=FIELD)
    return min(moment, current).astimezone(UTC)
