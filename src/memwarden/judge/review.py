"""Reading the review log. Entries carry excerpts, so every read needs grant:manage."""

from __future__ import annotations

import uuid
from typing import Any, get_args

from memwarden.admin.access import require_judgements
from memwarden.domain.grants import Caller
from memwarden.domain.verdicts import REVIEWER_VERDICTS
from memwarden.errors import InvalidInput, NotFound
from memwarden.gatekeeper import Source
from memwarden.judge.responses import (
    Judgement,
    JudgementList,
    JudgementOverride,
    JudgementScope,
)
from memwarden.services import Services
from memwarden.store import judgements as store

RECORDED_VERDICTS = REVIEWER_VERDICTS
GATES = ("input", "row")
SOURCES: tuple[str, ...] = get_args(Source)
MAX_PAGE = 100


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _str(value: Any) -> str | None:
    return str(value) if value is not None else None


def render(row: store.Judgement) -> Judgement:
    """An entry as the API shows it: the judge's verdict and a reviewer's, side by side."""
    override = None
    if row.override_verdict:
        override = JudgementOverride(
            verdict=row.override_verdict, by=row.override_subject, at=_iso(row.overridden_at)
        )
    return Judgement(
        id=str(row.id),
        gate=row.gate,
        verdict=row.verdict,
        reasons=list(row.reasons),
        effective_verdict=row.override_verdict or row.verdict,
        override=override,
        source=row.source,
        scope=JudgementScope(path=row.scope_path, visibility=row.visibility),
        excerpt=row.excerpt,
        row_count=row.row_count,
        held=row.held,
        hold_decision=row.hold_decision,
        hold_decided_at=_iso(row.hold_decided_at),
        retained=row.retained,
        replay=row.replay_state,
        turn_id=_str(row.turn_id),
        document_id=_str(row.document_id),
        principal_id=_str(row.principal_id),
        key_id=_str(row.key_id),
        created_at=_iso(row.created_at),
    )


def _cursor(value: str | None) -> uuid.UUID | None:
    if not value:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidInput("cursor is not a valid page cursor", field="cursor") from None


async def list_entries(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    verdict: str | None = None,
    stage: str | None = None,
    held: bool | None = None,
    source: str | None = None,
    limit: int = 20,
    cursor: str | None = None,
) -> JudgementList:
    """Newest first; `next_cursor` is null on the last page. Every filter is applied by
    the query, so a page is full while matching entries remain."""
    require_judgements(caller, context_id)
    if verdict is not None and verdict not in RECORDED_VERDICTS:
        raise InvalidInput(
            "verdict must be pass, warn or fail (a deny is never recorded)", field="verdict"
        )
    if stage is not None and stage not in GATES:
        raise InvalidInput("stage must be input or row", field="stage")
    if source is not None and source not in SOURCES:
        raise InvalidInput(f"source must be one of {', '.join(SOURCES)}", field="source")
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    before = _cursor(cursor)
    async with services.db.connection() as conn:
        rows = await store.list_judgements(
            conn,
            context_id,
            verdict=verdict,
            gate=stage,
            held=held,
            source=source,
            before=before,
            limit=limit + 1,
        )
    more = len(rows) > limit
    page = rows[:limit]
    return JudgementList(
        judgements=[render(r) for r in page], next_cursor=str(page[-1].id) if more else None
    )


async def get_entry(
    services: Services, caller: Caller, context_id: uuid.UUID, judgement_id: uuid.UUID
) -> Judgement:
    require_judgements(caller, context_id)
    async with services.db.connection() as conn:
        row = await store.get_judgement(conn, context_id, judgement_id)
    if row is None:
        raise NotFound("judgement not found")
    return render(row)
