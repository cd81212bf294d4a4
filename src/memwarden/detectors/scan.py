"""Run every detector over one text, and the default policy from findings to a verdict.

The policy is a single small function on purpose: the ingest judge, the review tools and the
CLI evaluation must agree on it, and a caller with other rules maps `Detection.codes` itself.
"""

from __future__ import annotations

from typing import Final

from memwarden.detectors.cards import find_cards
from memwarden.detectors.credentials import find_credentials
from memwarden.detectors.findings import (
    CREDENTIAL,
    PAYMENT_CARD,
    PERSONAL_DATA,
    PLACEHOLDER,
    PROMPT_INJECTION,
    Detection,
    Finding,
)
from memwarden.detectors.injection import INJECTION_THRESHOLD, scan_injection
from memwarden.detectors.personal import find_personal_data
from memwarden.domain.verdicts import VERDICTS as DOMAIN_VERDICTS

VERDICTS: Final[tuple[str, ...]] = DOMAIN_VERDICTS

# Reason code -> verdict; anything not listed here does not change the verdict.
_POLICY: Final[dict[str, str]] = {
    PAYMENT_CARD: "fail",
    CREDENTIAL: "fail",
    PROMPT_INJECTION: "fail",
    PERSONAL_DATA: "warn",
}


def find_sensitive(text: str) -> list[Finding]:
    """Card, credential and personal-data findings: what redaction replaces.

    A finding inside a redaction placeholder is dropped: "login [REDACTED:payment_card]" reads
    like a user and a password to the login-pair rule, but what it points at is already gone.
    """
    findings = [*find_cards(text), *find_credentials(text), *find_personal_data(text)]
    if "[REDACTED:" not in text:
        return findings
    placeholders = [m.span() for m in PLACEHOLDER.finditer(text)]
    return [
        f
        for f in findings
        if not any(start <= f.start and f.end <= end for start, end in placeholders)
    ]


def scan(text: str) -> Detection:
    """All findings for `text`, plus the injection score (kept even under the threshold)."""
    injection = scan_injection(text)
    findings = [*find_sensitive(text), *injection.findings]
    findings.sort(key=lambda f: (f.start, f.end, f.code, f.detector))
    return Detection(
        findings=tuple(findings),
        injection_score=injection.score,
        injection_threshold=INJECTION_THRESHOLD,
    )


def severity(verdict: str) -> int:
    """Position in pass < warn < fail < deny, for taking the most severe of several."""
    return VERDICTS.index(verdict)


def verdict_for(detection: Detection) -> tuple[str, tuple[str, ...]]:
    """Default policy: card/credential/injection fail, personal data warns, else pass.

    Reasons are the codes that produced the verdict's level or below, in a fixed order, so the
    caller can record every concern (a card row that also holds an e-mail lists both).
    """
    codes = detection.codes
    reasons = tuple(code for code in _POLICY if code in codes)
    if not reasons:
        return "pass", ()
    verdict = max((_POLICY[code] for code in reasons), key=severity)
    return verdict, reasons
