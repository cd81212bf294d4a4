"""The erase action: a record (from its page) or a subject (the Erase page), after a typed
confirmation, through the erasure use case (`erasure.service`, as POST /erasures), then the
job's page with its counts until it ends. Nothing here decides who may erase: the use case
checks grant:manage over what the target names."""

from __future__ import annotations

import uuid

from fastapi.responses import Response

from memwarden.erasure import service
from memwarden.erasure.contract import ErasureBody
from memwarden.errors import InvalidInput
from memwarden.web.base import (
    ContextView,
    View,
    checked_form,
    context_router,
    text_field,
    validated,
)

router = context_router()
RUNNING = ("queued", "running")
KINDS = ("records", "subject")


def _form(
    view: ContextView, kind: str, target: str, problem: str | None = None, status: int = 200
) -> Response:
    return view.render(
        "erase.html", status=status, target_kind=kind, target=target, problem=problem
    )


@router.get("/erase")
async def erase_form(view: View, record_id: uuid.UUID | None = None) -> Response:
    """The subject form, or a record's when `record_id` is given."""
    if record_id is not None:
        return _form(view, "records", str(record_id))
    return _form(view, "subject", "")


@router.post("/erasures")
async def erase(view: View) -> Response:
    """Erases only when the confirmation repeats the target exactly; otherwise the form
    again, 400, nothing asked of the use case."""
    form = await checked_form(view.request)
    kind = text_field(form, "target_kind") or ""
    if kind not in KINDS:
        raise InvalidInput("target_kind is records or subject", field="target_kind")
    field = "record_id" if kind == "records" else "subject"
    target = (text_field(form, field) or "").strip()
    confirm = (text_field(form, "confirm") or "").strip()
    if not target:
        return _form(view, kind, target, f"give the {field.replace('_', ' ')}", 400)
    if confirm != target:
        words = "the record id" if kind == "records" else "the subject"
        problem = f"Nothing erased: the confirmation must repeat {words} exactly."
        return _form(view, kind, target, problem, 400)
    given = {"recordIds": [target]} if kind == "records" else {"subject": target}
    body = validated(ErasureBody, given)
    started = await service.request_erasure(view.services, view.caller, view.context_id, body)
    return view.redirect(f"/erasures/{started.erasureId}")


@router.get("/erasures/{erasure_id}")
async def erasure_page(view: View, erasure_id: uuid.UUID) -> Response:
    erasure = await service.get_erasure(view.services, view.caller, view.context_id, erasure_id)
    return view.render("erasure.html", erasure=erasure, refresh=erasure.status in RUNNING)
