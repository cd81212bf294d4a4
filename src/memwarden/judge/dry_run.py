"""Judging recorded excerpts again under a candidate addendum: stores and changes nothing.

Only its model calls are booked (they were spent). Without a judge model the detectors
alone decide, and they ignore addendums, so every verdict stays as it was; the response
says so rather than pretending the addendum was tested.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any, Final

from memwarden import budget
from memwarden.admin.access import require_judgements
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig, check_addendum
from memwarden.domain.grants import Caller
from memwarden.domain.verdicts import REVIEWER_VERDICTS
from memwarden.errors import InvalidInput
from memwarden.judge import usage
from memwarden.judge.assess import Assessment, assess
from memwarden.judge.model import JudgeError, choose_model
from memwarden.judge.responses import DryRunEntry, DryRunResult
from memwarden.judge.text import guarded
from memwarden.services import Services
from memwarden.store import judgements as store

MAX_ENTRIES: Final = 50
DEFAULT_ENTRIES: Final = 20
DEFAULT_VERDICTS: Final = ("warn", "fail")
NO_MODEL_NOTE: Final = (
    "no judge model is configured: the deterministic detectors alone judged these entries, "
    "and they do not read addendums, so no verdict can change"
)


async def dry_run(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    addendum: str,
    verdict: str | None = None,
    judgement_ids: list[uuid.UUID] | None = None,
    limit: int = DEFAULT_ENTRIES,
    compare_current: bool = False,
) -> DryRunResult:
    require_judgements(caller, context_id)
    _validate(addendum, verdict, judgement_ids, limit)
    async with services.db.connection() as conn:
        config = await read_config(conn, context_id)
        rows = await _entries(conn, context_id, verdict, judgement_ids, limit)
    entries: list[dict[str, Any]] = []
    matrix: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    tested = changed = 0
    model_used: str | None = None
    for row in rows:
        if not isinstance(row, store.Judgement):
            entries.append({"id": str(row), "skipped": "not_found"})
            continue
        if row.gate != "input":
            entries.append(_skipped(row))
            continue
        candidate = await _judge(services, context_id, config, row, addendum)
        current = None
        if compare_current:
            saved = config.prompt_addendums.judge
            current = await _judge(services, context_id, config, row, saved)
        model_used = model_used or candidate.model
        tested += 1
        moved = candidate.verdict if not candidate.error else "error"
        if moved != row.verdict:
            changed += 1
        matrix[row.verdict][moved] += 1
        entries.append(_entry(row, candidate, current))
    result = DryRunResult(
        entries=[DryRunEntry.model_validate(e) for e in entries],
        tested=tested,
        skipped=len(entries) - tested,
        changed=changed,
        matrix={k: dict(v) for k, v in matrix.items()},
        model=model_used,
    )
    if tested and not model_used:
        result.note = NO_MODEL_NOTE
    return result


def _validate(addendum: str, verdict: str | None, ids: list[uuid.UUID] | None, limit: int) -> None:
    try:
        check_addendum(addendum)
    except ValueError as exc:
        raise InvalidInput(f"addendum: {exc}", field="addendum") from None
    if verdict is not None and verdict not in REVIEWER_VERDICTS:
        raise InvalidInput("verdict must be pass, warn or fail", field="verdict")
    if not 1 <= limit <= MAX_ENTRIES:
        raise InvalidInput(f"limit must be between 1 and {MAX_ENTRIES}", field="limit")
    if ids is not None and not 1 <= len(ids) <= MAX_ENTRIES:
        raise InvalidInput(f"judgementIds takes 1 to {MAX_ENTRIES} ids", field="judgementIds")


async def _entries(
    conn: Any,
    context_id: uuid.UUID,
    verdict: str | None,
    ids: list[uuid.UUID] | None,
    limit: int,
) -> list[store.Judgement | uuid.UUID]:
    """The given ids in the given order (an unknown one stays its bare id), or the newest
    input-gate entries with the row-gate entries among them."""
    if ids:
        found = {r.id: r for r in await store.judgements_by_ids(conn, context_id, ids)}
        unique = list(dict.fromkeys(ids))
        return [found.get(i) or i for i in unique]
    verdicts = [verdict] if verdict else list(DEFAULT_VERDICTS)
    # `limit` counts the input-gate entries tested; the row-gate entries among them are
    # listed as skipped without taking a place.
    newest = await store.judgements_for_dry_run(conn, context_id, verdicts, limit, MAX_ENTRIES)
    return list(newest)


async def _judge(
    services: Services,
    context_id: uuid.UUID,
    config: ContextConfig,
    row: store.Judgement,
    addendum: str | None,
) -> Assessment:
    """One entry's excerpt judged as the gate would, under `addendum`."""
    text = guarded(row.excerpt, config)
    try:
        choice = choose_model(services.models, config, row.source)
    except JudgeError:
        return Assessment("pass", (), "", error=True)
    if choice.provider is not None:
        async with services.db.connection() as conn:
            await budget.check_budget(conn, context_id, config.token_budget)
    result = await assess(text, config, choice, addendum or None)
    await usage.flush(services.db, context_id, result.sink)
    return result


def _verdict(result: Assessment | None) -> dict[str, Any] | None:
    if result is None:
        return None
    if result.error:
        return {"verdict": None, "reasons": [], "error": "judge_unavailable"}
    return {"verdict": result.verdict, "reasons": list(result.reasons)}


def _entry(
    row: store.Judgement, candidate: Assessment, current: Assessment | None
) -> dict[str, Any]:
    moved = candidate.verdict if not candidate.error else None
    return {
        "id": str(row.id),
        "gate": "input",
        "source": row.source,
        "original": {"verdict": row.verdict, "reasons": list(row.reasons)},
        "override": row.override_verdict,
        "candidate": _verdict(candidate),
        "current": _verdict(current),
        "changed": moved != row.verdict,
    }


def _skipped(row: store.Judgement) -> dict[str, Any]:
    return {
        "id": str(row.id),
        "gate": row.gate,
        "source": row.source,
        "original": {"verdict": row.verdict, "reasons": list(row.reasons)},
        "skipped": "row_gate",
    }
