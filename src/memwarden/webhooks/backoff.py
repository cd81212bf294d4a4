"""When a failed delivery is tried again, and what an attempt's outcome does (pure).

Exponential with jitter: the n-th retry waits `first_s * 4**(n-1)`, at most `max_s`, each
spread by +-20 % so that a receiver that comes back is not hit by every sender at once.
The defaults (60 s, 8 h, 8 attempts) spread 8 attempts over about 22 hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FACTOR = 4.0
JITTER = 0.2


@dataclass(frozen=True)
class Schedule:
    first_s: float
    max_s: float
    max_attempts: int

    def delay(self, attempts: int, draw: float) -> float:
        """Seconds before the next try after `attempts` failed ones; `draw` in [0, 1)."""
        base = min(self.max_s, self.first_s * FACTOR ** max(0, attempts - 1))
        return base * (1 - JITTER + 2 * JITTER * draw)

    def exhausted(self, attempts: int) -> bool:
        return attempts >= self.max_attempts


Outcome = Literal["delivered", "gone", "failed"]


def outcome(status_code: int | None) -> Outcome:
    """A 2xx delivers; 410 Gone means the receiver is gone (pause now); anything else,
    a redirect included (never followed) or no answer (None), is a failed attempt."""
    if status_code is not None and 200 <= status_code < 300:
        return "delivered"
    if status_code == 410:
        return "gone"
    return "failed"


def error_class(status_code: int) -> str | None:
    """The error class an answer's status stands for (None for a 2xx)."""
    if 200 <= status_code < 300:
        return None
    if status_code == 410:
        return "gone"
    if 300 <= status_code < 400:
        return "redirect"
    return "http_status"


@dataclass(frozen=True)
class Decision:
    """What a delivery becomes after one attempt."""

    delivery: Literal["delivered", "pending", "failed"]
    retry_in_s: float | None


def decide(schedule: Schedule, result: Outcome, attempts: int, draw: float) -> Decision:
    """`attempts` counts this one. A delivery refused with 410 stays pending (its
    subscription pauses; a resume sends it); past the attempts, a failure is final."""
    if result == "delivered":
        return Decision("delivered", None)
    if result == "gone":
        return Decision("pending", 0.0)
    if schedule.exhausted(attempts):
        return Decision("failed", None)
    return Decision("pending", schedule.delay(attempts, draw))


def pause_reason(error: str | None, failures: int, pause_after: int) -> str | None:
    """Why a subscription pauses after an attempt: a 410 at once, or `pause_after`
    failed attempts in a row (`failures`, this one counted)."""
    if error == "gone":
        return "gone"
    if error is not None and failures >= pause_after:
        return "failures"
    return None
