"""From an extraction to the row gate and back: which rows a dropped entity takes along."""

from __future__ import annotations

from memwarden.judge.rows import decide_rows
from memwarden.pipeline.extraction import ExtractionDiff
from memwarden.pipeline.gating import apply_verdicts, diff_rows


def _diff() -> ExtractionDiff:
    return ExtractionDiff.model_validate(
        {
            "entities": [
                {"name": "Mallory", "entityType": "person"},
                {"name": "Bob", "entityType": "person"},
            ],
            "attributes": [{"entity": "Bob", "key": "city", "value": "Oslo"}],
            "relations": [{"subject": "Bob", "label": "knows", "object": "Mallory"}],
            "actions": [
                {"actor": "Bob", "label": "paid", "object": "mallory"},
                {"actor": "Bob", "label": "visited", "object": "Oslo"},
            ],
            "instructions": [{"label": "tone", "description": "be brief"}],
            "uncertainties": [
                {"about": "Mallory", "reason": "unclear who this is"},
                {"about": "Bob's city", "reason": "moved recently"},
            ],
        }
    )


def test_a_dropped_entity_takes_every_row_that_names_it_in_any_field() -> None:
    items, rows = diff_rows(_diff())
    mallory = next(r.id for r in rows if r.data.get("name") == "Mallory")
    verdicts = {r.id: ("pass", ()) for r in rows}
    verdicts[mallory] = ("fail", ("personal_data",))
    out = decide_rows(rows, verdicts, {r.id: "" for r in rows}, hold=False, record_pass=False)
    kept = apply_verdicts(items, out)
    survivors = {(i.kind, str(i.data.get("label") or i.data.get("about") or "")) for i in kept}
    assert not any("Mallory" in str(i.data.values()) for i in kept)
    assert not any("mallory" in str(i.data.values()) for i in kept)  # names compare case-blind
    assert ("action", "visited") in survivors and ("uncertainty", "Bob's city") in survivors
    assert ("instruction", "tone") in survivors
