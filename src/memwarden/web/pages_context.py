"""A Context's overview, documents, audit log, settings and keys."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.datastructures import UploadFile

from memwarden.admin import audit, contexts, keys, settings_service, usage
from memwarden.admin.contract import CreateKey
from memwarden.admin.overview import context_overview
from memwarden.config import ADDENDUM_MAX_CHARS, ADDENDUM_STAGES
from memwarden.documents import service as documents
from memwarden.domain.grants import CAPABILITIES, Caller
from memwarden.errors import AppError, InvalidInput
from memwarden.hygiene import queue
from memwarden.judge import review
from memwarden.web import charts
from memwarden.web.base import (
    PageRoute,
    checked_form,
    parse_uuid,
    redirect,
    render,
    services,
    signed_in,
    text_field,
    validated,
)
from memwarden.web.session import Session

router = APIRouter(prefix="/ui/c/{context_id}", route_class=PageRoute, include_in_schema=False)
Who = tuple[Caller, Session]
DAYS = 30
MODEL_STAGES = ("judge", "extraction", "chat")
JUDGE_FIELDS = ("enabled", "input", "rows", "record_pass", "retain_inputs")


async def _optional(call: Any) -> Any:
    """A panel the caller's grants may not allow: shown as refused, not as an error page."""
    try:
        return await call
    except AppError as exc:
        return {"refused": exc.message}


@router.get("")
async def overview(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    caller, _ = who
    svc = services(request)
    ctx = await contexts.get_context(svc.db, caller, context_id)
    held = await _optional(review.list_entries(svc, caller, context_id, held=True, limit=100))
    spent = await _optional(usage.usage_breakdown(svc.db, caller, context_id, days=DAYS))
    config = await _optional(settings_service.get_config(svc.db, caller, context_id))
    docs = await _optional(documents.list_documents(svc, caller, context_id, 100, None))
    glance = await _optional(context_overview(svc.db, caller, context_id, days=DAYS))
    pending = await _optional(
        queue.list_queue(svc, caller, context_id, status="pending", limit=queue.MAX_PAGE)
    )
    recall_chart = verdict_chart = None
    if "refused" not in glance:
        recall_chart = charts.recall_per_day(glance["recall"], DAYS)
        verdict_chart = charts.verdicts_per_day(glance["verdicts"], DAYS)
    states = sorted({s for kinds in glance.get("memories", {}).values() for s in kinds})
    budget = None
    if "refused" not in config:
        budget = config.get("token_budget", {}).get("limit")
    token_chart = None if "refused" in spent else charts.tokens_per_stage(spent["stages"], budget)
    return render(
        request,
        "overview.html",
        context_id=context_id,
        ctx=ctx,
        verdict_chart=verdict_chart,
        held=held,
        spent=spent,
        budget=budget,
        token_chart=token_chart,
        docs=docs,
        glance=glance,
        pending=pending,
        states=states,
        recall_chart=recall_chart,
    )


@router.get("/documents")
async def document_list(
    request: Request,
    context_id: uuid.UUID,
    cursor: str | None = None,
    who: Who = Depends(signed_in),
) -> Response:
    page = await documents.list_documents(
        services(request), who[0], context_id, 25, parse_uuid(cursor)
    )
    return render(request, "documents.html", context_id=context_id, page=page)


@router.post("/documents")
async def document_upload(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    form = await checked_form(request)
    upload = form.get("file")
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise InvalidInput("choose a file to upload", field="file")
    visibility = text_field(form, "visibility") or "shared"
    if visibility not in ("shared", "private"):
        raise InvalidInput("visibility is shared or private", field="visibility")
    await documents.upload(
        services(request),
        who[0],
        context_id,
        filename=upload.filename,
        declared_type=upload.content_type,
        data=await upload.read(),
        scope=text_field(form, "scope") or None,
        visibility=visibility,  # type: ignore[arg-type]
    )
    return redirect(f"/ui/c/{context_id}/documents")


@router.post("/documents/{document_id}/delete")
async def document_delete(
    request: Request, context_id: uuid.UUID, document_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    await checked_form(request)
    await documents.delete(services(request), who[0], context_id, document_id)
    return redirect(f"/ui/c/{context_id}/documents")


@router.get("/audit")
async def audit_log(
    request: Request,
    context_id: uuid.UUID,
    action: str | None = None,
    cursor: str | None = None,
    who: Who = Depends(signed_in),
) -> Response:
    page = await audit.list_audit(
        services(request).db, who[0], context_id, cursor=cursor, limit=50, action=action or None
    )
    events = page["events"]
    return render(
        request, "audit.html", context_id=context_id, events=events, page=page, action=action
    )


async def _settings_page(
    request: Request,
    context_id: uuid.UUID,
    caller: Caller,
    new_key: dict[str, Any] | None = None,
    saved: bool = False,
) -> Response:
    db = services(request).db
    config = await settings_service.get_config(db, caller, context_id)
    key_page = await keys.list_keys(db, caller, context_id)
    return render(
        request,
        "settings.html",
        context_id=context_id,
        config=config,
        keys=key_page["keys"],
        new_key=new_key,
        saved=saved,
        stages=ADDENDUM_STAGES,
        model_stages=MODEL_STAGES,
        judge_fields=JUDGE_FIELDS,
        max_chars=ADDENDUM_MAX_CHARS,
        capabilities=CAPABILITIES,
    )


@router.get("/settings")
async def settings_form(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    return await _settings_page(request, context_id, who[0])


def settings_patch(form: Any) -> dict[str, Any]:
    """The configuration patch a settings form asks for (unchecked boxes are false; an
    empty addendum clears it; an empty model keeps the deployment default)."""
    judge: dict[str, Any] = {f: form.get(f"judge.{f}") == "on" for f in JUDGE_FIELDS}
    judge["on_warn"] = form.get("judge.on_warn") or "write"
    judge["on_error"] = form.get("judge.on_error") or "fail"
    days = form.get("judge.retention_days") or "30"
    judge["retention_days"] = int(days) if str(days).isdigit() else days
    addendums = {s: form.get(f"prompt_addendums.{s}") or "" for s in ADDENDUM_STAGES}
    models: dict[str, Any] = {}
    for stage in MODEL_STAGES:
        value = str(form.get(f"models.{stage}") or "").strip()
        provider, _, model = value.partition(":")
        models[stage] = {"provider": provider, "model": model} if value else None
    limit = str(form.get("token_budget.limit") or "").strip()
    budget = {
        "limit": (int(limit) if limit.isdigit() else limit) if limit else None,
        "period": form.get("token_budget.period") or "month",
    }
    return {
        "judge": judge,
        "prompt_addendums": addendums,
        "models": models,
        "token_budget": budget,
    }


@router.post("/settings")
async def settings_save(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    form = await checked_form(request)
    await settings_service.patch_config(
        services(request).db, who[0], context_id, settings_patch(form)
    )
    return await _settings_page(request, context_id, who[0], saved=True)


@router.post("/keys")
async def key_issue(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    form = await checked_form(request)
    body = validated(
        CreateKey,
        {
            "subject": (text_field(form, "subject") or "").strip(),
            "grants": [g for g in form.getlist("grants") if isinstance(g, str)],
            "scope": text_field(form, "scope") or None,
        },
    )
    issued = await keys.create_key(
        services(request).db,
        who[0],
        context_id,
        subject=body.subject,
        grants=body.grants,
        scope=body.scope,
        expires_at=body.expires_at,
    )
    return await _settings_page(request, context_id, who[0], new_key=issued)


@router.post("/keys/{key_id}/revoke")
async def key_revoke(
    request: Request, context_id: uuid.UUID, key_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    await checked_form(request)
    await keys.revoke_key(services(request).db, who[0], context_id, key_id)
    return redirect(f"/ui/c/{context_id}/settings")
