"""The chat use case: remember the message (or only judge it), recall, then answer.

Order, and why:

1. Read access first, so a key that cannot read never writes a turn through /chat.
2. `remember`: the message is a turn written by the facts use case with source "chat", so
   the input gate, extraction, row gate and reconciliation each run exactly once and a
   chat warning is flagged, never held. Otherwise the input gate runs alone and nothing
   but its review-log entry is stored. Either way the message is judged before it is
   embedded for recall or sent to the chat model.
3. The cache (never with a chat addendum), else recall through `run_query`, whose serving
   gate keeps held, rejected, deleted and expired memories out of the prompt.
4. The answer: the chat model, or without one a deterministic list of the top memories.

The turn is committed in step 2. A model failure in step 4 is a 502 and the turn stays.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memwarden import budget
from memwarden.admin.settings_service import read_config
from memwarden.chat import prompting
from memwarden.chat.cache import CachedAnswer, CacheKey, cache_for, normalise_question
from memwarden.chat.responses import ChatResponse, CitedMemory
from memwarden.config import ContextConfig
from memwarden.detectors.redaction import redact
from memwarden.domain.grants import Caller
from memwarden.domain.scope import ScopeError, Visibility, from_paths
from memwarden.errors import InvalidInput, Unavailable, UpstreamError
from memwarden.gatekeeper import GateRequest
from memwarden.models.base import ChatProvider, ModelOutputError, ModelSpec, ModelTransportError
from memwarden.models.deadline import request_deadline
from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.pipeline.textcheck import check_text
from memwarden.retrieval import traffic
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.reader import reader_for
from memwarden.retrieval.responses import MemoryHit
from memwarden.services import Services
from memwarden.store import chat as store
from memwarden.store.recall import Reader
from memwarden.usage import Bookings

STAGE = "chat"
MAX_TOKENS = 1024
NO_MODEL = "none"
# Reconciled memory only: transcript chunks are not in the change feed, so a cache keyed on
# the feed could not see them change, and a remembered message would recall itself.
CHAT_KINDS = ("attribute", "relation", "action", "instruction", "uncertainty", "note")


def chat_model(services: Services, config: ContextConfig) -> ChatProvider | None:
    """The Context's chat model when its configuration names one, else the deployment's
    (None: no chat model at all). Both talk to the deployment's OpenAI-compatible endpoint."""
    choice = config.models.chat
    if choice is None:
        return services.models.chat
    try:
        return services.models.chat_provider(ModelSpec(choice.provider, choice.model), STAGE)
    except ValueError as exc:
        raise Unavailable(
            f"the Context's chat model uses an unknown provider {choice.provider!r}",
            code="chat_model_unavailable",
        ) from exc


def model_label(config: ContextConfig) -> str:
    """Which model a cached answer came from, part of its cache key."""
    choice = config.models.chat
    return f"{choice.provider}:{choice.model}" if choice else ""


@dataclass(frozen=True)
class ChatInput:
    message: str
    session_id: uuid.UUID | None = None
    scope: Sequence[str] | None = None
    visibility: Visibility = "shared"
    remember: bool = True
    limit: int = 8


@dataclass
class ChatTurn:
    """Everything decided before the answer is made."""

    context_id: uuid.UUID
    config: ContextConfig
    text: str  # the message as the models see it (redacted when the Context redacts)
    session_id: str | None
    turn_id: str | None
    # The remembered turn's extraction was chunk-only: no window's reply could be used, so
    # the message is stored as chunks only (and can be reprocessed).
    chunk_only: bool = False
    memories: list[dict[str, Any]] = field(default_factory=list)
    key: CacheKey | None = None
    cached: CachedAnswer | None = None

    def body(self, answer: str, model: str, cached: bool) -> ChatResponse:
        return ChatResponse(
            answer=answer,
            sessionId=self.session_id,
            turnId=self.turn_id,
            chunkOnly=self.chunk_only,
            memories=[CitedMemory.model_validate(m) for m in self.memories],
            cached=cached,
            model=model,
        )


async def begin(
    services: Services, caller: Caller, context_id: uuid.UUID, item: ChatInput
) -> ChatTurn:
    """Steps 1-3: every refusal (403, 422, 429) happens here, before any answer starts."""
    who = reader_for(caller, context_id, item.scope)
    check_text(item.message)
    session_id, turn_id = (str(item.session_id) if item.session_id else None), None
    chunk_only = False
    if item.remember:
        facts = FactsInput(item.message, "full", item.scope, item.visibility, item.session_id)
        written = await write_facts(services, caller, context_id, facts, source="chat")
        session_id, turn_id = written.sessionId, written.turnId
        chunk_only = written.extraction.chunkOnly
    async with services.db.connection() as conn:
        config = await read_config(conn, context_id)
    text = redact(item.message).text if config.pii_redaction_enabled else item.message
    if not item.remember:
        await _gate_only(services, caller, context_id, item, config, text)
    turn = ChatTurn(context_id, config, text, session_id, turn_id, chunk_only)
    await _lookup(services, who, turn, item.limit)
    if turn.cached is None:
        query = QueryInput(text, item.limit, item.scope, kinds=CHAT_KINDS)
        hits = (await run_query(services, caller, context_id, query)).hits
        turn.memories = [_cited(h) for h in hits]
    return turn


def _cited(hit: MemoryHit) -> dict[str, Any]:
    """A recall hit as chat cites it; one from a document carries the document's gist."""
    out = {"id": hit.id, "kind": hit.kind, "text": hit.text, "score": hit.score}
    gist = getattr(hit.source, "gist", None)  # an extra field of a document's citation
    if gist:
        out["gist"] = gist
    return out


async def _gate_only(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    item: ChatInput,
    config: ContextConfig,
    text: str,
) -> None:
    """The input gate without a write: a refusal raises; a pass or warn is logged only."""
    try:
        scope = from_paths(list(item.scope) if item.scope else None, item.visibility)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    request = GateRequest(context_id, caller, config, "chat", scope, text)
    verdict = await services.gatekeeper.input_gate(request)
    if verdict.pending is not None:
        async with services.db.transaction() as conn:
            await services.gatekeeper.record(conn, request, [verdict.pending])


async def _lookup(services: Services, who: Reader, turn: ChatTurn, limit: int) -> None:
    """A cached answer whose memories are all still servable to this reader, or none.

    The version is read before recall, so a change that lands during this request keys the
    new entry under the old version, which no later request asks for.
    """
    if turn.config.prompt_addendums.chat:
        return
    async with services.db.connection() as conn:
        version = await store.memory_version(conn, turn.context_id)
        turn.key = CacheKey(
            turn.context_id,
            model_label(turn.config),
            who.subject,
            who.prefixes,
            normalise_question(turn.text),
            limit,
            version,
        )
        found = cache_for(services).get(turn.key)
        if found is None:
            return
        ids = [uuid.UUID(m["id"]) for m in found.memories]
        if await store.servable_ids(conn, who, ids) != set(ids):
            return  # something expired or was hidden without a feed entry
        await traffic.count(conn, turn.context_id, ids)
    turn.cached = found
    turn.memories = [dict(m) for m in found.memories]


def remember_answer(services: Services, turn: ChatTurn, answer: str, model: str) -> None:
    if turn.key is not None:
        value = CachedAnswer(answer, model, tuple(dict(m) for m in turn.memories))
        cache_for(services).put(turn.key, value)


def prompts(turn: ChatTurn) -> tuple[str, str]:
    """(system, user): the addendum only in the system message, memories framed as data."""
    return (
        prompting.chat_system(turn.config.prompt_addendums.chat),
        prompting.chat_user(turn.memories, turn.text),
    )


async def check_budget(services: Services, turn: ChatTurn) -> None:
    async with services.db.connection() as conn:
        await budget.check_budget(conn, turn.context_id, turn.config.token_budget)


async def book(services: Services, context_id: uuid.UUID, sink: Bookings) -> None:
    if sink.entries:
        async with services.db.transaction() as conn:
            await sink.write(conn, context_id)


async def answer(services: Services, turn: ChatTurn) -> ChatResponse:
    """Step 4 for a whole reply."""
    if turn.cached is not None:
        return turn.body(turn.cached.answer, turn.cached.model, cached=True)
    provider = chat_model(services, turn.config)
    if provider is None:
        return turn.body(prompting.fallback_answer(turn.memories), NO_MODEL, cached=False)
    await check_budget(services, turn)
    system, user = prompts(turn)
    sink = Bookings()
    try:
        result = await provider.complete_text(STAGE, system, user, MAX_TOKENS, usage_sink=sink)
    except ModelTransportError as exc:
        raise UpstreamError("the chat model could not be reached") from exc
    except ModelOutputError as exc:
        await book(services, turn.context_id, sink)
        raise UpstreamError("the chat model returned no usable answer") from exc
    await book(services, turn.context_id, sink)
    remember_answer(services, turn, result.text, result.model)
    return turn.body(result.text, result.model, cached=False)


async def chat(
    services: Services, caller: Caller, context_id: uuid.UUID, item: ChatInput
) -> ChatResponse:
    """POST /chat and the MCP `chat` tool; its write and its answer share one deadline."""
    with request_deadline(services.settings.request_deadline_s):
        return await answer(services, await begin(services, caller, context_id, item))
