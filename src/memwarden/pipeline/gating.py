"""Between extraction and reconciliation: rows for the row gate and the holds they produce.

Row ids are assigned here (`e0`, `a0`, `r0`, `x0`, `i0`, `u0`, `c0`) so the judge's verdicts
map back onto diff items; a row the gate drops never reaches reconciliation.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memwarden.config import ContextConfig
from memwarden.domain.reconcile_rules import Incoming
from memwarden.gatekeeper import PendingJudgement, RowInput, RowVerdicts
from memwarden.pipeline.extraction import ExtractionDiff

# diff list -> (item kind, row-id prefix, row kind for the judge, fields naming entities).
# Every field that can name an entity is listed, so a dropped entity takes along each row
# that mentions it anywhere (an action's object, an uncertainty's subject).
_LISTS = (
    ("entities", "entity", "e", "entity", ("name",)),
    ("attributes", "attribute", "a", "attribute", ("entity",)),
    ("relations", "relation", "r", "relation", ("subject", "object")),
    ("actions", "action", "x", "action", ("actor", "object")),
    ("instructions", "instruction", "i", "instruction", ()),
    ("uncertainties", "uncertainty", "u", "uncertainty", ("about",)),
    ("corrections", "correction", "c", "attribute", ("entity",)),
)


def diff_rows(diff: ExtractionDiff) -> tuple[list[Incoming], list[RowInput]]:
    """The diff's items, each with a row id, and the same rows as the judge sees them."""
    data = diff.model_dump(by_alias=True, exclude={"chunk_only"})
    items: list[Incoming] = []
    rows: list[RowInput] = []
    for name, kind, prefix, row_kind, name_fields in _LISTS:
        for n, entry in enumerate(data.get(name, [])):
            row_id = f"{prefix}{n}"
            clean = {k: v for k, v in entry.items() if v is not None or k == "oldValue"}
            items.append(Incoming(row_id, kind, clean))
            names = tuple(str(entry[f]) for f in name_fields if entry.get(f))
            rows.append(RowInput(row_id, row_kind, clean, names))  # type: ignore[arg-type]
    return items, rows


def apply_verdicts(items: Sequence[Incoming], verdicts: RowVerdicts) -> list[Incoming]:
    """Keep what the gate keeps; mark held rows."""
    return [
        Incoming(i.row_id, i.kind, i.data, i.row_id in verdicts.held)
        for i in items
        if i.row_id in verdicts.keep and i.row_id not in verdicts.dropped
    ]


def hold_ids(
    pending: Sequence[PendingJudgement], ids: Sequence[uuid.UUID]
) -> tuple[uuid.UUID | None, dict[str, uuid.UUID]]:
    """The input hold's judgement id and, per held row, the entry that holds it."""
    write_hold = None
    rows: dict[str, uuid.UUID] = {}
    for entry, jid in zip(pending, ids, strict=False):
        if not entry.held:
            continue
        if entry.gate == "input":
            write_hold = jid
        for row_id in entry.row_ids:
            rows.setdefault(row_id, jid)
    return write_hold, rows


def retain_payload(text: str, body: dict[str, Any], config: ContextConfig) -> dict[str, Any] | None:
    return {**body, "text": text} if config.judge.retain_inputs else None
