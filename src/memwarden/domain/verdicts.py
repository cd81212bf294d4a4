"""The judge's verdicts and reason codes: defined once, imported by the gates, the model
contracts, the detectors and every interface.

Order matters: `VERDICTS` runs from least to most severe (the most severe wins), and
`REASON_CODES` is the order reasons are reported and redactions take precedence in.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Verdict = Literal["pass", "warn", "fail", "deny"]
# What a review-log entry or a reviewer's override can hold: a deny is never recorded.
ReviewerVerdict = Literal["pass", "warn", "fail"]
ReasonCode = Literal[
    "payment_card",
    "credential",
    "personal_data",
    "sensitive_inference",
    "prompt_injection",
    "policy",
]

VERDICTS: Final[tuple[Verdict, ...]] = get_args(Verdict)
REVIEWER_VERDICTS: Final[tuple[ReviewerVerdict, ...]] = get_args(ReviewerVerdict)
REASON_CODES: Final[tuple[ReasonCode, ...]] = get_args(ReasonCode)
