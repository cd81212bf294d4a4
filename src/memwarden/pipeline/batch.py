"""/facts/batch: each item judged, extracted and reconciled on its own, in its own
transaction; one item's failure does not undo another's write."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memwarden.domain.grants import Caller
from memwarden.errors import AppError, InvalidInput
from memwarden.models.deadline import request_deadline
from memwarden.pipeline.ingest import FactsInput, authorise, write_facts
from memwarden.pipeline.responses import BatchItemError, BatchResponse, FactsResponse, ItemError
from memwarden.pipeline.session import Session
from memwarden.services import Services

MAX_BATCH = 50


async def write_batch(
    services: Services, caller: Caller, context_id: uuid.UUID, items: Sequence[FactsInput]
) -> BatchResponse:
    """Each item on its own (own gates, own transaction); one item's error does not undo
    another's write. Items without a sessionId share the session the first of them opens."""
    if not 1 <= len(items) <= MAX_BATCH:
        raise InvalidInput(f"a batch holds 1 to {MAX_BATCH} items", field="items")
    for n, item in enumerate(items):
        try:
            authorise(caller, context_id, item)
        except InvalidInput as exc:
            raise InvalidInput(exc.message, field=f"items.{n}.{exc.field or 'text'}") from None
    with request_deadline(services.settings.request_deadline_s):  # one for the whole batch
        return BatchResponse(extractions=await _write_each(services, caller, context_id, items))


async def _write_each(
    services: Services, caller: Caller, context_id: uuid.UUID, items: Sequence[FactsInput]
) -> list[FactsResponse | BatchItemError]:
    shared: Session | None = None
    out: list[FactsResponse | BatchItemError] = []
    for item in items:
        try:
            result = await write_facts(
                services,
                caller,
                context_id,
                item,
                source="facts_batch",
                session=shared if item.session_id is None else None,
            )
        except AppError as exc:
            error = {"code": exc.code, "message": exc.message, **exc.extra}
            out.append(BatchItemError(error=ItemError.model_validate(error)))
            continue
        if item.session_id is None and shared is None:
            shared = Session(uuid.UUID(result.sessionId), new=False)
        out.append(result)
    return out
