"""A record's history over HTTP: its revisions, their causes, validity and replacements."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, Query

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.review import timeline
from memwarden.review.responses import RecordHistory
from memwarden.services import Services

router = APIRouter(prefix="/api/v1/{context_id}/memories", tags=["memory"], route_class=AnswerRoute)


@router.get("/{record_id}/history")
async def record_history(
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    cursor: str | None = Query(None, max_length=10, description="next_cursor of the last page"),
    limit: int = Query(timeline.DEFAULT_PAGE, ge=1, le=timeline.MAX_PAGE),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> RecordHistory:
    """Every revision of a record, newest first, content-free: why it was made, who made
    it, the validity it left and the record that replaced it. Needs memory_read covering
    the record (404 for a record the key may not read, as the record reads answer)."""
    return await timeline.record_history(
        svc.db, who, context_id, record_id, cursor=cursor, limit=limit
    )
