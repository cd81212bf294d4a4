"""A Context's overview, documents, audit log, settings and keys."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel
from starlette.datastructures import UploadFile

from memwarden.admin import audit, contexts, keys, settings_service, usage
from memwarden.admin.contract import CreateKey
from memwarden.admin.overview import context_overview
from memwarden.admin.responses import IssuedKey
from memwarden.answers import wire
from memwarden.config import ADDENDUM_MAX_CHARS, ADDENDUM_STAGES
from memwarden.documents import service as documents
from memwarden.domain.grants import CAPABILITIES
from memwarden.errors import AppError, InvalidInput
from memwarden.hygiene import queue
from memwarden.judge import review
from memwarden.web import charts
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
DAYS = 30
MODEL_STAGES = ("judge", "extraction", "chat")
JUDGE_FIELDS = ("enabled", "input", "rows", "record_pass", "retain_inputs")


async def _optional(call: Any) -> Any:
    """A panel the caller's grants may not allow: shown as refused, not as an error page.
    An answer is shown as its JSON (`answers.wire`), as the charts read it."""
    try:
        answer = await call
        return wire(answer) if isinstance(answer, BaseModel) else answer
    except AppError as exc:
        return {"refused": exc.message}


@router.get("")
async def overview(view: View) -> Response:
    svc, caller, context_id = view.services, view.caller, view.context_id
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
    return view.render(
        "overview.html",
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
async def document_list(view: View, cursor: str | None = None) -> Response:
    page = await documents.list_documents(
        view.services, view.caller, view.context_id, 25, parse_uuid(cursor)
    )
    return view.render("documents.html", page=page)


@router.post("/documents")
async def document_upload(view: View) -> Response:
    form = await checked_form(view.request)
    upload = form.get("file")
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise InvalidInput("choose a file to upload", field="file")
    visibility = text_field(form, "visibility") or "shared"
    if visibility not in ("shared", "private"):
        raise InvalidInput("visibility is shared or private", field="visibility")
    await documents.upload(
        view.services,
        view.caller,
        view.context_id,
        filename=upload.filename,
        declared_type=upload.content_type,
        data=await upload.read(),
        scope=text_field(form, "scope") or None,
        visibility=visibility,  # type: ignore[arg-type]
    )
    return view.redirect("/documents")


@router.post("/documents/{document_id}/delete")
async def document_delete(view: View, document_id: uuid.UUID) -> Response:
    await checked_form(view.request)
    await documents.delete(view.services, view.caller, view.context_id, document_id)
    return view.redirect("/documents")


@router.get("/audit")
async def audit_log(view: View, action: str | None = None, cursor: str | None = None) -> Response:
    page = await audit.list_audit(
        view.services.db,
        view.caller,
        view.context_id,
        cursor=cursor,
        limit=50,
        action=action or None,
    )
    return view.render("audit.html", events=page.events, page=page, action=action)


async def _settings_page(
    view: ContextView, new_key: IssuedKey | None = None, saved: bool = False
) -> Response:
    db, caller, context_id = view.services.db, view.caller, view.context_id
    config = wire(await settings_service.get_config(db, caller, context_id))
    key_page = await keys.list_keys(db, caller, context_id)
    return view.render(
        "settings.html",
        config=config,
        keys=key_page.keys,
        new_key=new_key,
        saved=saved,
        stages=ADDENDUM_STAGES,
        model_stages=MODEL_STAGES,
        judge_fields=JUDGE_FIELDS,
        max_chars=ADDENDUM_MAX_CHARS,
        capabilities=CAPABILITIES,
    )


@router.get("/settings")
async def settings_form(view: View) -> Response:
    return await _settings_page(view)


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
async def settings_save(view: View) -> Response:
    form = await checked_form(view.request)
    await settings_service.patch_config(
        view.services.db, view.caller, view.context_id, settings_patch(form)
    )
    return await _settings_page(view, saved=True)


@router.post("/keys")
async def key_issue(view: View) -> Response:
    form = await checked_form(view.request)
    body = validated(
        CreateKey,
        {
            "subject": (text_field(form, "subject") or "").strip(),
            "grants": [g for g in form.getlist("grants") if isinstance(g, str)],
            "scope": text_field(form, "scope") or None,
        },
    )
    issued = await keys.create_key(
        view.services.db,
        view.caller,
        view.context_id,
        subject=body.subject,
        grants=body.grants,
        scope=body.scope,
        expires_at=body.expires_at,
    )
    return await _settings_page(view, new_key=issued)


@router.post("/keys/{key_id}/revoke")
async def key_revoke(view: View, key_id: uuid.UUID) -> Response:
    await checked_form(view.request)
    await keys.revoke_key(view.services.db, view.caller, view.context_id, key_id)
    return view.redirect("/settings")
