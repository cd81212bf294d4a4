"""POST /reflect: the chat model reads recent memories and proposes insights, which pass the
row gate (source "reflection") and reconciliation like any other extraction.

Every record a reflection writes has `source_kind = "reflection"`, the reflection's id as
`source_ref`, and `derived_from` = the memories the model was shown, so the serving gate
retires an insight when a memory it was drawn from is rejected or deleted. Insights drawn
from any private memory are written private (to the caller), never shared.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from memwarden import budget
from memwarden.admin.settings_service import read_config
from memwarden.chat import prompting
from memwarden.chat.responses import ReflectExtraction, ReflectResponse
from memwarden.chat.service import chat_model
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.reconcile_draft import DIFF_KEYS
from memwarden.domain.scope import Scope, ScopeError, from_paths
from memwarden.domain.speaker import speaker_for
from memwarden.errors import Forbidden, InvalidInput, Unavailable, UpstreamError
from memwarden.gatekeeper import GateRequest
from memwarden.models.base import ModelOutputError, ModelTransportError
from memwarden.models.contracts import ExtractionOutput
from memwarden.pipeline import commit, reconcile
from memwarden.pipeline.extraction import ExtractionDiff, sanitise
from memwarden.retrieval.reader import reader_for
from memwarden.services import Services
from memwarden.store import chat as store
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

STAGE = "chat"  # the spec books reflection under the chat stage and applies its addendum
MAX_TOKENS = 2048


@dataclass(frozen=True)
class ReflectInput:
    scope: Sequence[str] | None = None
    limit: int = 50


def _write_scope(caller: Caller, item: ReflectInput) -> Scope:
    """Needs memory_read (checked by the reader) and memory_write covering the scope."""
    if caller.principal_id is None:
        raise Forbidden("writes need a Context key", code="context_key_required")
    try:
        scope = from_paths(list(item.scope) if item.scope else None)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    if not caller.can("memory_write", scope.path):
        raise Forbidden("needs memory_write covering the write scope", code="missing_grant")
    return scope


async def reflect(
    services: Services, caller: Caller, context_id: uuid.UUID, item: ReflectInput
) -> ReflectResponse:
    who = reader_for(caller, context_id, item.scope)
    scope = _write_scope(caller, item)
    async with services.db.connection() as conn:
        config = await read_config(conn, context_id)
        provider = chat_model(services, config)
        if provider is None:
            raise Unavailable(
                "reflection needs a chat model and this deployment has none"
                " (set MEMWARDEN_MODEL_CHAT, or the Context's models.chat)",
                code="reflection_model_unavailable",
            )
        await budget.check_budget(conn, context_id, config.token_budget)
        rows = await store.recent_memories(conn, who, item.limit)
    picked = prompting.bounded(rows, prompting.REFLECT_MEMORY_CHARS, lambda r: (r.kind, r.body))
    if not picked:
        return ReflectResponse(reflectionId=None, extraction=_empty(), sources=0, parsed=True)
    private = any(r.visibility == "private" for r, _ in picked)
    written = Scope(scope.path, "private" if private else "shared")
    where = WriteScope(context_id, written.path, written.visibility, caller.subject)
    sink = Bookings()
    system = prompting.reflect_system(config.prompt_addendums.chat)
    user = prompting.reflect_user([line for _, line in picked])
    parsed = True
    try:
        result = await provider.complete_json(
            STAGE, system, user, ExtractionOutput, MAX_TOKENS, usage_sink=sink
        )
        diff = sanitise(ExtractionOutput.model_validate(result.data))
    except ModelTransportError as exc:
        raise UpstreamError("the chat model could not be reached") from exc
    except ModelOutputError:
        diff, parsed = ExtractionDiff(), False  # tokens were spent: booked below, nothing else
    request = GateRequest(context_id, caller, config, "reflection", written, "")
    items, verdicts = await commit.gate_rows(services, request, diff)
    reflection_id = new_id()
    meta = reconcile.WriteMeta(
        reflection_id,
        caller.subject,
        source_kind="reflection",
        derived_from=tuple(r.id for r, _ in picked),
        speaker=speaker_for(written.path, None, caller.subject),
    )
    write = commit.Write(
        request=request,
        where=where,
        items=items,
        verdicts=verdicts,
        meta=meta,
        sink=sink,
        action="reflection.write",
        target_kind="reflection",
    )
    plan = (await commit.run(services, write)).plan
    return ReflectResponse(
        reflectionId=str(reflection_id),
        extraction=ReflectExtraction.model_validate(
            {"reflectionId": str(reflection_id), **plan.diff}
        ),
        sources=len(picked),
        parsed=parsed,
    )


def _empty() -> ReflectExtraction:
    return ReflectExtraction(reflectionId=None, **{key: [] for key in DIFF_KEYS})
