"""The use cases as the service tier's tests call them: the same functions the HTTP routes,
MCP tools and CLI call, with results rendered as JSON as every interface renders them.

Input objects are built here, once, so a change to a use case's input type is one edit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from memwarden.chat import reflect as reflections
from memwarden.chat import service as chats
from memwarden.chat.reflect import ReflectInput
from memwarden.chat.service import ChatInput
from memwarden.errors import AppError
from memwarden.judge import dry_run as dry_runs
from memwarden.judge import holds
from memwarden.judge.override import override
from memwarden.judge.review import get_entry, list_entries
from memwarden.pipeline.batch import write_batch
from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.profile import get_profile
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.state import get_state
from tests.support.services import ContextKey, ServiceHarness, as_json


def facts(
    h: ServiceHarness,
    ctx: ContextKey,
    text: str,
    *,
    infer: str = "full",
    scope: list[str] | None = None,
    visibility: str = "shared",
    session_id: Any = None,
    supersedes: Any = (),
) -> dict[str, Any]:
    """POST /facts's use case: one turn written; returns what the route would answer."""
    item = FactsInput(text, infer, scope, visibility, session_id, tuple(supersedes))  # type: ignore[arg-type]
    return as_json(h.run(write_facts(h.services, ctx.caller, ctx.id, item)))


def query(
    h: ServiceHarness,
    ctx: ContextKey,
    text: str,
    *,
    limit: int = 10,
    scope: list[str] | None = None,
    categories: list[str] | None = None,
    kinds: list[str] | None = None,
    include_superseded: bool = False,
    mode: str = "hybrid",
) -> list[dict[str, Any]]:
    """/query's use case: the hits."""
    req = QueryInput(text, limit, scope, categories, kinds, include_superseded, mode)  # type: ignore[arg-type]
    return as_json(h.run(run_query(h.services, ctx.caller, ctx.id, req)))["hits"]


def profile(
    h: ServiceHarness, ctx: ContextKey, entity: str, *, history: bool = False
) -> dict[str, Any]:
    return as_json(h.run(get_profile(h.services, ctx.caller, ctx.id, entity, history)))


def state(h: ServiceHarness, ctx: ContextKey) -> dict[str, Any]:
    return as_json(h.run(get_state(h.services, ctx.caller, ctx.id)))


@contextmanager
def refused(
    status: int, code: str | None = None, field: str | None = None
) -> Iterator[pytest.ExceptionInfo[AppError]]:
    """The use case refuses with the error every interface renders as `status` (and
    `code`, `field` when given); yields the raised error for further checks."""
    with pytest.raises(AppError) as raised:
        yield raised
    err = raised.value
    assert err.status == status, f"{type(err).__name__} ({err.status}): {err.message}"
    if code is not None:
        assert err.code == code, err.message
    if field is not None:
        assert err.field == field, err.message


def judgements(h: ServiceHarness, who: ContextKey, **filters: Any) -> list[dict[str, Any]]:
    """GET /judgements's use case (newest first): the entries of one page."""
    page = h.run(list_entries(h.services, who.caller, who.id, **filters))
    return as_json(page)["judgements"]


def judgement(h: ServiceHarness, who: ContextKey, judgement_id: str) -> dict[str, Any]:
    return as_json(h.run(get_entry(h.services, who.caller, who.id, uuid.UUID(judgement_id))))


def override_judgement(
    h: ServiceHarness, who: ContextKey, judgement_id: str, verdict: str, *, replay: bool = False
) -> dict[str, Any]:
    jid = uuid.UUID(judgement_id)
    call = override(h.services, who.caller, who.id, jid, verdict=verdict, replay=replay)
    return as_json(h.run(call))


def decide_hold(
    h: ServiceHarness, who: ContextKey, judgement_id: str, *, approve: bool
) -> dict[str, Any]:
    """POST .../approve (approve=True) or .../reject's use case."""
    jid = uuid.UUID(judgement_id)
    return as_json(h.run(holds.decide(h.services, who.caller, who.id, jid, approve=approve)))


def dry_run(h: ServiceHarness, who: ContextKey, addendum: str, **options: Any) -> dict[str, Any]:
    """POST /judgements/dry-run's use case (options: verdict, judgement_ids, limit,
    compare_current)."""
    call = dry_runs.dry_run(h.services, who.caller, who.id, addendum=addendum, **options)
    return as_json(h.run(call))


def facts_batch(
    h: ServiceHarness, ctx: ContextKey, items: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """POST /facts/batch's use case: each item's result or error, in order."""
    inputs = [
        FactsInput(
            i["text"],
            i.get("infer", "full"),
            i.get("scope"),
            i.get("visibility", "shared"),
            uuid.UUID(i["session_id"]) if i.get("session_id") else None,
        )
        for i in items
    ]
    return as_json(h.run(write_batch(h.services, ctx.caller, ctx.id, inputs)))["extractions"]


def reflect(h: ServiceHarness, ctx: ContextKey, scope: list[str] | None = None) -> dict[str, Any]:
    """POST /reflect's use case."""
    return as_json(h.run(reflections.reflect(h.services, ctx.caller, ctx.id, ReflectInput(scope))))


def chat(
    h: ServiceHarness,
    ctx: ContextKey,
    message: str,
    *,
    remember: bool = True,
    visibility: str = "shared",
) -> dict[str, Any]:
    """POST /chat's use case: the answer."""
    item = ChatInput(message, visibility=visibility, remember=remember)  # type: ignore[arg-type]
    return as_json(h.run(chats.chat(h.services, ctx.caller, ctx.id, item)))
