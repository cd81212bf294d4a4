"""The hygiene page: the review queue (pending, resolved, dismissed) with each pair side by
side, its decisions (keep both / keep a / keep b, restore an automatic resolution,
challenge a memory) and the scan action with its run. Only hygiene's use cases, with
their grants; every POST carries the CSRF token."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.responses import Response

from memwarden.errors import AppError, Conflict, Forbidden, InvalidInput
from memwarden.hygiene import queue, runs
from memwarden.hygiene.contract import ChallengeBody, QueueStatus, ResolveBody, ScanBody
from memwarden.hygiene.responses import QueuePage
from memwarden.web.base import (
    ContextView,
    View,
    checked_form,
    context_router,
    parse_uuid,
    text_field,
    validated,
)

router = context_router()
STATUSES: tuple[QueueStatus, ...] = ("pending", "resolved", "dismissed")
PAGE = 20
RUNNING = ("queued", "running")


async def _queue_page(
    view: ContextView,
    *,
    status: str = "pending",
    cursor: str | None = None,
    outcome: str | None = None,
    problem: AppError | None = None,
    http_status: int = 200,
) -> Response:
    if status not in STATUSES:
        raise InvalidInput("status must be pending, resolved or dismissed", field="status")
    page: QueuePage | dict[str, Any]
    try:
        page = await queue.list_queue(
            view.services,
            view.caller,
            view.context_id,
            status=status,  # type: ignore[arg-type]
            limit=PAGE,
            cursor=cursor,
        )
    except Forbidden as exc:  # a writer may still challenge a memory
        page = {"refused": exc.message, "items": [], "next_cursor": None}
    return view.render(
        "hygiene.html",
        status=http_status,
        page=page,
        queue_status=status,
        statuses=STATUSES,
        outcome=outcome,
        problem=problem,
    )


@router.get("/hygiene")
async def hygiene(view: View, status: str = "pending", cursor: str | None = None) -> Response:
    return await _queue_page(view, status=status, cursor=cursor)


async def _conflict_shown(view: ContextView, exc: Conflict, status: str) -> Response:
    """A 409 on the queue page itself, in words, with the queue as it now is."""
    return await _queue_page(view, status=status, problem=exc, http_status=exc.status)


@router.post("/hygiene/queue/{item_id}/resolve")
async def resolve(view: View, item_id: uuid.UUID) -> Response:
    form = await checked_form(view.request)
    body = validated(ResolveBody, {"resolution": text_field(form, "resolution") or ""})
    try:
        await queue.resolve(view.services, view.caller, view.context_id, item_id, body.resolution)
    except Conflict as exc:
        return await _conflict_shown(view, exc, "pending")
    words = {"keep_both": "both kept", "keep_a": "A kept", "keep_b": "B kept"}
    return await _queue_page(view, outcome=f"Item resolved: {words[body.resolution]}.")


@router.post("/hygiene/memories/{record_id}/restore")
async def restore(view: View, record_id: uuid.UUID) -> Response:
    await checked_form(view.request)
    try:
        done = await queue.restore(view.services, view.caller, view.context_id, record_id)
    except Conflict as exc:
        return await _conflict_shown(view, exc, "resolved")
    return await _queue_page(
        view,
        status="resolved",
        outcome=f"Memory {record_id} restored: live again at revision {done.revision}.",
    )


@router.post("/hygiene/challenge")
async def challenge(view: View) -> Response:
    form = await checked_form(view.request)
    record_id = parse_uuid((text_field(form, "record_id") or "").strip())
    if record_id is None:
        raise InvalidInput("give the memory's id", field="record_id")
    body = validated(ChallengeBody, {"reason": text_field(form, "reason") or ""})
    done = await queue.challenge(
        view.services, view.caller, view.context_id, record_id, body.reason
    )
    words = "Challenge queued" if done.created else "Already awaiting a person's look"
    return await _queue_page(view, outcome=f"{words}: memory {record_id}.")


@router.post("/hygiene/scan")
async def scan(view: View) -> Response:
    form = await checked_form(view.request)
    body = validated(ScanBody, {"rejudge": form.get("rejudge") == "on"})
    try:
        started = await runs.start_scan(
            view.services, view.caller, view.context_id, rejudge=body.rejudge
        )
    except Conflict as exc:
        active = exc.extra.get("runId") if exc.extra else None
        if active:
            return view.redirect(f"/hygiene/runs/{active}?busy=1")
        return await _conflict_shown(view, exc, "pending")
    return view.redirect(f"/hygiene/runs/{started.runId}")


@router.get("/hygiene/runs/{run_id}")
async def run_page(view: View, run_id: uuid.UUID, busy: int = 0) -> Response:
    run = await runs.get_run(view.services, view.caller, view.context_id, run_id)
    return view.render(
        "hygiene_run.html",
        run=run,
        refresh=run.status in RUNNING,
        busy=bool(busy),
    )
