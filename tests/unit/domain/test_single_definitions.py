"""Verdicts, reason codes and visibility are spelled once, in domain/, and imported."""

from __future__ import annotations

import re
from pathlib import Path

import memwarden
from memwarden.detectors import REASON_CODES as DETECTOR_REASON_CODES
from memwarden.detectors import VERDICTS as DETECTOR_VERDICTS
from memwarden.domain.verdicts import REASON_CODES, REVIEWER_VERDICTS, VERDICTS
from memwarden.judge.policy import SEVERITY
from memwarden.models import contracts

SRC = Path(memwarden.__file__).parent
HOMES = {SRC / "domain" / "verdicts.py", SRC / "domain" / "scope.py"}
# A set written out again: visibility, the verdicts from pass to fail, the reason codes' list.
RESPELLED = re.compile(
    r'Literal\[\s*"shared",\s*"private"\s*\]'
    r'|[(\[]\s*"pass",\s*"warn",\s*"fail"'
    r'|[(\[]\s*"payment_card",\s*"credential",\s*"personal_data",\s*"sensitive_inference"'
)


def test_no_module_outside_domain_spells_out_verdicts_reasons_or_visibility() -> None:
    offenders = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        if path not in HOMES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if RESPELLED.search(line)
    ]
    assert not offenders, f"import these from memwarden.domain instead: {offenders}"


def test_every_user_of_verdicts_and_reasons_sees_the_domain_definition() -> None:
    assert VERDICTS == ("pass", "warn", "fail", "deny")
    assert VERDICTS[:3] == REVIEWER_VERDICTS
    assert SEVERITY == DETECTOR_VERDICTS == contracts.VERDICTS == VERDICTS
    assert DETECTOR_REASON_CODES == contracts.REASON_CODES == REASON_CODES
