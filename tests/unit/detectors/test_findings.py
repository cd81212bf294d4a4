"""Findings carry spans and rule names only, never the matched value."""

from __future__ import annotations

import pytest

from memwarden.detectors import REASON_CODES, Detection, Finding, scan


def test_reason_codes_are_the_fixed_list() -> None:
    assert REASON_CODES == (
        "payment_card",
        "credential",
        "personal_data",
        "sensitive_inference",
        "prompt_injection",
        "policy",
    )


def test_a_finding_with_an_unknown_code_is_rejected() -> None:
    with pytest.raises(ValueError):
        Finding("secret_sauce", "x", 0, 1, 1.0)


def test_a_finding_with_a_backwards_span_is_rejected() -> None:
    with pytest.raises(ValueError):
        Finding("credential", "x", 5, 2, 1.0)


def test_repr_of_a_detection_never_contains_the_secret() -> None:
    secret = "Zq8" + "vR2mW7pL4xK9nB3t"
    detection = scan(f"db_password = {secret}")
    assert detection.findings
    assert secret not in repr(detection)
    assert all(secret not in str(f) for f in detection.findings)


def test_detection_codes_are_the_set_of_finding_codes() -> None:
    detection = Detection(
        findings=(
            Finding("credential", "a", 0, 3),
            Finding("personal_data", "b", 4, 6),
            Finding("credential", "c", 7, 9),
        )
    )
    assert detection.codes == frozenset({"credential", "personal_data"})
    assert detection.spans("credential") == [(0, 3), (7, 9)]
