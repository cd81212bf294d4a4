"""The row gate's decision (pure): which rows are written, held, flagged or dropped.

A fail or deny row is dropped with every row that names a dropped entity, so a refused
entity never survives through its attributes. Under `on_warn=hold` (facts sources only)
warned attributes, relations and actions are held; a warned entity cannot be held and is
written and flagged. A warned instruction or uncertainty cannot be held either: in a write
the input gate holds, writing it live would bypass that hold, so it is not stored; in a
write that is not held it is written and flagged like any warned row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from memwarden.gatekeeper import PendingJudgement, RowInput, RowVerdicts
from memwarden.judge.policy import HOLDABLE_ROW_KINDS, UNSTORABLE_WHEN_HELD
from memwarden.judge.text import EXCERPT_CHARS

Signal = tuple[str, tuple[str, ...]]
_SPACE = re.compile(r"\s+")


def entity_key(name: object) -> str:
    return _SPACE.sub(" ", str(name)).strip().casefold()


def _own_names(row: RowInput) -> tuple[str, ...]:
    """The entity an entity row defines: its name, else the names it lists."""
    name = row.data.get("name")
    names = (name,) if isinstance(name, str) and name.strip() else row.entity_names
    return tuple(entity_key(n) for n in names)


def decide_rows(
    rows: Sequence[RowInput],
    verdicts: Mapping[str, Signal],
    excerpts: Mapping[str, str],
    *,
    hold: bool,
    record_pass: bool,
    write_held: bool = False,
) -> RowVerdicts:
    """Apply verdicts to rows; `pending` lists the review-log entries (never a deny).
    `write_held`: the input gate holds the whole write."""
    refused = {r.id for r in rows if verdicts[r.id][0] in ("fail", "deny")}
    # dropped entity name -> the refused entity row that dropped it
    dropped_names: dict[str, str] = {}
    for row in rows:
        if row.id in refused and row.kind == "entity":
            for key in _own_names(row):
                dropped_names.setdefault(key, row.id)
    cascaded: dict[str, list[str]] = {}
    for row in rows:
        if row.id in refused:
            continue
        cause = next(
            (dropped_names[k] for n in row.entity_names if (k := entity_key(n)) in dropped_names),
            None,
        )
        if cause is not None:
            cascaded.setdefault(cause, []).append(row.id)
    dropped = set(refused) | {rid for ids in cascaded.values() for rid in ids}

    warned: dict[str, tuple[str, ...]] = {}
    held: set[str] = set()
    pending: list[PendingJudgement] = []
    for row in rows:
        verdict, reasons = verdicts[row.id]
        if row.id in dropped and verdict != "fail":
            continue
        if verdict == "fail":
            ids = (row.id, *cascaded.get(row.id, ()))
            pending.append(_entry("fail", reasons, excerpts[row.id], ids))
        elif verdict == "warn":
            is_held = hold and row.kind in HOLDABLE_ROW_KINDS
            if write_held and row.kind in UNSTORABLE_WHEN_HELD:
                dropped.add(row.id)
            else:
                warned[row.id] = reasons
                if is_held:
                    held.add(row.id)
            pending.append(_entry("warn", reasons, excerpts[row.id], (row.id,), held=is_held))
    passed = [r.id for r in rows if r.id not in dropped and verdicts[r.id][0] == "pass"]
    if record_pass and passed:
        text = "\n".join(excerpts[rid] for rid in passed)[:EXCERPT_CHARS]
        pending.append(_entry("pass", (), text, tuple(passed)))
    keep = frozenset(r.id for r in rows if r.id not in dropped)
    return RowVerdicts(
        keep=keep,
        dropped=frozenset(dropped),
        warned=warned,
        held=frozenset(held),
        pending=tuple(pending),
    )


def _entry(
    verdict: str, reasons: tuple[str, ...], excerpt: str, ids: tuple[str, ...], held: bool = False
) -> PendingJudgement:
    return PendingJudgement(
        gate="row",
        verdict=verdict,  # type: ignore[arg-type]
        reasons=reasons,
        excerpt=excerpt[:EXCERPT_CHARS],
        row_count=len(ids),
        held=held,
        row_ids=ids,
    )
