"""Document routes: multipart upload (processed on a worker), status, list, reprocess,
delete."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, File, Form, Query, UploadFile

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.documents import service
from memwarden.documents.reprocess import reprocess_document
from memwarden.documents.responses import DocumentDeleted, DocumentList, DocumentResponse
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Visibility
from memwarden.pipeline.responses import ReprocessResponse
from memwarden.services import Services

router = APIRouter(
    prefix="/api/v1/{context_id}/documents", tags=["documents"], route_class=AnswerRoute
)


@router.post("", status_code=202)
async def upload(
    context_id: uuid.UUID,
    file: UploadFile = File(...),
    scope: str | None = Form(None, max_length=512),
    visibility: Visibility = Form("shared"),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DocumentResponse:
    data = await file.read()
    return await service.upload(
        svc,
        who,
        context_id,
        filename=file.filename or "upload",
        declared_type=file.content_type,
        data=data,
        scope=scope,
        visibility=visibility,
    )


@router.get("")
async def list_documents(
    context_id: uuid.UUID,
    limit: int = Query(20, ge=1, le=100),
    cursor: uuid.UUID | None = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DocumentList:
    return await service.list_documents(svc, who, context_id, limit, cursor)


@router.get("/{document_id}")
async def get_document(
    context_id: uuid.UUID,
    document_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DocumentResponse:
    return await service.get(svc, who, context_id, document_id)


@router.post("/{document_id}/reprocess")
async def reprocess(
    context_id: uuid.UUID,
    document_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ReprocessResponse:
    return await reprocess_document(svc, who, context_id, document_id)


@router.delete("/{document_id}")
async def delete_document(
    context_id: uuid.UUID,
    document_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DocumentDeleted:
    return await service.delete(svc, who, context_id, document_id)
