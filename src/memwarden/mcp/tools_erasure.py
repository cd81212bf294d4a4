"""The reviewer tools `erase` and `erasure` (issue 25): the same use cases as
POST/GET /erasures, in the calling key's own Context, with grant:manage over what the
target names (the use case checks it)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from memwarden.answers import wire
from memwarden.erasure import service
from memwarden.erasure.contract import MAX_RECORD_IDS, ErasureBody
from memwarden.mcp.auth import Runtime

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ERASE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

RecordIds = Annotated[list[uuid.UUID] | None, Field(max_length=MAX_RECORD_IDS)]


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=ERASE)
    async def erase(
        ctx: Context,
        record_ids: RecordIds = None,
        subject: str | None = None,
        speaker: str | None = None,
        scope_prefix: str | None = None,
        session_id: uuid.UUID | None = None,
        document_id: uuid.UUID | None = None,
    ) -> dict[str, Any]:
        """Erase exactly one target for good (record ids, a principal subject, an end-user
        speaker, a scope prefix, a session or a document): its content goes everywhere and
        only content-free tombstones stay; nothing undoes it. Needs grant:manage over the
        target. Returns erasureId; poll `erasure` for status and counts."""
        svc, who, context_id = await rt.begin_own(ctx)
        body = ErasureBody(
            recordIds=record_ids,
            subject=subject,
            speaker=speaker,
            scopePrefix=scope_prefix,
            sessionId=session_id,
            documentId=document_id,
        )
        return wire(await service.request_erasure(svc, who, context_id, body))

    @server.tool(annotations=READ)
    async def erasure(erasure_id: uuid.UUID, ctx: Context) -> dict[str, Any]:
        """An erasure's status (queued, running, done, failed) and its counts per kind."""
        svc, who, context_id = await rt.begin_own(ctx)
        return wire(await service.get_erasure(svc, who, context_id, erasure_id))
