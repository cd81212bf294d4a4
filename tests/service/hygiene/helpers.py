"""Hygiene use cases as the service tier's tests call them."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.embedding import embed_texts
from memwarden.hygiene import queue, runs
from memwarden.usage import Bookings
from tests.service.review.memory import Who, attach, create
from tests.support.services import ContextKey, ServiceHarness, as_json

STRONG = "openai:strong-judge"
CHEAP = "openai:cheap-judge"


def note(h: ServiceHarness, ctx: ContextKey, text: str) -> str:
    """An authoritative memory (a memory-contract command by an application), with the
    vector an application attaches to its revision (the local embedder's)."""
    who = Who.of(h, ctx)
    rid, rev = create(who, text)
    [vector] = h.run(embed_texts(h.services, [text], Bookings()))
    attach(who, rid, rev, list(vector))
    return rid


def scan(h: ServiceHarness, ctx: ContextKey, *, rejudge: bool = False) -> dict[str, Any]:
    """POST hygiene/scan, then the job it deferred, run here; the run as GET shows it."""
    started = h.run(runs.start_scan(h.services, ctx.caller, ctx.id, rejudge=rejudge))
    run_id = uuid.UUID(started.runId)
    h.run(runs.run_job(h.services, ctx.id, run_id))
    return as_json(h.run(runs.get_run(h.services, ctx.caller, ctx.id, run_id)))


def items(h: ServiceHarness, ctx: ContextKey, status: str | None = "pending") -> list[dict]:
    page = h.run(queue.list_queue(h.services, ctx.caller, ctx.id, status=status, limit=100))  # type: ignore[arg-type]
    return as_json(page)["items"]


def resolve(h: ServiceHarness, ctx: ContextKey, item_id: str, resolution: str) -> dict:
    done = queue.resolve(h.services, ctx.caller, ctx.id, uuid.UUID(item_id), resolution)  # type: ignore[arg-type]
    return as_json(h.run(done))


def restore(h: ServiceHarness, ctx: ContextKey, record_id: str) -> dict:
    return as_json(h.run(queue.restore(h.services, ctx.caller, ctx.id, uuid.UUID(record_id))))


def challenge(h: ServiceHarness, ctx: ContextKey, record_id: str, reason: str) -> dict:
    done = queue.challenge(h.services, ctx.caller, ctx.id, uuid.UUID(record_id), reason)
    return as_json(h.run(done))
