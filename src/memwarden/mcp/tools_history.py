"""The `history` tool (issue 25): a record's revisions, why each was made, who made it, the
validity it left and the record that replaced it; the use case of
GET /{context}/memories/{record_id}/history, in the calling key's own Context."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from memwarden.answers import wire
from memwarden.mcp.auth import Runtime
from memwarden.review import timeline

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Limit = Annotated[int, Field(ge=1, le=timeline.MAX_PAGE)]
Cursor = Annotated[str | None, Field(max_length=10)]


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=READ)
    async def history(
        record_id: uuid.UUID,
        ctx: Context,
        limit: Limit = timeline.DEFAULT_PAGE,
        cursor: Cursor = None,
    ) -> dict[str, Any]:
        """A memory record's history, newest revision first and without content: each
        revision's op, cause (write, correction, declared_supersede, hygiene_resolution,
        consolidation, review_decision, restore, delete, erasure), author, validity and
        replaced_by. Works for superseded, deleted and erased records; needs memory_read
        covering the record. Pass next_cursor as cursor for older revisions."""
        svc, who, context_id = await rt.begin_own(ctx)
        answer = await timeline.record_history(
            svc.db, who, context_id, record_id, cursor=cursor, limit=limit
        )
        return wire(answer)
