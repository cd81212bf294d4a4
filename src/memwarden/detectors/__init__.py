"""Deterministic detectors for the ingest judge: pure functions, no I/O."""

from memwarden.detectors.findings import REASON_CODES, Detection, Finding
from memwarden.detectors.injection import INJECTION_THRESHOLD, InjectionResult, scan_injection
from memwarden.detectors.redaction import RedactionResult, redact
from memwarden.detectors.scan import VERDICTS, scan, verdict_for

__all__ = [
    "INJECTION_THRESHOLD",
    "REASON_CODES",
    "VERDICTS",
    "Detection",
    "Finding",
    "InjectionResult",
    "RedactionResult",
    "redact",
    "scan",
    "scan_injection",
    "verdict_for",
]
