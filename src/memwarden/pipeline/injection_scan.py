"""The ingest-time injection scanner over stored chunk text.

It runs on every write, judge or not. A chunk scoring at or above the detector's
threshold is flagged; cues below it are kept as a finding too. Either way the write
gets one uncertainty record (the write's own scope and visibility) naming the cue
families and score, never the text, so reviewers and agents can see that stored text
may carry instructions.
"""

from __future__ import annotations

from collections.abc import Sequence

from memwarden.detectors.injection import INJECTION_THRESHOLD, scan_injection
from memwarden.domain.reconcile_rules import Incoming

ABOUT = "possible prompt injection in stored text"
ROW_ID = "s0"  # gating assigns e0/a0/…/u0; this prefix is the scanner's own


def scan_items(chunks: Sequence[str]) -> list[Incoming]:
    """At most one uncertainty item for the worst chunk; none when no cue fired."""
    results = [scan_injection(chunk) for chunk in chunks]
    worst = max(results, key=lambda r: r.score, default=None)
    if worst is None or worst.score <= 0.0:
        return []
    level = "flagged" if worst.score >= INJECTION_THRESHOLD else "below the flag threshold"
    cues = ", ".join(sorted(set(worst.cues)))
    reason = f"injection scanner {level} (score {worst.score:.2f}; cues: {cues})"
    return [Incoming(ROW_ID, "uncertainty", {"about": ABOUT, "reason": reason})]
