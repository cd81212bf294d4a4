"""Result types shared by every detector.

A finding holds a span into the scanned text and never the matched content, so a finding can be
logged, audited or returned to a caller without repeating the secret it points at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memwarden.domain.verdicts import REASON_CODES as DOMAIN_REASON_CODES

PAYMENT_CARD: Final = "payment_card"
CREDENTIAL: Final = "credential"
PERSONAL_DATA: Final = "personal_data"
SENSITIVE_INFERENCE: Final = "sensitive_inference"
PROMPT_INJECTION: Final = "prompt_injection"
POLICY: Final = "policy"

REASON_CODES: Final[tuple[str, ...]] = DOMAIN_REASON_CODES

# Codes whose spans redaction replaces; injection is a property of the whole text, not a value.
REDACTABLE_CODES: Final[frozenset[str]] = frozenset({PAYMENT_CARD, CREDENTIAL, PERSONAL_DATA})
# What redaction puts in place of a span. Detectors must not fire on it (redaction relies on
# that to be idempotent), so `find_sensitive` drops any finding that lies inside one.
PLACEHOLDER: Final = re.compile(r"\[REDACTED:[a-z_]+\]")


def placeholder(code: str) -> str:
    return f"[REDACTED:{code}]"


@dataclass(frozen=True, slots=True)
class Finding:
    """One detected span; `detector` names the rule (e.g. "email"), never the value."""

    code: str
    detector: str
    start: int
    end: int
    score: float = 1.0

    def __post_init__(self) -> None:
        if self.code not in REASON_CODES:
            raise ValueError(f"unknown reason code {self.code!r}")
        if not 0 <= self.start <= self.end:
            raise ValueError("a finding needs 0 <= start <= end")


@dataclass(frozen=True, slots=True)
class Detection:
    """Everything the detectors found in one text, plus the injection score.

    `injection_score` is kept even when it stays under the threshold so that the caller can
    record a sub-threshold signal as an uncertainty instead of dropping it.
    """

    findings: tuple[Finding, ...] = ()
    injection_score: float = 0.0
    injection_threshold: float = 1.0

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(f.code for f in self.findings)

    @property
    def injection_sub_threshold(self) -> bool:
        """True when injection cues were seen but not enough to count as an injection."""
        return 0.0 < self.injection_score < self.injection_threshold

    def spans(self, code: str) -> list[tuple[int, int]]:
        return sorted((f.start, f.end) for f in self.findings if f.code == code)
